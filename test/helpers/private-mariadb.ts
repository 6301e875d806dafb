import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';

/**
 * A MariaDB server of the test's own — own data folder, port and socket — that the test may stop,
 * kill and freeze (SIGSTOP) at will. The shared server on 3306 is never touched.
 */
export interface PrivateMariaDb {
  port: number;
  /** mysql:// URL of the database `shop` on it. */
  url: string;
  /** SIGKILL: the server vanishes as in a crash; connections are reset. */
  kill(): Promise<void>;
  /** Starts it again on the same data folder and port; resolves when it accepts logins. */
  start(): Promise<void>;
  freeze(): void;
  thaw(): void;
  /** Kills the server and removes its data folder. */
  destroy(): Promise<void>;
}

const MARIADBD = '/usr/sbin/mariadbd';
/** "Not up yet" is expected while waiting for the server; knex need not report each try. */
const QUIET = { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined };
const INSTALL_DB = 'mariadb-install-db';

export function privateMariaDbAvailable(): string | null {
  const found = spawnSync(INSTALL_DB, ['--help'], { stdio: 'ignore' });
  if (found.error) return `${INSTALL_DB} is not installed`;
  const server = spawnSync(MARIADBD, ['--version'], { stdio: 'ignore' });
  if (server.error) return `${MARIADBD} is not installed`;
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForLogin(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const admin = knexFactory({
      client: 'mysql2',
      connection: { host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 },
      pool: { min: 0, max: 1 },
      log: QUIET,
    });
    try {
      await admin.raw('select 1');
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(
          `private MariaDB on ${port} did not accept logins within ${timeoutMs} ms: ${(error as Error).message}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await admin.destroy();
    }
  }
}

export async function startPrivateMariaDb(): Promise<PrivateMariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'suite-private-mariadb-'));
  const dataDir = join(dir, 'data');
  // --no-defaults: the machine's my.cnf (user, log file, port of the shared server) must not apply.
  const install = spawnSync(
    INSTALL_DB,
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed: ${install.stderr || install.stdout}`);
  }
  const port = await freePort();
  let server: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  async function start(): Promise<void> {
    const child = spawn(
      MARIADBD,
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        '--user=root',
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(dir, 'mariadbd.sock')}`,
        `--pid-file=${join(dir, 'mariadbd.pid')}`,
        '--skip-grant-tables',
        '--skip-log-bin',
        '--innodb-buffer-pool-size=32M',
        '--max-connections=200',
      ],
      { stdio: 'ignore' },
    );
    server = child;
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await waitForLogin(port, 20000);
  }

  async function kill(): Promise<void> {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGCONT');
      server.kill('SIGKILL');
      await exited;
    }
    server = null;
  }

  await start();
  const admin = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', port, user: 'root' } });
  await admin.raw('CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
  await admin.destroy();

  return {
    port,
    url: `mysql://root@127.0.0.1:${port}/shop`,
    kill,
    start,
    freeze: () => void server?.kill('SIGSTOP'),
    thaw: () => void server?.kill('SIGCONT'),
    async destroy() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
