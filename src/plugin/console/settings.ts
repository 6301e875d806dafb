import { readFileSync } from 'node:fs';
import { menuPreview, type MenuPreviewEntry } from '../account/index.js';
import { consolePage, formErrorsOf, noErrors, type ConsoleContext, type ConsoleKit, type FormErrors } from './kit.js';
import { SALES_CHANNEL_SETTINGS, SETTINGS_CHOICES, SETTINGS_GROUPS, SETTINGS_LABELS } from './settings-layout.js';
import { HOST_ADMIN_ROUTES } from '../../contract/index.js';

const PATH = '/settings';

interface PropertySchema {
  type?: string | string[];
  items?: { type?: string };
  additionalProperties?: unknown;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  enum?: unknown[];
}

type Kind = 'integer' | 'boolean' | 'text' | 'list' | 'map' | 'choice' | 'channels';

interface Field {
  name: string;
  label: string;
  description: string;
  kind: Kind;
  nullable: boolean;
  minimum?: number;
  maximum?: number;
  defaultText: string;
  /** A choice's values (an enum), each with what it means. */
  choices: Array<{ value: string; label: string }>;
}

/** A sales channel to choose by name (closed shop). */
interface Channel {
  id: string;
  name: string;
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

function kindOf(name: string, schema: PropertySchema): Kind {
  if (Array.isArray(schema.enum)) return 'choice';
  if (SALES_CHANNEL_SETTINGS.has(name)) return 'channels';
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
  if (kind === 'list' || kind === 'channels') return Array.isArray(value) ? value.map(String).join('\n') : '';
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
    case 'channels':
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

/** One setting's field from its schema: label, kind, limits, default and, for a choice, its values. */
function fieldOf(name: string, schema: PropertySchema): Field {
  const kind = kindOf(name, schema);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const meanings = SETTINGS_CHOICES[name] ?? {};
  const choices = (schema.enum ?? []).map(String).map((value) => ({ value, label: meanings[value] ?? value }));
  const defaultText =
    kind === 'boolean'
      ? schema.default
        ? 'on'
        : 'off'
      : kind === 'choice'
        ? (choices.find((choice) => choice.value === schema.default)?.label ?? String(schema.default))
        : kind === 'channels' && Array.isArray(schema.default) && !schema.default.length
          ? 'none'
          : toText(kind, schema.default) || 'empty';
  return {
    name,
    label: SETTINGS_LABELS[name] ?? labelOf(name),
    description: schema.description ?? '',
    kind,
    nullable: types.includes('null'),
    ...(schema.minimum !== undefined ? { minimum: schema.minimum } : {}),
    ...(schema.maximum !== undefined ? { maximum: schema.maximum } : {}),
    defaultText,
    choices,
  };
}

/** The settings in their groups (SETTINGS_GROUPS' order); settings no group names come last. */
function groupsOf(fields: Field[]): Array<{ id: string; heading: string; intro?: string; fields: Field[] }> {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const grouped = SETTINGS_GROUPS.map((group) => ({
    id: group.id,
    heading: group.heading,
    ...(group.intro ? { intro: group.intro } : {}),
    fields: group.keys.flatMap((key) => byName.get(key) ?? []),
  }));
  const listed = new Set(SETTINGS_GROUPS.flatMap((group) => group.keys));
  const others = fields.filter((field) => !listed.has(field.name));
  if (others.length) grouped.push({ id: 'other', heading: 'Other settings', fields: others });
  return grouped.filter((group) => group.fields.length);
}

/**
 * The plugin's settings as a form generated from plugin.json's config JSON Schema, grouped by what
 * they are for (settings-layout.ts): one field per setting with its description and default, a choice
 * as radio buttons, sales channels chosen by name; saved with the Admin API's updatePluginConfig,
 * whose validation messages stand next to the fields.
 */
export function settingsPages(kit: ConsoleKit) {
  const fields = Object.entries(manifestConfig().properties).map(([name, schema]) => fieldOf(name, schema));

  /** The shop's sales channels by name (a host without the list gets the ids typed, one per line). */
  async function channelsOf(ctx: ConsoleContext): Promise<Channel[] | null> {
    if (!kit.console.has(HOST_ADMIN_ROUTES.listSalesChannel)) return null;
    const list = await kit.call(ctx, HOST_ADMIN_ROUTES.listSalesChannel, { query: { limit: 500 } });
    return list.data.map((row) => ({ id: row.id, name: row.attributes.name }));
  }

  function view(
    field: Field,
    values: Record<string, string>,
    checked: Record<string, boolean>,
    errors: FormErrors,
    channels: Channel[] | null,
  ) {
    const value = values[field.name] ?? '';
    const kind = field.kind === 'channels' && !channels ? 'list' : field.kind;
    const chosen = new Set(
      value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    );
    const channelOptions = (channels ?? []).map((channel) => ({ ...channel, checked: chosen.delete(channel.id) }));
    // Ids of channels that no longer exist stay chosen, so saving does not drop them unseen.
    for (const id of chosen) channelOptions.push({ id, name: `A sales channel not found (${id})`, checked: true });
    return {
      ...field,
      isInteger: kind === 'integer',
      isBoolean: kind === 'boolean',
      isChoice: kind === 'choice',
      isChannels: kind === 'channels',
      isMultiline: kind === 'list' || kind === 'map',
      hint: kind === 'list' ? 'One entry per line.' : kind === 'map' ? 'One "key = value" per line.' : '',
      value,
      checked: checked[field.name] ?? false,
      choices: field.choices.map((choice) => ({ ...choice, checked: choice.value === value })),
      channels: channelOptions,
      error: errors.fields[field.name] ?? null,
    };
  }

  async function render(
    ctx: ConsoleContext,
    values: Record<string, string>,
    checked: Record<string, boolean>,
    errors: FormErrors,
    status = 200,
    menu: MenuPreviewEntry[] = [],
  ) {
    const channels = await channelsOf(ctx);
    return {
      template: 'settings',
      status,
      data: {
        title: 'Settings',
        accountMenu: menu,
        groups: groupsOf(fields).map((group) => ({
          ...group,
          fields: group.fields.map((field) => view(field, values, checked, errors, channels)),
        })),
        errors,
      },
    };
  }

  async function current(ctx: ConsoleContext) {
    return kit.call(ctx, HOST_ADMIN_ROUTES.readPluginConfig);
  }

  /** A form value as text: repeated checkboxes (sales channels) one per line. */
  function formText(value: unknown): string {
    if (typeof value === 'string') return value;
    return Array.isArray(value) ? value.filter((item) => typeof item === 'string').join('\n') : '';
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
          ctx,
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
        const values = Object.fromEntries(fields.map((field) => [field.name, formText(form[field.name])]));
        const checked = Object.fromEntries(fields.map((field) => [field.name, form[field.name] === 'on']));
        const body = Object.fromEntries(
          fields.map((field) => [field.name, fromText(field, values[field.name]!, checked[field.name]!)]),
        );
        try {
          await kit.call(ctx, HOST_ADMIN_ROUTES.updatePluginConfig, { body });
        } catch (error) {
          return render(ctx, values, checked, formErrorsOf(error), 400);
        }
        return { redirect: kit.href(PATH), notice: 'The settings are saved.' };
      },
    }),
  ];
}
