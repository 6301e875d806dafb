import type { AddressInput, CustomerAddress, HostRuntime, OrderDraft, StoreContext } from '../../../contract/index.js';
import { DEFAULT_LIMIT } from '../../../lib/criteria.js';
import { inTransaction, isForeignKeyError, type Trx } from '../../../lib/db.js';
import { Errors } from '../../../lib/errors.js';
import { storeList } from '../../../lib/store-list.js';
import { declaredCustomer } from '../../declared.js';
import { unitScopeOfEmployee, withAncestors } from '../units/directory.js';
import { addressAccess, isManageable, isOffered, seesEverything, type AddressAccess } from './access.js';
import {
  forgetAddress,
  replaceAddressUnits,
  setUnitDefault,
  unitDefaults,
  unitsByAddress,
  type AddressKind,
} from './repository.js';

type AddressBody = Partial<AddressInput> & { unitIds?: string[] };

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

function addressView(ctx: StoreContext, access: AddressAccess, address: CustomerAddress, unitIds: string[]) {
  return {
    id: address.id,
    company: typeof address.company === 'string' && address.company !== '' ? address.company : null,
    firstName: text(address.firstName),
    lastName: text(address.lastName),
    street: text(address.street),
    zipcode: text(address.zipcode),
    city: text(address.city),
    countryCode: text(address.countryCode),
    unitIds,
    offered: isOffered(access, unitIds),
    manageable: isManageable(ctx, access, unitIds),
  };
}

export type AddressView = ReturnType<typeof addressView>;

/** Every address of the company the caller is offered or may manage, with its units. */
async function visibleAddresses(
  host: HostRuntime,
  ctx: StoreContext,
): Promise<{ access: AddressAccess; views: AddressView[] }> {
  const customer = declaredCustomer(ctx);
  const [addresses, units, access] = await Promise.all([
    host.customers.addresses(host.db, customer.id),
    unitsByAddress(host.db, customer.id),
    addressAccess(host.db, ctx, customer.id),
  ]);
  const views = addresses
    .map((address) => addressView(ctx, access, address, units.get(address.id) ?? []))
    .filter((view) => view.offered || view.manageable);
  return { access, views };
}

export async function listAddresses(
  host: HostRuntime,
  ctx: StoreContext,
  body: { page?: number; limit?: number; term?: string; unitId?: string; companyWide?: boolean },
) {
  const { views } = await visibleAddresses(host, ctx);
  const term = body.term?.trim().toLowerCase() ?? '';
  const matching = views.filter(
    (view) =>
      (body.unitId === undefined || view.unitIds.includes(body.unitId)) &&
      (body.companyWide === undefined || (view.unitIds.length === 0) === body.companyWide) &&
      (term === '' ||
        [view.company, `${view.firstName} ${view.lastName}`, view.street, view.zipcode, view.city].some((field) =>
          (field ?? '').toLowerCase().includes(term),
        )),
  );
  const page = body.page ?? 1;
  const limit = body.limit ?? DEFAULT_LIMIT;
  return storeList(matching.slice((page - 1) * limit, page * limit), { total: matching.length, page, limit });
}

export async function readAddress(host: HostRuntime, ctx: StoreContext, id: string): Promise<AddressView> {
  const view = (await visibleAddresses(host, ctx)).views.find((v) => v.id === id);
  if (!view) throw Errors.notFound('Address', id);
  return view;
}

/** The units asked for belong to the company and are the caller's to manage. */
function assertUnits(access: AddressAccess, unitIds: readonly string[]): void {
  unitIds.forEach((unitId, index) => {
    if (!access.tree.some((unit) => unit.id === unitId)) throw Errors.notFound('Organisation unit', unitId);
    if (access.managedUnits !== 'all' && !access.managedUnits.has(unitId))
      throw Errors.forbidden(
        `You may only give addresses to your own organisation units and those below them (unitIds/${index}).`,
      );
  });
}

