import { expect } from 'chai';
import { answerJson } from '../../../src/lib/answer-json.js';
import { DerivedViews, KeptViews } from '../../../src/lib/kept-views.js';

/** Answers written with kept views' text must read exactly as JSON.stringify would write them. */
describe('lib: answer JSON with kept views', () => {
  it('writes what JSON.stringify writes, for plain bodies and for lists of kept views', () => {
    const kept = new KeptViews<Record<string, unknown>>(10);
    const a = kept.keep('a', '1', {
      id: 'a',
      when: new Date('2026-01-02T03:04:05Z'),
      tags: ['x'],
      none: null,
      skipped: undefined,
      nested: { n: 1 },
    });
    const b = kept.keep('b', '1', { id: 'b', quote: 'say "hi"\n' });
    const bodies: unknown[] = [
      { total: 2, data: [a, b] },
      {
        total: 3,
        data: [a, { id: 'plain', gone: undefined }, undefined, b],
        note: undefined,
        fn: () => 1,
        'key "quoted"': [a],
      },
      [a, null, b],
      { elements: [{ id: 1 }], page: 1 },
      'text',
      42,
      null,
      { when: new Date(0), list: [] },
    ];
    for (const body of bodies) expect(answerJson(body)).to.equal(JSON.stringify(body));
  });

  it('serialises a kept view once, whatever the number of answers that carry it', () => {
    let reads = 0;
    const view = { id: 'counted' };
    Object.defineProperty(view, 'label', { enumerable: true, get: () => `read ${++reads}` });
    const kept = new KeptViews<Record<string, unknown>>(10).keep('counted', '1', view);
    const first = answerJson({ data: [kept] });
    const readsForFirst = reads;
    expect(first).to.equal(`{"data":[{"id":"counted","label":"read ${readsForFirst}"}]}`);
    expect(answerJson({ data: [kept] })).to.equal(first);
    expect(answerJson([kept, kept])).to.equal(`[${first.slice(9, -2)},${first.slice(9, -2)}]`);
    expect(reads, 'not read again after the first answer').to.equal(readsForFirst);
  });

  it('keeps a derived view beside a kept source per stamp, and builds one every time from a source that is not kept', () => {
    const derived = new DerivedViews<object, { shown: string }>();
    const source = new KeptViews<{ id: string }>(10).keep('s', '1', { id: 's' });
    let builds = 0;
    const build = (stamp: string) => () => ({ shown: `${stamp} #${++builds}` });
    const once = derived.of(source, 'p2', build('p2'));
    expect(derived.of(source, 'p2', build('p2'))).to.equal(once);
    expect(Object.isFrozen(once)).to.equal(true);
    expect(derived.of(source, 'p3', build('p3')).shown).to.equal('p3 #2');
    const loose = { id: 'not kept' };
    expect(derived.of(loose, 'p2', build('p2'))).not.to.equal(derived.of(loose, 'p2', build('p2')));
    expect(builds).to.equal(4);
  });
});
