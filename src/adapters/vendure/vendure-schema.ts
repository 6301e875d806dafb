import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Names of Vendure's tables and columns as TypeORM's entity metadata knows them (decision 0057): the adapter's SQL reads of Vendure's data (joins for speed: narrowing searches and
 * listings) never spell a Vendure table or column; they ask the metadata of Vendure's own entities,
 * so a shop's naming strategy, a table prefix or a renamed column in a later Vendure is followed.
 *
 * The metadata exists once Vendure's DataSource is initialised: the plugin binds it in
 * `onApplicationBootstrap` (plugin.ts). A read before that (in `configure`) throws, naming this.
 */
let source: DataSource | null = null;

/** Called by the plugin once Vendure's TransactionalConnection is up (its `rawConnection`). */
export function bindVendureSchema(dataSource: DataSource): void {
  source = dataSource;
}

function metadataOf(entity: EntityTarget<ObjectLiteral>): EntityMetadata {
  if (!source)
    throw new Error(
      "Suite B2B read Vendure's data before Vendure's database connection was up (vendure-schema.ts: bound in onApplicationBootstrap)",
    );
  return source.getMetadata(entity);
}

/**
 * The database name of a column of `entity`: a column's property path, or a relation's (its join
 * column); `<relation>Id` names the join column of `<relation>` where the entity declares no such
 * property (OrderLine's `orderId` is its `order` relation's column), as TypeORM's RelationId does.
 */
function columnName(metadata: EntityMetadata, property: string): string {
  const column = metadata.findColumnWithPropertyPath(property);
  if (column) return column.databaseName;
  const relation =
    metadata.findRelationWithPropertyPath(property) ??
    (property.endsWith('Id') ? metadata.findRelationWithPropertyPath(property.slice(0, -2)) : undefined);
  const joinColumn = relation?.joinColumns[0];
  if (joinColumn) return joinColumn.databaseName;
  throw new Error(`Vendure's ${metadata.name} has no column or owning relation "${property}"`);
}

/** The entity on the other side of a relation (`related(PaymentMethod, 'translations')`): for entities Vendure does not export. */
export function related(entity: EntityTarget<ObjectLiteral>, relationProperty: string): EntityTarget<ObjectLiteral> {
  const metadata = metadataOf(entity);
  const relation = metadata.findRelationWithPropertyPath(relationProperty);
  if (!relation) throw new Error(`Vendure's ${metadata.name} has no relation "${relationProperty}"`);
  return relation.inverseEntityMetadata.target;
}

/**
 * `table(Customer)` → the table's name; `table(Customer, 'c')` → `<name> as c` for knex.
 */
export function table(entity: EntityTarget<ObjectLiteral>, alias?: string): string {
  const name = metadataOf(entity).tableName;
  return alias ? `${name} as ${alias}` : name;
}

/**
 * `column(Customer, 'emailAddress')` → its database name; with an alias, `c.<name>`. A relation's
 * property (`column(Customer, 'user')`) answers its join column; custom fields by their path
 * (`column(Order, 'customFields.suiteB2BBuyer')`).
 */
export function column(entity: EntityTarget<ObjectLiteral>, property: string, alias?: string): string {
  const name = columnName(metadataOf(entity), property);
  return alias ? `${alias}.${name}` : name;
}

/** A qualified-column factory for one entity under one alias: `const c = columns(Customer, 'c'); c('emailAddress')`. */
export function columns(entity: EntityTarget<ObjectLiteral>, alias?: string): (property: string) => string {
  return (property) => column(entity, property, alias);
}

export interface Junction {
  /** The junction table's name (`<name> as <alias>` when an alias was given). */
  table: string;
  /** The column naming the owning entity's row (e.g. the customer of Customer.groups). */
  owner: string;
  /** The column naming the related entity's row (e.g. the customer group). */
  inverse: string;
}

/**
 * The junction table of a ManyToMany relation that `entity` owns (`junction(Customer, 'groups')`),
 * from `relation.junctionEntityMetadata`; with an alias, its columns come qualified.
 */
export function junction(entity: EntityTarget<ObjectLiteral>, relationProperty: string, alias?: string): Junction {
  const metadata = metadataOf(entity);
  const relation = metadata.findRelationWithPropertyPath(relationProperty);
  const junctionMetadata = relation?.junctionEntityMetadata;
  const owner = junctionMetadata?.ownerColumns[0];
  const inverse = junctionMetadata?.inverseColumns[0];
  if (!junctionMetadata || !owner || !inverse)
    throw new Error(`Vendure's ${metadata.name}.${relationProperty} is no ManyToMany relation with a junction table`);
  const q = (name: string) => (alias ? `${alias}.${name}` : name);
  return {
    table: alias ? `${junctionMetadata.tableName} as ${alias}` : junctionMetadata.tableName,
    owner: q(owner.databaseName),
    inverse: q(inverse.databaseName),
  };
}

/**
 * knex select items `<alias>.<column> as <property>` for properties of `entity`: the rows answer the
 * entity's property names whatever its columns are called.
 */
export function selectAs(
  entity: EntityTarget<ObjectLiteral>,
  alias: string | undefined,
  ...properties: string[]
): string[] {
  return properties.map((property) => `${column(entity, property, alias)} as ${property}`);
}

/**
 * The condition that picks `entity`'s rows from a table it shares with its siblings (TypeORM's
 * single-table inheritance: a Country is a row of the regions' table), or null when it has its own.
 */
export function discriminator(
  entity: EntityTarget<ObjectLiteral>,
  alias?: string,
): { column: string; value: string } | null {
  const metadata = metadataOf(entity);
  const own = metadata.discriminatorColumn;
  if (!own || metadata.discriminatorValue === undefined) return null;
  return { column: alias ? `${alias}.${own.databaseName}` : own.databaseName, value: metadata.discriminatorValue };
}
