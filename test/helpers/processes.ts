import { spawn, type ChildProcess } from 'node:child_process';
import { projectPath } from '../../src/host-kit/paths.js';
import { CONCURRENCY_STATEMENT_MS } from './database.js';
import { getShop, TEST_APP_SECRET, testDatabaseUrl } from './shop.js';

export interface AppProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function startOne(env: NodeJS.ProcessEnv): Promise<AppProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', projectPath('test', 'helpers', 'app-process.ts')],
    {
      cwd: projectPath(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`app process did not start within 60 s: ${stderr}`));
    }, 60000);
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /LISTENING (\d+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        pid: child.pid!,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 10000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app process exited with ${code} before listening: ${stderr}`));
    });
  });
}

/**
 * Starts `count` real app processes (node + tsx) on free ports against the test database, the way
 * a scaled-out deployment runs: same DATABASE_URL and APP_SECRET, no job workers. The shared test
 * app is created first, so the database is migrated before the processes start.
 */
export async function startAppProcesses(count: number, extraEnv: Record<string, string> = {}): Promise<AppProcess[]> {
  await getShop();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: await testDatabaseUrl(),
    APP_SECRET: TEST_APP_SECRET,
    WORKERS: '0',
    PORT: '0',
    PUBLIC_URL: 'http://shop.test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    DB_STATEMENT_TIMEOUT_MS: String(CONCURRENCY_STATEMENT_MS),
    ...extraEnv,
  };
  const started = await Promise.allSettled(Array.from({ length: count }, () => startOne(env)));
  const processes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await stopAppProcesses(processes);
    throw failure.reason;
  }
  return processes;
}

export async function stopAppProcesses(processes: AppProcess[]): Promise<void> {
  await Promise.all(processes.map((p) => p.stop()));
}

/**
 * App processes for one describe block: started on first use, stopped after the block.
 * Call it in the describe body; await the returned function inside the tests that race.
 */
export function appProcessesForSuite(count = 2): () => Promise<AppProcess[]> {
  let processes: AppProcess[] = [];
  after(async () => {
    await stopAppProcesses(processes);
  });
  return async () => (processes.length ? processes : (processes = await startAppProcesses(count)));
}

/** A transient refusal a storefront retries: contention that outlived the server's retries (409) or an overloaded database (503). */
const isTransient = (status: number, body: any) =>
  (status === 409 && body?.errors?.[0]?.code === 'SUITE__CONFLICT') ||
  (status === 503 && body?.errors?.[0]?.code === 'SUITE__SERVICE_UNAVAILABLE');

/**
 * Every token places its cart's order at once, spread over the processes in turn. As a storefront
 * does, a checkout refused as transient is sent again (up to 10 times, waiting longer each time; a
 * loaded 2-core machine makes row-lock waits run out), so the answers are the decisions the
 * invariants are about.
 */
export async function raceCheckouts(
  processes: AppProcess[],
  tokens: string[],
): Promise<Array<{ status: number; body: any }>> {
  return Promise.all(
    tokens.map(async (token, index) => {
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(`${processes[index % processes.length]!.url}/store-api/checkout/order`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'suite-context-token': token },
          body: '{}',
        });
        const answer = { status: res.status, body: (await res.json()) as any };
        if (attempt === 10 || !isTransient(answer.status, answer.body)) return answer;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt + Math.random() * 100));
      }
    }),
  );
}
