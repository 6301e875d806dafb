import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

/**
 * scrypt's cost N = 2^PASSWORD_HASH_COST (default 14, about 50 ms a hash). The test suite lowers it
 * (test/setup.ts) so its hundreds of logins do not spend minutes hashing; below 10 is refused.
 * A stored hash keeps its own N, so hashes made at another cost still verify.
 */
export function passwordHashCost(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PASSWORD_HASH_COST;
  if (raw === undefined || raw === '') return 14;
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < 10 || cost > 20)
    throw new Error(`PASSWORD_HASH_COST must be a whole number from 10 to 20 (got ${raw})`);
  return cost;
}

const KEY_LENGTH = 32;

/** scrypt$N$r$p$salt$key, all base64url; never reversible. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = { N: 2 ** passwordHashCost(), r: 8, p: 1 };
  const key = await scrypt(password, salt, KEY_LENGTH, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spent on unknown accounts so a login answers in about the same time either way. */
let dummyHash: Promise<string> | null = null;
export async function burnPasswordTime(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(password, await dummyHash);
}
