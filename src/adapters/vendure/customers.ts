import type { Knex } from 'knex';
import {
  Address,
  Country,
  Customer,
  CustomerGroupService,
  CustomerService,
  RequestContextService,
  TransactionalConnection,
  User,
} from '@vendure/core';
import type { AddressInput, CustomerAddress, HostRuntime, SalesChannel } from '../../contract/index.js';
import { Errors } from '../../lib/errors.js';
import { CUSTOMER_SEARCH_CRITERIA } from '../../host-kit/customer-search.js';
import { DEFAULT_LIMIT, searchByCriteria } from '../../lib/criteria.js';
import {
  dialectOf,
  inTransaction,
  readBool,
  selectRow,
  selectRows,
  type Db,
  type Executor,
  type Trx,
} from '../../lib/db.js';
import { vendureContextInTransaction } from './shared-transaction.js';
import { quoteColumn, toVendureIds, type IdMapper } from './ids.js';
import { matchingRuleIds } from './rules.js';
import { vendureServices, type AdapterState as AdapterContext } from './state.js';
import {
  customerByEmail,
  customerGroupsByIds,
  customersByIds,
  defaultChannel,
  toSalesChannel,
} from './vendure-tables.js';
import { column, columns, discriminator, junction, selectAs, table } from './vendure-schema.js';

interface AddressRow {
  id: string | number;
  fullName: string | null;
  company: string | null;
  streetLine1: string | null;
  streetLine2: string | null;
  city: string | null;
  postalCode: string | null;
  countryCode: string | null;
  defaultBillingAddress: unknown;
  defaultShippingAddress: unknown;
}

/**
 * Customers are Vendure customers (read through the plugin's executor). Rules are Vendure customer
 * groups: a rule id is a customer group's id (in the plugin's id form, see ids.ts), and a context
 * matches the groups its customer belongs to (docs/vendure.md).
 */
/**
 * Vendure's customers as a derived table `customers` with the reference host's column names and
 * the plugin's id form, for lib/criteria (CustomerScope's fields). Vendure has no company and no
 * customer number: `company` is null, the customer number is the Vendure id; the group is the
 * customer's first customer group (as CustomerRef.groupId). `vendureIds` null: every customer (the console's search).
 */
export function customerTable(
  ids: IdMapper,
  executor: Executor,
  vendureIds: string[] | null,
  activeOnly: boolean,
): Knex.QueryBuilder {
  const dialect = dialectOf(executor);
  const q = (name: string) => quoteColumn(name, dialect);
  const c = columns(Customer, 'c');
  const groups = junction(Customer, 'groups', 'g');
  const groupTable = q(junction(Customer, 'groups').table);
  const firstGroup = `(select min(${q(groups.inverse)}) from ${groupTable} g where ${q(groups.owner)} = ${q(c('id'))})`;
  const inner = executor(table(Customer, 'c'))
    .leftJoin(table(User, 'u'), column(User, 'id', 'u'), c('user'))
    .whereNull(c('deletedAt'))
    .select({
      id: executor.raw(ids.columnAsPluginId(c('id'), dialect)),
      customer_number: executor.raw(`cast(${q(c('id'))} as ${dialect === 'mysql' ? 'char' : 'text'})`),
      company: executor.raw('null'),
      email: executor.raw(`lower(${q(c('emailAddress'))})`),
      first_name: c('firstName'),
      last_name: c('lastName'),
      group_id: executor.raw(ids.columnAsPluginId(firstGroup, dialect)),
    });
  if (vendureIds) inner.whereIn(c('id'), vendureIds);
  if (activeOnly) inner.whereNotNull(c('user')).where(column(User, 'verified', 'u'), true);
  return executor.from(inner.as('customers'));
}

/** Vendure's address `addressId` if it is the customer's (callers pick the columns). */
function ownAddressRow(executor: Executor, vendureCustomerId: string, vendureAddressId: string): Knex.QueryBuilder {
  return executor(table(Address))
    .where(column(Address, 'id'), vendureAddressId)
    .where(column(Address, 'customer'), vendureCustomerId);
}

