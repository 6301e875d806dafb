import {
  searchByCriteria,
  type Criteria,
  type CriteriaSpec,
  type FieldSpec,
  type FieldType,
} from '../../lib/criteria.js';
import {
  inTransaction,
  isDuplicateKeyError,
  isForeignKeyError,
  isRowReferencedError,
  readBool,
  readInt,
  readJson,
  selectRow,
  writeJson,
  type Db,
  type Executor,
  type Trx,
} from '../../lib/db.js';
import { AppError, Errors } from '../../lib/errors.js';
import { ID_PATTERN, newId } from '../../lib/ids.js';
import { exactMinor, fromMinor } from '../../lib/money.js';
import { nullable, objectSchema } from '../../lib/schemas.js';
import { fromDbTime, nowDb } from '../../lib/time.js';
import type { JsonSchema } from '../../lib/validation.js';
import { moneyFiltersToMinor } from '../catalog/product-search.js';
import type { HostEventName } from '../../contract/index.js';
import type { HostInternals } from '../internals.js';

/** Admin prices are in the default currency's minor units with this precision. */
export const ADMIN_MONEY_PRECISION = 2;

export type FieldKind =
  'string' | 'text' | 'integer' | 'boolean' | 'money' | 'percentBp' | 'json' | 'id' | 'email' | 'datetime' | 'password';

export interface FieldDef {
  column: string;
  kind: FieldKind;
  /** Write schema; derived from the kind when absent. */
  schema?: JsonSchema;
  /** Read schema; derived from the kind when absent. */
  readSchema?: JsonSchema;
  required?: boolean;
  nullable?: boolean;
  /** API value used on create when the field is absent. */
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** Must name an existing row of this table (checked before writing: a clear 400). */
  references?: string;
  /** Error code when the value is taken. */
  unique?: string;
  /** Not offered as a criteria field. */
  noFilter?: boolean;
}

/** A to-many value stored in another table (product.categoryIds, product.tierPrices). */
export interface RelationDef {
  schema: JsonSchema;
  readSchema: JsonSchema;
  load(executor: Executor, ids: string[]): Promise<Map<string, unknown>>;
  save(trx: Trx, id: string, value: unknown): Promise<void>;
  /** Validates against the database before writing (existence of referenced rows …). */
  check?(trx: Trx, value: unknown): Promise<void> | void;
}

export interface WriteEvent {
  trx: Trx;
  id: string;
  /** API input as sent (validated). */
  input: Record<string, unknown>;
  /** Columns about to be written; hooks may add or change some. */
  columns: Record<string, unknown>;
  /** The current row on update, null on create. */
  existing: Record<string, unknown> | null;
}

export interface EntityDef {
  /** Path segment and name: 'landing-page'. */
  name: string;
  /** JSON:API type: 'landing_page'. */
  type: string;
  label: string;
  table: string;
  /** Has a version_id column (catalog entities). */
  versioned?: boolean;
  fields: Record<string, FieldDef>;
  relations?: Record<string, RelationDef>;
  /** Criteria fields beyond the plain columns (e.g. a product's categoryId through product_categories). */
  extraCriteriaFields?: Record<string, FieldSpec>;
  termFields?: string[];
  defaultSort?: string;
  /** JSON Schema definitions field schemas refer to ('#/$defs/…'), placed at the root of the body schemas. */
  defs?: Record<string, unknown>;
  /** API names whose change bumps the visibility counter; 'all': every write (rules). */
  visibility?: string[] | 'all';
  beforeWrite?(event: WriteEvent): Promise<void> | void;
  afterWrite?(event: WriteEvent): Promise<void>;
  beforeDelete?(trx: Trx, row: Record<string, unknown>): Promise<void>;
  /** The contract event a delete announces, so plugins clean up the ids they keep (no foreign keys reach them). */
  deletedEvent?: HostEventName;
  /** Ids the database deletes with the record (its own id included), for the event; default: the id. */
  idsDeletedWith?(trx: Trx, id: string): Promise<string[]>;
}

type Row = Record<string, unknown>;

const datetime = { type: 'string', format: 'date-time' };

