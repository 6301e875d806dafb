import type { Knex } from 'knex';
import type { Actor } from '../../host/contract.js';
import { readInt, selectRow, selectRows, type Executor } from '../../lib/db.js';
import { isDuplicateKeyError } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import type { Side } from './versions.js';

export const OFFER_MESSAGES = 'b2b_offer_messages';
export const OFFER_MESSAGE_READS = 'b2b_offer_message_reads';

export interface OfferMessage {
  id: string;
  sequence: number;
  side: Side;
  author: { type: string; id: string | null; name: string };
  body: string;
  offerVersion: number;
  createdAt: string;
}

interface MessageDbRow {
  id: string;
  seq: unknown;
  side: Side;
  author_type: string;
  author_id: string | null;
  author_name: string;
  body: string;
  offer_version: unknown;
  created_at: string;
}

function toMessage(row: MessageDbRow): OfferMessage {
  return {
    id: row.id,
    sequence: readInt(row.seq),
    side: row.side,
    author: { type: row.author_type, id: row.author_id ?? null, name: row.author_name },
    body: row.body,
    offerVersion: readInt(row.offer_version),
    createdAt: fromDbTime(row.created_at)!,
  };
}

/** Which side an actor speaks for in an offer's thread. */
export function sideOf(actor: Actor): Side {
  return actor.type === 'salesRepresentative' ? 'sales' : 'customer';
}

/**
 * Appends a message under the offer's row lock (the caller holds it), numbered after the last one;
 * the author has read the thread up to its own message.
 */
export async function insertMessage(
  trx: Executor,
  input: { offerId: string; actor: Actor; body: string; offerVersion: number },
): Promise<OfferMessage> {
  const last = await selectRow<{ seq: unknown }>(
    trx(OFFER_MESSAGES).where({ offer_id: input.offerId }).max({ seq: 'seq' }).first(),
  );
  const seq = readInt(last?.seq ?? 0) + 1;
  const id = newId();
  await trx(OFFER_MESSAGES).insert({
    id,
    offer_id: input.offerId,
    seq,
    side: sideOf(input.actor),
    author_type: input.actor.type,
    author_id: input.actor.id,
    author_name: (input.actor.name || input.actor.email || input.actor.type).slice(0, 255),
    body: input.body,
    offer_version: input.offerVersion,
    created_at: nowDb(),
  });
  await markRead(trx, input.offerId, input.actor, seq);
  return toMessage((await selectRow<MessageDbRow>(trx(OFFER_MESSAGES).where({ id }).first()))!);
}

export async function threadOf(executor: Executor, offerId: string): Promise<OfferMessage[]> {
  return (await selectRows<MessageDbRow>(executor(OFFER_MESSAGES).where({ offer_id: offerId }).orderBy('seq'))).map(
    toMessage,
  );
}

/** Moves the reader's mark forward (never back) to `seq`. */
export async function markRead(executor: Executor, offerId: string, reader: Actor, seq: number): Promise<void> {
  if (!reader.id) return;
  const key = { offer_id: offerId, reader_type: reader.type, reader_id: reader.id };
  const now = nowDb();
  const moved = await executor(OFFER_MESSAGE_READS)
    .where(key)
    .where('last_seq', '<', seq)
    .update({ last_seq: seq, updated_at: now });
  if (moved > 0 || (await selectRow(executor(OFFER_MESSAGE_READS).where(key).first('last_seq')))) return;
  try {
    await executor(OFFER_MESSAGE_READS).insert({ ...key, last_seq: seq, updated_at: now });
  } catch (error) {
    // Another request of the same reader inserted the mark first: move it forward instead.
    if (!isDuplicateKeyError(error)) throw error;
    await executor(OFFER_MESSAGE_READS)
      .where(key)
      .where('last_seq', '<', seq)
      .update({ last_seq: seq, updated_at: now });
  }
}

/** Per offer: messages of the other side after the reader's mark. */
export async function unreadCounts(
  executor: Executor,
  offerIds: string[],
  reader: Actor,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (offerIds.length === 0) return counts;
  const rows = await selectRows<{ offer_id: string; n: unknown }>(
    executor(`${OFFER_MESSAGES} as m`)
      .leftJoin(`${OFFER_MESSAGE_READS} as r`, (join: Knex.JoinClause) => {
        join
          .on('r.offer_id', '=', 'm.offer_id')
          .andOn('r.reader_type', '=', executor.raw('?', [reader.type]))
          .andOn('r.reader_id', '=', executor.raw('?', [reader.id ?? '']));
      })
      .whereIn('m.offer_id', offerIds)
      .whereNot('m.side', sideOf(reader))
      .where((w) => {
        w.whereNull('r.last_seq').orWhereRaw('m.seq > r.last_seq');
      })
      .groupBy('m.offer_id')
      .select('m.offer_id', executor.raw('count(*) as n')),
  );
  for (const row of rows) counts.set(row.offer_id, readInt(row.n));
  return counts;
}
