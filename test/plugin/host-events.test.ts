import { expect } from 'chai';
import { dialectOf, selectRaw, type Db } from '../../src/lib/db.js';
import { newId } from '../../src/lib/ids.js';
import { nowDb } from '../../src/lib/time.js';
import { HOST_ID_COLUMNS } from '../../migrations/plugin/012_host_ids_without_foreign_keys.js';
import { adminToken, createTestCustomer, getShop, http } from '../helpers/shop.js';

/**
 * What a foreign key cascade did, the add-ons do on the host's contract events. For every plugin
 * table that keeps a host id of the deleted kind, a row of the deleted record and one of another
 * record are written; the Admin API delete must take the first along and leave the second.
 */

interface Column {
  name: string;
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  primaryKey: boolean;
}

async function columnsOf(db: Db, table: string): Promise<Column[]> {
  if (dialectOf(db) === 'sqlite')
    return (
      (await db.raw(`PRAGMA table_info(\`${table}\`)`)) as Array<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: unknown;
        pk: number;
      }>
    ).map((c) => ({
      name: c.name,
      type: c.type.toLowerCase(),
      nullable: !c.notnull,
      hasDefault: c.dflt_value !== null,
      primaryKey: c.pk > 0,
    }));
  const rows = await selectRaw(
    db,
    dialectOf(db) === 'postgres'
      ? `SELECT c.column_name AS name, CASE WHEN c.data_type LIKE 'timestamp%' THEN 'datetime' WHEN c.character_maximum_length IS NOT NULL THEN 'varchar(' || c.character_maximum_length || ')' ELSE c.data_type END AS type,
          c.is_nullable AS nullable, c.column_default AS dflt,
          CASE WHEN EXISTS (SELECT 1 FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema
            WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = c.table_schema AND tc.table_name = c.table_name AND k.column_name = c.column_name) THEN 'PRI' ELSE '' END AS "key"
          FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ?`
      : 'SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS dflt, COLUMN_KEY AS `key` FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    [table],
  );
  return (rows as Array<{ name: string; type: string; nullable: string; dflt: unknown; key: string }>).map((c) => ({
    name: c.name,
    type: c.type.toLowerCase(),
    nullable: c.nullable === 'YES',
    hasDefault: c.dflt !== null,
    primaryKey: c.key === 'PRI',
  }));
}

async function foreignKeysOf(db: Db, table: string): Promise<Map<string, { table: string; column: string }>> {
  if (dialectOf(db) === 'sqlite')
    return new Map(
      (
        (await db.raw(`PRAGMA foreign_key_list(\`${table}\`)`)) as Array<{ from: string; table: string; to: string }>
      ).map((fk) => [fk.from, { table: fk.table, column: fk.to }]),
    );
  const rows = await selectRaw(
    db,
    dialectOf(db) === 'postgres'
      ? `SELECT kcu.column_name AS "from", ccu.table_name AS "table", ccu.column_name AS "to" FROM information_schema.table_constraints tc
          JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
          JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
          WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND tc.table_name = ?`
      : 'SELECT COLUMN_NAME AS `from`, REFERENCED_TABLE_NAME AS `table`, REFERENCED_COLUMN_NAME AS `to` FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL',
    [table],
  );
  return new Map(
    (rows as Array<{ from: string; table: string; to: string }>).map((fk) => [
      fk.from,
      { table: fk.table, column: fk.to },
    ]),
  );
}

function someValue(column: Column): unknown {
  if (column.type.startsWith('datetime')) return nowDb();
  if (/int|boolean|tinyint/.test(column.type)) return 0;
  const length = /\((\d+)\)/.exec(column.type)?.[1];
  return length ? newId().slice(0, Math.min(Number(length), 32)) : '[]';
}

/** Seeded lookup tables: rows refer to an existing entry (a made-up status would show up in other tests' lists). */
const LOOKUP_TABLES = new Set(['b2b_offer_states', 'b2b_event_participant_statuses', 'b2b_customer_activity_types']);

/**
 * Inserts a row with `values` and made-up values for every other required column; a required
 * column with a foreign key to another plugin table gets a new parent row, made the same way
 * (or an existing entry of a lookup table).
 */
