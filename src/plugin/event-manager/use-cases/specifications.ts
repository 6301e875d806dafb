import type { HostRuntime } from '../../../contract/index.js';
import { inTransaction } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import {
  deleteSpecificationRow,
  findSpecification,
  insertSpecification,
  specificationInUse,
  updateSpecificationColumns,
  type SpecificationType,
  type SpecificationView,
} from '../repository.js';

export async function createSpecification(
  host: HostRuntime,
  input: { type: SpecificationType; name: string; description?: string | null; position?: number },
): Promise<SpecificationView> {
  const id = newId();
  await insertSpecification(host.db, {
    id,
    type: input.type,
    name: input.name.trim(),
    description: input.description ?? null,
    position: input.position ?? 0,
  });
  return (await findSpecification(host.db, id))!;
}

export async function updateSpecification(
  host: HostRuntime,
  id: string,
  input: { name?: string; description?: string | null; position?: number },
): Promise<SpecificationView> {
  const changed = await updateSpecificationColumns(host.db, id, {
    ...input,
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
  });
  if (changed !== 1) throw Errors.notFound('Event specification', id);
  return (await findSpecification(host.db, id))!;
}

/** A specification an event uses stays (change the events first). */
export async function deleteSpecification(host: HostRuntime, id: string): Promise<void> {
  await inTransaction(host.db, async (trx) => {
    if (!(await findSpecification(trx, id))) throw Errors.notFound('Event specification', id);
    if (await specificationInUse(trx, id))
      throw Errors.badRequest('SUITE__EVENT_SPECIFICATION_IN_USE', 'Events use this specification; change them first.');
    await deleteSpecificationRow(trx, id);
  });
}
