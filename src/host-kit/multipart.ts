import busboy from 'busboy';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../lib/errors.js';
import type { StorefrontUpload } from '../contract/index.js';

/** The largest file a storefront form takes: the largest CSV any import route accepts (5 MB). */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
const LIMITS = { files: 2, fileSize: UPLOAD_MAX_BYTES, fields: 200, fieldSize: 256 * 1024, parts: 202 };

const tooLarge = (detail: string) => new AppError(413, 'SUITE__UPLOAD_TOO_LARGE', detail);

/**
 * Storefront forms with a file input (`enctype="multipart/form-data"`): the text fields become
 * `req.body` as from a urlencoded form (so the CSRF check reads `_csrf` as always), and each chosen
 * file becomes the field's value as a {@link StorefrontUpload}. A file input left empty is no value.
 * Over the limits (5 MB a file, 2 files, 200 fields of 256 KB) the request is refused with 413.
 */
export function storefrontMultipart(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST' || !req.is('multipart/form-data')) return next();
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: LIMITS, defParamCharset: 'utf8' });
  } catch {
    // No boundary or a malformed header: a request fault, not a bug.
    return next(new AppError(400, 'SUITE__INVALID_INPUT', 'The form could not be read.'));
  }
  const body: Record<string, unknown> = {};
  let failed: Error | null = null;
  // Files still being read, and whether the parser has seen the end: the form is complete when both are done.
  let pending = 0;
  let ended = false;
  const finish = () => {
    if (failed || !ended || pending > 0) return;
    req.body = body;
    next();
  };
  const fail = (error: Error) => {
    if (failed) return;
    failed = error;
    req.unpipe(parser);
    req.resume();
    next(error);
  };
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) return fail(tooLarge('A form field is too long.'));
    if (name === '__proto__' || name === 'constructor' || name === 'prototype') return;
    // A repeated name (rows of inputs, checkboxes) becomes a list, as from a urlencoded form.
    const before = body[name];
    body[name] =
      before === undefined ? value : Array.isArray(before) ? [...(before as unknown[]), value] : [before, value];
  });
  parser.on('file', (name, stream, info) => {
    const chunks: Buffer[] = [];
    pending++;
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => fail(tooLarge(`The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`)));
    stream.on('end', () => {
      pending--;
      const fileName = info.filename ?? '';
      if (!failed && fileName !== '' && name !== '__proto__' && name !== 'constructor' && name !== 'prototype') {
        const upload: StorefrontUpload = {
          fileName: fileName.slice(0, 255),
          contentType: info.mimeType || 'application/octet-stream',
          content: Buffer.concat(chunks),
        };
        body[name] = upload;
      }
      finish();
    });
  });
  parser.on('filesLimit', () => fail(tooLarge('Send one file at a time.')));
  parser.on('fieldsLimit', () => fail(tooLarge('The form has too many fields.')));
  parser.on('partsLimit', () => fail(tooLarge('The form has too many fields.')));
  parser.on('error', () => fail(new AppError(400, 'SUITE__INVALID_INPUT', 'The form could not be read.')));
  parser.on('close', () => {
    ended = true;
    finish();
  });
  req.pipe(parser);
}
