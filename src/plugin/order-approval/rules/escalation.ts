import type { HostRuntime } from '../../../contract/index.js';
import { inTransaction } from '../../../lib/db.js';
import { fromDbTime, now as currentTime } from '../../../lib/time.js';
import { getApproval } from '../repository.js';
import { salesChannelOf } from '../use-cases/access.js';
import { notifyApprovers } from '../use-cases/notify.js';
import { currentLevel, escalateLevel } from './chain.js';
import { levelsToEscalate } from './repository.js';

const HOUR_MS = 3600_000;

/**
 * Part of the reminder job: a level of a rule with `escalateAfterHours` that has waited that long
 * goes to the company admins (customer login and admin employees), who get the request mail and
 * of whom one approval passes the level. Each level escalates once.
 */
export async function escalateOverdueLevels(host: HostRuntime, now = currentTime(), limit = 500): Promise<number> {
  let escalated = 0;
  for (const row of await levelsToEscalate(host.db, limit)) {
    const started = Date.parse(fromDbTime(row.startedAt) ?? '');
    if (!Number.isFinite(started) || started + row.escalateAfterHours * HOUR_MS > now.getTime()) continue;
    escalated += await inTransaction(host.db, async (trx) => {
      const approval = await getApproval(trx, row.customerId, row.approvalId, true);
      if (!approval || approval.status !== 'pending' || approval.level !== row.level) return 0;
      const level = await currentLevel(trx, approval);
      if (!level) return 0;
      const handedOver = await escalateLevel(trx, approval, level);
      if (!handedOver) return 0;
      await notifyApprovers(host, trx, handedOver, await salesChannelOf(host, trx, approval), false);
      return 1;
    });
  }
  return escalated;
}
