import { expect } from 'chai';
import { firstProvidedPrices, type BatchablePriceProvider } from '../../../src/lib/price-providers.js';

type Provider = BatchablePriceProvider<null, string, null, string>;

describe('lib: price providers for many lines', () => {
  it('asks each provider once for the lines no earlier one answered (many), else once per line, in the order given', async () => {
    const calls: string[] = [];
    const batched: Provider = Object.assign(
      async () => Promise.reject(new Error('many is there: not called per line')),
      {
        many: async (_executor: null, _ctx: null, items: ReadonlyArray<{ product: string; quantity: number }>) => {
          calls.push(`many ${items.map((i) => i.product).join(',')}`);
          return items.map((i) => (i.product.startsWith('a') ? `batched ${i.product}×${i.quantity}` : null));
        },
      },
    );
    const single: Provider = async (_executor, _ctx, product, quantity) => {
      calls.push(`one ${product}`);
      return product === 'b1' ? `single ${product}×${quantity}` : null;
    };
    const items = ['a1', 'b1', 'c1', 'a2'].map((product, i) => ({ product, quantity: i + 1 }));
    expect(await firstProvidedPrices([batched, single], null, null, items)).to.deep.equal([
      'batched a1×1',
      'single b1×2',
      null,
      'batched a2×4',
    ]);
    expect(calls).to.deep.equal(['many a1,b1,c1,a2', 'one b1', 'one c1']);

    calls.length = 0;
    expect(await firstProvidedPrices([single, batched], null, null, items.slice(0, 2))).to.deep.equal([
      'batched a1×1',
      'single b1×2',
    ]);
    expect(calls, 'the batch gets only the lines left').to.deep.equal(['one a1', 'one b1', 'many a1']);
    expect(await firstProvidedPrices([batched], null, null, [])).to.deep.equal([]);
  });

  it('refuses a batch answer of the wrong length', async () => {
    const wrong: Provider = Object.assign(async () => null, { many: async () => [null] });
    let error: unknown;
    await firstProvidedPrices([wrong], null, null, [
      { product: 'a', quantity: 1 },
      { product: 'b', quantity: 1 },
    ]).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/answered 1 prices for 2 lines/);
  });
});
