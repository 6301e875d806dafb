import { writeFileSync } from 'node:fs';
import type { Context, Hook } from 'mocha';
import { resetClock } from './helpers/clock.js';
import { guardConfigurationOf } from './helpers/config-guard.js';
import { closeShop, getShop, isServerDb } from './helpers/shop.js';
import {
  describeViolations,
  installQueryGuard,
  takeViolations,
  type PluginQueryViolation,
} from './helpers/query-guard.js';

/**
 * QUERY_GUARD_REPORT=<file>: instead of failing tests, write every host table plugin code named
 * (with a sample query and where it came from) to <file>, to review the guard's allow-list.
 */
const reportFile = process.env.QUERY_GUARD_REPORT;
const GUARDED = Symbol('query guard');

function violationError(violations: PluginQueryViolation[]): Error {
  return new Error(
    `the query guard saw plugin code use host tables directly; go through the contract (src/contract/index.ts):\n    ${describeViolations(violations)}`,
  );
}

function failOnViolations(): void {
  const violations = takeViolations();
  if (violations.length) throw violationError(violations);
}
const observed = new Map<string, { count: number; sample: PluginQueryViolation; tests: Set<string> }>();

/**
 * Root hooks: the query guard watches every app the tests create; a test whose plugin code names a
 * host table fails. The shared app is created lazily by the first test that needs it and closed
 * once at the end.
 */
export const mochaHooks = {
  async beforeAll(this: Context) {
    guardConfigurationOf((this.test as Hook).parent!);
    await installQueryGuard({ allowList: reportFile ? [] : undefined });
    // On a database server the shared app's migrations take longer than one test's time limit
    // (PostgreSQL: every DDL statement of both migration folders in one transaction): booted here,
    // not inside whichever test or hook asks for it first.
    if (isServerDb()) {
      this.timeout(180000);
      await getShop();
    }
  },
  beforeEach(this: Context) {
    // The check runs at the end of the test itself, so a violation fails it like any assertion (counted once).
    const test = this.currentTest;
    if (!test?.fn || test.fn.length > 0 || GUARDED in test.fn) return;
    const original = test.fn as (this: Context) => unknown;
    test.fn = Object.assign(
      async function (this: Context) {
        try {
          await original.call(this);
        } catch (error) {
          const violations = reportFile ? [] : takeViolations();
          if (violations.length && error instanceof Error) error.message += `\n${violationError(violations).message}`;
          throw error;
        }
        if (!reportFile) failOnViolations();
      },
      { [GUARDED]: true },
    );
  },
  afterEach(this: Context) {
    resetClock();
    const violations = takeViolations();
    if (!violations.length) return;
    if (reportFile) {
      for (const v of violations)
        for (const table of v.tables) {
          const entry = observed.get(table) ?? { count: 0, sample: v, tests: new Set<string>() };
          entry.count++;
          entry.tests.add(this.currentTest?.fullTitle() ?? '?');
          observed.set(table, entry);
        }
      return;
    }
    // Left over by a callback-style test or a hook: fails the test that just ran (not this hook, which would skip the rest of the run).
    (this.test as Hook).error(violationError(violations));
  },
  afterAll: finishTestProcess,
};

/**
 * The end of a test process: the shared app closed, the query guard's report written. Mocha's CLI
 * runs it as the root "after all" hook; `npm test`'s processes (test/helpers/test-worker.ts) run
 * one file per mocha run and call it once, after their last file.
 */
export async function finishTestProcess(): Promise<void> {
  await closeShop();
  if (reportFile) {
    const report = Object.fromEntries(
      [...observed]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([table, e]) => [
          table,
          { count: e.count, tests: e.tests.size, sampleSql: e.sample.sql, where: e.sample.where },
        ]),
    );
    writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  }
}
