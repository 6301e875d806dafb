import type { Knex } from 'knex';
import type { HostRuntime } from '../../contract/index.js';
import { configDefaults } from '../../host-kit/manifest.js';
import { forUpdate, readJson, selectRow, type Executor } from '../../lib/db.js';
import type { AdapterState } from './state.js';
import { createDocumentStore } from '../../host-kit/documents.js';
import { placedOrders } from './orders.js';
import { notSupported } from './unsupported.js';

/** Settings, mail outbox and jobs (mail.ts, jobs.ts), events, number ranges and storefront of the contract on Vendure. */
export function infraContract(
  state: AdapterState,
): Pick<HostRuntime, 'config' | 'mail' | 'jobs' | 'events' | 'storefront' | 'nextNumber' | 'documents' | 'cms'> {
  const { manifest } = state;
  const allSettings = async () => {
    const row = await selectRow<{ config: unknown }>(
      state.db('suite_host_plugin_configs').where({ plugin_name: manifest.name }).first('config'),
    );
    return { ...configDefaults(manifest), ...readJson<Record<string, unknown>>(row?.config, {}) };
  };

  async function nextNumber(executor: Executor, range: string, prefix = ''): Promise<string> {
    if (!(executor as Knex.Transaction).isTransaction)
      return executor.transaction((trx) => nextNumber(trx, range, prefix));
    const table = 'suite_host_number_ranges';
    const updated = await executor(table).where({ name: range }).increment('last_value', 1);
    if (updated === 0) {
      await executor(table).insert({ name: range, last_value: 0 }).onConflict('name').ignore();
      await executor(table).where({ name: range }).increment('last_value', 1);
    }
    const row = await selectRow<{ last_value: unknown }>(
      forUpdate(executor(table).where({ name: range }).first('last_value'), executor),
    );
    return `${prefix}${10000 + Number(row?.last_value ?? 0)}`;
  }

  return {
    config: {
      all: allSettings,
      async get<T>(key: string): Promise<T> {
        if (!(key in manifest.config.properties)) throw new Error(`plugin ${manifest.name} has no setting "${key}"`);
        return (await allSettings())[key] as T;
      },
    },
    mail: {
      enqueue: state.mail.enqueue,
      templateNames: state.mail.templateNames,
      templateSource: state.mail.templateSource,
      render: state.mail.render,
    },
    jobs: state.jobs.jobs,
    events: {
      on(event, handler) {
        const list = state.registries.eventHandlers.get(event) ?? [];
        list.push(handler as never);
        state.registries.eventHandlers.set(event, list);
      },
    },
    // Vendure shops have their own storefront: the plugin's pages are not mounted, links go to the configured storefront.
    storefront: {
      page: () => undefined,
      url(salesChannel, path) {
        const base = salesChannel.domains[0] ?? state.options.storefrontUrls[0] ?? '';
        return `${base.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
      },
      accountMenu: () => undefined,
      // The shop's own storefront owns its pages: the contract's answer for a theme the host cannot see.
      mayOpen: () => true,
    },
    // The reference host's document store on the adapter's table; orders are Vendure's placed orders (orders.ts).
    documents: createDocumentStore({
      table: 'suite_host_documents',
      orders: (executor) => placedOrders(state.ids, executor),
    }),
    // Vendure has no CMS pages (docs/vendure.md, "Not supported yet").
    cms: { get: () => Promise.reject(notSupported('cms.get')) },
    nextNumber,
  };
}
