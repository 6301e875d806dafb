import { parseArgs } from 'node:util';
import type { ShopApp } from './host/app.js';
import { newId, newSecret } from './lib/ids.js';

/**
 * Operator tasks: `npm run cli -- <command> [options]`. Every command prints one JSON document on
 * stdout; failures print {"error"} on stderr (exit 2: usage, 1: failure). Modules load per command, so help is quick.
 */
const USAGE = {
  migrate: 'Runs the host migrations, then the plugin migrations.',
  'integration:create':
    'Creates an Admin API integration; prints client_id and client_secret (shown once). Options: --label',
  'customer:create': 'Creates a customer login. Options: --email --password [--company] [--first-name] [--last-name]',
  'admin-user:create':
    'Creates an admin user (Admin API password grant, the console at /b2b-admin). Options: --username --email --password [--read-only]',
  'admin-user:role': 'Sets an admin user’s console role. Options: --username --role managing|read-only',
  'seed:demo': 'Adds the demo shop (customers, catalog, plugin demo records) unless it exists.',
  'jobs:run': 'Runs every due job and every schedule once.',
  'recurring-orders:place-due':
    'Queues the recurring-order job as of a time (catch-up after downtime) and runs it here; with --queue only queues it for the running workers. Options: [--now <ISO time>] [--missed place-once|skip] [--queue]',
};

/** The plugin's job that places due recurring orders (its payload: `now`, `missed`). */
const PLACE_DUE_JOB = 'recurring-order.place-due';

class UsageError extends Error {}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function withApp<T>(work: (shop: ShopApp) => Promise<T>): Promise<T> {
  const { createApp } = await import('./host/app.js');
  // Logs would interleave with the JSON on stdout: silent unless LOG_LEVEL asks for them.
  const shop = await createApp({ config: { workers: false, logLevel: process.env.LOG_LEVEL || 'silent' } });
  try {
    return await work(shop);
  } finally {
    await shop.close();
  }
}

function option(values: Record<string, string | boolean | undefined>, name: string, required: true): string;
function option(
  values: Record<string, string | boolean | undefined>,
  name: string,
  required?: false,
): string | undefined;
function option(
  values: Record<string, string | boolean | undefined>,
  name: string,
  required = false,
): string | undefined {
  const value = values[name];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (required) throw new UsageError(`--${name} is required`);
  return undefined;
}

async function migrate(): Promise<unknown> {
  const { loadConfig } = await import('./host/config.js');
  const { createDb } = await import('./lib/db.js');
  const { HOST_MIGRATIONS, migrateFolder } = await import('./host-kit/migrator.js');
  const { importPlugin, migratePlugin } = await import('./host-kit/plugin-loader.js');
  const config = loadConfig(process.env, { logLevel: 'silent' });
  const db = createDb(config.databaseUrl);
  try {
    const host = await migrateFolder(db, HOST_MIGRATIONS, 'knex_migrations');
    const { manifest } = await importPlugin();
    const plugin = await migratePlugin(db, manifest);
    return { migrated: { host, [manifest.name]: plugin } };
  } finally {
    await db.destroy();
  }
}

async function createIntegration(values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const label = option(values, 'label') ?? 'CLI integration';
  const { ensureAdminIntegration } = await import('./host/seed/base-data.js');
  return withApp(async (shop) => {
    const clientId = `SWIA${newId().slice(0, 20).toUpperCase()}`;
    const clientSecret = newSecret(32);
    await ensureAdminIntegration(shop.db, clientId, clientSecret, label);
    return {
      client_id: clientId,
      client_secret: clientSecret,
      label,
      note: 'The secret is shown only now; store it safely.',
    };
  });
}

async function createCustomer(values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const email = option(values, 'email', true).toLowerCase();
  const password = option(values, 'password', true);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 255)
    throw new UsageError('--email is not an e-mail address');
  if (password.length < 8) throw new UsageError('--password must have at least 8 characters');
  const { isDuplicateKeyError } = await import('./lib/db.js');
  return withApp(async (shop) => {
    const salesChannel = await shop
      .db<{ id: string; created_at: string }>('sales_channels')
      .orderBy('created_at')
      .orderBy('id')
      .first('id');
    if (!salesChannel) throw new UsageError('the shop has no sales channel yet (run the migrations first)');
    if (await shop.runtime.customers.findByEmail(shop.db, email))
      throw new UsageError(`a customer with the e-mail ${email} exists already`);
    try {
      const customer = await shop.runtime.customers.create(shop.db, {
        salesChannelId: salesChannel.id,
        email,
        password,
        firstName: option(values, 'first-name') ?? '',
        lastName: option(values, 'last-name') ?? '',
        company: option(values, 'company') ?? null,
      });
      return { customer };
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new UsageError(`a customer with the e-mail ${email} exists already`);
      throw error;
    }
  });
}

