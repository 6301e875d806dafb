import express from 'express';
import { readFileSync } from 'node:fs';
import { createDb } from '../src/lib/db.js';

/**
 * The second baseline: a bare express route running the same SQL as a scenario, on the same
 * database, with nothing of the app's pipeline around it. It answers the scenario's own request
 * (method, headers, JSON body, parsed as any express JSON route parses it: `express.json()`) at
 * /sql/:scenario, and a plain GET without a body at /get/:scenario (the first rounds' baseline).
 */
const db = createDb(process.env.DATABASE_URL!);
const statements = JSON.parse(readFileSync(process.env.BENCH_SQL_FILE!, 'utf8')) as Record<
  string,
  Array<{ sql: string; bindings: unknown[] }>
>;
const app = express();
const runScenario: express.RequestHandler<{ scenario: string }> = async (req, res) => {
  const results = [];
  for (const statement of statements[req.params.scenario] ?? [])
    results.push(await db.raw(statement.sql, statement.bindings as never[]));
  res.json({ ok: true, results: results.length });
};
app.all('/sql/:scenario', express.json({ limit: '1mb' }), runScenario);
app.get('/get/:scenario', runScenario);
const server = app.listen(0, () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => void db.destroy().then(() => process.exit(0))));
