#!/usr/bin/env node
// `npm test`: the mocha suite in several processes at once. Each test process (test/helpers/test-worker.ts)
// runs files with the shared app on its own database (test/helpers/database.ts names it by pid), so
// processes never see each other's rows. Files are handed out one at a time while the suite runs,
// longest recorded first (test/timings.json): a process that is free takes the next, so all of them
// end at about the same time whatever the machine's load.
//
//   node scripts/test.mjs [--jobs N] [--record] [file or folder …]
//
// --jobs N   processes (default TEST_JOBS, else what the database takes: see defaultJobs)
// --record   write the measured durations per file into test/timings.json
//
// The last lines are mocha's, summed over the processes ("N passing", "N pending", "N failing"), which
// is what .ci/run reads, then each failure again; the exit code is non-zero if any test failed or a
// test process died.
import { fork } from 'node:child_process';
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
const OUT_DIR = join(ROOT, 'var', 'test', 'processes');
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

/** The files in the order they are handed out: longest recorded first, so no long file starts last. */
export function handOutOrder(files, seconds) {
  const of = (file) => seconds[file] ?? UNKNOWN_FILE_SECONDS;
  return [...files].sort((a, b) => of(b) - of(a) || a.localeCompare(b));
}

/**
 * Files that need a test process of their own: Vendure builds its Nest module graph once per process,
 * so a shop whose plugins no other test shop has (BullMQ's job queue) cannot boot after another shop.
 * Each runs from the start beside the `jobs` processes: it spends most of its time waiting for
 * Vendure's scheduler (whole minutes of real time) and its worker processes, not computing.
 */
const OWN_PROCESS = new Set(['test/vendure/job-queue.test.ts']);

/** Node's options for a test process: the ones .mocharc.json gives mocha's CLI (TypeScript, the source condition). */
const TEST_NODE_OPTIONS = JSON.parse(readFileSync(join(ROOT, '.mocharc.json'), 'utf8'))['node-option'].map(
  (option) => `--${option}`,
);

/**
 * One test process (test/helpers/test-worker.ts): `run(file)` answers the file's outcome, `finish()`
 * closes it. Its output goes to `logStream` as it comes (tail -f shows a hung file) and is kept for
 * the summary. A process that dies answers the file it was running as failed.
 */
function startWorker(index, logStream) {
  const child = fork(join(ROOT, 'test', 'helpers', 'test-worker.ts'), [], {
    cwd: ROOT,
    execArgv: TEST_NODE_OPTIONS,
    env: { ...process.env, SUITE_TEST_PROCESS: String(index + 1) },
    silent: true,
  });
  let output = '';
  const take = (chunk) => {
    output += chunk;
    logStream.write(chunk);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  let waiting = null;
  let exited = null;
  const ready = new Promise((resolve) => child.once('message', resolve));
  child.on('message', (message) => {
    if (message.type === 'file' && waiting) {
      const { resolve } = waiting;
      waiting = null;
      resolve(message);
    }
  });
  const closed = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal, duringFile: waiting !== null };
      if (waiting) {
        const { file, resolve, started } = waiting;
        waiting = null;
        resolve({
          type: 'file',
          file,
          seconds: (Date.now() - started) / 1000,
          passes: 0,
          pending: 0,
          failures: [{ title: `${file}: its test process exited (${code ?? signal})`, error: output.slice(-3000) }],
        });
      }
      resolve(exited);
    }),
  );
  return {
    get output() {
      return output;
    },
    get alive() {
      return exited === null;
    },
    async run(file) {
      await ready;
      if (exited) throw new Error('test process gone');
      return new Promise((resolve) => {
        waiting = { file, resolve, started: Date.now() };
        child.send({ type: 'run', file });
      });
    },
    async finish() {
      if (!exited) {
        await ready;
        child.send({ type: 'done' });
      }
      return closed;
    },
  };
}

/**
 * A slot of `jobs`: takes the next file from `queue` until it is empty, in one long-lived test
 * process (a new one if a file crashed it), or in a process of its own for an OWN_PROCESS file.
 */