// eslint-disable-next-line max-lines-per-function -- longer than 150 lines before the 150-line rule covered all of src; split it when it next changes
export function customersContract(a: AdapterContext): Pick<HostRuntime, 'customers' | 'customerGroups' | 'rules'> {
  const { ids } = a;
  const channelId = async (executor: Executor) => ids.toPlugin((await defaultChannel(executor)).id);

  function addressRows(executor: Executor, vendureCustomerId: string): Promise<AddressRow[]> {
    return selectRows<AddressRow>(
      executor(table(Address, 'a'))
        .leftJoin(table(Country, 'r'), column(Country, 'id', 'r'), column(Address, 'country', 'a'))
        .where(column(Address, 'customer', 'a'), vendureCustomerId)
        .orderBy(column(Address, 'createdAt', 'a'))
        .orderBy(column(Address, 'id', 'a'))
        .select(
          ...selectAs(
            Address,
            'a',
            'id',
            'fullName',
            'company',
            'streetLine1',
            'streetLine2',
            'city',
            'postalCode',
            'defaultBillingAddress',
            'defaultShippingAddress',
          ),
          `${column(Country, 'code', 'r')} as countryCode`,
        ),
    );
  }

  /** The reference host's address shape; Vendure keeps one `fullName` (as `firstName`) and two street lines. */
  function toAddress(row: AddressRow): CustomerAddress {
    return {
      id: ids.toPlugin(row.id),
      company: row.company || null,
      firstName: row.fullName ?? '',
      lastName: '',
      street: [row.streetLine1, row.streetLine2].filter((line) => line).join(', '),
      zipcode: row.postalCode ?? '',
      city: row.city ?? '',
      countryCode: row.countryCode ?? '',
    };
  }
  async function customerService() {
    const vendure = vendureServices(a);
    return {
      service: vendure.service(CustomerService),
      ctx: await vendure.service(RequestContextService).create({ apiType: 'admin' }),
    };
  }

  async function ownAddress(executor: Executor, customerId: string, addressId: string) {
    const vendureCustomerId = ids.toVendure(customerId);
    const vendureAddressId = ids.toVendure(addressId);
    if (!vendureCustomerId || !vendureAddressId) return null;
    const row = await selectRow<{ id: string | number; fullName: string | null }>(
      ownAddressRow(executor, vendureCustomerId, vendureAddressId).first(
        selectAs(Address, undefined, 'id', 'fullName'),
      ),
    );
    return row ? { customerId: vendureCustomerId, addressId: vendureAddressId, fullName: row.fullName ?? '' } : null;
  }

  async function assertCountry(executor: Executor, countryCode: string): Promise<void> {
    const query = executor(table(Country)).where(column(Country, 'code'), countryCode.toUpperCase());
    const kind = discriminator(Country);
    if (kind) query.where(kind.column, kind.value);
    const country = await selectRow(query.first(selectAs(Country, undefined, 'id')));
    if (!country)
      throw Errors.badRequest('SUITE__UNKNOWN_COUNTRY', `The shop does not know the country "${countryCode}".`, {
        pointer: '/countryCode',
      });
  }

  /** The plugin's address fields as Vendure's address input (street is `streetLine1`, the zip code `postalCode`); `currentFullName` for a partial name change. */
  function vendureAddressFields(input: Partial<AddressInput>, currentFullName: string | null) {
    const fields: {
      fullName?: string;
      company?: string;
      streetLine1?: string;
      streetLine2?: string;
      city?: string;
      postalCode?: string;
      countryCode?: string;
    } = {};
    if (input.firstName !== undefined || input.lastName !== undefined)
      fields.fullName = [input.firstName ?? currentFullName ?? '', input.lastName ?? '']
        .map((part) => part.trim())
        .filter((part) => part)
        .join(' ');
    if (input.company !== undefined) fields.company = input.company ?? '';
    if (input.street !== undefined) {
      fields.streetLine1 = input.street;
      fields.streetLine2 = '';
    }
    if (input.city !== undefined) fields.city = input.city;
    if (input.zipcode !== undefined) fields.postalCode = input.zipcode;
    if (input.countryCode !== undefined) fields.countryCode = input.countryCode.toUpperCase();
    return fields;
  }

  return {
    customers: {
      async get(executor, id) {
        return (await customersByIds(ids, executor, [id], await channelId(executor)))[0] ?? null;
      },
      async getMany(executor, wanted) {
        return customersByIds(ids, executor, wanted, await channelId(executor));
      },
      async findByEmail(executor, email) {
        return customerByEmail(ids, executor, email, await channelId(executor));
      },
      // Vendure has no customer numbers: the id stands for it (docs/vendure.md).
      async findByNumbers(executor, numbers) {
        return customersByIds(
          ids,
          executor,
          numbers.map((n) => ids.toPlugin(n)),
          await channelId(executor),
        );
      },
      async search(executor, scope, criteria) {
        const salesChannelId = await channelId(executor);
        if (scope.salesChannelId && scope.salesChannelId !== salesChannelId)
          return { total: 0, page: criteria.page ?? 1, limit: criteria.limit ?? DEFAULT_LIMIT, elements: [] };
        const page = await searchByCriteria<{ id: string }>(
          customerTable(ids, executor, toVendureIds(ids, scope.ids), scope.activeOnly ?? false),
          criteria,
          CUSTOMER_SEARCH_CRITERIA,
          (qb) => qb.select('customers.id'),
        );
        return {
          total: page.total,
          page: page.page,
          limit: page.limit,
          elements: await customersByIds(
            ids,
            executor,
            page.rows.map((row) => row.id),
            salesChannelId,
          ),
        };
      },
      /**
       * An accepted account request: a Vendure customer through CustomerService (its user, the
       * channel, history, `AccountRegistrationEvent`, `CustomerEvent`), written in the caller's
       * transaction (shared-transaction.ts: Vendure's services on the connection the knex transaction
       * holds), so it commits or rolls back with the request's acceptance and its mail. Without a
       * password the user is unverified: it sets one through Vendure's verification (the
       * AccountRegistrationEvent, the EmailPlugin's mail). The group is Vendure's
       * `addCustomersToGroup`; Vendure keeps no company name on a customer (`company` is not stored).
       */
      async create(executor, input) {
        const run = async (trx: Trx) => {
          const vendure = vendureServices(a);
          const base = await vendure.service(RequestContextService).create({ apiType: 'admin' });
          const ctx = await vendureContextInTransaction(vendure.service(TransactionalConnection), base, trx);
          const created = await vendure
            .service(CustomerService)
            .create(
              ctx,
              { emailAddress: input.email, firstName: input.firstName, lastName: input.lastName },
              input.password ?? undefined,
            );
          if (!(created instanceof Customer))
            throw Errors.badRequest('SUITE__EMAIL_TAKEN', 'A customer with this e-mail address exists already.');
          const groupId = input.groupId ? ids.toVendure(input.groupId) : null;
          if (groupId)
            await vendure
              .service(CustomerGroupService)
              .addCustomersToGroup(ctx, { customerGroupId: groupId, customerIds: [created.id] });
          const ref = (await customersByIds(ids, trx, [ids.toPlugin(created.id)], await channelId(trx)))[0];
          if (!ref) throw new Error(`the customer Vendure created (${String(created.id)}) is not readable`);
          return ref;
        };
        return executor.isTransaction ? run(executor as Trx) : inTransaction(executor as Db, run);
      },
      async addresses(executor, customerId) {
        const vendureId = ids.toVendure(customerId);
        if (!vendureId) return [];
        return (await addressRows(executor, vendureId)).map(toAddress);
      },
      async defaultAddressIds(executor, customerId) {
        const vendureId = ids.toVendure(customerId);
        const rows = vendureId ? await addressRows(executor, vendureId) : [];
        const billing = rows.find((row) => readBool(row.defaultBillingAddress));
        const shipping = rows.find((row) => readBool(row.defaultShippingAddress));
        return {
          billing: billing ? ids.toPlugin(billing.id) : null,
          shipping: shipping ? ids.toPlugin(shipping.id) : null,
        };
      },
      /** Through Vendure's CustomerService (it clears the flag on the customer's other addresses). */
      async setDefaultAddress(executor, customerId, type, addressId) {
        const vendureCustomerId = ids.toVendure(customerId);
        const vendureAddressId = ids.toVendure(addressId);
        if (!vendureCustomerId || !vendureAddressId) return false;
        const own = await selectRow<{ id: string | number }>(
          ownAddressRow(executor, vendureCustomerId, vendureAddressId).first(selectAs(Address, undefined, 'id')),
        );
        if (!own) return false;
        const vendure = vendureServices(a);
        const ctx = await vendure.service(RequestContextService).create({ apiType: 'admin' });
        await vendure.service(CustomerService).updateAddress(ctx, {
          id: vendureAddressId,
          ...(type === 'billing' ? { defaultBillingAddress: true } : { defaultShippingAddress: true }),
        });
        return true;
      },
      /**
       * (3.5) The address book's writes go through Vendure's CustomerService (history entries,
       * events, one default per kind), each in Vendure's own transaction (see `create`). Vendure
       * keeps one `fullName`: first and last name are joined into it (and read back as `firstName`).
       */
      async createAddress(executor, customerId, input) {
        const vendureCustomerId = ids.toVendure(customerId);
        if (
          !vendureCustomerId ||
          !(await selectRow(
            executor(table(Customer))
              .where(column(Customer, 'id'), vendureCustomerId)
              .whereNull(column(Customer, 'deletedAt'))
              .first(selectAs(Customer, undefined, 'id')),
          ))
        )
          return null;
        await assertCountry(executor, input.countryCode);
        const { service, ctx } = await customerService();
        const created = await service.createAddress(ctx, vendureCustomerId, {
          ...vendureAddressFields(input, null),
          streetLine1: input.street,
          countryCode: input.countryCode.toUpperCase(),
        });
        return toAddress(
          (await addressRows(executor, vendureCustomerId)).find((row) => String(row.id) === String(created.id))!,
        );
      },
      async updateAddress(executor, customerId, addressId, input) {
        const own = await ownAddress(executor, customerId, addressId);
        if (!own) return null;
        if (input.countryCode !== undefined) await assertCountry(executor, input.countryCode);
        const { service, ctx } = await customerService();
        await service.updateAddress(ctx, { id: own.addressId, ...vendureAddressFields(input, own.fullName) });
        return toAddress(
          (await addressRows(executor, own.customerId)).find((row) => String(row.id) === String(own.addressId))!,
        );
      },
      async deleteAddress(executor, customerId, addressId) {
        const own = await ownAddress(executor, customerId, addressId);
        if (!own) return false;
        const { service, ctx } = await customerService();
        await service.deleteAddress(ctx, own.addressId);
        return true;
      },
      async salesChannel(executor, id): Promise<SalesChannel | null> {
        const channel = await a.salesChannel(executor);
        return channel.id === id ? channel : null;
      },
    },
    customerGroups: {
      getMany: (executor, wanted) => customerGroupsByIds(ids, executor, wanted),
    },
    rules: {
      /** The customer's groups, and the console's rule groups they match (rules.ts, decision 0035). */
      matchingRuleIds: (executor, ctx) => matchingRuleIds(ids, executor, ctx.customer?.id ?? null),
      async exists(executor, ruleId) {
        return (await customerGroupsByIds(ids, executor, [ruleId])).length > 0;
      },
    },
  };
}

export { toSalesChannel };
