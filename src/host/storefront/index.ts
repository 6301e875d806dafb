import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AppError, Errors } from '../../lib/errors.js';
import { dbErrorAsAppError } from '../../lib/db.js';
import { pageErrorOf, redirectToLogin, sendErrorPage } from '../../host-kit/page-error.js';
import { fromMinor } from '../../lib/money.js';
import { enforceRateLimits } from '../../lib/rate-limit.js';
import { LOGGED_IN_STORE_ACTORS, runRoute, STORE_ACTORS, type PipelineRoute } from '../../lib/pipeline.js';
import { routeRequestOf } from '../../lib/api-router.js';
import { localsOf } from '../../lib/request-locals.js';
import type {
  AccountMenuEntry,
  HostRuntime,
  PageForm,
  PageQuery,
  StoreContext,
  StorefrontPage,
} from '../../contract/index.js';
import type { HostInternals } from '../internals.js';
import { projectPath } from '../../host-kit/paths.js';
import { buildStoreContext, storePrincipal } from '../auth/store-context.js';
import { revokeSession } from '../auth/sessions.js';
import { passwordLogin } from '../account/password-login.js';
import { createTemplateEngine } from '../../lib/template-engine.js';
import {
  clearSessionToken,
  CSRF_FIELD,
  csrfToken,
  csrfValid,
  sessionToken,
  setSessionToken,
} from '../../host-kit/cookies.js';
import { Views } from '../../host-kit/views.js';
import { storefrontMultipart } from '../../host-kit/multipart.js';
import { createPageKit, type PageKit } from './page-kit.js';
import { canBuy, navigationFor, pricesWithheld, productPath, shopPages } from './shop-pages.js';
import { cartPages } from './cart-pages.js';
import { accountPages } from './account-pages.js';
import { applyVisibility } from '../catalog/visibility.js';
import { now } from '../../lib/time.js';

type PageResult = Awaited<ReturnType<StorefrontPage['handler']>>;

export interface StorefrontModule extends Pick<HostRuntime, 'storefront'> {
  router: Router;
}

interface MenuView {
  key: string;
  /** The key in kebab case, for the links' data-test attribute (orderApprovals → account-order-approvals). */
  testKey: string;
  label: string;
  path: string | null;
  children: MenuView[];
}

/** The same counter as the Store API login route, so both doors share one limit. */
const LOGIN_RATE_LIMIT = {
  name: 'login',
  limit: 10,
  windowSeconds: 60,
  by: ['ip', 'body.email'] as Array<'ip' | `body.${string}`>,
};
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Only paths on this site: "/x", never "//evil.test" or "/\evil.test". */
export function safeRedirect(value: unknown, fallback: string): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(value) && value.length <= 2000 ? value : fallback;
}

/** The account area: pages under /account/ that show the account menu beside them (not the login form; /account shows it as its body). */
/** The login page's links to add-on pages, in the order shown (each only when its page is mounted). */
const LOGIN_HELP = [
  { href: '/account/login-link', label: 'Send me a login link', test: 'login-help-link' },
  { href: '/account/password-forgotten', label: 'Forgot your password?', test: 'login-help-password' },
  { href: '/account/request', label: 'No business account yet? Ask for one', test: 'login-help-request' },
];

const ACCOUNT_AREA = /^\/account\/(?!login$)./;

interface SideMenuView {
  label: string;
  path: string | null;
  testKey: string;
  current: boolean;
  children: SideMenuView[];
}

/**
 * The account menu beside every account page (host and add-on pages alike): the overview, the
 * add-on's menu as the caller may open it, the addresses; the entry of the page shown is marked.
 */
function sideMenu(menu: MenuView[] | null, ctx: StoreContext, path: string): SideMenuView[] {
  const addOn = menu ?? [];
  // The overview once: the add-on's menu may carry its own entry for /account.
  const entries: Array<Omit<MenuView, 'key'>> = addOn.some((entry) => entry.path === '/account')
    ? [...addOn]
    : [{ testKey: 'overview', label: 'Overview', path: '/account', children: [] }, ...addOn];
  if (ctx.customer)
    entries.push({ testKey: 'addresses', label: 'Addresses', path: '/account/addresses', children: [] });
  // The current entry: the longest menu path the page's path is or lies under (the overview only as itself).
  const paths = entries
    .flatMap((entry) => [entry.path, ...entry.children.map((child) => child.path)])
    .filter((p): p is string => p !== null);
  const current =
    paths
      .filter((p) => path === p || (p !== '/account' && path.startsWith(`${p}/`)))
      .sort((a, b) => b.length - a.length)[0] ?? null;
  const view = (entry: Omit<MenuView, 'key'>): SideMenuView => ({
    label: entry.label,
    path: entry.path,
    testKey: entry.testKey,
    current: entry.path !== null && entry.path === current,
    children: entry.children.map(view),
  });
  return entries.map(view);
}