async function runSlot(index, queue, outcomes) {
  const log = join(OUT_DIR, `process-${index + 1}.log`);
  const logStream = createWriteStream(log);
  const workers = [];
  let worker = null;
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (OWN_PROCESS.has(file)) {
      const own = startWorker(index, logStream);
      workers.push(own);
      outcomes.push({ ...(await own.run(file)), process: index + 1 });
      await own.finish();
      continue;
    }
    if (!worker?.alive) workers.push((worker = startWorker(index, logStream)));
    outcomes.push({ ...(await worker.run(file)), process: index + 1 });
  }
  const exits = await Promise.all(workers.map((w) => w.finish()));
  logStream.end();
  return { index, log, output: workers.map((w) => w.output).join('\n'), exits };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const dialect = dialectOf(process.env.DATABASE_URL);
  const files = testFiles(options.paths);
  const jobs = Math.min(options.jobs || defaultJobs(dialect), files.length);
  const recorded = readTimings();
  const queue = handOutOrder(files, recorded[dialect] ?? recorded.sqlite ?? {});
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const started = Date.now();

  const outcomes = [];
  const shared = queue.filter((file) => !OWN_PROCESS.has(file));
  const queues = [
    ...Array.from({ length: jobs }, () => shared),
    ...queue.filter((file) => OWN_PROCESS.has(file)).map((file) => [file]),
  ];
  console.log(
    `${files.length} test files on ${dialect} in ${jobs} processes${queues.length > jobs ? ` and ${queues.length - jobs} of their own` : ''} (logs: ${relative(ROOT, OUT_DIR)}/)`,
  );

  const slots = await Promise.all(
    queues.map((slotQueue, i) =>
      runSlot(i, slotQueue, outcomes).then((slot) => {
        const mine = outcomes.filter((o) => o.process === i + 1);
        const failing = mine.reduce((n, o) => n + o.failures.length, 0);
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        console.log(
          `\n=== process ${i + 1}/${queues.length}: ${mine.length} files, ended after ${seconds} s, ${mine.reduce((n, o) => n + o.passes, 0)} passing, ${failing} failing ===`,
        );
        console.log(slot.output.trimEnd());
        return slot;
      }),
    ),
  );

  const total = { passing: 0, pending: 0, failing: 0 };
  for (const o of outcomes) {
    total.passing += o.passes;
    total.pending += o.pending;
    total.failing += o.failures.length;
  }
  // A process that ended badly after its last file (closing the shared app) counts as one failure.
  const badExits = slots.flatMap((slot) =>
    slot.exits.filter((e) => e.code !== 0 && !e.duringFile).map((e) => ({ slot, exit: e.code ?? e.signal })),
  );
  const measured = Object.fromEntries(outcomes.map((o) => [o.file, Math.round(o.seconds * 10) / 10]).sort());
  // Always kept beside the logs (what each file took in this run, in which process): --record makes it the dealing's.
  writeFileSync(
    join(OUT_DIR, 'timings.json'),
    `${JSON.stringify({ dialect, jobs, files: measured, processOf: Object.fromEntries(outcomes.map((o) => [o.file, o.process])) }, null, 2)}\n`,
  );
  if (options.record) {
    writeFileSync(TIMINGS_FILE, `${JSON.stringify({ ...recorded, [dialect]: measured }, null, 2)}\n`);
    console.log(
      `\nrecorded ${Object.keys(measured).length} file durations for ${dialect} in ${relative(ROOT, TIMINGS_FILE)}`,
    );
  }
  const slowest = [...outcomes].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
  if (slowest.length)
    console.log(`\nslowest files: ${slowest.map((o) => `${o.file} ${o.seconds.toFixed(0)} s`).join(', ')}`);
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.log(`\n  ${total.passing} passing (${minutes}m)`);
  if (total.pending) console.log(`  ${total.pending} pending`);
  if (total.failing + badExits.length) console.log(`  ${total.failing + badExits.length} failing`);
  // The failures again, last, so a log that keeps only its tail (CI's) still says what failed and why.
  for (const o of outcomes)
    for (const failure of o.failures)
      console.log(`\n${o.file} (process ${o.process}): ${failure.title}\n${clip(failure.error, 40)}`);
  for (const { slot, exit } of badExits)
    console.log(
      `\na test process of slot ${slot.index + 1} exited ${exit} after its last file: ${relative(ROOT, slot.log)}`,
    );
  process.exitCode = total.failing + badExits.length > 0 ? 1 : 0;
}

function clip(text, maxLines) {
  const lines = String(text).trimEnd().split('\n');
  return (
    lines.slice(0, maxLines).join('\n') + (lines.length > maxLines ? `\n… (${lines.length - maxLines} more lines)` : '')
  );
}

if (process.argv[1] === import.meta.filename) await main();
