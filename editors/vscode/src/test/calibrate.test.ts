import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateText, formatFactor, parseActualTokens, usageRequest, usageResultText, type UsageSource } from '../calibrate';

describe('estimateText', () => {
  const cases: Array<{ name: string; s: Parameters<typeof estimateText>[0]; want: string | undefined }> = [
    { name: 'exact', s: { exact: true }, want: undefined },
    { name: 'older server, no estimate object', s: { exact: false }, want: 'estimated count' },
    {
      name: 'default factor',
      s: { exact: false, estimate: { basis: 'o200k_base', factor: 1.55, calibrated: false, samples: 0 } },
      want: 'estimated upper bound: o200k_base × 1.55, not calibrated (0 samples)',
    },
    {
      name: 'calibrated, several samples',
      s: { exact: false, estimate: { basis: 'o200k_base', factor: 1.3, calibrated: true, samples: 7 } },
      want: 'estimated upper bound: o200k_base × 1.3, calibrated (7 samples)',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(estimateText(c.s), c.want));
  }
});

describe('formatFactor', () => {
  const cases: Array<[number, string]> = [
    [1.25, '1.25'],
    [1, '1'],
    [1.2345, '1.235'],
    [1.0004, '1'],
    [Number.NaN, '?'],
  ];
  for (const [f, want] of cases) {
    it(`${f} -> ${want}`, () => assert.equal(formatFactor(f), want));
  }
});

describe('parseActualTokens', () => {
  const cases: Array<{ in: string; tokens?: number; error?: RegExp }> = [
    { in: '12345', tokens: 12345 },
    { in: ' 12,345 ', tokens: 12345 },
    { in: '1 234 567', tokens: 1234567 },
    { in: '12_000', tokens: 12000 },
    { in: '', error: /Enter the input token count/ },
    { in: '12k', error: /not 12k/ },
    { in: '-5', error: /whole number/ },
    { in: '1.5', error: /whole number/ },
    { in: '0', error: /positive/ },
    { in: '99999999999999999999', error: /positive/ },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.in), () => {
      const r = parseActualTokens(c.in);
      assert.equal(r.tokens, c.tokens);
      if (c.error) {
        assert.match(r.error ?? '', c.error);
      } else {
        assert.equal(r.error, undefined);
      }
    });
  }
});

describe('usageRequest', () => {
  const cases: Array<{ name: string; src: UsageSource; want?: { params: object; what: string } }> = [
    {
      name: 'last pack wins, with the model it was packed for',
      src: { lastPack: { content: 'packed', model: 'claude-sonnet-4-5' }, selection: 'sel', document: 'doc', model: 'gpt-4o' },
      want: { params: { model: 'claude-sonnet-4-5', text: 'packed', actualTokens: 1234 }, what: 'the last packed context' },
    },
    {
      name: 'no pack: the selection, current model',
      src: { selection: 'sel', document: 'doc', model: 'claude-opus-4-7' },
      want: { params: { model: 'claude-opus-4-7', text: 'sel', actualTokens: 1234 }, what: 'the selection' },
    },
    {
      name: 'no pack, empty selection: the document',
      src: { selection: '', document: 'doc', model: 'claude-opus-4-7' },
      want: { params: { model: 'claude-opus-4-7', text: 'doc', actualTokens: 1234 }, what: 'the document' },
    },
    { name: 'nothing to report', src: { model: 'claude-opus-4-7' } },
    { name: 'empty document', src: { document: '', model: 'claude-opus-4-7' } },
    { name: 'no model known', src: { document: 'doc' } },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(usageRequest(c.src, 1234), c.want));
  }
});

describe('usageResultText', () => {
  const cases: Array<{ name: string; r: Parameters<typeof usageResultText>[0]; has: string }> = [
    {
      name: 'learned',
      r: { model: 'claude-sonnet-4-5', factor: 1.3125, samples: 1 },
      has: 'claude-sonnet-4-5 estimates are now o200k_base × 1.313 (calibrated from 1 report)',
    },
    { name: 'samples', r: { model: 'm', factor: 1.6, samples: 3 }, has: 'from 3 reports' },
    { name: 'exact, agrees', r: { model: 'gpt-4o', factor: 1, samples: 0, exact: true, match: true }, has: 'the provider agrees (12,000 tokens)' },
    { name: 'exact, differs', r: { model: 'gpt-4o', factor: 1, samples: 0, exact: true, match: false }, has: 'nothing learned' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const text = usageResultText(c.r, 12000);
      assert.ok(text.includes(c.has), `${JSON.stringify(text)} lacks ${JSON.stringify(c.has)}`);
    });
  }
});
