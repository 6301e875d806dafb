import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { projectPath } from '../../../src/host-kit/paths.js';
import { getShop, isServerDb, TEST_APP_SECRET, testDatabaseUrl } from '../../helpers/shop.js';
import { fillCart, newCustomer, product, startShop } from '../order-approval/helpers.js';
import { addDays, createRecurring, dayFromToday, occurrenceRows, ordersOf } from './helpers.js';

interface Worker {
  child: ChildProcess;
  go(): Promise<void>;
}

/** A real worker process (worker-process.ts) that runs the placement at each of `instants` when told to go. */
async function startWorker(instants: string[]): Promise<Worker> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', projectPath('test', 'plugin', 'recurring-order', 'worker-process.ts')],
    {
      cwd: projectPath(),
      env: {
        ...process.env,
        DATABASE_URL: await testDatabaseUrl(),
        APP_SECRET: TEST_APP_SECRET,
        WORKERS: '0',
        PUBLIC_URL: 'http://shop.test',
        LOG_LEVEL: 'silent',
        RUN_AT: JSON.stringify(instants),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const seen = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.includes(word)) resolve();
      };
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        check();
      });
      child.once('exit', (code) =>
        stdout.includes(word) ? resolve() : reject(new Error(`worker exited ${code}: ${stderr}`)),
      );
      check();
    });
  await seen('READY');
  return {
    child,
    async go() {
      const done = seen('DONE');
      child.stdin!.write('go\n');
      await done;
    },
  };
}

describe('recurring orders: two worker processes racing (MariaDB)', function () {
  before(startShop);
  this.timeout(240000);
  const workers: Worker[] = [];
  after(() => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGTERM');
  });

  it('over a simulated quarter, each weekly occurrence is placed exactly once', async function () {
    // Conditional writes and unique keys across processes need a database server; SQLite runs one process.
    if (!isServerDb()) this.skip();
    const customer = await newCustomer();
    const p = await product({ priceNet: 700, stock: 10000 });
    await fillCart(customer.token, [{ productId: p.id, quantity: 2 }]);
    const start = dayFromToday(40);
    const created = await createRecurring(customer.token, {
      source: 'cart',
      interval: { unit: 'week', count: 1 },
      startDate: start,
    });
    // Both workers run every day of the quarter, each day twice.
    const instants = Array.from({ length: 91 }, (_, day) => addDays(start, day)).flatMap((date) => [
      `${date}T06:00:00.000Z`,
      `${date}T06:00:00.500Z`,
    ]);
    workers.push(...(await Promise.all([startWorker(instants), startWorker(instants)])));
    await Promise.all(workers.map((worker) => worker.go()));

    const occurrences = await occurrenceRows(created.id);
    expect(occurrences.map((o) => [o.due_date, o.status])).to.deep.equal(
      Array.from({ length: 13 }, (_, week) => [addDays(start, 7 * week), 'placed']),
    );
    const orders = await ordersOf(customer.customer.id, created.id);
    expect(orders.map((o) => o.id).sort()).to.deep.equal(occurrences.map((o) => o.order_id).sort());
    const stock = await (await getShop()).db('products').where({ id: p.id }).first('stock');
    expect(Number(stock.stock)).to.equal(10000 - 13 * 2);
  });
});
