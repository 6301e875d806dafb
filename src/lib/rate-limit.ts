import type { Request } from 'express';
import { Errors } from './errors.js';
import { hashSecret } from './ids.js';
import type { Db } from './db.js';
import type { RateLimitRule } from './routes.js';

/**
 * Fixed-window counters in the database, so the limit holds across app processes.
 * The key is hashed: e-mail addresses never sit in the table in clear.
 */
export async function enforceRateLimit(db: Db, rule: RateLimitRule, req: Request): Promise<void> {
  const windowStart = Math.floor(Date.now() / 1000 / rule.windowSeconds) * rule.windowSeconds;
  for (const part of rule.by) {
    let value: string;
    if (part === 'ip') value = req.ip ?? 'unknown';
    else {
      // `body.email|username`: the first field present, so one identity has one counter whichever name it comes under.
      const body = req.body as Record<string, unknown> | undefined;
      const raw = part.slice('body.'.length).split('|').map((field) => body?.[field]).find((v) => v !== undefined);
      if (typeof raw !== 'string' || raw === '') continue;
      value = raw.trim().toLowerCase();
    }
    const key = hashSecret(`${rule.name}:${part}:${value}`);
    const hits = await db.transaction(async (trx) => {
      const updated = await trx('rate_limit_counters')
        .where({ counter_key: key, window_start: windowStart })
        .increment('hits', 1);
      if (updated === 0) {
        await trx('rate_limit_counters')
          .insert({ counter_key: key, window_start: windowStart, hits: 1 })
          .onConflict(['counter_key', 'window_start'])
          .merge({ hits: trx.raw('rate_limit_counters.hits + 1') });
      }
      const row = await trx<{ counter_key: string; window_start: number; hits: number | string }>('rate_limit_counters').where({ counter_key: key, window_start: windowStart }).first('hits');
      return Number(row?.hits ?? 1);
    });
    if (hits > rule.limit) throw Errors.tooManyRequests(windowStart + rule.windowSeconds - Math.floor(Date.now() / 1000));
  }
}