function writeSchemaOf(field: FieldDef): JsonSchema {
  if (field.schema) return field.nullable ? nullable(field.schema) : field.schema;
  const min = field.required ? 1 : 0;
  const base: JsonSchema = (() => {
    switch (field.kind) {
      case 'string':
        return { type: 'string', minLength: min, maxLength: field.maxLength ?? 255 };
      case 'text':
        return { type: 'string', maxLength: field.maxLength ?? 16000 };
      case 'integer':
        return { type: 'integer', minimum: field.minimum ?? -2147483648, maximum: field.maximum ?? 2147483647 };
      case 'boolean':
        return { type: 'boolean' };
      case 'money':
        return { type: 'number', minimum: 0, maximum: 1e10 };
      case 'percentBp':
        return { type: 'number', minimum: 0, maximum: 100 };
      case 'id':
        return { type: 'string', pattern: ID_PATTERN };
      case 'email':
        return { type: 'string', format: 'email', maxLength: 255 };
      case 'password':
        return { type: 'string', minLength: 8, maxLength: 1024 };
      default:
        return {};
    }
  })();
  return field.nullable ? nullable(base) : base;
}

function readSchemaOf(field: FieldDef): JsonSchema {
  if (field.readSchema) return field.readSchema;
  const base: JsonSchema = (() => {
    switch (field.kind) {
      case 'integer':
        return { type: 'integer' };
      case 'boolean':
        return { type: 'boolean' };
      case 'money':
      case 'percentBp':
        return { type: 'number' };
      case 'datetime':
        return datetime;
      case 'json':
        return {};
      default:
        return { type: 'string' };
    }
  })();
  return field.nullable || field.kind === 'datetime' ? nullable(base) : base;
}

function readValue(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) {
    if (field.kind === 'json') return field.default ?? null;
    return field.kind === 'boolean' ? false : null;
  }
  switch (field.kind) {
    case 'integer':
      return readInt(value);
    case 'boolean':
      return readBool(value);
    case 'money':
      return fromMinor(value as number, ADMIN_MONEY_PRECISION);
    case 'percentBp':
      return readInt(value) / 100;
    case 'json':
      return readJson(value, field.default ?? null);
    case 'datetime':
      return fromDbTime(value as string);
    default:
      // Text columns: the driver answers a string (or a number for a numeric column).
      return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
  }
}

function writeValue(name: string, field: FieldDef, value: unknown): unknown {
  if (value === null) return null;
  switch (field.kind) {
    case 'money':
      return exactMinor(value as number, ADMIN_MONEY_PRECISION, `/${name}`);
    case 'percentBp':
      return Math.round((value as number) * 100);
    case 'json':
      return writeJson(value);
    case 'email':
      return (value as string).trim().toLowerCase();
    default:
      return value;
  }
}

const criteriaTypes: Partial<Record<FieldKind, FieldType>> = {
  string: 'string',
  text: 'string',
  email: 'string',
  integer: 'number',
  money: 'number',
  boolean: 'boolean',
  id: 'id',
  datetime: 'date',
};

const timestampFields: Record<string, FieldDef> = {
  createdAt: { column: 'created_at', kind: 'datetime', readOnly: true },
  updatedAt: { column: 'updated_at', kind: 'datetime', readOnly: true },
};

/** Everything the routes need about one entity, derived once from its definition. */
export class Entity {
  readonly fields: Record<string, FieldDef>;
  readonly criteria: CriteriaSpec;
  readonly createSchema: JsonSchema;
  readonly updateSchema: JsonSchema;
  readonly resourceSchema: JsonSchema;
  private readonly moneyFields: string[];

