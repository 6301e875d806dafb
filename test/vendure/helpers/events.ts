import type { Executor } from '../../../src/lib/db.js';
import { newId } from '../../../src/lib/ids.js';
import { nowDb, toDbTime } from '../../../src/lib/time.js';

/**
 * A published event on a product, written into the plugin's table as staff would create it in the
 * event manager (Vendure mounts no staff pages). One hour long; no registration deadline.
 */
export async function insertPublishedEvent(
  db: Executor,
  productId: string,
  {
    name = 'Ergonomics seminar',
    participantLimit = 10,
    waitingList = false,
    startsInHours = 20 * 24,
  }: { name?: string; participantLimit?: number; waitingList?: boolean; startsInHours?: number } = {},
): Promise<string> {
  const id = newId();
  const start = new Date(Date.now() + startsInHours * 3600_000);
  await db('b2b_events').insert({
    id,
    product_id: productId,
    name,
    language: 'en',
    description: null,
    starts_at: toDbTime(start),
    ends_at: toDbTime(new Date(start.getTime() + 3600_000)),
    participant_limit: participantLimit,
    registration_deadline: null,
    waiting_list: waitingList,
    status: 'published',
    created_at: nowDb(),
  });
  return id;
}
