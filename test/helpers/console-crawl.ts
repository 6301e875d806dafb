import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * The console crawler both hosts' tests use (test/plugin/console/console-browser.test.ts on the
 * reference host, test/vendure/console.test.ts on Vendure): every console link and GET form from the
 * start page on, one page of each kind, through whatever HTTP client the host's test logs in with.
 */
export const CONSOLE = '/b2b-admin';
/** A guard against a crawl that never ends (paging links multiplying). */
const MAX_PAGES = 300;

export interface CrawledPage {
  status: number;
  html: string;
  type: string;
}

/** A logged-in operator's GET without following redirects: status, body, content type and Location. */
export type ConsoleGet = (path: string) => Promise<CrawledPage & { location?: string }>;

const unescape = (value: string) =>
  value
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'");

/** Every console link and GET form target of a page. */
export function targetsOf(html: string): string[] {
  const targets = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((match) => match[1]!);
  for (const form of html.matchAll(/<form\s([^>]*)>/g)) {
    const method = /method="([^"]*)"/.exec(form[1]!)?.[1]?.toLowerCase() ?? 'get';
    const action = /action="([^"]*)"/.exec(form[1]!)?.[1];
    if (method === 'get' && action) targets.push(action);
  }
  return targets.map(unescape).filter((target) => target.startsWith(CONSOLE));
}

/** The POST forms of a page: their action and hidden fields (what a click on the button sends without typing). */
export function postFormsOf(html: string): Array<{ action: string; fields: Record<string, string> }> {
  return [...html.matchAll(/<form\s([^>]*)>([\s\S]*?)<\/form>/g)].flatMap((form) => {
    if (!/method="post"/i.test(form[1]!)) return [];
    const action = unescape(/action="([^"]*)"/.exec(form[1]!)?.[1] ?? '');
    const fields = Object.fromEntries(
      [...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((field) => [
        field[1]!,
        unescape(field[2]!),
      ]),
    );
    return [{ action, fields }];
  });
}

/** A page's kind for axe: ids and mail template names are parameters (one axe run per kind). */
export const patternOf = (path: string) =>
  path
    .replace(/\?.*$/, '')
    .replace(/[0-9a-f]{32}/g, ':id')
    .replace(/\/mail-templates\/[^/]+$/, '/mail-templates/:name');

/**
 * Crawls the console from its start page: one page of each kind (the path with ids as :id, and which
 * query parameters it has), so the crawl stays bounded on a test database holding every suite's data.
 */
export async function crawlConsole(get: ConsoleGet) {
  const visited = new Map<string, CrawledPage>();
  const referrers = new Map<string, string>();
  const queue = [CONSOLE];
  const kinds = new Set<string>();
  const kindOf = (path: string) =>
    `${patternOf(path)}?${[...new URLSearchParams(path.split('?')[1] ?? '').keys()].sort().join('&')}`;
  while (queue.length && visited.size < MAX_PAGES) {
    const path = queue.shift()!;
    if (visited.has(path) || kinds.has(kindOf(path))) continue;
    kinds.add(kindOf(path));
    const res = await get(path);
    visited.set(path, { status: res.status, html: res.html, type: res.type });
    const next = res.status >= 300 && res.status < 400 ? [String(res.location)] : targetsOf(res.html);
    for (const target of next)
      if (!visited.has(target)) {
        if (!referrers.has(target)) referrers.set(target, path);
        queue.push(target);
      }
  }
  expect(visited.size, 'the crawl ended before its guard').to.be.below(MAX_PAGES);
  const failures = [...visited]
    .filter(([, { status }]) => status >= 400)
    .map(([path, { status }]) => `${status} ${path} (linked from ${referrers.get(path)})`);
  /** The changing POST forms the crawled pages show (all but log out and the import's preview). */
  const forms = new Map<string, Record<string, string>>();
  for (const { html } of visited.values()) for (const form of postFormsOf(html)) forms.set(form.action, form.fields);
  const changes = [...forms].filter(([action]) => !action.endsWith('/logout') && !action.endsWith('/preview'));
  /** One HTML page per kind, for axe (downloads such as the price export are no pages). */
  const pages = new Map<string, string>();
  for (const [path, { status, type }] of visited)
    if (status === 200 && type === 'text/html' && !pages.has(patternOf(path))) pages.set(patternOf(path), path);
  return { visited, referrers, failures, changes, pages };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.1 A/AA and best practice). */
export async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate<string[]>(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    .then((result) => result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')))`);
  return found.map((finding) => `${page.url()}: ${finding}`);
}
