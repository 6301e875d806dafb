import { HOST_ADMIN_ROUTES, type AdminJobAttributes, type AdminMailAttributes } from '../../contract/index.js';
import { isId } from '../../lib/ids.js';
import { consolePage, pageOf, paging, PAGE_SIZE, type ConsoleContext, type ConsoleKit, notFoundPage } from './kit.js';

/** The two kinds of work the shop retries on its own and gives up on: mails of the outbox, jobs of the queue. */
const KINDS = [
  {
    key: 'mails',
    path: '/failed-mails',
    title: 'Failed mails',
    one: 'mail',
    list: HOST_ADMIN_ROUTES.listMailOutbox,
    retry: HOST_ADMIN_ROUTES.retryMailOutbox,
    discard: HOST_ADMIN_ROUTES.discardMailOutbox,
    menu: 85,
    retried: 'The mail is queued again: it is sent within seconds.',
    discarded: 'The mail is discarded: it will not be sent.',
  },
  {
    key: 'jobs',
    path: '/failed-jobs',
    title: 'Failed jobs',
    one: 'job',
    list: HOST_ADMIN_ROUTES.listJobs,
    retry: HOST_ADMIN_ROUTES.retryJob,
    discard: HOST_ADMIN_ROUTES.discardJob,
    menu: 86,
    retried: 'The job is queued again: it runs within seconds.',
    discarded: 'The job is discarded: it will not run again.',
  },
] as const;
type Kind = (typeof KINDS)[number];

type MailAttributes = AdminMailAttributes;
type JobAttributes = AdminJobAttributes;

/**
 * Failed mails and failed jobs (the start page counts them): what the shop gave up on after its
 * retries, newest first, 25 a page, with the last error — and for each **retry** (queued again,
 * attempts reset) or **discard** (deleted), where the host declares those routes
 * (`retryMailOutbox`/`discardMailOutbox`, `retryJob`/`discardJob`, src/host-kit/ops-routes.ts).
 * A host without the list routes gets a page that says so.
 */
export function failedWorkPages(kit: ConsoleKit) {
  async function listPage(ctx: ConsoleContext, kind: Kind, query: Record<string, unknown>) {
    if (!kit.console.has(kind.list))
      return { template: 'failed-work', data: { title: kind.title, one: kind.one, unsupported: true } };
    const page = pageOf(query);
    const list = await kit.call(ctx, kind.list, {
      query: { state: 'failed', page, limit: PAGE_SIZE },
    });
    return {
      template: 'failed-work',
      data: {
        title: kind.title,
        one: kind.one,
        mails: kind.key === 'mails',
        canRetry: kit.console.has(kind.retry),
        canDiscard: kit.console.has(kind.discard),
        rows: list.data.map((row) => ({
          ...row.attributes,
          id: row.id,
          what:
            kind.key === 'mails' ? (row.attributes as MailAttributes).template : (row.attributes as JobAttributes).name,
          retry: kit.href(`${kind.path}/${row.id}/retry`),
          discard: kit.href(`${kind.path}/${row.id}/discard`),
        })),
        total: list.meta.total,
        paging: paging(kit, kind.path, {}, page, list.meta.total),
      },
    };
  }

  const notFound = (kind: Kind) => notFoundPage(kind.one);

  return KINDS.flatMap((kind) => [
    consolePage({
      path: kind.path,
      menu: { label: kind.title, position: kind.menu },
      handler: ({ ctx, query }) => listPage(ctx, kind, query),
    }),
    consolePage({
      path: `${kind.path}/:id/retry`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFound(kind);
        await kit.call(ctx, kind.retry, { params: { id: params.id } });
        return { redirect: kit.href(kind.path), notice: kind.retried };
      },
    }),
    consolePage({
      path: `${kind.path}/:id/discard`,
      method: 'POST',
      async handler({ ctx, params }) {
        if (!isId(params.id)) return notFound(kind);
        await kit.call(ctx, kind.discard, { params: { id: params.id } });
        return { redirect: kit.href(kind.path), notice: kind.discarded };
      },
    }),
  ]);
}
