import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import '@vendure/core';
import { DefaultNamingStrategy, getMetadataArgsStorage } from 'typeorm';
import { projectPath } from '../../../src/host-kit/paths.js';

/**
 * Vendure's data through Vendure (decision 0057): the adapter's SQL takes Vendure's
 * table and column names from TypeORM's entity metadata (src/adapters/vendure/vendure-schema.ts),
 * never from strings, and reaches into no Vendure or TypeORM internals. Pure: the source is scanned,
 * no database. Vendure's table names come from the entity decorators `@vendure/core` registers (the
 * same metadata TypeORM builds the tables from), so a new Vendure entity is covered without a list.
 */

const ADAPTER = 'src/adapters';
const naming = new DefaultNamingStrategy();

/** Every table Vendure's core entities and their ManyToMany junctions get under TypeORM's default naming. */
export function vendureTableNames(): Set<string> {
  const storage = getMetadataArgsStorage();
  const tableOf = new Map<unknown, string>();
  for (const table of storage.tables)
    if (typeof table.target === 'function')
      tableOf.set(table.target, table.name ?? naming.tableName(table.target.name, undefined));
  const names = new Set(tableOf.values());
  for (const joinTable of storage.joinTables) {
    const relation = storage.relations.find(
      (r) => r.target === joinTable.target && r.propertyName === joinTable.propertyName,
    );
    const type = relation && (typeof relation.type === 'function' ? (relation.type as () => unknown)() : relation.type);
    const owner = tableOf.get(joinTable.target);
    const other = tableOf.get(type);
    if (joinTable.name) names.add(joinTable.name);
    else if (owner && other) names.add(naming.joinTableName(owner, other, joinTable.propertyName, ''));
  }
  // The DefaultSearchPlugin's entity (registered when a shop imports the plugin).
  names.add('search_index_item');
  return names;
}

/** knex calls whose first string argument is a table (or `table as alias`). */
const TABLE_CALLS = new Set([
  'executor',
  'trx',
  'db',
  'knex',
  'from',
  'into',
  'table',
  'join',
  'leftJoin',
  'innerJoin',
  'rightJoin',
  'fullOuterJoin',
  'crossJoin',
]);
/** knex calls that take column names. */
const COLUMN_CALLS = new Set([
  ...TABLE_CALLS,
  'where',
  'andWhere',
  'orWhere',
  'whereNot',
  'whereIn',
  'whereNotIn',
  'whereNull',
  'whereNotNull',
  'select',
  'first',
  'orderBy',
  'groupBy',
  'sum',
  'min',
  'max',
  'count',
  'distinct',
  'pluck',
  'on',
  'andOn',
  'orOn',
  'andOnVal',
  'onVal',
  'update',
  'increment',
  'decrement',
  'returning',
]);
/** Text that reaches into Vendure's or TypeORM's internals, or patches a driver's class. */
export const FORBIDDEN = ['@vendure/core/dist', '_queryRunner', 'prototype.'];

const calleeName = (node: ts.Node): string | null => {
  if (!ts.isCallExpression(node)) return null;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
};

/**
 * Whether a call is part of a TypeORM query builder chain (`….createQueryBuilder('order').innerJoin('order.channels', …)`):
 * its strings are entity property paths and aliases TypeORM resolves through the metadata, as wanted.
 */
function inTypeOrmQueryBuilder(call: ts.CallExpression): boolean {
  let current: ts.Expression = call.expression;
  for (;;) {
    if (ts.isPropertyAccessExpression(current)) current = current.expression;
    else if (ts.isCallExpression(current)) {
      if (calleeName(current) === 'createQueryBuilder') return true;
      current = current.expression;
    } else if (ts.isIdentifier(current)) {
      // `const query = ….createQueryBuilder(…)…; query.orderBy(…)`: the variable's initializer decides.
      const initializer = initializerOf(current);
      if (!initializer || !ts.isCallExpression(initializer)) return false;
      return calleeName(initializer) === 'createQueryBuilder' || inTypeOrmQueryBuilder(initializer);
    } else return false;
  }
}

/** The initializer of the `const`/`let` an identifier names in its file (by name, the nearest scope not considered). */
function initializerOf(identifier: ts.Identifier): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  const find = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === identifier.text &&
      node.initializer
    )
      found = node.initializer;
    if (!found) ts.forEachChild(node, find);
  };
  find(identifier.getSourceFile());
  return found;
}

/** The call a literal is an argument of (directly, or inside an array / object literal argument). */
function enclosingCall(node: ts.Node): string | null {
  let current: ts.Node = node;
  while (
    ts.isArrayLiteralExpression(current.parent) ||
    ts.isPropertyAssignment(current.parent) ||
    ts.isObjectLiteralExpression(current.parent)
  )
    current = current.parent;
  const call = current.parent;
  return ts.isCallExpression(call) && call.arguments.includes(current as ts.Expression) && !inTypeOrmQueryBuilder(call)
    ? calleeName(call)
    : null;
}

