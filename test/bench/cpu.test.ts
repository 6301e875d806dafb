import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpuBetween, sampleCpu } from '../../bench/cpu.js';

describe('bench: CPU split of a BENCH_PROCESSES run', () => {
  it('counts the CPU of a process and its descendants, and of the bench process itself', async function () {
    if (!existsSync('/proc/self/stat')) this.skip();
    // A parent that starts a child which spins for a while: the child's CPU counts for the parent's tree.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        "require('node:child_process').spawn(process.execPath, ['-e', 'const end = Date.now() + 3000; while (Date.now() < end);'], { stdio: 'inherit' }); setTimeout(() => process.exit(0), 3000)",
      ],
      { stdio: 'inherit' },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = sampleCpu(parent.pid);
    await new Promise((resolve) => setTimeout(resolve, 450));
    const end = Date.now() + 50;
    while (Date.now() < end); // the bench process uses some CPU too
    const used = cpuBetween(before, sampleCpu(parent.pid));
    parent.kill('SIGKILL');
    expect(used.app).to.be.a('number').and.greaterThan(0);
    expect(used.loadGenerator).to.be.greaterThan(0);
    expect(used.database === null || used.database >= 0).to.equal(true);
    expect(sampleCpu(undefined).app).to.equal(null);
  });
});
