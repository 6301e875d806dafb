import { LRUCache } from 'lru-cache';
import { deepFreeze } from './deep-freeze.js';

/**
 * Views of rows kept per process, each with the stamp of the row it was built from (a version
 * column moved by database triggers on every write, plus whatever else the view depends on). A
 * reader reads the stamps of the rows it wants — a cheap statement — and builds only the views
 * whose stamp moved, keeping them. Kept views are deep-frozen: every request that reads the row
 * shares them, and a caller that tried to change one would throw.
 *
 * Keep a view under the stamp read *with the row it was built from*, never under a stamp read
 * before: a write in between would otherwise leave an old view under a new stamp.
 */
export class KeptViews<V extends object> {
  private readonly entries: LRUCache<string, { stamp: string; view: V }>;

  constructor(max: number) {
    this.entries = new LRUCache({ max });
  }

  /** The view of row `id` kept at `stamp`, if any. */
  get(id: string, stamp: string): V | undefined {
    const entry = this.entries.get(id);
    return entry && entry.stamp === stamp ? entry.view : undefined;
  }

  /** Keeps `view` (frozen) as row `id` at `stamp` and answers it. */
  keep(id: string, stamp: string, view: V): V {
    this.entries.set(id, { stamp, view: deepFreeze(view) });
    return view;
  }
}
