import type { Db } from '../../src/lib/db.js';

/** The statements matching `pattern` that `work` ran on `db`, with what it answered. */
export async function statementsDuring<T>(
  db: Db,
  pattern: RegExp,
  work: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const listener = (query: { sql: string }) => {
    if (pattern.test(query.sql)) statements.push(query.sql);
  };
  db.on('query', listener);
  try {
    return { result: await work(), statements };
  } finally {
    db.removeListener('query', listener);
  }
}
