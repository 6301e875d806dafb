import { expect } from 'chai';
import type { Knex } from 'knex';
import { newId } from '../../../src/lib/ids.js';
import { addSeconds, toDbTime } from '../../../src/lib/time.js';
import { HOUSEKEEPING_JOB } from '../../../src/host/ops/housekeeping.js';
import { LOGIN_TOKEN_PURGE_JOB } from '../../../src/plugin/employee/login/tokens.js';
import { defaultSalesChannelId, getShop } from '../../helpers/shop.js';

const ago = (seconds: number) => toDbTime(addSeconds(new Date(), -seconds));
const ahead = (seconds: number) => toDbTime(addSeconds(new Date(), seconds));

async function count(db: Knex, table: string): Promise<number> {
  const row = await db(table).count({ n: '*' }).first();
  return Number((row as { n: number | string }).n);
}

describe('host: housekeeping purges', () => {
  it('a schedule deletes expired rate-limit counters, finished idempotency keys past their window, expired and revoked sessions and old login links, and keeps the rest', async () => {
    const shop = await getShop();
    const db = shop.db;
    const salesChannelId = await defaultSalesChannelId(shop);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const tag = newId().slice(0, 12);

    await db('rate_limit_counters').insert([
      { counter_key: `old-${tag}`, window_start: nowSeconds - 2 * 86400, hits: 3 },
      { counter_key: `new-${tag}`, window_start: nowSeconds - 30, hits: 1 },
    ]);
    await db('idempotency_keys').insert([
      {
        scope: `hk-${tag}`,
        idem_key: 'done-old',
        request_hash: 'x',
        state: 'done',
        status_code: 200,
        response_body: '{}',
        created_at: ago(2 * 86400),
      },
      {
        scope: `hk-${tag}`,
        idem_key: 'running-abandoned',
        request_hash: 'x',
        state: 'running',
        status_code: null,
        response_body: null,
        created_at: ago(2 * 3600),
      },
      {
        scope: `hk-${tag}`,
        idem_key: 'done-recent',
        request_hash: 'x',
        state: 'done',
        status_code: 200,
        response_body: '{}',
        created_at: ago(3600),
      },
      {
        scope: `hk-${tag}`,
        idem_key: 'running-now',
        request_hash: 'x',
        state: 'running',
        status_code: null,
        response_body: null,
        created_at: ago(5),
      },
    ]);
    const session = (id: string, expiresAt: string, revokedAt: string | null) => ({
      id,
      sales_channel_id: salesChannelId,
      customer_id: null,
      actor_type: 'guest',
      actor_id: null,
      attributes: '{}',
      cart_token: null,
      created_at: ago(86400 * 8),
      expires_at: expiresAt,
      revoked_at: revokedAt,
    });
    const sessions = { expired: newId(), revoked: newId(), live: newId() };
    await db('sessions').insert([
      session(sessions.expired, ago(60), null),
      session(sessions.revoked, ahead(3600), ago(10)),
      session(sessions.live, ahead(3600), null),
    ]);
    const token = (id: string, expiresAt: string) => ({
      id,
      purpose: 'passwordless-login',
      token_hash: newId() + newId(),
      actor_type: 'employee',
      actor_id: newId(),
      sales_channel_id: salesChannelId,
      expires_at: expiresAt,
      used_at: null,
      created_at: ago(86400 * 3),
    });
    const tokens = { old: newId(), justExpired: newId(), live: newId() };
    await db('b2b_login_tokens').insert([
      token(tokens.old, ago(2 * 86400)),
      token(tokens.justExpired, ago(60)),
      token(tokens.live, ahead(1800)),
    ]);

    const before = Object.fromEntries(
      await Promise.all(
        ['rate_limit_counters', 'idempotency_keys', 'sessions', 'b2b_login_tokens'].map(async (t) => [
          t,
          await count(db, t),
        ]),
      ),
    );
    const schedules = (await db('job_schedules')
      .whereIn('name', [HOUSEKEEPING_JOB, LOGIN_TOKEN_PURGE_JOB])
      .pluck('name')) as string[];
    await shop.jobs.runDue();
    const after = Object.fromEntries(await Promise.all(Object.keys(before).map(async (t) => [t, await count(db, t)])));

    expect(
      (await db('job_schedules').whereIn('name', [HOUSEKEEPING_JOB, LOGIN_TOKEN_PURGE_JOB]).pluck('name')).sort(),
    ).to.deep.equal([HOUSEKEEPING_JOB, LOGIN_TOKEN_PURGE_JOB].sort(), `schedules (before: ${schedules.join(', ')})`);
    for (const table of Object.keys(before)) expect(after[table], `${table} shrank`).to.be.below(before[table]);
    expect(await db('rate_limit_counters').where('counter_key', 'like', `%-${tag}`).pluck('counter_key')).to.deep.equal(
      [`new-${tag}`],
    );
    expect(
      (
        await db('idempotency_keys')
          .where({ scope: `hk-${tag}` })
          .pluck('idem_key')
      ).sort(),
    ).to.deep.equal(['done-recent', 'running-now']);
    expect(await db('sessions').whereIn('id', Object.values(sessions)).pluck('id')).to.deep.equal([sessions.live]);
    expect((await db('b2b_login_tokens').whereIn('id', Object.values(tokens)).pluck('id')).sort()).to.deep.equal(
      [tokens.justExpired, tokens.live].sort(),
    );
  });
});
