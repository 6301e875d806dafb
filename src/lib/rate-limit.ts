import { Errors } from './errors.js';
import { hashSecret } from './ids.js';
import type { RateLimitRule } from './routes.js';
import { nowMs } from './time.js';

/**
 * Where a host keeps rate-limit counters: `hit` adds one to the counter `key` of the fixed window
 * that starts at `windowStart` (epoch seconds) and answers its count after the hit. The reference
 * host keeps them in a database table (src/host-kit/rate-limit-store.ts), so a limit holds across
 * processes; another host may keep them wherever it likes.
 */
export interface RateLimiter {
  hit(key: string, windowStart: number, windowSeconds: number): Promise<number>;
}

/** What a rule's key is made of: the client address and the (raw, not yet validated) body. */
export interface RateLimitSubject {
  ip: string;
  body: unknown;
}

/**
 * Fixed-window limits: every rule counts one hit per key part; over the limit → 429 with
 * `retryAfter`. The key is hashed: e-mail addresses never sit in a counter in clear.
 */
export async function enforceRateLimits(
  limiter: RateLimiter,
  rules: RateLimitRule[],
  subject: RateLimitSubject,
): Promise<void> {
  for (const rule of rules) {
    const windowStart = Math.floor(nowMs() / 1000 / rule.windowSeconds) * rule.windowSeconds;
    for (const part of rule.by) {
      let value: string;
      if (part === 'ip') value = subject.ip || 'unknown';
      else {
        // `body.email|username`: the first field present, so one identity has one counter whichever name it comes under.
        const body = (typeof subject.body === 'object' && subject.body !== null ? subject.body : {}) as Record<
          string,
          unknown
        >;
        const raw = part
          .slice('body.'.length)
          .split('|')
          .map((field) => body[field])
          .find((v) => v !== undefined);
        if (typeof raw !== 'string' || raw === '') continue;
        value = raw.trim().toLowerCase();
      }
      const hits = await limiter.hit(hashSecret(`${rule.name}:${part}:${value}`), windowStart, rule.windowSeconds);
      if (hits > rule.limit)
        throw Errors.tooManyRequests(windowStart + rule.windowSeconds - Math.floor(nowMs() / 1000));
    }
  }
}