function fieldsOf(body: AddressBody): Partial<AddressInput> {
  const { unitIds: _unitIds, ...fields } = body;
  void _unitIds;
  if (fields.countryCode !== undefined) fields.countryCode = fields.countryCode.toUpperCase();
  return fields;
}

/**
 * Creates the address in the host's book, then its unit links. The host's write cannot always join
 * the plugin's transaction (Vendure writes in its own), so a failed link removes the address again.
 */
export async function createAddress(host: HostRuntime, ctx: StoreContext, body: AddressInput & { unitIds?: string[] }) {
  const customer = declaredCustomer(ctx);
  const access = await addressAccess(host.db, ctx, customer.id);
  const unitIds = body.unitIds ?? [];
  assertUnits(access, unitIds);
  const created = await host.customers.createAddress(host.db, customer.id, {
    company: null,
    ...(fieldsOf(body) as AddressInput),
  });
  if (!created) throw Errors.notFound('Customer', customer.id);
  try {
    await inTransaction(host.db, (trx) => replaceAddressUnits(trx, customer.id, created.id, unitIds));
  } catch (error) {
    await host.customers.deleteAddress(host.db, customer.id, created.id);
    if (isForeignKeyError(error)) throw Errors.notFound('Organisation unit');
    throw error;
  }
  return { success: true as const, address: await readAddress(host, ctx, created.id) };
}

async function manageableAddress(
  host: HostRuntime,
  ctx: StoreContext,
  id: string,
): Promise<{ view: AddressView; access: AddressAccess }> {
  const { views, access } = await visibleAddresses(host, ctx);
  const view = views.find((v) => v.id === id);
  if (!view) throw Errors.notFound('Address', id);
  if (!view.manageable) throw Errors.forbidden('The address belongs to organisation units you do not manage.');
  return { view, access };
}

export async function changeAddress(host: HostRuntime, ctx: StoreContext, id: string, body: AddressBody) {
  const customer = declaredCustomer(ctx);
  const { access } = await manageableAddress(host, ctx, id);
  if (body.unitIds) assertUnits(access, body.unitIds);
  const fields = fieldsOf(body);
  if (Object.keys(fields).length && !(await host.customers.updateAddress(host.db, customer.id, id, fields)))
    throw Errors.notFound('Address', id);
  if (body.unitIds) {
    const unitIds = body.unitIds;
    await inTransaction(host.db, (trx) => replaceAddressUnits(trx, customer.id, id, unitIds));
  }
  return { success: true as const, address: await readAddress(host, ctx, id) };
}

export async function removeAddress(host: HostRuntime, ctx: StoreContext, id: string): Promise<void> {
  const customer = declaredCustomer(ctx);
  await manageableAddress(host, ctx, id);
  if (!(await host.customers.deleteAddress(host.db, customer.id, id))) throw Errors.notFound('Address', id);
  await inTransaction(host.db, (trx) => forgetAddress(trx, customer.id, id));
}

/** A unit's own defaults (not inherited). */
export async function readUnitDefaults(host: HostRuntime, ctx: StoreContext, unitId: string) {
  const customer = declaredCustomer(ctx);
  const access = await addressAccess(host.db, ctx, customer.id);
  if (!access.tree.some((unit) => unit.id === unitId)) throw Errors.notFound('Organisation unit', unitId);
  const own = (await unitDefaults(host.db, customer.id)).get(unitId) ?? {};
  return { unitId, billingAddressId: own.billing ?? null, shippingAddressId: own.shipping ?? null };
}

