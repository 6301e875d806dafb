import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { projectPath } from '../../src/host-kit/paths.js';

function bench(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', ...args],
      { cwd: projectPath(), timeout: 20000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('bench: --help', () => {
  it('prints the knobs and the scenario names instead of starting a run', async () => {
    const help = await bench('--help');
    expect(help.code).to.equal(0);
    for (const knob of [
      'BENCH_PRODUCTS',
      'BENCH_ORDERS',
      'BENCH_SECONDS',
      'BENCH_CONNECTIONS',
      'BENCH_ONLY',
      'DATABASE_URL',
    ])
      expect(help.stdout).to.contain(knob);
    expect(help.stdout).to.contain('Scenarios: ');
    // A run prints "seeded <scenario> in 0.3s" per scenario; the help text itself may mention seeding.
    expect(help.stdout).not.to.match(/seeded .+ in \d+(\.\d+)?s/);
  });

  it('refuses an unknown argument with the help on stderr', async () => {
    const wrong = await bench('--products=5');
    expect(wrong.code).to.equal(2);
    expect(wrong.stderr).to.contain('unknown argument --products=5').and.contain('BENCH_PRODUCTS');
  });
});
