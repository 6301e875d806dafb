// One test process of `npm test` (scripts/test.mjs): it asks the runner for a file, runs it in a
// mocha run of its own, reports the outcome and asks for the next, until the runner says "done".
// Files are handed out while the suite runs, so a process that drew quick files takes more of them
// and the processes end together whatever the recorded durations say. The shared app (and a Vendure
// shop, whose module graph is built once per process) lives across the files of one process.
//
// Messages (over the IPC channel node gives a forked child):
//   worker → runner  { type: 'ready' }                  then after each file
//                    { type: 'file', file, seconds, passes, pending, failures: [{ title, error }] }
//   runner → worker  { type: 'run', file } | { type: 'done' }
import './../env.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import Mocha from 'mocha';
import { finishTestProcess, mochaHooks } from '../setup.js';

interface RunMessage {
  type: 'run' | 'done';
  file?: string;
}

export interface FileOutcome {
  type: 'file';
  file: string;
  seconds: number;
  passes: number;
  pending: number;
  failures: Array<{ title: string; error: string }>;
}

/** The options mocha's CLI reads from .mocharc.json (the time limit, the reporter), kept in one place. */
const MOCHARC = JSON.parse(readFileSync(resolve('.mocharc.json'), 'utf8')) as { timeout: number; reporter: string };

const send = (message: object): Promise<void> =>
  new Promise((done, fail) => process.send!(message, (error: Error | null) => (error ? fail(error) : done())));

async function runFile(file: string): Promise<FileOutcome> {
  const started = performance.now();
  const mocha = new Mocha({ timeout: MOCHARC.timeout, reporter: MOCHARC.reporter });
  mocha.rootHooks({ ...mochaHooks, afterAll: [] });
  mocha.addFile(resolve(file));
  const failures: FileOutcome['failures'] = [];
  let passes = 0;
  let pending = 0;
  try {
    await mocha.loadFilesAsync();
    await new Promise<void>((done) => {
      const runner = mocha.run(() => done());
      runner.on('pass', () => passes++);
      runner.on('pending', () => pending++);
      runner.on('fail', (test, error: Error) =>
        failures.push({ title: test.fullTitle(), error: error?.stack ?? String(error) }),
      );
    });
  } catch (error) {
    // A file that does not load (a syntax or import error) is one failure, like mocha's CLI.
    failures.push({ title: `${file} (loading)`, error: (error as Error)?.stack ?? String(error) });
  } finally {
    mocha.dispose();
  }
  return { type: 'file', file, seconds: (performance.now() - started) / 1000, passes, pending, failures };
}

process.on('message', (message: RunMessage) => {
  void (async () => {
    if (message.type === 'done') {
      await finishTestProcess();
      process.exit(0);
    }
    await send(await runFile(message.file!));
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
void send({ type: 'ready' });
