import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Errors } from '../lib/errors.js';
import { readJson, writeJson, type Db } from '../lib/db.js';
import { nowDb } from '../lib/time.js';
import { looseObject } from '../lib/schemas.js';
import type { AdminRoute, HostPlugin, HostRuntime } from '../contract/index.js';
import { projectPath } from './paths.js';
import { configDefaults, loadManifest, type PluginManifest } from './manifest.js';
import { migrateFolder, type MigrationSet } from './migrator.js';

/** The plugin's settings: manifest defaults overlaid by what the operator saved (read per call, so every process sees changes). */
export function pluginConfigAccess(db: Db, manifest: PluginManifest, table = 'plugin_configs'): HostRuntime['config'] {
  const all = async () => {
    const row = await db<{ plugin_name: string; config: string | null }>(table)
      .where({ plugin_name: manifest.name })
      .first('config');
    return { ...configDefaults(manifest), ...readJson<Record<string, unknown>>(row?.config, {}) };
  };
  return {
    all,
    async get<T>(key: string): Promise<T> {
      if (!(key in manifest.config.properties)) throw new Error(`plugin ${manifest.name} has no setting "${key}"`);
      return (await all())[key] as T;
    },
  };
}

/** The Admin API's read and change of the plugin's settings; `table` is the host's (the Vendure adapter's: suite_host_plugin_configs). */
export function pluginConfigRoutes(db: Db, manifest: PluginManifest, table = 'plugin_configs'): AdminRoute[] {
  const configSchema = { ...manifest.config, additionalProperties: false };
  const patchSchema = { ...configSchema, required: [] };
  const validateFull = new Ajv2020({ strict: false }).compile(configSchema);
  return [
    {
      method: 'GET',
      path: `/_action/plugin-config/${manifest.name}`,
      operationId: 'readPluginConfig',
      summary: `Settings of the ${manifest.name} plugin.`,
      tags: ['Plugins'],
      auth: 'admin',
      permission: null,
      schemas: { responses: { 200: looseObject } },
      handler: async () => pluginConfigAccess(db, manifest, table).all(),
    },
    {
      method: 'PATCH',
      path: `/_action/plugin-config/${manifest.name}`,
      operationId: 'updatePluginConfig',
      summary: `Changes settings of the ${manifest.name} plugin.`,
      tags: ['Plugins'],
      auth: 'admin',
      permission: null,
      schemas: { body: patchSchema, responses: { 200: looseObject } },
      async handler({ body }: { body: Record<string, unknown> }) {
        const merged = { ...(await pluginConfigAccess(db, manifest, table).all()), ...body };
        if (!validateFull(merged)) throw Errors.badRequest('SUITE__INVALID_INPUT', 'The settings are not valid.');
        const saved = Object.fromEntries(Object.entries(merged).filter(([k]) => k in manifest.config.properties));
        await db(table)
          .insert({ plugin_name: manifest.name, config: writeJson(saved), updated_at: nowDb() })
          .onConflict('plugin_name')
          .merge();
        return merged;
      },
    },
  ];
}

export interface LoadedPlugin {
  manifest: PluginManifest;
  plugin: HostPlugin;
}

export async function importPlugin(manifestFile = projectPath('plugin.json')): Promise<LoadedPlugin> {
  const manifest = loadManifest(manifestFile);
  const module = (await import(pathToFileURL(projectPath(manifest.entry)).href)) as { default?: HostPlugin };
  if (!module.default || typeof module.default.register !== 'function')
    throw new Error(`plugin ${manifest.name}: entry ${manifest.entry} has no default export with register(host)`);
  return { manifest, plugin: module.default };
}

/** The plugin's migrations folder and the table that records them (null: the plugin has none). */
export function pluginMigrationSet(manifest: PluginManifest): MigrationSet | null {
  if (!manifest.migrations) return null;
  return { folder: projectPath(manifest.migrations), table: `plugin_${manifest.name.replace(/-/g, '_')}_migrations` };
}

export async function migratePlugin(db: Db, manifest: PluginManifest): Promise<string[]> {
  const set = pluginMigrationSet(manifest);
  return set ? migrateFolder(db, set.folder, set.table) : [];
}
