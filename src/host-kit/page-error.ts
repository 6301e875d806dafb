import type { Request, Response } from 'express';
import { dbErrorAsAppError } from '../lib/db.js';
import { AppError } from '../lib/errors.js';

/** What an HTML page shows for an error thrown while rendering it (console and storefront alike). */
export interface PageError {
  status: number;
  title: string;
  message: string;
  /** True for an unexpected fault: the caller logs it; the page shows only the request id. */
  unexpected: boolean;
  /** The thrown AppError (its message is meant for the visitor), else null. */
  appError: AppError | null;
}

/**
 * The status, title and text of the error page for `error`: a database fault and an AppError say
 * what went wrong, a request fault express or body-parser marked with a 4xx status says the request
 * could not be understood, anything else is a 500 with the request id.
 */
export function pageErrorOf(
  error: unknown,
  requestId: string,
  wording: { notFound: string; failed: string },
): PageError {
  const dbFault = error instanceof AppError ? null : dbErrorAsAppError(error);
  if (dbFault)
    return {
      status: dbFault.status,
      title: 'Something is not right',
      message: `${dbFault.message} (request ${requestId})`,
      unexpected: false,
      appError: null,
    };
  if (error instanceof AppError) {
    const title =
      error.status === 404 ? wording.notFound : error.status === 403 ? 'Not allowed' : 'Something is not right';
    return { status: error.status, title, message: error.message, unexpected: false, appError: error };
  }
  const clientStatus = (error as { status?: unknown } | null)?.status;
  if (typeof clientStatus === 'number' && clientStatus >= 400 && clientStatus < 500)
    return {
      status: clientStatus,
      title: 'Something is not right',
      message: 'The request could not be understood.',
      unexpected: false,
      appError: null,
    };
  return {
    status: 500,
    title: 'Something went wrong',
    message: `${wording.failed} (request ${requestId}).`,
    unexpected: true,
    appError: null,
  };
}

/**
 * Sends the error page `draw` renders; if rendering it fails as well (a broken template), the title
 * and message as plain text with the same status, and `logFailure` is told why.
 */
export function sendErrorPage(
  res: Response,
  page: { status: number; title: string; message: string },
  draw: () => void,
  logFailure: (reason: string) => void,
): void {
  try {
    draw();
  } catch (error) {
    logFailure(String(error));
    res.status(page.status).type('text').send(`${page.title}\n${page.message}`);
  }
}

/** To the login page at `loginPath`: back to this page after logging in (a GET), or 303 after a form post. */
export function redirectToLogin(req: Request, res: Response, loginPath: string): void {
  const back = req.method === 'GET' ? `?redirect=${encodeURIComponent(req.originalUrl)}` : '';
  res.redirect(req.method === 'GET' ? 302 : 303, `${loginPath}${back}`);
}
