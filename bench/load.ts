import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { projectPath } from '../src/host/paths.js';
import { sampleCpu } from './cpu.js';
import type { BenchRequest } from './types.js';

/** Starts `npx tsx <args>` in `cwd` (default: this checkout) and waits for `ready` to match its output; the port is the first group. */
export function startProcess(args: string[], env: Record<string, string>, ready: RegExp, cwd = projectPath()): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], cwd });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

/**
 * Fires one request at `url` for `duration` seconds. With `server`, also the CPU time that process
 * (and its children) spent per answered request: unlike req/s it does not move much when other work
 * shares the cores.
 */
export async function fireAt(url: string, request: BenchRequest, options: { duration: number; connections: number; server?: ChildProcess }): Promise<{ rps: number; p50: number; p99: number; errors: number; cpuMsPerRequest: number | null }> {
  const { duration, connections, server } = options;
  const cpuBefore = server ? sampleCpu(server.pid).app : null;
  let turn = 0;
  const bodies = request.bodies;
  const callers = request.callers;
  const result = await autocannon({
    url,
    connections,
    duration,
    method: request.method,
    headers: { 'content-type': 'application/json', ...(request.headers ?? {}) },
    body: request.body,
    ...(bodies || callers
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                // Callers in turn, and each caller through every body in turn.
                const next = turn++;
                const caller = callers ? next % callers.length : 0;
                const body = callers ? Math.floor(next / callers.length) : next;
                return { ...req, ...(bodies ? { body: bodies[body % bodies.length] } : {}), ...(callers ? { headers: { ...req.headers, ...callers[caller] } } : {}) };
              },
            },
          ],
        }
      : {}),
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  const cpuAfter = server ? sampleCpu(server.pid).app : null;
  const cpuMsPerRequest = cpuBefore !== null && cpuAfter !== null && result.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total : null;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors, cpuMsPerRequest };
}