async function insertRow(db: Db, table: string, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const foreignKeys = await foreignKeysOf(db, table);
  const row: Record<string, unknown> = { ...values };
  for (const column of await columnsOf(db, table)) {
    if (column.name in row || ((column.nullable || column.hasDefault) && !column.primaryKey)) continue;
    const parent = foreignKeys.get(column.name);
    if (!parent) row[column.name] = someValue(column);
    else if (LOOKUP_TABLES.has(parent.table))
      row[column.name] = (await db(parent.table).orderBy(parent.column).first(parent.column))[parent.column];
    else row[column.name] = (await insertRow(db, parent.table, {}))[parent.column];
  }
  await db(table).insert(row);
  return row;
}

/** The plugin tables and columns that keep host ids of one kind, from the list migration 012 indexes. */
function columnsHolding(column: string): Array<[table: string, column: string]> {
  return Object.entries(HOST_ID_COLUMNS).flatMap(([table, columns]) =>
    columns.filter((c) => c === column).map((c) => [table, c] as [string, string]),
  );
}

async function rowsPerTable(db: Db, targets: Array<[string, string]>, id: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [table, column] of targets)
    counts[`${table}.${column}`] = Number((await db(table).where(column, id).count({ n: '*' }))[0]!.n);
  return counts;
}

function each(targets: Array<[string, string]>, n: number): Record<string, number> {
  return Object.fromEntries(targets.map(([table, column]) => [`${table}.${column}`, n]));
}

