import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetPresets, packBudget, parseBudget } from '../budgetPresets';
import type { BudgetStatus } from '../protocol';

const status = (total: number, available: number): BudgetStatus => ({
  model: 'gpt-4o',
  encoding: 'o200k_base',
  exact: true,
  total,
  available,
  used: 0,
  percent: 0,
  level: 'normal',
  openFiles: 0,
});

describe('budgetPresets', () => {
  it('offers the window, sizes up to half of it, and a custom number', () => {
    const got = budgetPresets(status(100000, 90000));
    assert.deepEqual(
      got.map((c) => [c.label, c.room, c.custom ?? false]),
      [
        ['90,000 tokens', undefined, false],
        ['2,000 tokens', 2000, false],
        ['4,000 tokens', 4000, false],
        ['8,000 tokens', 8000, false],
        ['16,000 tokens', 16000, false],
        ['32,000 tokens', 32000, false],
        ['Custom…', undefined, true],
      ],
    );
    assert.equal(got[0].description, 'the whole window of gpt-4o (100,000 − 10,000 reserved)');
    assert.equal(got[3].description, '9 % of the window');
  });
  it('a small window has only itself and custom', () => {
    assert.deepEqual(
      budgetPresets(status(5000, 3000)).map((c) => c.label),
      ['3,000 tokens', 'Custom…'],
    );
  });
});

describe('parseBudget', () => {
  const cases: Array<[string, number | undefined]> = [
    ['12000', 12000],
    ['12,000', 12000],
    [' 12k ', 12000],
    ['1.5K', 1500],
    ['2m', 2000000],
    ['0', undefined],
    ['-5', undefined],
    ['lots', undefined],
    ['', undefined],
  ];
  for (const [text, want] of cases) {
    it(JSON.stringify(text), () => {
      const got = parseBudget(text);
      assert.equal(got.tokens, want);
      assert.equal(got.error !== undefined, want === undefined);
    });
  }
  // DESIGN rule 2: an editor's per-pack budget is the room the context may take.
  it('packBudget sends the room with no reserves', () =>
    assert.deepEqual(packBudget(5000), { totalTokens: 5000, systemReserve: 0, responseReserve: 0 }));
});