function isLoggedIn(ctx: StoreContext): boolean {
  return ctx.actor.type !== 'guest';
}

const CSRF_REFUSED =
  'The form has expired or did not come from this shop. Please go back, reload the page and try again.';

/** What the storefront's handlers share: the host, the views, the page kit, and the add-on's account menu once given. */
interface Shell {
  internals: HostInternals;
  views: Views;
  kit: PageKit;
  accountMenu: ((ctx: StoreContext) => Promise<AccountMenuEntry[]>) | null;
}

function storefrontViews(): Views {
  const engine = createTemplateEngine();
  engine.registerHelper('csrfField', function (this: unknown, options: { data?: { root?: { csrfToken?: string } } }) {
    const token = engine.escapeExpression(options.data?.root?.csrfToken ?? '');
    return new engine.SafeString(`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`);
  });
  return new Views(projectPath('templates', 'storefront'), engine);
}

/** The add-on's menu for this visitor, without entries whose page is not mounted and headings left empty. */
async function accountMenuFor(shell: Shell, ctx: StoreContext): Promise<MenuView[] | null> {
  const { accountMenu, kit } = shell;
  if (!accountMenu) return null;
  const keep = (entries: AccountMenuEntry[]): MenuView[] =>
    entries.flatMap((entry) => {
      const children = keep(entry.children ?? []);
      const path = entry.path !== null && kit.mayOpen(ctx, entry.path) ? entry.path : null;
      if (path === null && children.length === 0) return [];
      return [
        {
          key: entry.key,
          testKey: entry.key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
          label: entry.label,
          path,
          children,
        },
      ];
    });
  return keep(await accountMenu(ctx));
}

async function storeContext(internals: HostInternals, req: Request, res: Response): Promise<StoreContext> {
  const token = sessionToken(req);
  try {
    return await buildStoreContext(internals, routeRequestOf(req, undefined), token, false);
  } catch (error) {
    if (!(error instanceof AppError && error.status === 401 && token)) throw error;
    // Logged out elsewhere or expired: forget the cookie and carry on as a guest.
    clearSessionToken(req, res);
    return buildStoreContext(internals, routeRequestOf(req, undefined), undefined, false);
  }
}

function render(
  shell: Shell,
  req: Request,
  res: Response,
  ctx: StoreContext | null,
  template: string,
  data: Record<string, unknown>,
  status = 200,
): void {
  const globals = {
    shopName: ctx?.salesChannel.name ?? 'Shop',
    salesChannel: ctx?.salesChannel ?? null,
    customer: ctx?.customer ?? null,
    actor: ctx && isLoggedIn(ctx) ? ctx.actor : null,
    loggedIn: ctx ? isLoggedIn(ctx) : false,
    // (contract 3.6) A price gate withholds prices and buying (a closed shop's guest): a login prompt instead.
    pricesShown: res.locals.pricesWithheld !== true,
    canBuy: ctx ? canBuy(ctx) && res.locals.pricesWithheld !== true : false,
    loginForPricesUrl: `/account/login?redirect=${encodeURIComponent(req.originalUrl)}`,
    navigation: (res.locals.navigation as unknown[] | undefined) ?? [],
    accountMenu: (res.locals.accountMenu as SideMenuView[] | undefined) ?? null,
    csrfToken: csrfToken(req, res),
    currentPath: req.originalUrl,
    year: now().getUTCFullYear(),
  };
  res
    .status(status)
    .set(SECURITY_HEADERS)
    .type('html')
    .send(shell.views.render(template, { ...data, ...globals }));
}

function renderError(
  shell: Shell,
  req: Request,
  res: Response,
  ctx: StoreContext | null,
  status: number,
  title: string,
  message: string,
): void {
  sendErrorPage(
    res,
    { status, title, message },
    () => render(shell, req, res, ctx, 'error', { title, message, status }, status),
    (reason) => shell.internals.log.error({ err: reason }, 'storefront error page could not be rendered'),
  );
}

async function withAccountMenu(shell: Shell, req: Request, res: Response, ctx: StoreContext): Promise<void> {
  if (isLoggedIn(ctx) && ACCOUNT_AREA.test(req.path) && res.locals.accountMenu === undefined)
    res.locals.accountMenu = sideMenu(await accountMenuFor(shell, ctx), ctx, req.path);
}

