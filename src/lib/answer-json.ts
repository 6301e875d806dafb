import { isKeptView, keptViewJson } from './kept-views.js';

/**
 * An answer body as JSON text: `JSON.stringify`, except that the kept views (src/lib/kept-views.ts)
 * in the body's arrays — a list answer's elements — are written from their kept text. Only the top
 * level and its arrays are walked; everything else is `JSON.stringify`'s own work, with its rules
 * (undefined and functions left out of objects, null in arrays, `toJSON`).
 */
export function answerJson(body: unknown): string {
  if (Array.isArray(body)) return arrayJson(body);
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype || 'toJSON' in body)
    return JSON.stringify(body);
  if (!Object.values(body).some((value) => Array.isArray(value) && value.some(isKeptView))) return JSON.stringify(body);
  let json = '{';
  for (const [key, value] of Object.entries(body)) {
    const text = Array.isArray(value) ? arrayJson(value) : (JSON.stringify(value) as string | undefined);
    if (text === undefined) continue;
    json += `${json.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`;
  }
  return `${json}}`;
}

function arrayJson(values: unknown[]): string {
  if (!values.some(isKeptView)) return JSON.stringify(values);
  let json = '[';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const text = isKeptView(value) ? keptViewJson(value) : ((JSON.stringify(value) as string | undefined) ?? 'null');
    json += i > 0 ? `,${text}` : text;
  }
  return `${json}]`;
}
