import { createHash } from 'node:crypto';
import { Errors } from './errors.js';
import { isDuplicateKeyError, type Db } from './db.js';
import { nowDb } from './time.js';

/** A row of idempotency_keys (status and body are set once the first request finished). */
interface IdempotencyKeyRow {
  scope: string;
  idem_key: string;
  request_hash: string;
  state: string;
  status_code: number | string | null;
  response_body: string | null;
  created_at: string | Date;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

/**
 * Idempotency-Key handling for create-like POSTs. The first request with a key claims it; the
 * same key with the same body replays the first response, with another body answers 422, and
 * while the first is still running answers 409.
 */
export async function claimIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
  requestBody: unknown,
): Promise<{ replay: StoredResponse } | { claimed: true }> {
  const requestHash = createHash('sha256')
    .update(JSON.stringify(requestBody ?? null))
    .digest('hex');
  try {
    await db('idempotency_keys').insert({
      scope,
      idem_key: key,
      request_hash: requestHash,
      state: 'running',
      created_at: nowDb(),
    });
    return { claimed: true };
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const row = await db<IdempotencyKeyRow>('idempotency_keys').where({ scope, idem_key: key }).first();
  if (!row) return claimIdempotencyKey(db, scope, key, requestBody);
  if (row.request_hash !== requestHash)
    throw Errors.unprocessable(
      'SUITE__IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with another request body.',
    );
  if (row.state === 'running')
    throw Errors.conflict('A request with this Idempotency-Key is still running.', 'SUITE__IDEMPOTENCY_IN_PROGRESS');
  return {
    replay: {
      status: Number(row.status_code),
      body: row.response_body ? (JSON.parse(row.response_body) as unknown) : undefined,
    },
  };
}

export async function completeIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db('idempotency_keys')
    .where({ scope, idem_key: key })
    .update({
      state: 'done',
      status_code: response.status,
      response_body: response.body === undefined ? null : JSON.stringify(response.body),
    });
}

/** A failed first attempt releases the key so the client can retry it. */
export async function releaseIdempotencyKey(db: Db, scope: string, key: string): Promise<void> {
  await db('idempotency_keys').where({ scope, idem_key: key, state: 'running' }).delete();
}

/** Where the pipeline keeps Idempotency-Keys: the host's table, reached by plugin pages through the contract. */
export interface IdempotencyStore {
  claim(scope: string, key: string, requestBody: unknown): Promise<{ replay: StoredResponse } | { claimed: true }>;
  complete(scope: string, key: string, response: StoredResponse): Promise<void>;
  release(scope: string, key: string): Promise<void>;
}

export function idempotencyStore(db: Db): IdempotencyStore {
  return {
    claim: (scope, key, requestBody) => claimIdempotencyKey(db, scope, key, requestBody),
    complete: (scope, key, response) => completeIdempotencyKey(db, scope, key, response),
    release: (scope, key) => releaseIdempotencyKey(db, scope, key),
  };
}
