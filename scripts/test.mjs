#!/usr/bin/env node
// `npm test`: the mocha suite in several processes at once. Each process (a shard) runs its share of
// the test files with the shared app on its own database (test/helpers/database.ts names it by pid),
// so shards never see each other's rows. Files are dealt out longest first by the durations recorded
// in test/timings.json, so the shards end at about the same time.
//
//   node scripts/test.mjs [--jobs N] [--record] [file or folder …]
//
// --jobs N   processes (default TEST_JOBS, else what the database takes: see defaultJobs)
// --record   write the measured durations per file into test/timings.json
//
// The last lines are mocha's, summed over the shards ("N passing", "N pending", "N failing"), which
// is what .ci/run reads; the exit code is non-zero if any test failed or a shard did not finish.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TIMINGS_FILE = join(ROOT, 'test', 'timings.json');
const OUT_DIR = join(ROOT, 'var', 'test', 'shards');
/** A file with no recorded duration counts as this many seconds (about the median). */
const UNKNOWN_FILE_SECONDS = 4;

function parseArgs(argv) {
  const options = { jobs: Number(process.env.TEST_JOBS) || 0, record: false, paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--jobs') options.jobs = Number(argv[++i]);
    else if (arg.startsWith('--jobs=')) options.jobs = Number(arg.slice('--jobs='.length));
    else if (arg === '--record') options.record = true;
    else options.paths.push(arg);
  }
  if (!Number.isInteger(options.jobs) || options.jobs < 0) throw new Error('--jobs takes a whole number');
  return options;
}

export function dialectOf(url) {
  if (!url) return 'sqlite';
  if (/^(mysql|mariadb):/.test(url)) return 'mysql';
  if (/^postgres(ql)?:/.test(url)) return 'postgres';
  return 'sqlite';
}

/**
 * SQLite runs in the test process itself, so a shard is CPU bound: one per core, plus one to fill
 * the gaps while others wait on child processes, browsers and sockets. A database server does part of
 * the work in its own processes, so shards wait more and one more pays off.
 */
function defaultJobs(dialect) {
  const cores = availableParallelism();
  return dialect === 'sqlite' ? cores + 1 : cores + 2;
}

function testFiles(paths) {
  const roots = paths.length ? paths : ['test'];
  const files = [];
  for (const root of roots) {
    const absolute = join(ROOT, root);
    if (!existsSync(absolute)) throw new Error(`no such test file or folder: ${root}`);
    if (statSync(absolute).isFile()) files.push(relative(ROOT, absolute));
    else
      for (const entry of readdirSync(absolute, { recursive: true, encoding: 'utf8' }))
        if (entry.endsWith('.test.ts') && !entry.split('/').includes('node_modules'))
          files.push(relative(ROOT, join(absolute, entry)));
  }
  return [...new Set(files)].sort();
}

function readTimings() {
  return existsSync(TIMINGS_FILE) ? JSON.parse(readFileSync(TIMINGS_FILE, 'utf8')) : {};
}

/** Longest processing time first: each file goes to the shard that would end earliest. */
export function deal(files, seconds, jobs) {
  const shards = Array.from({ length: Math.min(jobs, files.length) }, () => ({ files: [], estimate: 0 }));
  const ordered = [...files].sort(
    (a, b) => (seconds[b] ?? UNKNOWN_FILE_SECONDS) - (seconds[a] ?? UNKNOWN_FILE_SECONDS),
  );
  for (const file of ordered) {
    const shard = shards.reduce((least, s) => (s.estimate < least.estimate ? s : least));
    shard.files.push(file);
    shard.estimate += seconds[file] ?? UNKNOWN_FILE_SECONDS;
  }
  return shards;
}

/** What mocha printed after its last "N failing" (each failure with its stack), or the output's end. */
function failuresOf(output, maxLines = 60) {
  const at = [...output.matchAll(/^\s+\d+ failing/gm)].at(-1);
  const lines = (at ? output.slice(at.index + at[0].length) : output).trim().split('\n');
  const shown = at ? lines.slice(0, maxLines) : lines.slice(-maxLines);
  return shown.join('\n') + (lines.length > maxLines ? `\n… (${lines.length - maxLines} more lines)` : '');
}

