import jwt from 'jsonwebtoken';
import { createSecretKey, type KeyObject } from 'node:crypto';

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
  return jwt.sign(rest, keyOf(secret), {
    algorithm: 'HS256',
    issuer: ISSUER,
    audience,
    subject: sub,
    expiresIn: ttlSeconds,
    ...(jti ? { jwtid: jti } : {}),
  });
}

/** HS256 pinned: 'none' and every other algorithm are refused; issuer, audience and expiry checked. */
export function verifyToken(secret: string, audience: string, token: string): (jwt.JwtPayload & { sub: string }) | null {
  try {
    const payload = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'], issuer: ISSUER, audience });
    if (typeof payload !== 'object' || typeof payload.sub !== 'string') return null;
    return payload as jwt.JwtPayload & { sub: string };
  } catch {
    return null;
  }
}
