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
    this.entries.set(id, { stamp, view: frozenView(view) });
    return view;
  }
}

/**
 * The JSON text of each kept view, written the first time an answer carries it (null until then).
 * A kept view is deep-frozen, so its text cannot go stale; `answerJson` (src/lib/answer-json.ts)
 * writes the view from it instead of serialising it again for every request.
 */
const jsonOfView = new WeakMap<object, string | null>();

function frozenView<V extends object>(view: V): V {
  deepFreeze(view);
  if (!jsonOfView.has(view)) jsonOfView.set(view, null);
  return view;
}

/** Whether `value` is a kept view (frozen, shared). */
export function isKeptView(value: unknown): value is object {
  return typeof value === 'object' && value !== null && jsonOfView.has(value);
}

/** The JSON text of a kept view, written once. */
export function keptViewJson(view: object): string {
  let text = jsonOfView.get(view);
  if (text === null || text === undefined) jsonOfView.set(view, (text = JSON.stringify(view)));
  return text;
}

/**
 * A view derived from a kept view — e.g. an approval summary shown at a currency precision, an order
 * shown as a budget order — kept beside its source for as long as the source is kept, under `stamp`
 * (whatever else it depends on). From a source that is not kept, the view is built every time.
 */
export class DerivedViews<S extends object, V extends object> {
  private readonly entries = new WeakMap<S, { stamp: string; view: V }>();

  of(source: S, stamp: string, build: () => V): V {
    if (!jsonOfView.has(source)) return build();
    const entry = this.entries.get(source);
    if (entry && entry.stamp === stamp) return entry.view;
    const view = frozenView(build());
    this.entries.set(source, { stamp, view });
    return view;
  }
}
