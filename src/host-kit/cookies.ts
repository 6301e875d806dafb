import { timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import { newSecret } from '../lib/ids.js';

/** Holds the Store API context token of the storefront visitor. */
export const SESSION_COOKIE = 'suite-session';
export const CSRF_COOKIE = 'suite-csrf';
export const CSRF_FIELD = '_csrf';
const CSRF_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function cookieOptions(req: Request, maxAgeSeconds?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds * 1000 } : {}),
  };
}

function cookie(req: Request, name: string): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function sessionToken(req: Request): string | undefined {
  return cookie(req, SESSION_COOKIE);
}

export function setSessionToken(req: Request, res: Response, token: string, ttlSeconds: number): void {
  res.cookie(SESSION_COOKIE, token, cookieOptions(req, ttlSeconds));
}

export function clearSessionToken(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/**
 * Double-submit CSRF token: the same random value in a cookie and in every form's hidden field.
 * `rotate` issues a new one (after login).
 */
export function csrfToken(req: Request, res: Response, rotate = false): string {
  const existing = cookie(req, CSRF_COOKIE);
  if (existing && CSRF_TOKEN.test(existing) && !rotate) return existing;
  const token = newSecret(32);
  res.cookie(CSRF_COOKIE, token, cookieOptions(req));
  return token;
}

export function csrfValid(req: Request): boolean {
  const expected = cookie(req, CSRF_COOKIE);
  const submitted = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (!expected || typeof submitted !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}
