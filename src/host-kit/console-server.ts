import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import cookieParser from 'cookie-parser';
import { AppError, Errors } from '../lib/errors.js';
import { pageErrorOf, redirectToLogin, sendErrorPage } from './page-error.js';
import { newId } from '../lib/ids.js';
import { enforceRateLimits, type RateLimiter } from '../lib/rate-limit.js';
import { runRoute, type ApiDefinition } from '../lib/pipeline.js';
import { localsOf } from '../lib/request-locals.js';
import type { AnyRoute, CallableRoute } from '../lib/routes.js';
import { createTemplateEngine } from '../lib/template-engine.js';
import type {
  AdminContext,
  ConsoleCallInput,
  ConsoleContext,
  ConsolePage,
  HostRuntime,
  Logger,
  PageForm,
  PageQuery,
} from '../contract/index.js';
import { projectPath } from './paths.js';
import { CSRF_FIELD, csrfToken, csrfValid } from './cookies.js';
import { storefrontMultipart } from './multipart.js';
import { Views } from './views.js';

/** Where every host serves the operator's console. */
export const CONSOLE_PATH = '/b2b-admin';
const SESSION_COOKIE = 'suite-admin-session';
const NOTICE_COOKIE = 'suite-admin-notice';
/** A session cookie's shape (the reference host's 43 base64url characters, Vendure's 64 hex ones). */
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;
const LOGIN_RATE_LIMIT = {
  name: 'admin-console-login',
  limit: 10,
  windowSeconds: 60,
  by: ['ip', 'body.username'] as Array<'ip' | `body.${string}`>,
};
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};
const CSRF_REFUSED = 'The form has expired or did not come from this console. Go back, reload the page and try again.';
const READ_ONLY_REFUSED =
  'Your operator role is read-only: you can look at every page, but changes are refused. Ask a managing operator to make this change.';

/** An operator's console session as the host keeps it. */
export interface ConsoleSession {
  /** The host's handle of the session (what `logout` ends). */
  id: string;
  /** The session's own CSRF token (every POST carries it). */
  csrfToken: string;
  operator: ConsoleContext['operator'];
}

/** What a host brings: its administrators' login and sessions. Everything else is the kit's. */
export interface ConsoleSessions {
  /** The live session of a cookie's token, or null (unknown, expired, operator gone or no longer allowed). */
  find(token: string, req: Request): Promise<ConsoleSession | null>;
  /** Checks the credentials and opens a session: its token and lifetime, or null (wrong, inactive, not an operator). */
  login(username: string, password: string, req: Request): Promise<{ token: string; ttlSeconds: number } | null>;
  logout(session: ConsoleSession, token: string): Promise<void>;
}

export interface ConsoleServerOptions {
  log: Logger;
  rateLimiter: RateLimiter;
  sessions: ConsoleSessions;
  /** The host's Admin API routes (read on every call: plugins add routes while they register). */
  adminRoutes: () => readonly AnyRoute[];
  /** The host's Admin API: its name, actors and principal (authentication is the console's session). */
  admin: Pick<ApiDefinition<AdminContext>, 'name' | 'actorsByAuth' | 'principal'>;
  validateResponses: boolean;
}

export interface ConsoleServer extends Required<Pick<HostRuntime, 'console'>> {
  /** Serves everything under /b2b-admin; mount it at the application's root. */
  router: Router;
}

interface Session extends ConsoleSession {
  token: string;
  ctx: ConsoleContext;
}

type PageResult = Awaited<ReturnType<ConsolePage['handler']>>;

/** Only console paths: "/b2b-admin…", never "//evil.test". */
function consoleRedirect(value: unknown): string {
  return typeof value === 'string' &&
    value.startsWith(CONSOLE_PATH) &&
    /^\/(?![/\\])[^\s\\]*$/.test(value) &&
    value.length <= 2000
    ? value
    : CONSOLE_PATH;
}