/** Sets a unit's defaults: addresses offered to the unit's buyers (a company address, or one of the unit or a unit above). */
export async function setUnitDefaults(
  host: HostRuntime,
  ctx: StoreContext,
  unitId: string,
  body: { billingAddressId?: string | null; shippingAddressId?: string | null },
) {
  const customer = declaredCustomer(ctx);
  const access = await addressAccess(host.db, ctx, customer.id);
  assertUnits(access, [unitId]);
  const known = new Set((await host.customers.addresses(host.db, customer.id)).map((a) => a.id));
  const units = await unitsByAddress(host.db, customer.id);
  const scope = { offeredUnits: new Set(withAncestors(access.tree, [unitId])) };
  const changes: Array<[AddressKind, string | null]> = [];
  for (const [kind, field] of [
    ['billing', 'billingAddressId'],
    ['shipping', 'shippingAddressId'],
  ] as const) {
    const addressId = body[field];
    if (addressId === undefined) continue;
    if (addressId !== null) {
      if (!known.has(addressId)) throw Errors.notFound('Address', addressId);
      if (!isOffered(scope, units.get(addressId) ?? []))
        throw Errors.badRequest(
          'SUITE__ADDRESS_NOT_OFFERED_TO_UNIT',
          "The address belongs to other units; the unit's buyers could not order to it.",
          { pointer: `/${field}` },
        );
    }
    changes.push([kind, addressId]);
  }
  await inTransaction(host.db, async (trx: Trx) => {
    for (const [kind, addressId] of changes) await setUnitDefault(trx, customer.id, unitId, kind, addressId);
  });
  return readUnitDefaults(host, ctx, unitId);
}

/**
 * What the checkout offers the caller: the offered addresses, and per kind the default — that of
 * the nearest of the caller's units with one (their own units first, then the units above), else
 * the company's default if it is offered.
 */
export async function checkoutAddresses(host: HostRuntime, ctx: StoreContext) {
  const customer = declaredCustomer(ctx);
  const { views, access } = await visibleAddresses(host, ctx);
  const offered = views.filter((view) => view.offered);
  const offeredIds = new Set(offered.map((view) => view.id));
  const defaults = await unitDefaults(host.db, customer.id);
  const companyDefaults = await host.customers.defaultAddressIds(host.db, customer.id);
  const nearestUnits = [...access.ownUnits].sort();
  for (let i = 0; i < nearestUnits.length; i++) {
    const parent = access.tree.find((unit) => unit.id === nearestUnits[i])?.parentId;
    if (parent && !nearestUnits.includes(parent)) nearestUnits.push(parent);
  }
  const defaultOf = (kind: AddressKind) => {
    for (const unitId of nearestUnits) {
      const id = defaults.get(unitId)?.[kind];
      if (id && offeredIds.has(id)) return id;
    }
    const company = companyDefaults[kind];
    return company && offeredIds.has(company) ? company : null;
  };
  return {
    ...storeList(offered, { total: offered.length, page: 1, limit: Math.max(offered.length, 1) }),
    defaultBillingAddressId: defaultOf('billing'),
    defaultShippingAddressId: defaultOf('shipping'),
  };
}

/**
 * Checkout interceptor: an employee's order goes only to addresses offered to them (a company
 * address, or one of a unit in their unit scope), whichever path places it. Addresses without an id
 * (typed into a platform's own checkout rather than taken from the book) are not checked.
 */
export async function interceptCheckout(ctx: StoreContext, draft: OrderDraft, trx: Trx): Promise<void> {
  if (seesEverything(ctx) || ctx.customer?.id !== draft.customerId) return;
  const wanted = [
    ['billingAddressId', draft.billingAddress?.id],
    ['shippingAddressId', draft.shippingAddress?.id],
  ].filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  if (wanted.length === 0) return;
  const units = await unitsByAddress(
    trx,
    draft.customerId,
    wanted.map(([, id]) => id),
  );
  if (wanted.every(([, id]) => !units.has(id))) return;
  const scope = { offeredUnits: new Set(await unitScopeOfEmployee(trx, draft.customerId, ctx.actor.id!)) };
  for (const [field, id] of wanted)
    if (!isOffered(scope, units.get(id) ?? []))
      throw Errors.badRequest(
        'SUITE__ADDRESS_NOT_ALLOWED',
        'This address belongs to organisation units you do not order for; choose one of the addresses the checkout offers you.',
        {
          pointer: `/${field}`,
          meta: { addressId: id },
        },
      );
}