async function createAdminUser(values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const username = option(values, 'username', true);
  const email = option(values, 'email', true).toLowerCase();
  const password = option(values, 'password', true);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 255)
    throw new UsageError('--email is not an e-mail address');
  if (username.length > 255) throw new UsageError('--username is longer than 255 characters');
  if (password.length < 12) throw new UsageError('--password must have at least 12 characters');
  const readOnly = values['read-only'] === true;
  const { hashPassword } = await import('./host-kit/passwords.js');
  const { isDuplicateKeyError } = await import('./lib/db.js');
  const { nowDb } = await import('./lib/time.js');
  return withApp(async (shop) => {
    const id = newId();
    try {
      await shop.db('admin_users').insert({
        id,
        username,
        email,
        password_hash: await hashPassword(password),
        active: true,
        read_only: readOnly,
        created_at: nowDb(),
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new UsageError(`an admin user named ${username} exists already`);
      throw error;
    }
    return { adminUser: { id, username, email, role: readOnly ? 'read-only' : 'managing' } };
  });
}

async function setAdminUserRole(values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const username = option(values, 'username', true);
  const role = option(values, 'role', true);
  if (role !== 'managing' && role !== 'read-only') throw new UsageError('--role is managing or read-only');
  const { nowDb } = await import('./lib/time.js');
  return withApp(async (shop) => {
    const changed = await shop
      .db('admin_users')
      .where({ username })
      .update({ read_only: role === 'read-only', updated_at: nowDb() });
    if (changed === 0) throw new UsageError(`there is no admin user named ${username}`);
    return { adminUser: { username, role } };
  });
}

async function placeDueRecurringOrders(values: Record<string, string | boolean | undefined>): Promise<unknown> {
  const now = option(values, 'now');
  if (now !== undefined && Number.isNaN(Date.parse(now))) throw new UsageError('--now is not an ISO time');
  const missed = option(values, 'missed');
  if (missed !== undefined && missed !== 'place-once' && missed !== 'skip')
    throw new UsageError('--missed is place-once or skip');
  const payload = {
    now: new Date(now ?? Date.now()).toISOString(),
    ...(missed ? { missed } : {}),
  };
  return withApp(async (shop) => {
    await shop.jobs.jobs.enqueue(shop.db, PLACE_DUE_JOB, payload);
    if (values.queue === true) return { queued: { name: PLACE_DUE_JOB, payload } };
    const ran = await shop.jobs.runDue({ schedules: 'due' });
    const job = await shop
      .db<{ name: string; state: string; last_error: string | null; created_at: string }>('jobs')
      .where('name', PLACE_DUE_JOB)
      .orderBy('created_at', 'desc')
      .first('state', 'last_error');
    return { queued: { name: PLACE_DUE_JOB, payload }, ran, state: job?.state ?? null, error: job?.last_error ?? null };
  });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || !(command in USAGE)) {
    print({
      usage: 'npm run cli -- <command> [options]',
      commands: USAGE,
      ...(command && command !== 'help' && command !== '--help' ? { error: `unknown command "${command}"` } : {}),
    });
    return command && command !== 'help' && command !== '--help' ? 2 : 0;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      label: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      company: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      username: { type: 'string' },
      role: { type: 'string' },
      'read-only': { type: 'boolean' },
      now: { type: 'string' },
      missed: { type: 'string' },
      queue: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  const commands: Record<string, () => Promise<unknown>> = {
    migrate,
    'integration:create': () => createIntegration(values),
    'customer:create': () => createCustomer(values),
    'admin-user:create': () => createAdminUser(values),
    'admin-user:role': () => setAdminUserRole(values),
    'seed:demo': () =>
      withApp(async (shop) => {
        const { seedDemoIfEmpty } = await import('./host/seed/demo.js');
        return { lines: (await seedDemoIfEmpty(shop, true)).lines };
      }),
    'jobs:run': () => withApp(async (shop) => ({ ran: await shop.jobs.runDue() })),
    'recurring-orders:place-due': () => placeDueRecurringOrders(values),
  };
  print(await commands[command]!());
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    process.exit(usage ? 2 : 1);
  },
);
