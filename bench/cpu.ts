import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds used by the processes of a bench run, from /proc (Linux; elsewhere every figure is
 * null): the app (a process and its descendants, e.g. cluster workers), the database server when it
 * runs on this machine (mariadbd / mysqld), and the bench process itself (autocannon runs in it).
 */
export interface CpuSample {
  app: number | null;
  database: number | null;
  loadGenerator: number;
}

let ticksPerSecond: number | null = null;
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** CPU time in clock ticks, its reaped children's included */
  ticks: number;
}

function readStats(): ProcStat[] | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const stats: ProcStat[] = [];
  for (const pid of pids) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
      const close = text.lastIndexOf(')');
      const fields = text.slice(close + 2).split(' ');
      // utime + stime, plus cutime + cstime: children that ended and were reaped move their time there.
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      stats.push({ pid: Number(pid), comm: text.slice(text.indexOf('(') + 1, close), ppid: Number(fields[1]), ticks });
    } catch {
      // gone meanwhile
    }
  }
  return stats;
}

function descendantsTicks(stats: ProcStat[], root: number): number {
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let ticks = 0;
  const queue = stats.filter((stat) => stat.pid === root);
  while (queue.length) {
    const stat = queue.pop()!;
    ticks += stat.ticks;
    queue.push(...(children.get(stat.pid) ?? []));
  }
  return ticks;
}

/** A reading now; the CPU used in between is `cpuBetween(before, after)`. */
export function sampleCpu(appPid: number | undefined): CpuSample {
  const own = process.cpuUsage();
  const loadGenerator = (own.user + own.system) / 1e6;
  const stats = readStats();
  if (!stats) return { app: null, database: null, loadGenerator };
  const hz = clockTicks();
  const database = stats.filter((stat) => stat.comm === 'mariadbd' || stat.comm === 'mysqld');
  return {
    app: appPid === undefined ? null : descendantsTicks(stats, appPid) / hz,
    database: database.length ? database.reduce((sum, stat) => sum + stat.ticks, 0) / hz : null,
    loadGenerator,
  };
}

export function cpuBetween(before: CpuSample, after: CpuSample): CpuSample {
  const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
  return {
    app: diff(before.app, after.app),
    database: diff(before.database, after.database),
    loadGenerator: after.loadGenerator - before.loadGenerator,
  };
}
