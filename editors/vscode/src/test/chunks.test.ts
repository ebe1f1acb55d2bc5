import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isChunkArgs, Pinned, pinnedSource, renderChunkReport } from '../chunks';
import type { ChunkArgs, PackResult } from '../protocol';

const out: ChunkArgs = {
  uri: 'file:///ws/cart/service.go',
  path: '/ws/cart/service.go',
  startLine: 44,
  endLine: 80,
  tokens: 1247,
  inContext: false,
  toFit: 34099,
  budgetTotal: 16000,
  budgetAvailable: 12000,
};
const inside: ChunkArgs = { ...out, startLine: 10, endLine: 13, tokens: 33, inContext: true, toFit: undefined, score: 0.734 };

describe('isChunkArgs', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['lens arguments', out, true],
    ['undefined (from the palette)', undefined, false],
    ['no uri', { ...out, uri: 1 }, false],
    ['end before start', { ...out, endLine: 3 }, false],
    ['line 0', { ...out, startLine: 0 }, false],
  ];
  for (const [name, v, want] of cases) {
    it(name, () => assert.equal(isChunkArgs(v), want));
  }
});

describe('Pinned', () => {
  it('pins once and hands the chunks over as reference sources', () => {
    const p = new Pinned();
    assert.equal(p.pin(out), true);
    assert.equal(p.pin({ ...out }), false);
    assert.equal(p.pin(inside), true);
    assert.equal(p.size, 2);
    assert.deepEqual(p.take(), [pinnedSource(out), pinnedSource(inside)]);
    assert.equal(p.size, 0);
    assert.deepEqual(p.take(), []);
  });
  it('a pinned source covers the lines of the chunk, relevance 1', () => {
    assert.deepEqual(pinnedSource(out), {
      type: 'reference',
      uri: 'file:///ws/cart/service.go',
      range: { start: { line: 43, character: 0 }, end: { line: 80, character: 0 } },
      relevance: 1,
    });
  });
});

describe('renderChunkReport', () => {
  const last: { result: PackResult; query: string } = {
    query: 'checkout',
    result: {
      content: '',
      tokenCount: 0,
      model: 'gpt-4o',
      encoding: 'o200k_base',
      exact: true,
      budget: { total: 16000, systemReserve: 1000, responseReserve: 3000, available: 12000, categories: {} },
      included: [{ type: 'open_file', path: 'cart/service.go', startLine: 40, endLine: 60, tokens: 300, score: 0.5 }],
      excluded: [{ type: 'open_file', path: 'cart/service.go', startLine: 61, endLine: 90, tokens: 900, reason: 'over_budget' }],
      dedup: { exactRemoved: 0, overlapsMerged: 0, tokensSaved: 0 },
      warnings: [],
    },
  };
  it('a chunk that needs more budget', () => {
    const got = renderChunkReport(out, 'cart/service.go', last);
    for (const want of [
      '# cart/service.go lines 44–80',
      '**Tokens:** 1,247',
      '**What if:** +34,099 to fit — a pack of the open files at the configured budget (16,000 total, 12,000 available) leaves it out; with a total of 50,099 it goes in.',
      '## In the last pack (“checkout”)',
      '- included: lines 40–60, 300 tokens, score 0.50',
      '- left out (over_budget): lines 61–90, 900 tokens',
    ]) {
      assert.ok(got.split('\n').includes(want), `lacks ${JSON.stringify(want)}:\n${got}`);
    }
  });
  it('a chunk in context, no pack yet', () => {
    const got = renderChunkReport(inside, 'cart/service.go');
    assert.ok(got.includes('**What if:** ✓ in context'), got);
    assert.ok(got.includes('**Score:** 0.73'), got);
    assert.ok(!got.includes('In the last pack'), got);
  });
  it('a whole file left out by a rule', () => {
    const got = renderChunkReport({ ...out, wholeFile: true, toFit: undefined, reason: 'secret (private key)' }, '.env');
    assert.ok(got.startsWith('# .env\n'), got);
    assert.ok(got.includes('**What if:** not packed at any budget — secret (private key).'), got);
  });
});
