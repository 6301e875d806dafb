import { readFileSync } from 'node:fs';
import { menuPreview, type MenuPreviewEntry } from '../account/platform-menu.js';
import { consolePage, formErrorsOf, noErrors, type ConsoleContext, type ConsoleKit, type FormErrors } from './kit.js';

const PATH = '/settings';

interface PropertySchema {
  type?: string | string[];
  items?: { type?: string };
  additionalProperties?: unknown;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
}

type Kind = 'integer' | 'boolean' | 'text' | 'list' | 'map';

interface Field {
  name: string;
  label: string;
  description: string;
  kind: Kind;
  nullable: boolean;
  minimum?: number;
  maximum?: number;
  defaultText: string;
}

/** The plugin's own manifest (plugin.json at the package root, next to src/ and dist/). */
function manifestConfig(): { properties: Record<string, PropertySchema> } {
  const manifest = JSON.parse(readFileSync(new URL('../../../plugin.json', import.meta.url), 'utf8')) as {
    config: { properties: Record<string, PropertySchema> };
  };
  return manifest.config;
}

/** camelCase → "Camel case" for a label. */
function labelOf(name: string): string {
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words[0]!.toUpperCase() + words.slice(1);
}

function kindOf(schema: PropertySchema): Kind {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) return 'integer';
  if (types.includes('boolean')) return 'boolean';
  if (types.includes('array')) return 'list';
  if (types.includes('object')) return 'map';
  return 'text';
}

/** A setting's value as its form field shows it: lists one entry per line, maps "key = value" per line. */
function toText(kind: Kind, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (kind === 'list') return Array.isArray(value) ? value.map(String).join('\n') : '';
  if (kind === 'map')
    return typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .map(([key, entry]) => `${key} = ${String(entry)}`)
          .join('\n')
      : '';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

/** A form field's text as the setting's value; what cannot be read is sent as typed, for the API to name. */
function fromText(field: Field, text: string, checked: boolean): unknown {
  const trimmed = text.trim();
  switch (field.kind) {
    case 'boolean':
      return checked;
    case 'integer':
      return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed === '' && field.nullable ? null : trimmed;
    case 'list':
      return trimmed
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
    case 'map':
      return Object.fromEntries(
        trimmed
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean)
          .map((line) => {
            const at = line.indexOf('=');
            return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
          }),
      );
    default:
      return trimmed === '' && field.nullable ? null : trimmed;
  }
}

/**
 * The plugin's settings as a form generated from plugin.json's config JSON Schema: one field per
 * setting with its description and default, saved with the Admin API's updatePluginConfig, whose
 * validation messages stand next to the fields.
 */
export function settingsPages(kit: ConsoleKit) {
  const properties = manifestConfig().properties;
  const fields: Field[] = Object.entries(properties).map(([name, schema]) => {
    const kind = kindOf(schema);
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    return {
      name,
      label: labelOf(name),
      description: schema.description ?? '',
      kind,
      nullable: types.includes('null'),
      ...(schema.minimum !== undefined ? { minimum: schema.minimum } : {}),
      ...(schema.maximum !== undefined ? { maximum: schema.maximum } : {}),
      defaultText: kind === 'boolean' ? (schema.default ? 'on' : 'off') : toText(kind, schema.default) || 'empty',
    };
  });

  function render(
    values: Record<string, string>,
    checked: Record<string, boolean>,
    errors: FormErrors,
    status = 200,
    menu: MenuPreviewEntry[] = [],
  ) {
    return {
      template: 'settings',
      status,
      data: {
        title: 'Settings',
        accountMenu: menu,
        fields: fields.map((field) => ({
          ...field,
          isInteger: field.kind === 'integer',
          isBoolean: field.kind === 'boolean',
          isText: field.kind === 'text',
          isMultiline: field.kind === 'list' || field.kind === 'map',
          hint:
            field.kind === 'list' ? 'One entry per line.' : field.kind === 'map' ? 'One "key = value" per line.' : '',
          value: values[field.name] ?? '',
          checked: checked[field.name] ?? false,
          error: errors.fields[field.name] ?? null,
        })),
        errors,
      },
    };
  }

  async function current(ctx: ConsoleContext) {
    return kit.call<Record<string, unknown>>(ctx, 'readPluginConfig');
  }

  return [
    consolePage({
      path: PATH,
      menu: { label: 'Settings', position: 90 },
      async handler({ ctx }) {
        const settings = await current(ctx);
        // The account menu as the saved settings arrange it (accountMenuOrder, …Labels, …Hidden).
        const menu = menuPreview({
          order: (settings.accountMenuOrder as string[] | undefined) ?? [],
          labels: (settings.accountMenuLabels as Record<string, string> | undefined) ?? {},
          hidden: (settings.accountMenuHidden as string[] | undefined) ?? [],
        });
        return render(
          Object.fromEntries(fields.map((field) => [field.name, toText(field.kind, settings[field.name])])),
          Object.fromEntries(fields.map((field) => [field.name, settings[field.name] === true])),
          noErrors(),
          200,
          menu,
        );
      },
    }),
    consolePage({
      path: PATH,
      method: 'POST',
      async handler({ ctx, form }) {
        const values = Object.fromEntries(
          fields.map((field) => [field.name, typeof form[field.name] === 'string' ? (form[field.name] as string) : '']),
        );
        const checked = Object.fromEntries(fields.map((field) => [field.name, form[field.name] === 'on']));
        const body = Object.fromEntries(
          fields.map((field) => [field.name, fromText(field, values[field.name]!, checked[field.name]!)]),
        );
        try {
          await kit.call(ctx, 'updatePluginConfig', { body });
        } catch (error) {
          return render(values, checked, formErrorsOf(error), 400);
        }
        return { redirect: kit.href(PATH), notice: 'The settings are saved.' };
      },
    }),
  ];
}
