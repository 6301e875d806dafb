import { randomBytes, randomUUID, createHash } from 'node:crypto';

/** Identifiers are UUIDs without dashes: 32 lowercase hex characters. */
export const ID_PATTERN = '^[0-9a-f]{32}$';
const ID_REGEX = new RegExp(ID_PATTERN);

export function newId(): string {
  return randomUUID().replace(/-/g, '');
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_REGEX.test(value);
}

export const idSchema = { type: 'string', pattern: ID_PATTERN } as const;

/** A secret for links and one-time tokens: 32 random bytes, URL-safe. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Secrets are stored only as this hash; the plain value travels once, in a mail or a response. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