/** The counts mocha's spec reporter printed last ("  12 passing (3s)", "  1 pending", "  2 failing"). */
function countsOf(log) {
  const last = (word) => {
    const all = [...log.matchAll(new RegExp(`^\\s+(\\d+) ${word}`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : 0;
  };
  return { passing: last('passing'), pending: last('pending'), failing: last('failing') };
}

/**
 * Files that need a test process of their own: Vendure builds its Nest module graph once per process,
 * so a shop whose plugins no other test shop has (BullMQ's job queue) cannot boot after another shop.
 */
const OWN_PROCESS = new Set(['test/vendure/job-queue.test.ts']);

/** One mocha process over `files`, its output written to `logStream` as it comes (tail -f shows a hung shard). */
function runMocha(index, files, part, logStream) {
  const timings = join(OUT_DIR, `timings-${index + 1}-${part}.json`);
  rmSync(timings, { force: true });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...files], {
      cwd: ROOT,
      env: { ...process.env, SUITE_TEST_SHARD: String(index + 1), SUITE_TEST_TIMINGS_OUT: timings },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const take = (chunk) => {
      output += chunk;
      logStream.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code, signal) => {
      const measured = existsSync(timings) ? JSON.parse(readFileSync(timings, 'utf8')) : {};
      resolve({ code, signal, output, measured });
    });
  });
}

/** A shard: its files in one mocha process, then each file that needs a process of its own in one. */
async function runShard(index, shard) {
  const log = join(OUT_DIR, `shard-${index + 1}.log`);
  const logStream = createWriteStream(log);
  const started = Date.now();
  const shared = shard.files.filter((file) => !OWN_PROCESS.has(file));
  const own = shard.files.filter((file) => OWN_PROCESS.has(file)).map((file) => [file]);
  const runs = [];
  for (const [part, files] of [shared, ...own].entries())
    if (files.length > 0) runs.push(await runMocha(index, files, part, logStream));
  logStream.end();
  const failed = runs.find((run) => run.code !== 0);
  const counts = { passing: 0, pending: 0, failing: 0 };
  for (const run of runs) for (const [key, n] of Object.entries(countsOf(run.output))) counts[key] += n;
  return {
    index,
    code: failed ? failed.code : 0,
    signal: failed?.signal ?? null,
    output: runs.map((run) => run.output).join('\n'),
    failures: runs.filter((run) => run.code !== 0).map((run) => failuresOf(run.output)),
    counts,
    seconds: (Date.now() - started) / 1000,
    measured: Object.assign({}, ...runs.map((run) => run.measured)),
    log,
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const dialect = dialectOf(process.env.DATABASE_URL);
  const jobs = options.jobs || defaultJobs(dialect);
  const files = testFiles(options.paths);
  const recorded = readTimings();
  const shards = deal(files, recorded[dialect] ?? recorded.sqlite ?? {}, jobs);
  mkdirSync(OUT_DIR, { recursive: true });
  const started = Date.now();
  console.log(
    `${files.length} test files on ${dialect} in ${shards.length} processes (logs: ${relative(ROOT, OUT_DIR)}/)`,
  );

  const results = await Promise.all(
    shards.map((shard, i) =>
      runShard(i, shard).then((result) => {
        const { counts } = result;
        console.log(
          `\n=== shard ${i + 1}/${shards.length}: ${shard.files.length} files, ${result.seconds.toFixed(0)} s, ${counts.passing} passing, ${counts.failing} failing${result.code === 0 ? '' : ` (exit ${result.code ?? result.signal})`} ===`,
        );
        console.log(result.output.trimEnd());
        return result;
      }),
    ),
  );

  const total = { passing: 0, pending: 0, failing: 0 };
  let broken = 0;
  for (const r of results) {
    for (const key of Object.keys(total)) total[key] += r.counts[key];
    // A shard that crashed or failed outside a test (a hook, an unhandled rejection) counts as one failure.
    if (r.code !== 0 && r.counts.failing === 0) broken++;
  }
  if (options.record) {
    const measured = Object.assign({}, ...results.map((r) => r.measured));
    const rounded = Object.fromEntries(
      Object.entries(measured)
        .sort()
        .map(([f, s]) => [f, Math.round(s * 10) / 10]),
    );
    writeFileSync(TIMINGS_FILE, `${JSON.stringify({ ...recorded, [dialect]: rounded }, null, 2)}\n`);
    console.log(
      `\nrecorded ${Object.keys(rounded).length} file durations for ${dialect} in ${relative(ROOT, TIMINGS_FILE)}`,
    );
  }
  const slowest = results
    .flatMap((r) => Object.entries(r.measured))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  if (slowest.length) console.log(`\nslowest files: ${slowest.map(([f, s]) => `${f} ${s.toFixed(0)} s`).join(', ')}`);
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.log(`\n  ${total.passing} passing (${minutes}m)`);
  if (total.pending) console.log(`  ${total.pending} pending`);
  if (total.failing + broken) console.log(`  ${total.failing + broken} failing`);
  for (const r of results)
    if (r.code !== 0) console.log(`  shard ${r.index + 1} exited ${r.code ?? r.signal}: ${relative(ROOT, r.log)}`);
  // The failures again, last, so a log that keeps only its tail (CI's) still says what failed and why.
  for (const r of results) if (r.code !== 0) console.log(`\nshard ${r.index + 1}:\n${r.failures.join('\n')}`);
  process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
}

if (process.argv[1] === import.meta.filename) await main();
