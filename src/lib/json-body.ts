import express, { type Request, type RequestHandler } from 'express';

/** A JSON media type (application/json, application/*+json) with no parameter but an optional UTF-8 charset. */
const PLAIN_JSON_TYPE = /^application\/(?:json|[!#$&^_.+\w-]+\+json)\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** An error the error middleware renders by its `type`, as it renders body-parser's (src/lib/api-router.ts). */
function bodyError(type: string, status: number, message: string): Error {
  return Object.assign(new Error(message), { type, status, expose: true });
}

/** The request as body-parser's strict JSON parser answers it: an empty body is `{}`, anything but an object or array refused. */
function parseStrictJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) return {};
  const first = body.trimStart()[0];
  if (first !== '{' && first !== '[')
    throw bodyError('entity.parse.failed', 400, 'The request body is not a JSON object or array.');
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw bodyError('entity.parse.failed', 400, 'The request body is not valid JSON.');
  }
}

/**
 * `express.json({ limit, type: JSON types })` for the APIs, with the request every client sends read
 * here: a JSON type with no parameter but a UTF-8 charset, no content encoding, a Content-Length
 * within the limit. body-parser's generality (charset decoders, inflation, type and charset
 * parsing) was a twentieth of a light route's CPU. Every other request (chunked, compressed, another
 * charset, over the limit) goes to express.json as before, so each answers what it answered.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const general = express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] });
  return (req, res, next) => {
    const { headers } = req;
    const type = headers['content-type'];
    const length = headers['content-length'];
    const encoding = headers['content-encoding'];
    if (
      type === undefined ||
      length === undefined ||
      headers['transfer-encoding'] !== undefined ||
      (encoding !== undefined && encoding.toLowerCase() !== 'identity') ||
      !PLAIN_JSON_TYPE.test(type)
    )
      return general(req, res, next);
    const declared = Number(length);
    if (!Number.isSafeInteger(declared) || declared < 0 || declared > limitBytes || req.body !== undefined)
      return general(req, res, next);
    readBody(req, declared, (error, text) => {
      if (error) return next(error);
      try {
        req.body = parseStrictJson(text);
      } catch (parseError) {
        return next(parseError);
      }
      next();
    });
  };
}

function readBody(req: Request, declared: number, done: (error: Error | null, text: string) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: Error | null, text = '') => {
    if (finished) return;
    finished = true;
    req
      .removeListener('data', onData)
      .removeListener('end', onEnd)
      .removeListener('error', onError)
      .removeListener('aborted', onAborted);
    done(error, text);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (received !== declared)
      return finish(bodyError('request.size.invalid', 400, 'The request size did not match its Content-Length.'));
    finish(null, chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, received).toString('utf8'));
  };
  const onError = (error: Error) => finish(error);
  const onAborted = () => finish(bodyError('request.aborted', 400, 'The request was aborted.'));
  req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
}