  constructor(readonly def: EntityDef) {
    this.fields = {
      ...(def.versioned ? { versionId: { column: 'version_id', kind: 'id', readOnly: true } } : {}),
      ...def.fields,
      ...timestampFields,
    };
    const writable = Object.entries(this.fields).filter(([, f]) => !f.readOnly);
    const writeProps: Record<string, unknown> = {
      ...Object.fromEntries(writable.map(([name, f]) => [name, writeSchemaOf(f)])),
    };
    for (const [name, relation] of Object.entries(def.relations ?? {})) writeProps[name] = relation.schema;
    this.createSchema = objectSchema(
      { id: { type: 'string', pattern: ID_PATTERN }, ...writeProps },
      writable.filter(([, f]) => f.required).map(([name]) => name),
      def.defs ? { $defs: def.defs } : {},
    );
    this.updateSchema = objectSchema(writeProps, [], { minProperties: 1, ...(def.defs ? { $defs: def.defs } : {}) });

    const readable = Object.entries(this.fields).filter(([, f]) => !f.writeOnly);
    const readProps: Record<string, unknown> = Object.fromEntries(readable.map(([name, f]) => [name, readSchemaOf(f)]));
    for (const [name, relation] of Object.entries(def.relations ?? {})) readProps[name] = relation.readSchema;
    this.resourceSchema = objectSchema(
      {
        id: { type: 'string' },
        type: { const: def.type },
        attributes: objectSchema(readProps, Object.keys(readProps)),
      },
      ['id', 'type', 'attributes'],
    );

    const criteriaFields: Record<string, FieldSpec> = { id: { column: `${def.table}.id`, type: 'id' } };
    for (const [name, field] of readable) {
      const type = criteriaTypes[field.kind];
      if (type && !field.noFilter) criteriaFields[name] = { column: `${def.table}.${field.column}`, type };
    }
    Object.assign(criteriaFields, def.extraCriteriaFields ?? {});
    this.moneyFields = readable.filter(([, f]) => f.kind === 'money').map(([name]) => name);
    const sortField = this.fields[def.defaultSort ?? 'createdAt'];
    this.criteria = {
      fields: criteriaFields,
      termColumns: (def.termFields ?? []).map((name) => `${def.table}.${this.fields[name]!.column}`),
      defaultSort: [
        { column: `${def.table}.${sortField?.column ?? 'created_at'}`, order: 'asc' },
        { column: `${def.table}.id`, order: 'asc' },
      ],
      idColumn: `${def.table}.id`,
    };
  }