const VENDURE_COLUMN = /^(\w+\.)?[a-z]+[A-Z]\w*(\s+as\s+\w+)?$/;

/** The breaches in one file's source: Vendure tables or columns spelt in SQL strings, and the forbidden patterns. */
export function adapterSqlBreaches(file: string, source: string, tables: Set<string>): string[] {
  const breaches: string[] = [];
  for (const pattern of FORBIDDEN) if (source.includes(pattern)) breaches.push(`${file}: "${pattern}"`);
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const report = (node: ts.Node, why: string) => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
    breaches.push(`${file}:${line + 1}: ${why}`);
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const text = node.text;
      for (const match of text.matchAll(/\b(?:from|join|into|update|table)\s+[`"']?(\w+)/gi))
        if (tables.has(match[1]!)) report(node, `SQL names Vendure's table "${match[1]}"`);
      const aliased = /^\s*(\w+)\s+as\s+\w+\s*$/i.exec(text);
      if (aliased && tables.has(aliased[1]!)) report(node, `"${text}" names Vendure's table "${aliased[1]}"`);
      const call = ts.isStringLiteralLike(node) ? enclosingCall(node) : null;
      if (call && TABLE_CALLS.has(call) && tables.has(text)) report(node, `${call}('${text}') names Vendure's table`);
      if (call && COLUMN_CALLS.has(call) && VENDURE_COLUMN.test(text))
        report(node, `${call}(… '${text}' …) names a Vendure column (camelCase; the plugin's columns are snake_case)`);
    }
    if (
      ts.isObjectLiteralExpression(node) &&
      ts.isCallExpression(node.parent) &&
      COLUMN_CALLS.has(calleeName(node.parent) ?? '')
    )
      for (const property of node.properties)
        if (
          property.name &&
          (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) &&
          VENDURE_COLUMN.test(property.name.text) &&
          calleeName(node.parent)?.startsWith('where')
        )
          report(property, `where({ ${property.name.text} }) names a Vendure column`);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return breaches;
}

function adapterFiles(): string[] {
  return readdirSync(projectPath(ADAPTER), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(ADAPTER, f));
}

/**
 * What is left of the patch decision 0012 made: the plugin's transaction carrying Vendure's order
 * (shared-transaction.ts) binds a TypeORM query runner on the plugin's connection to a RequestContext,
 * which Vendure offers no public way to do (decision 0057, "What is left"). It goes when the plugin's
 * placing transactions are opened as Vendure's; until then this test fails on any other breach, and
 * on this one once it is gone (so the list is kept true).
 */
const KNOWN = ['src/adapters/vendure/shared-transaction.ts: "@vendure/core/dist"'];

describe("architecture: the Vendure adapter reads Vendure's data through Vendure", () => {
  const tables = vendureTableNames();

  it("knows Vendure's tables from its entity metadata", () => {
    for (const name of [
      'order',
      'order_line',
      'customer',
      'product_variant',
      'channel',
      'customer_group',
      'customer_groups_customer_group',
      'collection_product_variants_product_variant',
    ])
      expect(tables.has(name), name).to.equal(true);
  });

  it('no SQL string in src/adapters names a Vendure table or column, and no internals are reached', () => {
    const breaches = adapterFiles().flatMap((file) =>
      adapterSqlBreaches(file, readFileSync(projectPath(file), 'utf8'), tables),
    );
    expect(breaches, breaches.join('\n')).to.deep.equal(KNOWN);
  });

  it('fails on a planted breach', () => {
    const planted = [
      "const rows = await executor('order_line').where('orderId', id);",
      "executor('order').where({ id })",
      "db('customer as c').leftJoin('user as u', 'u.id', 'c.userId')",
      'executor.raw(`(select min(g.x) from customer_groups_customer_group g)`)',
      "query.whereNull('c.deletedAt')",
      'query.where({ customerId: 1 })',
      "import { TRANSACTION_MANAGER_KEY } from '@vendure/core/dist/common/constants.js';",
      'runner._queryRunner = other;',
      'Database.prototype.prepare = patched;',
    ];
    for (const line of planted)
      expect(adapterSqlBreaches('src/adapters/vendure/planted.ts', line, tables), line).to.not.deep.equal([]);
  });

  it('leaves names from the metadata, the plugin’s own tables and non-SQL strings alone', () => {
    const clean = [
      "executor(table(Order, 'o')).where(column(Order, 'customerId', 'o'), id)",
      "executor('suite_host_documents').where({ order_id: id }).select('created_at')",
      "Errors.notFound('customer', id)",
      "run(ctx, 'customer_group.deleted', ids)",
      "jsonApiListSchema(namedResource('customer_group'))",
      "repo.createQueryBuilder('order').innerJoin('order.channels', 'channel').orderBy('order.createdAt', 'DESC')",
    ];
    for (const line of clean)
      expect(adapterSqlBreaches('src/adapters/vendure/clean.ts', line, tables), line).to.deep.equal([]);
  });
});
