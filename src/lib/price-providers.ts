/**
 * Asking a host's price providers for many lines at once (contract 3.1, `PriceProvider.many`), shared
 * by the reference host and the Vendure adapter. Generic, so src/lib need not know the contract's types.
 */
export interface BatchablePriceProvider<Ctx, Product, Executor, Answer> {
  (executor: Executor, ctx: Ctx, product: Product, quantity: number): Promise<Answer | null>;
  many?(
    executor: Executor,
    ctx: Ctx,
    items: ReadonlyArray<{ product: Product; quantity: number }>,
  ): Promise<Array<Answer | null>>;
}

/**
 * For each line, the answer of the first provider that answers (null: none did), in the order given.
 * Each provider is asked once for the lines no earlier provider answered: its `many` form, else once
 * per line.
 */
export async function firstProvidedPrices<Ctx, Product, Executor, Answer>(
  providers: ReadonlyArray<BatchablePriceProvider<Ctx, Product, Executor, Answer>>,
  executor: Executor,
  ctx: Ctx,
  items: ReadonlyArray<{ product: Product; quantity: number }>,
): Promise<Array<Answer | null>> {
  const provided: Array<Answer | null> = items.map(() => null);
  let open: number[] = items.map((_, index) => index);
  for (const provider of providers) {
    if (open.length === 0) break;
    let answers: Array<Answer | null>;
    if (provider.many) {
      answers = await provider.many(
        executor,
        ctx,
        open.map((index) => items[index]!),
      );
      if (answers.length !== open.length)
        throw new Error(`A price provider answered ${answers.length} prices for ${open.length} lines.`);
    } else {
      answers = [];
      for (const index of open)
        answers.push(await provider(executor, ctx, items[index]!.product, items[index]!.quantity));
    }
    const next: number[] = [];
    for (const [k, index] of open.entries()) {
      const answer = answers[k];
      if (answer) provided[index] = answer;
      else next.push(index);
    }
    open = next;
  }
  return provided;
}

/**
 * (Contract 3.6, `PriceGate`) The refusal of the first price gate that withholds prices from the
 * context, or null when every gate lets it see them; asked in registration order, each at most once.
 */
export async function priceRefusal<Ctx, Executor, Refusal>(
  gates: ReadonlyArray<(executor: Executor, ctx: Ctx) => Promise<Refusal | null>>,
  executor: Executor,
  ctx: Ctx,
): Promise<Refusal | null> {
  for (const gate of gates) {
    const refusal = await gate(executor, ctx);
    if (refusal) return refusal;
  }
  return null;
}