function cookieOptions(req: Request, maxAgeSeconds?: number) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: req.secure,
    path: CONSOLE_PATH,
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds * 1000 } : {}),
  };
}

function requestIdOf(req: Request): string {
  const request = req as Request & { id?: string };
  // Hosts without a request log (Vendure) get one here, so the error page and the log name the same request.
  request.id ??= newId();
  return String(request.id);
}

/** Numbers and dates of the console follow the operator's browser language; this one when it names none Intl knows. */
const DEFAULT_LOCALE = 'en-GB';

/** The first language of the request's Accept-Language that Intl can format in. */
function localeOf(req: Request): string {
  for (const language of req.acceptsLanguages()) {
    if (language === '*' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language)) continue;
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf([language]);
      if (supported) return supported;
    } catch {
      // Not a well-formed language tag (a RangeError): the next one, else the default.
    }
  }
  return DEFAULT_LOCALE;
}

type TemplateEngine = ReturnType<typeof createTemplateEngine>;

/** The console's template engine with its helpers: the CSRF field, locale-aware numbers and dates, JSON. */
function createConsoleEngine(): TemplateEngine {
  const engine = createTemplateEngine();
  engine.registerHelper('csrfField', function (this: unknown, opts: { data?: { root?: { csrfToken?: string } } }) {
    const token = engine.escapeExpression(opts.data?.root?.csrfToken ?? '');
    return new engine.SafeString(`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`);
  });
  type HelperOptions = { data?: { root?: { locale?: string } } };
  const localeIn = (opts: HelperOptions) => opts.data?.root?.locale ?? DEFAULT_LOCALE;
  engine.registerHelper('formatNumber', (value: unknown, opts: HelperOptions) =>
    typeof value === 'number' ? new Intl.NumberFormat(localeIn(opts)).format(value) : '',
  );
  engine.registerHelper('formatDateTime', (value: unknown, opts: HelperOptions) => {
    const date = new Date(String(value));
    if (value === null || value === undefined || Number.isNaN(date.getTime())) return '';
    return `${new Intl.DateTimeFormat(localeIn(opts), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
  });
  engine.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null));
  return engine;
}

/** What the console's handlers share: the options, the views, and the pages mounted so far. */
interface ConsoleParts {
  options: ConsoleServerOptions;
  views: Views;
  pages: ConsolePage[];
}

async function sessionOf(sessions: ConsoleSessions, req: Request): Promise<Session | null> {
  const token = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  if (typeof token !== 'string' || !TOKEN.test(token)) return null;
  const found = await sessions.find(token, req);
  if (!found) return null;
  const requestId = requestIdOf(req);
  const ip = req.ip ?? 'unknown';
  const adminCtx: AdminContext = { requestId, ip, principalType: 'user', principalId: found.operator.id };
  return { ...found, token, ctx: { requestId, ip, operator: found.operator, admin: adminCtx } };
}

function menuFor(pages: ConsolePage[], path: string) {
  return pages
    .filter((page) => page.menu && (page.method ?? 'GET') === 'GET')
    .sort((a, b) => a.menu!.position - b.menu!.position)
    .map((page) => {
      const href = `${CONSOLE_PATH}${page.path === '/' ? '' : page.path}`;
      const current =
        page.path === '/'
          ? path === CONSOLE_PATH || path === `${CONSOLE_PATH}/`
          : path === href || path.startsWith(`${href}/`);
      return { label: page.menu!.label, href, current };
    });
}

function render(
  parts: ConsoleParts,
  req: Request,
  res: Response,
  session: Session | null,
  template: string,
  data: Record<string, unknown>,
  status = 200,
): void {
  const notice = (req.cookies as Record<string, unknown> | undefined)?.[NOTICE_COOKIE];
  if (typeof notice === 'string') res.clearCookie(NOTICE_COOKIE, cookieOptions(req));
  const globals = {
    basePath: CONSOLE_PATH,
    operator: session?.ctx.operator ?? null,
    csrfToken: session ? session.csrfToken : csrfToken(req, res),
    menu: session ? menuFor(parts.pages, req.path) : [],
    notice: typeof notice === 'string' && status < 400 ? notice.slice(0, 300) : null,
    currentPath: req.originalUrl,
    locale: localeOf(req),
  };
  res
    .status(status)
    .set(SECURITY_HEADERS)
    .type('html')
    .send(parts.views.render(template, { ...data, ...globals }));
}

function renderError(
  parts: ConsoleParts,
  req: Request,
  res: Response,
  session: Session | null,
  status: number,
  title: string,
  message: string,
): void {
  sendErrorPage(
    res,
    { status, title, message },
    () => render(parts, req, res, session, 'error', { title, message, status }, status),
    (reason) => parts.options.log.error({ err: reason }, 'console error page could not be rendered'),
  );
}

function toLogin(req: Request, res: Response): void {
  redirectToLogin(req, res, `${CONSOLE_PATH}/login`);
}

/** Names the operator in the request's log line (src/host/ops/request-log.ts on the reference host). */
function identify(res: Response, session: Session): void {
  localsOf(res).actorType = 'admin-user';
  localsOf(res).operator = session.ctx.operator.username;
}

/** Runs `work` and hands what it throws to the console's error handler (mountFallbacks). */
function guarded(pattern: string, work: (req: Request, res: Response) => Promise<void>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    localsOf(res).routePattern = `${CONSOLE_PATH}${pattern}`;
    try {
      await work(req, res);
    } catch (error) {
      next(error);
    }
  };
}

/** POST /login: checks the form's CSRF cookie, the rate limit and the credentials, then opens a session. */
async function logIn(parts: ConsoleParts, req: Request, res: Response): Promise<void> {
  const form = (req.body as Record<string, unknown> | undefined) ?? {};
  const redirect = consoleRedirect(form.redirect);
  const username = typeof form.username === 'string' ? form.username.trim() : '';
  const password = typeof form.password === 'string' ? form.password : '';
  const again = (status: number, error: string) =>
    render(parts, req, res, null, 'login', { title: 'Log in', redirect, username, error }, status);
  if (!csrfValid(req)) return renderError(parts, req, res, null, 403, 'Not allowed', CSRF_REFUSED);
  if (username.length < 1 || username.length > 255 || password.length < 1 || password.length > 1024)
    return again(400, 'Enter your user name and password.');
  try {
    await enforceRateLimits(parts.options.rateLimiter, [LOGIN_RATE_LIMIT], { ip: req.ip ?? 'unknown', body: form });
  } catch (error) {
    if (error instanceof AppError && error.status === 429) {
      res.setHeader('Retry-After', String(error.retryAfter(60)));
      return again(429, 'Too many login attempts. Wait a minute and try again.');
    }
    throw error;
  }
  const opened = await parts.options.sessions.login(username, password, req);
  if (!opened) return again(401, 'The user name or password is wrong.');
  res.cookie(SESSION_COOKIE, opened.token, cookieOptions(req, opened.ttlSeconds));
  localsOf(res).actorType = 'admin-user';
  localsOf(res).operator = username;
  res.redirect(303, redirect);
}

/** The form parsers, then GET and POST /login and POST /logout. */
function mountLoginRoutes(router: Router, parts: ConsoleParts): void {
  const { sessions } = parts.options;
  // Both skip a request the host parsed already (the reference host parses cookies and forms app-wide).
  router.use(CONSOLE_PATH, cookieParser(), express.urlencoded({ extended: false, limit: '64kb' }));
  router.use(CONSOLE_PATH, storefrontMultipart);

  router.get(
    `${CONSOLE_PATH}/login`,
    guarded('/login', async (req, res) => {
      const redirect = consoleRedirect(req.query.redirect);
      if (await sessionOf(sessions, req)) return res.redirect(302, redirect);
      render(parts, req, res, null, 'login', { title: 'Log in', redirect, username: '' });
    }),
  );

  router.post(
    `${CONSOLE_PATH}/login`,
    guarded('/login', (req, res) => logIn(parts, req, res)),
  );

  router.post(
    `${CONSOLE_PATH}/logout`,
    guarded('/logout', async (req, res) => {
      const session = await sessionOf(sessions, req);
      if (!session) return toLogin(req, res);
      identify(res, session);
      if ((req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] !== session.csrfToken)
        return renderError(parts, req, res, session, 403, 'Not allowed', CSRF_REFUSED);
      await sessions.logout(session, session.token);
      res.clearCookie(SESSION_COOKIE, cookieOptions(req));
      res.redirect(303, `${CONSOLE_PATH}/login`);
    }),
  );
}

/** Serves a page: the session, the CSRF token and the read-only check first, then the page's result. */
function pageHandler(parts: ConsoleParts, page: ConsolePage) {
  const method = page.method ?? 'GET';
  const changes = method === 'POST' && page.changes !== false;
  return guarded(page.path, async (req, res) => {
    const session = await sessionOf(parts.options.sessions, req);
    if (!session) return toLogin(req, res);
    identify(res, session);
    res.locals.consoleSession = session;
    const posted = method === 'POST' ? ((req.body as Record<string, unknown> | undefined) ?? {}) : {};
    if (method === 'POST' && posted[CSRF_FIELD] !== session.csrfToken)
      throw Errors.forbidden(CSRF_REFUSED, 'SUITE__CSRF_REFUSED');
    if (changes && session.ctx.operator.readOnly) throw Errors.forbidden(READ_ONLY_REFUSED, 'SUITE__CONSOLE_READ_ONLY');
    const { [CSRF_FIELD]: _csrf, ...form } = posted;
    const result: PageResult = await page.handler({
      ctx: session.ctx,
      params: { ...(req.params as Record<string, string>) },
      // As Express parses them (its simple query parser, urlencoded and multipart forms).
      query: { ...(req.query as PageQuery) },
      form: form as PageForm,
    });
    if ('redirect' in result) {
      if (result.notice) res.cookie(NOTICE_COOKIE, result.notice.slice(0, 300), cookieOptions(req, 60));
      return res.redirect(method === 'POST' ? 303 : 302, consoleRedirect(result.redirect));
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
    render(parts, req, res, session, result.template, result.data, result.status ?? 200);
  });
}

/** `console.page`: adds a page to the page router (mounted before the fallbacks) and to the menu. */
function mountPage(parts: ConsoleParts, pageRouter: Router, page: ConsolePage): void {
  if (
    typeof page.path !== 'string' ||
    !page.path.startsWith('/') ||
    page.path.startsWith('/login') ||
    page.path.startsWith('/logout')
  )
    throw new Error(`console page path "${page.path}" must start with / and not be /login or /logout`);
  const full = `${CONSOLE_PATH}${page.path === '/' ? '' : page.path}`;
  const serve = pageHandler(parts, page);
  if ((page.method ?? 'GET') === 'POST') pageRouter.post(full, serve);
  else pageRouter.get(full, serve);
  parts.pages.push(page);
}

/** After the pages: the console's 404 page and its error handler. */
function mountFallbacks(router: Router, parts: ConsoleParts): void {
  const { log, sessions } = parts.options;
  router.use(
    CONSOLE_PATH,
    guarded('/*', async (req, res) => {
      const session = await sessionOf(sessions, req);
      if (!session) return toLogin(req, res);
      identify(res, session);
      renderError(
        parts,
        req,
        res,
        session,
        404,
        'Page not found',
        'The console has no such page. Use the menu to find your way.',
      );
    }),
  );
  router.use(CONSOLE_PATH, async (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    // A request refused before its page ran (a form field over the size limit) still belongs to the
    // logged-in operator: the error page shows their header and the way back, not "Log in".
    const session =
      (res.locals.consoleSession as Session | undefined) ?? (await sessionOf(sessions, req).catch(() => null)) ?? null;
    const requestId = requestIdOf(req);
    const page = pageErrorOf(error, requestId, { notFound: 'Not found', failed: 'The page could not be shown' });
    if (page.unexpected)
      log.error(
        {
          err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error),
          requestId,
          path: req.path,
        },
        'console error',
      );
    renderError(parts, req, res, session, page.status, page.title, page.message);
  });
}

/** `console.call`: runs a declared Admin API route of the host in-process, as the operator. */
async function callAdminRoute(
  options: ConsoleServerOptions,
  routeById: (operationId: string) => AnyRoute | undefined,
  ctx: ConsoleContext,
  given: CallableRoute | string,
  input: ConsoleCallInput,
) {
  const { admin, log } = options;
  const operationId = operationIdOf(given);
  const route = routeById(operationId);
  // A page that needs a route this host does not declare (Vendure: createRule) shows a 501, not a 500.
  if (!route)
    throw new AppError(
      501,
      'SUITE__NOT_SUPPORTED_BY_HOST',
      `This shop's platform does not offer this in the console (Admin API route "${operationId}").`,
    );
  const outcome = await runRoute<AdminContext>(
    route,
    {
      name: admin.name,
      actorsByAuth: admin.actorsByAuth,
      authenticate: () => Promise.reject(new Error('an in-process call brings its context')),
      principal: (known) => admin.principal(known),
    },
    {
      params: input.params ?? {},
      query: input.query ?? {},
      body: input.body ?? {},
      header: () => undefined,
      ip: ctx.ip,
      requestId: ctx.requestId,
    },
    { validateResponses: options.validateResponses },
    { ctx: ctx.admin },
  );
  if (route.method !== 'GET')
    log.info(
      { requestId: ctx.requestId, operator: ctx.operator.username, operationId, status: outcome.status },
      'console change',
    );
  // The contract types the body from the route the page gave (its schemas or HOST_ADMIN_ROUTES).
  return { status: outcome.status, body: outcome.body as never };
}

/**
 * The operator's console of contract 3.4 (`console`) on any host: the login form (its double-submit
 * CSRF cookie and rate limit) and a cookie session through the host's `sessions`, the session's CSRF
 * token on every POST, the read-only role's refusal of changes before a page runs, and the pages the
 * plugin registers, rendered from templates/console. Pages act only through `call`, which runs a
 * declared Admin API route of the host in-process through the one pipeline. docs/console.md.
 */
export function createConsoleServer(options: ConsoleServerOptions): ConsoleServer {
  const parts: ConsoleParts = {
    options,
    views: new Views(projectPath('templates', 'console'), createConsoleEngine()),
    pages: [],
  };
  const router = express.Router();
  let routeIndex = new Map<string, AnyRoute>();

  function routeById(operationId: string): AnyRoute | undefined {
    const routes = options.adminRoutes();
    if (routeIndex.size !== routes.length) routeIndex = new Map(routes.map((route) => [route.operationId, route]));
    return routeIndex.get(operationId);
  }

  mountLoginRoutes(router, parts);
  const pageRouter = express.Router();
  router.use(pageRouter);
  mountFallbacks(router, parts);

  return {
    router,
    console: {
      basePath: CONSOLE_PATH,
      page: (page) => mountPage(parts, pageRouter, page),
      // The host runs the route it serves under the given route's operationId (a plugin's own copy of a
      // declaration, or HOST_ADMIN_ROUTES' reference); a bare operationId is a plugin built before 4.5.
      has: (given) => routeById(operationIdOf(given)) !== undefined,
      call: (ctx: ConsoleContext, given: CallableRoute | string, input: ConsoleCallInput = {}) =>
        callAdminRoute(options, routeById, ctx, given, input),
    },
  };
}

const operationIdOf = (route: { readonly operationId: string } | string) =>
  typeof route === 'string' ? route : route.operationId;
