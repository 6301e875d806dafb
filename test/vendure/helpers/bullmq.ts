import { BullMQJobQueuePlugin } from '@vendure/job-queue-plugin/package/bullmq/index.js';

/** Redis of the tests (the machine's, on loopback). */
export const REDIS = { host: '127.0.0.1', port: 6379 };

/**
 * The shop's job queue on Redis (BullMQ) under a key prefix of the test's own, so runs never see
 * each other's jobs; a killed worker's active jobs are noticed as stalled within seconds.
 */
export function bullmqPlugin(prefix: string) {
  return BullMQJobQueuePlugin.init({
    connection: { ...REDIS, maxRetriesPerRequest: null },
    queueOptions: { prefix },
    workerOptions: { prefix, lockDuration: 5000, stalledInterval: 2000 },
  });
}
