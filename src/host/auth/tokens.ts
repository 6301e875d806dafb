import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { nowMs } from '../../lib/time.js';

export const ISSUER = 'suite-b2b';
export const STORE_AUDIENCE = 'store-api';
export const ADMIN_AUDIENCE = 'admin-api';

export interface TokenClaims {
  jti?: string;
  sub: string;
  [claim: string]: unknown;
}

const keys = new Map<string, KeyObject>();

/**
 * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries to parse it as a
 * public key on every call, which costs more than the signature check itself.
 */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

export function signToken(secret: string, audience: string, claims: TokenClaims, ttlSeconds: number): string {
  const { sub, jti, ...rest } = claims;
  // iat and exp from the one clock (src/lib/time.ts), as the check below reads them.
  return jwt.sign({ ...rest, iat: Math.floor(nowMs() / 1000) }, keyOf(secret), {
    algorithm: 'HS256',
    issuer: ISSUER,
    audience,
    subject: sub,
    expiresIn: ttlSeconds,
    ...(jti ? { jwtid: jti } : {}),
  });
}

/** HS256 pinned: 'none' and every other algorithm are refused; issuer, audience and expiry checked. */
export function verifyToken(
  secret: string,
  audience: string,
  token: string,
): (jwt.JwtPayload & { sub: string }) | null {
  try {
    const payload = jwt.verify(token, keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience,
      clockTimestamp: Math.floor(nowMs() / 1000),
    });
    if (typeof payload !== 'object' || typeof payload.sub !== 'string') return null;
    return payload as jwt.JwtPayload & { sub: string };
  } catch {
    return null;
  }
}

type VerifiedClaims = jwt.JwtPayload & { sub: string };
/** Per secret: `audience \n token` → its verified claims, until the token expires (at most 10 minutes). */
const verified = new Map<string, LRUCache<string, VerifiedClaims>>();
const VERIFIED_MAX = 20_000;
const VERIFIED_TTL_MS = 10 * 60_000;

/**
 * `verifyToken` with the answer kept in-process for a token that verified: a context token is
 * sent with every request of its session, and its signature and claims do not change. Only the
 * signature check is saved — whether the session behind it is still live (logout, revocation on any
 * process) is read from the database on every request. Never kept past the token's `exp`.
 */
export function verifyTokenCached(secret: string, audience: string, token: string): VerifiedClaims | null {
  let cache = verified.get(secret);
  if (!cache) verified.set(secret, (cache = new LRUCache<string, VerifiedClaims>({ max: VERIFIED_MAX })));
  const key = `${audience}\n${token}`;
  const hit = cache.get(key);
  if (hit && (hit.exp === undefined || hit.exp * 1000 > nowMs())) return hit;
  const claims = verifyToken(secret, audience, token);
  if (claims) {
    const ttl = claims.exp === undefined ? VERIFIED_TTL_MS : Math.min(VERIFIED_TTL_MS, claims.exp * 1000 - nowMs());
    if (ttl > 0) cache.set(key, claims, { ttl });
  }
  return claims;
}
