import { readInt, type Executor } from '../../lib/db.js';

const VISIBILITY = 'visibility';

export async function visibilityVersion(executor: Executor): Promise<number> {
  const row = await executor<{ name: string; value: number | string }>('catalog_counters').where({ name: VISIBILITY }).first('value');
  return readInt(row?.value);
}

/** Bumps the counter; inside the writer's transaction, so readers see the new value with the new data. */
export async function visibilityChanged(executor: Executor): Promise<void> {
  const updated = await executor('catalog_counters').where({ name: VISIBILITY }).increment('value', 1);
  if (updated === 0)
    await executor('catalog_counters')
      .insert({ name: VISIBILITY, value: 2 })
      .onConflict('name')
      .merge({ value: executor.raw('catalog_counters.value + 1') });
}