/**
 * The storefront adapter of the pipeline (`runRoute`): the session cookie's context (a guest when
 * it is gone), the CSRF check on POST, then the same gate as a Store API route — rate limit,
 * actors (a guest is sent to the login form), customer context, permission keys — and the handler.
 * `write` sends what the handler answered (it may also have written the response itself).
 */
async function serve(
  shell: Shell,
  req: Request,
  res: Response,
  route: PipelineRoute<StoreContext>,
  write: (result: unknown, ctx: StoreContext) => void | Promise<void>,
): Promise<void> {
  const { internals, kit } = shell;
  let ctx: StoreContext | null = null;
  const form = req.method === 'POST' ? ((req.body as Record<string, unknown> | undefined) ?? {}) : {};
  const outcome = await runRoute<StoreContext>(
    route,
    {
      name: 'storefront',
      actorsByAuth: { public: STORE_ACTORS, login: LOGGED_IN_STORE_ACTORS },
      authenticate: () => storeContext(internals, req, res),
      principal: storePrincipal,
    },
    routeRequestOf(req, form),
    {
      rateLimiter: internals.rateLimiter,
      validateResponses: false,
      async onAuthenticated(known) {
        ctx = known;
        res.locals.actorType = known.actor.type;
        // The category tree of the layout, for every page (visible categories only).
        res.locals.navigation = await navigationFor(kit, known, req.originalUrl);
        res.locals.pricesWithheld = await pricesWithheld(kit, known);
        // Error pages rendered after a handler failed still show who is logged in.
        res.locals.storeContext = known;
        // Every account page (also its error pages: a 403 is no dead end) shows the account menu beside it;
        // a form's answer builds it only when it renders a page (most answer with a redirect).
        if (req.method === 'GET') await withAccountMenu(shell, req, res, known);
        if (req.method === 'POST' && !csrfValid(req)) throw Errors.forbidden(CSRF_REFUSED, 'SUITE__CSRF_REFUSED');
      },
    },
  );
  if (!res.headersSent) await write(outcome.body, ctx!);
}

/** A host page written by hand: `fn` writes the response itself. */
function handle(
  shell: Shell,
  auth: 'public' | 'login',
  fn: (req: Request, res: Response, ctx: StoreContext) => Promise<void> | void,
) {
  return (req: Request, res: Response): Promise<void> => {
    let known: StoreContext | null = null;
    const route: PipelineRoute<StoreContext> = {
      method: req.method,
      path: req.path,
      operationId: `storefront:${req.path}`,
      auth,
      permission: null,
      handler: async ({ ctx }) => {
        known = ctx;
        await fn(req, res, ctx);
      },
    };
    return serve(shell, req, res, route, () => {
      if (!res.headersSent && known) res.end();
    });
  };
}

async function homeData(
  internals: HostInternals,
  ctx: StoreContext,
  withheld: boolean,
): Promise<Record<string, unknown>> {
  const { db } = internals;
  const { catalog, prices } = internals.runtime;
  const categoryQuery = db('categories')
    .where('categories.active', true)
    .whereNull('categories.parent_id')
    .orderBy('categories.position')
    .orderBy('categories.name')
    .limit(12)
    .select('categories.id', 'categories.name');
  await applyVisibility(internals.registries.visibilityFilters, ctx, 'category', categoryQuery, 'categories.id', db);
  const productQuery = db('products')
    .where('products.active', true)
    .orderBy('products.created_at', 'desc')
    .orderBy('products.id')
    .limit(8)
    .select('products.id');
  await applyVisibility(internals.registries.visibilityFilters, ctx, 'product', productQuery, 'products.id', db);
  const ids = (await productQuery).map((row: { id: string }) => row.id);
  const records = (await catalog.products(db, ids)).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const products = [];
  for (const product of records) {
    const price = withheld ? null : await prices.calculate(db, ctx, product, 1);
    products.push({
      id: product.id,
      name: product.name,
      productNumber: product.productNumber,
      url: productPath(product.id),
      unitPrice: price ? fromMinor(price.unitNet, ctx.salesChannel.currencyPrecision) : null,
      available: product.stock > 0,
      stock: product.stock,
    });
  }
  return { categories: await categoryQuery, products, currency: ctx.salesChannel.currencyIso };
}

/**
 * The login page's other ways in, offered when an add-on mounts their pages (the employee add-on: a
 * login link for logins without a password, a reset link, a business account request). The host
 * knows these paths only to choose the links.
 */
function loginHelp(kit: PageKit) {
  return LOGIN_HELP.filter((link) => kit.hasPage(link.href));
}

