import { createHash } from 'node:crypto';
import type { Dialect } from '../../lib/db.js';

/**
 * Ids between Vendure and the plugin. The plugin validates host ids as 32 lowercase hex characters
 * (lib/ids idSchema), so the adapter maps Vendure's ids at the edge, both ways and without a table:
 * - AutoIncrementIdStrategy (Vendure's default): 42 ⇄ "000…0042" (the decimal digits, left-padded
 *   with zeros to 32 characters: decimal digits are hex digits);
 * - UuidIdStrategy: "0b5f…-…" ⇄ the UUID without its dashes.
 * Inside Vendure (GraphQL, TypeORM) ids stay Vendure's own.
 */
export type IdKind = 'increment' | 'uuid';

const HEX32 = /^[0-9a-f]{32}$/;

export interface IdMapper {
  kind: IdKind;
  toPlugin(vendureId: unknown): string;
  /** null when the plugin id cannot be a Vendure id of this shop (the caller answers "not found"). */
  toVendure(pluginId: string): string | null;
  /** SQL turning a Vendure id column (`alias.column`, quoted here, or an SQL expression in parentheses) into the plugin's form. */
  columnAsPluginId(column: string, dialect: Dialect): string;
}

/**
 * An identifier (`column` or `alias.column`) quoted for raw SQL: Vendure's columns are camelCase
 * (`o.orderPlacedAt`), which PostgreSQL folds to lower case unless quoted. Anything else (an SQL
 * expression) is returned as it is.
 */
export function quoteColumn(column: string, dialect: Dialect): string {
  if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$/.test(column)) return column;
  const quote = dialect === 'mysql' ? '`' : '"';
  return column
    .split('.')
    .map((part) => `${quote}${part}${quote}`)
    .join('.');
}

export function idMapper(kind: IdKind): IdMapper {
  if (kind === 'uuid')
    return {
      kind,
      toPlugin: (id) => String(id).replace(/-/g, '').toLowerCase(),
      toVendure(id) {
        if (!HEX32.test(id)) return null;
        return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
      },
      columnAsPluginId: (column, dialect) =>
        `lower(replace(${dialect === 'postgres' ? `cast(${quoteColumn(column, dialect)} as text)` : quoteColumn(column, dialect)}, '-', ''))`,
    };
  return {
    kind,
    toPlugin: (id) => String(id).padStart(32, '0'),
    toVendure(id) {
      if (!/^[0-9]{32}$/.test(id)) return null;
      const trimmed = id.replace(/^0+/, '');
      return trimmed === '' ? null : trimmed;
    },
    columnAsPluginId(column, dialect) {
      const quoted = quoteColumn(column, dialect);
      if (dialect === 'mysql') return `lpad(${quoted}, 32, '0')`;
      if (dialect === 'postgres') return `lpad(cast(${quoted} as text), 32, '0')`;
      return `substr('00000000000000000000000000000000' || ${quoted}, -32, 32)`;
    },
  };
}

/** The Vendure ids of plugin ids; ids that cannot be Vendure's are dropped. */
export function toVendureIds(ids: IdMapper, pluginIds: string[]): string[] {
  return pluginIds.flatMap((id) => ids.toVendure(id) ?? []);
}

/** A 32-hex version id from Vendure's update time (Vendure has no version ids). */
export function versionId(updatedAt: unknown): string {
  const text = updatedAt instanceof Date ? updatedAt.toISOString() : String(updatedAt);
  return createHash('md5').update(text).digest('hex');
}