async function deleteThroughAdminApi(entity: string, id: string): Promise<void> {
  const res = await (await http()).delete(`/api/${entity}/${id}`).set('authorization', `Bearer ${await adminToken()}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(204);
}

async function insertProduct(db: Db): Promise<string> {
  const id = newId();
  // Inactive: no other test's listing shows it.
  await db('products').insert({
    id,
    version_id: newId(),
    product_number: `EV-${newId().slice(0, 10)}`,
    name: 'Event test product',
    price_net: 1000,
    active: false,
    created_at: nowDb(),
  });
  return id;
}

describe('plugin: host events take over the cascades', () => {
  it('customer.deleted: every plugin row of the customer goes, another customer keeps its rows', async () => {
    const { db } = await getShop();
    const targets = columnsHolding('customer_id');
    expect(targets.length).to.be.greaterThan(10);
    const doomed = (await createTestCustomer()).customer.id;
    const kept = (await createTestCustomer()).customer.id;
    for (const [table, column] of targets)
      for (const id of [doomed, kept]) await insertRow(db, table, { [column]: id });
    expect(await rowsPerTable(db, targets, doomed)).to.deep.equal(each(targets, 1));

    await deleteThroughAdminApi('customer', doomed);
    expect(await rowsPerTable(db, targets, doomed)).to.deep.equal(each(targets, 0));
    expect(await rowsPerTable(db, targets, kept)).to.deep.equal(each(targets, 1));
    await deleteThroughAdminApi('customer', kept);
    expect(await rowsPerTable(db, targets, kept)).to.deep.equal(each(targets, 0));
  });

  it('customer.deleted: an employee of the customer stays (employees may work for several customers), its link goes', async () => {
    const { db } = await getShop();
    const doomed = (await createTestCustomer()).customer.id;
    const link = await insertRow(db, 'b2b_employee_customers', { customer_id: doomed });
    await deleteThroughAdminApi('customer', doomed);
    expect(await db('b2b_employee_customers').where({ id: link.id }).first()).to.equal(undefined);
    expect(await db('b2b_employees').where({ id: link.employee_id }).first()).to.not.equal(undefined);
  });

  it('product.deleted: rule assignments, prices, list items, customer numbers and events of the product go', async () => {
    const { db } = await getShop();
    const targets = columnsHolding('product_id');
    expect(targets.map(([table]) => table)).to.include.members([
      'suite_partial_assortment_product_rule',
      'suite_customer_prices',
      'suite_product_list_items',
      'suite_customer_product_numbers',
      'b2b_events',
    ]);
    const doomed = await insertProduct(db);
    const kept = await insertProduct(db);
    for (const [table, column] of targets)
      for (const id of [doomed, kept]) await insertRow(db, table, { [column]: id });
    const event = await db('b2b_events').where({ product_id: doomed }).first('id');
    const participant = await insertRow(db, 'b2b_event_participants', { event_id: event.id });

    await deleteThroughAdminApi('product', doomed);
    expect(await rowsPerTable(db, targets, doomed)).to.deep.equal(each(targets, 0));
    expect(await rowsPerTable(db, targets, kept)).to.deep.equal(each(targets, 1));
    // The event's own rows follow it through the plugin's foreign keys.
    expect(await db('b2b_event_participants').where({ id: participant.id }).first()).to.equal(undefined);
    await deleteThroughAdminApi('product', kept);
    expect(await rowsPerTable(db, targets, kept)).to.deep.equal(each(targets, 0));
  });

  it('customer_group.deleted: the group prices go', async () => {
    const { db } = await getShop();
    const bearer = `Bearer ${await adminToken()}`;
    const groups = await Promise.all(
      [1, 2].map(
        async () =>
          (
            await (
              await http()
            )
              .post('/api/customer-group')
              .set('authorization', bearer)
              .send({ name: `Group ${newId().slice(0, 6)}` })
          ).body.data.id as string,
      ),
    );
    const [doomed, kept] = groups as [string, string];
    for (const id of groups) await insertRow(db, 'suite_customer_prices', { customer_group_id: id });

    await deleteThroughAdminApi('customer-group', doomed);
    expect(await db('suite_customer_prices').where({ customer_group_id: doomed }).first()).to.equal(undefined);
    expect(await db('suite_customer_prices').where({ customer_group_id: kept }).first()).to.not.equal(undefined);
    await deleteThroughAdminApi('customer-group', kept);
  });

  it('category.deleted: the assignments of the category and of the sub-categories deleted with it go', async () => {
    const { db } = await getShop();
    const bearer = `Bearer ${await adminToken()}`;
    const create = async (parentId: string | null) =>
      (
        await (
          await http()
        )
          .post('/api/category')
          .set('authorization', bearer)
          .send({ name: `Cat ${newId().slice(0, 6)}`, parentId })
      ).body.data.id as string;
    const parent = await create(null);
    const child = await create(parent);
    const grandchild = await create(child);
    const other = await create(null);
    for (const id of [parent, child, grandchild, other])
      await insertRow(db, 'suite_partial_assortment_category_rule', {
        category_id: id,
        category_version_id: newId(),
        rule_id: newId(),
      });

    await deleteThroughAdminApi('category', parent);
    expect(
      await db('suite_partial_assortment_category_rule')
        .whereIn('category_id', [parent, child, grandchild])
        .pluck('category_id'),
    ).to.deep.equal([]);
    expect(
      await db('suite_partial_assortment_category_rule').where({ category_id: other }).pluck('category_id'),
    ).to.deep.equal([other]);
    await deleteThroughAdminApi('category', other);
  });

  it('landing_page.deleted: the assignments of the landing page go', async () => {
    const { db } = await getShop();
    const bearer = `Bearer ${await adminToken()}`;
    const create = async () =>
      (
        await (
          await http()
        )
          .post('/api/landing-page')
          .set('authorization', bearer)
          .send({ name: 'Landing', url: `landing-${newId().slice(0, 8)}` })
      ).body.data.id as string;
    const doomed = await create();
    const kept = await create();
    for (const id of [doomed, kept])
      await insertRow(db, 'suite_partial_assortment_landing_page_rule', {
        landing_page_id: id,
        landing_page_version_id: newId(),
        rule_id: newId(),
      });

    await deleteThroughAdminApi('landing-page', doomed);
    expect(await db('suite_partial_assortment_landing_page_rule').where({ landing_page_id: doomed }).first()).to.equal(
      undefined,
    );
    expect(
      await db('suite_partial_assortment_landing_page_rule').where({ landing_page_id: kept }).first(),
    ).to.not.equal(undefined);
    await deleteThroughAdminApi('landing-page', kept);
  });

  it('a failing handler rolls the host delete back', async () => {
    const shop = await getShop();
    const doomed = (await createTestCustomer()).customer.id;
    shop.runtime.events.on('customer.deleted', async (_trx, { ids }) => {
      if (ids.includes(doomed)) throw new Error('refused by a test handler');
    });
    const res = await (
      await http()
    )
      .delete(`/api/customer/${doomed}`)
      .set('authorization', `Bearer ${await adminToken()}`);
    expect(res.status).to.equal(500);
    expect(await shop.db('customers').where({ id: doomed }).first()).to.not.equal(undefined);
  });
});
