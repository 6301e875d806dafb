import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 .cpuprofile (written by `node --cpu-prof`, e.g. BENCH_CPU_PROF=dir npm run bench):
 * self time per area (our code by folder, each dependency, node internals, GC, idle) and the
 * functions with the most self time. Usage: tsx bench/profile-summary.ts <file.cpuprofile> [top] [skip ms]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function areaOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const own = /\/(src\/[^/]+\/[^/]+|bench)\//.exec(url);
  if (own) return own[1]!;
  if (url.startsWith('node:') || url === '') return 'node';
  return url;
}

/** `skipMs`: samples of the first milliseconds (the process starting, loading modules) are left out. */
export function summarise(profile: Profile, top = 30, skipMs = 0): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= skipMs * 1000) selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)!.callFrame;
    const area = areaOf(frame.url, frame.functionName);
    if (area === '(idle)') continue;
    total += micros;
    byArea.set(area, (byArea.get(area) ?? 0) + micros);
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  }
  const lines = [`busy ${(total / 1000).toFixed(0)} ms (idle left out)`, '', 'self time by area:'];
  for (const [area, micros] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${area}`);
  lines.push('', 'self time by function:');
  for (const [name, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const [file, top, skipMs] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top] [skip ms]\n');
    process.exit(2);
  }
  process.stdout.write(
    `${summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 30), Number(skipMs ?? 0))}\n`,
  );
}
