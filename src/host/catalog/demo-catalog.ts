import type { Db } from '../../lib/db.js';

/** Demo categories, rules, ~50 products and a landing page. (Stub: filled in by the catalog module.) */
export async function seedDemoCatalog(db: Db): Promise<{ productIds: string[]; categoryIds: string[] }> {
  void db;
  return { productIds: [], categoryIds: [] };
}
