import { isId } from '../../lib/ids.js';
import { consolePage, type ConsoleKit, notFoundPage } from './kit.js';
import { routeRefs } from '../../lib/routes.js';
import type { ImportRunAdminRoute } from '../import-run/index.js';

const routes = routeRefs<ImportRunAdminRoute>();

/** What each kind of run imports, and where its list is. */
const KINDS: Record<string, { what: string; list: string; listLabel: string; importPath: string }> = {
  'customer-prices': {
    what: 'customer prices',
    list: '/customer-prices',
    listLabel: 'Customer prices',
    importPath: '/customer-prices/import',
  },
};

/**
 * An import run's progress (readSuiteImportRun): rows written of the file's rows, refreshed every
 * second while it runs; then its counts, or the lines the check refused.
 */
export function importRunPages(kit: ConsoleKit) {
  return [
    consolePage({
      path: '/import-runs/:id',
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFoundPage('import');
        const { data: run } = await kit.call(ctx, routes.readSuiteImportRun, {
          params: { id: params.id },
        });
        const kind = KINDS[run.kind] ?? { what: run.kind, list: '/', listLabel: 'Start', importPath: '/' };
        const running = run.state === 'queued' || run.state === 'running';
        return {
          template: 'import-run',
          data: {
            title: `Import of ${kind.what}`,
            run,
            running,
            done: run.state === 'done',
            failed: run.state === 'failed',
            refreshSeconds: running ? 1 : null,
            percent: run.totalRows ? Math.floor((100 * run.doneRows) / run.totalRows) : 0,
            problems: run.errors.map((e) => ({ line: e.meta?.line ?? null, message: e.detail ?? e.title ?? '' })),
            listHref: kit.href(kind.list),
            listLabel: kind.listLabel,
            importHref: kit.href(kind.importPath),
          },
        };
      },
    }),
  ];
}