  async resources(executor: Executor, rows: Row[]) {
    const ids = rows.map((r) => String(r.id));
    const relations = await Promise.all(
      Object.entries(this.def.relations ?? {}).map(async ([name, r]) => [name, await r.load(executor, ids)] as const),
    );
    return rows.map((row) => {
      const attributes: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(this.fields))
        if (!field.writeOnly) attributes[name] = readValue(field, row[field.column]);
      for (const [name, loaded] of relations) attributes[name] = loaded.get(String(row.id)) ?? [];
      return { id: String(row.id), type: this.def.type, attributes };
    });
  }

  async get(executor: Executor, id: string) {
    const row = await selectRow<Row>(executor(this.def.table).where({ id }).first());
    if (!row) throw Errors.notFound(this.def.label, id);
    return (await this.resources(executor, [row]))[0]!;
  }

  async search(db: Db, criteria: Criteria) {
    const filter = moneyFiltersToMinor(criteria.filter, this.moneyFields, ADMIN_MONEY_PRECISION);
    const page = await searchByCriteria<Row>(db(this.def.table), { ...criteria, filter }, this.criteria, (qb) =>
      qb.select(`${this.def.table}.*`),
    );
    return { total: page.total, data: await this.resources(db, page.rows), nextCursor: page.nextCursor };
  }

  private async checkReferences(trx: Trx, input: Record<string, unknown>): Promise<void> {
    for (const [name, field] of Object.entries(this.fields)) {
      const value = input[name];
      if (!field.references || typeof value !== 'string') continue;
      if (!(await trx(field.references).where({ id: value }).first('id')))
        throw Errors.badRequest('SUITE__UNKNOWN_REFERENCE', `No ${field.references} row with id "${value}".`, {
          pointer: `/${name}`,
        });
    }
    for (const [name, relation] of Object.entries(this.def.relations ?? {}))
      if (name in input) await relation.check?.(trx, input[name]);
  }

  private columnsOf(input: Record<string, unknown>): Record<string, unknown> {
    const columns: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(this.fields))
      if (!field.readOnly && name in input && field.kind !== 'password')
        columns[field.column] = writeValue(name, field, input[name]);
    return columns;
  }

  private visibilityTouched(input: Record<string, unknown>, created: boolean): boolean {
    const visibility = this.def.visibility;
    if (!visibility) return false;
    return created || visibility === 'all' || visibility.some((name) => name in input);
  }

  async create(db: Db, input: Record<string, unknown>, onVisibility: (trx: Trx) => Promise<void>) {
    const id = (input.id as string | undefined) ?? newId();
    for (const [name, field] of Object.entries(this.fields))
      if (!(name in input) && field.default !== undefined) input[name] = field.default;
    return this.write(db, async (trx) => {
      if (await trx(this.def.table).where({ id }).first('id'))
        throw Errors.badRequest('SUITE__DUPLICATE_ID', `A ${this.def.label} with id "${id}" exists already.`, {
          pointer: '/id',
        });
      await this.checkReferences(trx, input);
      const event: WriteEvent = {
        trx,
        id,
        input,
        existing: null,
        columns: {
          ...this.columnsOf(input),
          id,
          created_at: nowDb(),
          ...(this.def.versioned ? { version_id: newId() } : {}),
        },
      };
      await this.def.beforeWrite?.(event);
      await trx(this.def.table).insert(event.columns);
      await this.saveRelations(trx, id, input);
      await this.def.afterWrite?.(event);
      if (this.visibilityTouched(input, true)) await onVisibility(trx);
      return this.get(trx, id);
    });
  }

  async update(db: Db, id: string, input: Record<string, unknown>, onVisibility: (trx: Trx) => Promise<void>) {
    return this.write(db, async (trx) => {
      const existing = await selectRow<Row>(trx(this.def.table).where({ id }).first());
      if (!existing) throw Errors.notFound(this.def.label, id);
      await this.checkReferences(trx, input);
      const event: WriteEvent = {
        trx,
        id,
        input,
        existing,
        columns: { ...this.columnsOf(input), updated_at: nowDb() },
      };
      await this.def.beforeWrite?.(event);
      await trx(this.def.table).where({ id }).update(event.columns);
      await this.saveRelations(trx, id, input);
      await this.def.afterWrite?.(event);
      if (this.visibilityTouched(input, false)) await onVisibility(trx);
      return this.get(trx, id);
    });
  }

  async remove(
    db: Db,
    id: string,
    onVisibility: (trx: Trx) => Promise<void>,
    emit: HostInternals['emit'],
  ): Promise<void> {
    await this.write(db, async (trx) => {
      const existing = await selectRow<Row>(trx(this.def.table).where({ id }).first());
      if (!existing) throw Errors.notFound(this.def.label, id);
      await this.def.beforeDelete?.(trx, existing);
      const deletedIds = this.def.deletedEvent ? ((await this.def.idsDeletedWith?.(trx, id)) ?? [id]) : [];
      await trx(this.def.table).where({ id }).delete();
      if (this.def.deletedEvent) await emit(trx, this.def.deletedEvent, { ids: deletedIds });
      if (this.def.visibility) await onVisibility(trx);
    });
  }

  private async saveRelations(trx: Trx, id: string, input: Record<string, unknown>): Promise<void> {
    for (const [name, relation] of Object.entries(this.def.relations ?? {}))
      if (name in input) await relation.save(trx, id, input[name]);
  }

  /** One transaction; constraint violations become 400s that say what is wrong. */
  private async write<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(db, work);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (isDuplicateKeyError(error)) {
        const message = String((error as Error).message);
        const field = Object.entries(this.fields).find(
          ([, f]) => f.unique && new RegExp(`\\b${this.def.table}[._]${f.column}(?:_unique|\\b)`).test(message),
        );
        if (field)
          throw Errors.badRequest(field[1].unique!, `The ${field[0]} is taken already.`, { pointer: `/${field[0]}` });
        throw Errors.badRequest(
          'SUITE__DUPLICATE_VALUE',
          `A value of this ${this.def.label} must be unique and is taken already.`,
        );
      }
      if (isRowReferencedError(error))
        throw Errors.badRequest('SUITE__ENTITY_IN_USE', `The ${this.def.label} is still referenced by other records.`);
      if (isForeignKeyError(error))
        throw Errors.badRequest(
          'SUITE__UNKNOWN_REFERENCE',
          `A referenced record of this ${this.def.label} does not exist.`,
        );
      throw error;
    }
  }
}
