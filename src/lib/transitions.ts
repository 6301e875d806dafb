/**
 * A declared transition table: the one place that says which status changes an entity allows (as
 * Vendure's OrderProcess does). The conditional writes (`UPDATE … WHERE status = ?`) stay in the
 * repositories: the table decides what is allowed, the write guarantees it happens once.
 */
export type TransitionTable<S extends string> = { readonly [From in S]: readonly S[] };

export interface Transitions<S extends string> {
  readonly table: TransitionTable<S>;
  /** Whether `from → to` is declared. */
  allows(from: S, to: S): boolean;
  /** The statuses from which `to` can be reached. */
  sourcesOf(to: S): S[];
  /** Throws the entity's own error (made by `refuse`) unless `from → to` is declared. */
  assert(from: S, to: S): void;
  /** The entity's error for `from → to` (for a conditional write that lost a race). */
  refusal(from: S, to: S): Error;
}

export function defineTransitions<S extends string>(
  table: TransitionTable<S>,
  refuse: (from: S, to: S) => Error,
): Transitions<S> {
  const allows = (from: S, to: S) => (table[from] ?? []).includes(to);
  return {
    table,
    allows,
    sourcesOf: (to) => (Object.keys(table) as S[]).filter((from) => allows(from, to)),
    assert(from, to) {
      if (!allows(from, to)) throw refuse(from, to);
    },
    refusal: refuse,
  };
}
