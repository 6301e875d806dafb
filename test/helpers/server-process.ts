import { spawn, type ChildProcess } from 'node:child_process';
import { projectPath } from '../../src/host-kit/paths.js';

/** `npm start`'s entry (src/server.ts) as a real process, with its output kept. */
export interface ServerProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', projectPath('src', 'server.ts')], {
    cwd: projectPath(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves with the base URL once the server printed its banner. */
export async function serverUrl(server: ServerProcess, timeoutMs = 60000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = /running on (http:\/\/localhost:\d+)/.exec(server.stdout());
    if (match) return match[1]!.replace('localhost', '127.0.0.1');
    if (server.child.exitCode !== null) throw new Error(`server exited before listening: ${server.stderr()}`);
    if (Date.now() > deadline) throw new Error(`server did not listen within ${timeoutMs} ms: ${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with the exit once the process ended; throws with its output if it did not within `timeoutMs` (`what` says what it waited for). */
export async function exitWithin(
  server: ServerProcess,
  timeoutMs: number,
  what: string,
): Promise<Awaited<ServerProcess['exited']>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the server did not exit within ${timeoutMs} ms ${what}: ${server.stdout().slice(-2000)} ${server.stderr()}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}