/** POST /account/login: checks the form, the shared login rate limit and the password, then sets the session cookie. */
async function logIn(shell: Shell, req: Request, res: Response, ctx: StoreContext): Promise<void> {
  const { internals } = shell;
  const form = req.body as Record<string, unknown>;
  const redirect = safeRedirect(form.redirect, '/account');
  const email = typeof form.email === 'string' ? form.email.trim() : '';
  const password = typeof form.password === 'string' ? form.password : '';
  const again = (status: number, error: string) =>
    render(
      shell,
      req,
      res,
      ctx,
      'login',
      { title: 'Log in', redirect, email, error, help: loginHelp(shell.kit) },
      status,
    );
  if (email.length < 3 || email.length > 255 || password.length < 1 || password.length > 1024)
    return again(400, 'Please enter your e-mail address and password.');
  try {
    await enforceRateLimits(internals.rateLimiter, [LOGIN_RATE_LIMIT], { ip: req.ip ?? 'unknown', body: form });
  } catch (error) {
    if (error instanceof AppError && error.status === 429) {
      res.setHeader('Retry-After', String(error.retryAfter(60)));
      return again(429, 'Too many login attempts. Please wait a minute and try again.');
    }
    throw error;
  }
  const session = await passwordLogin(internals, ctx.salesChannel, email, password);
  if (!session) return again(401, 'The e-mail address or password is wrong.');
  setSessionToken(req, res, session.token, internals.config.contextTokenTtl);
  csrfToken(req, res, true);
  res.redirect(303, redirect);
}

/** The shell's own routes: the home page, login, logout and the account overview. */
function mountShellRoutes(router: Router, shell: Shell): void {
  // Forms with a file input; urlencoded forms are parsed by the app.
  router.use(storefrontMultipart);

  router.get(
    '/',
    handle(shell, 'public', async (req, res, ctx) => {
      render(shell, req, res, ctx, 'home', {
        title: ctx.salesChannel.name,
        ...(await homeData(shell.internals, ctx, res.locals.pricesWithheld === true)),
      });
    }),
  );

  router.get(
    '/account/login',
    handle(shell, 'public', (req, res, ctx) => {
      const redirect = safeRedirect(req.query.redirect, '/account');
      if (isLoggedIn(ctx)) return res.redirect(302, redirect);
      render(shell, req, res, ctx, 'login', { title: 'Log in', redirect, email: '', help: loginHelp(shell.kit) });
    }),
  );

  router.post(
    '/account/login',
    handle(shell, 'public', (req, res, ctx) => logIn(shell, req, res, ctx)),
  );

  router.post(
    '/account/logout',
    handle(shell, 'public', async (req, res, ctx) => {
      if (ctx.sessionId) await revokeSession(shell.internals.db, ctx.sessionId);
      clearSessionToken(req, res);
      res.redirect(303, '/');
    }),
  );

  router.get(
    '/account',
    handle(shell, 'login', async (req, res, ctx) => {
      render(shell, req, res, ctx, 'account', { title: 'Your account', menu: await accountMenuFor(shell, ctx) });
    }),
  );
}

/** A storefront page as a pipeline route: its gate as declared, its handler given the form without the CSRF field. */
function pageRoute(page: StorefrontPage): PipelineRoute<StoreContext> {
  const method = page.method ?? 'GET';
  return {
    method,
    path: page.path,
    operationId: `storefront:${method} ${page.path}`,
    auth: page.auth,
    ...(page.actors ? { actors: page.actors } : {}),
    ...(page.needsCustomer ? { needsCustomer: true } : {}),
    permission: null,
    ...(page.anyPermission ? { anyPermission: page.anyPermission } : {}),
    ...(page.rateLimit ? { rateLimit: page.rateLimit } : {}),
    handler: ({ ctx, params, query, body }) => {
      const { [CSRF_FIELD]: _csrf, ...form } = method === 'POST' ? ((body as Record<string, unknown>) ?? {}) : {};
      // Page paths have named parameters only (no `*name` wildcards), so every value is one string.
      return page.handler({
        ctx,
        params: params as Record<string, string>,
        // As the app parses them (Express's simple query parser, urlencoded and multipart forms).
        query: query as PageQuery,
        form: form as PageForm,
      });
    },
  };
}

