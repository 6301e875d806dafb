import express from 'express';
import { readFileSync } from 'node:fs';
import { createDb } from '../src/lib/db.js';

/**
 * The second baseline: a bare express route running the same SQL as a scenario, on the same
 * database, with nothing of the app's pipeline around it.
 */
const db = createDb(process.env.DATABASE_URL!);
const statements = JSON.parse(readFileSync(process.env.BENCH_SQL_FILE!, 'utf8')) as Record<string, Array<{ sql: string; bindings: unknown[] }>>;
const app = express();
app.get('/sql/:scenario', async (req, res) => {
  const results = [];
  for (const statement of statements[req.params.scenario] ?? []) results.push(await db.raw(statement.sql, statement.bindings as never[]));
  res.json({ ok: true, results: results.length });
});
const server = app.listen(0, () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => void db.destroy().then(() => process.exit(0))));
