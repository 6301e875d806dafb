import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { projectPath } from '../src/host-kit/paths.js';
import { sampleCpu } from './cpu.js';
import type { BenchRequest } from './types.js';

/** Starts `npx tsx <args>` in `cwd` (default: this checkout) and waits for `ready` to match its output; the port is the first group. */
export function startProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  cwd = projectPath(),
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd,
    });
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
export async function fireAt(
  url: string,
  request: BenchRequest,
  options: { duration: number; connections: number; server?: ChildProcess },
): Promise<{
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  errorKinds: string;
  cpuMsPerRequest: number | null;
}> {
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
                return {
                  ...req,
                  ...(bodies ? { body: bodies[body % bodies.length] } : {}),
                  ...(callers ? { headers: { ...req.headers, ...callers[caller] } } : {}),
                };
              },
            },
          ],
        }
      : {}),
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  const cpuAfter = server ? sampleCpu(server.pid).app : null;
  const cpuMsPerRequest =
    cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total
      : null;
  // What the errors were: the answers' statuses other than 2xx, and connection errors and timeouts.
  const statuses = Object.entries(result.statusCodeStats ?? {}).filter(([status]) => !status.startsWith('2'));
  const errorKinds = [
    ...statuses.map(([status, { count }]) => `${count}× ${status}`),
    ...(result.errors ? [`${result.errors} connection errors`] : []),
    ...(result.timeouts ? [`${result.timeouts} timeouts`] : []),
  ].join(', ');
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    errorKinds,
    cpuMsPerRequest,
  };
}

/** The middle value (the upper one of an even count); NaN for none. */
export const median = (values: number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;

/** One side of a comparison: a request fired at one server. */
export interface FiredSide {
  url: string;
  request: BenchRequest;
  server?: ChildProcess;
  /** Runs before each of the side's fires, warm-up included (e.g. a rule switched on for it, a cart emptied). */
  before?: () => Promise<void>;
}

export interface RoundFigures {
  /** req/s of each round, in round order */
  rounds: number[];
  /** mean req/s over the rounds */
  rps: number;
  /** median of the rounds' p50 and p99 */
  p50: number;
  p99: number;
  errors: number;
  /** the errors of every round by kind (e.g. "3× 409"), '' for none */
  errorKinds: string;
  /** the server's CPU over all measured rounds ÷ the requests it answered in them */
  cpuMsPerRequest: number | null;
}

/**
 * Fires each side in turn, `rounds` times for `seconds` each, after `warmupSeconds` unmeasured per
 * side (each process compiles its hot paths on its first requests). The order flips every round
 * (a b c, c b a, …), so a slowdown of the machine in the middle of a run — other tenants' work on a
 * shared host moved one side's figure by up to 40 % between back-to-back runs — falls on every side
 * alike instead of on whichever ran then. Compare sides by `ratioOfRounds`.
 */
export async function fireInRounds(
  sides: FiredSide[],
  options: { rounds: number; seconds: number; warmupSeconds: number; connections: number },
): Promise<RoundFigures[]> {
  const { rounds, seconds, warmupSeconds, connections } = options;
  if (warmupSeconds > 0)
    for (const side of sides) {
      await side.before?.();
      await fireAt(side.url, side.request, { duration: warmupSeconds, connections });
    }
  const results = sides.map(() => [] as Array<Awaited<ReturnType<typeof fireAt>>>);
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      await sides[i]!.before?.();
      results[i]!.push(
        await fireAt(sides[i]!.url, sides[i]!.request, { duration: seconds, connections, server: sides[i]!.server }),
      );
    }
  }
  return results.map((measured) => {
    const cpu = measured.every((r) => r.cpuMsPerRequest !== null)
      ? measured.reduce((sum, r) => sum + r.cpuMsPerRequest! * r.rps, 0) / measured.reduce((sum, r) => sum + r.rps, 0)
      : null;
    return {
      rounds: measured.map((r) => r.rps),
      rps: measured.reduce((sum, r) => sum + r.rps, 0) / measured.length,
      p50: median(measured.map((r) => r.p50)),
      p99: median(measured.map((r) => r.p99)),
      errors: measured.reduce((sum, r) => sum + r.errors, 0),
      errorKinds: measured
        .map((r) => r.errorKinds)
        .filter(Boolean)
        .join('; '),
      cpuMsPerRequest: cpu,
    };
  });
}

/** The median over rounds of a's req/s ÷ b's in the same round: robust to one round on a busy machine. */
export function ratioOfRounds(a: RoundFigures, b: RoundFigures): number {
  return median(a.rounds.map((rps, i) => rps / b.rounds[i]!));
}