/** Sends a page's result: a redirect (with the session a login page opened), a file, or the rendered template. */
async function writePageResult(
  shell: Shell,
  req: Request,
  res: Response,
  method: string,
  result: PageResult,
  ctx: StoreContext,
): Promise<void> {
  const { internals } = shell;
  if ('redirect' in result) {
    if (result.login) {
      if (ctx.sessionId) await revokeSession(internals.db, ctx.sessionId);
      setSessionToken(req, res, result.login.token, internals.config.contextTokenTtl);
      csrfToken(req, res, true);
    }
    return res.redirect(method === 'POST' ? 303 : 302, result.redirect);
  }
  if ('file' in result) {
    res
      .status(200)
      .set(SECURITY_HEADERS)
      .attachment(result.file.fileName)
      .type(result.file.contentType)
      .send(result.file.content);
    return;
  }
  await withAccountMenu(shell, req, res, ctx);
  render(shell, req, res, ctx, result.template, result.data, result.status ?? 200);
}

/** Adds a page (the host's or an add-on's) to the page router. */
function mountPage(shell: Shell, pages: Router, page: StorefrontPage): void {
  if (typeof page.path !== 'string' || !page.path.startsWith('/') || /^\/(store-api|api)(\/|$)/.test(page.path))
    throw new Error(`storefront page path "${page.path}" must start with / and stay outside /store-api and /api`);
  if (page.auth !== 'public' && page.auth !== 'login')
    throw new Error(`storefront page ${page.path}: auth must be 'public' or 'login'`);
  const method = page.method ?? 'GET';
  const route = pageRoute(page);
  const run = (req: Request, res: Response) =>
    serve(shell, req, res, route, (answer, ctx) => writePageResult(shell, req, res, method, answer as PageResult, ctx));
  if (method === 'POST') pages.post(page.path, run);
  else pages.get(page.path, run);
}

/** After the pages: the 404 page and the error handler (a database outage, a login to ask for, an error page). */
function mountFallbacks(router: Router, shell: Shell): void {
  const { log } = shell.internals;
  router.use(
    handle(shell, 'public', (req, res, ctx) => {
      renderError(shell, req, res, ctx, 404, 'Page not found', 'The page you asked for does not exist.');
    }),
  );
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const requestId = String((req as Request & { id?: string }).id ?? '');
    const dbFault = error instanceof AppError ? null : dbErrorAsAppError(error);
    if (dbFault?.status === 503) {
      log.warn({ requestId, path: req.path }, 'storefront: database unavailable');
      res.setHeader('Retry-After', String(dbFault.retryAfter(5)));
      return renderError(
        shell,
        req,
        res,
        null,
        503,
        'Back in a moment',
        `The shop cannot be reached right now. Please try again in a few seconds (request ${requestId}).`,
      );
    }
    if (error instanceof AppError) {
      if (error.status === 401) return redirectToLogin(req, res, '/account/login');
      if (error.status === 429) res.setHeader('Retry-After', String(error.retryAfter(60)));
    }
    const page = pageErrorOf(error, requestId, {
      notFound: 'Page not found',
      failed: 'We could not show this page. Please try again later',
    });
    if (page.unexpected)
      log.error(
        {
          err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error),
          requestId,
          path: req.path,
        },
        'storefront error',
      );
    // An AppError's page keeps the visitor's menu; a fault's page is rendered without a context.
    const ctx = page.appError ? ((localsOf(res).storeContext as StoreContext | undefined) ?? null) : null;
    renderError(shell, req, res, ctx, page.status, page.title, page.message);
  });
}

/**
 * The server-rendered storefront shell: layout, home, login/logout with a session cookie that
 * holds the context token, CSRF protection on every POST, and the pages add-ons register.
 */
export function createStorefrontModule(internals: HostInternals): StorefrontModule {
  const { config } = internals;
  const router = express.Router();
  const pages = express.Router();
  let hostPagePaths: string[] = [];
  const kit = createPageKit(internals, () => hostPagePaths);
  const shell: Shell = { internals, views: storefrontViews(), kit, accountMenu: null };

  mountShellRoutes(router, shell);
  const ownPages = [...shopPages(kit), ...cartPages(kit), ...accountPages(kit)];
  // '/account' is served by the router above, not as a page declaration.
  hostPagePaths = ['/account', ...ownPages.filter((page) => (page.method ?? 'GET') === 'GET').map((page) => page.path)];
  for (const page of ownPages) mountPage(shell, pages, page);
  for (const page of internals.registries.storefrontPages) mountPage(shell, pages, page);

  router.use(pages);
  mountFallbacks(router, shell);

  return {
    router,
    storefront: {
      page(page) {
        mountPage(shell, pages, page);
        internals.registries.storefrontPages.push(page);
      },
      accountMenu(provider) {
        shell.accountMenu = provider;
      },
      mayOpen: (ctx, path) => kit.mayOpen(ctx, path),
      url: (salesChannel, path) =>
        `${(salesChannel.domains[0] ?? config.publicUrl).replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`,
    },
  };
}
