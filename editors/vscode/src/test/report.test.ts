import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BudgetStatus, PackResult } from '../protocol';
import {
  cell,
  fits,
  inline,
  leftOutTables,
  MaxRowsPerReason,
  packSummary,
  renderBudgetReport,
  renderPackReport,
  renderPackStats,
  toolLine,
  toolPlacement,
} from '../report';

const result: PackResult = {
  content: '## File: cart/service.go (lines 10-41)\n```go\n…\n```\n',
  tokenCount: 11873,
  model: 'gpt-4o',
  encoding: 'o200k_base',
  exact: true,
  budget: {
    total: 16000,
    systemReserve: 1000,
    responseReserve: 3000,
    available: 12000,
    categories: { tool_results: { allocated: 4800, used: 4700 }, open_files: { allocated: 3600, used: 0 } },
  },
  included: [{ type: 'reference', path: 'cart/service.go', startLine: 10, endLine: 41, tokens: 512, score: 0.834 }],
  excluded: [
    { type: 'search_result', path: 'cart/old.go', startLine: 1, endLine: 80, tokens: 900, score: 0.31, reason: 'over_budget' },
    { type: 'open_file', path: '.env', reason: 'secret' },
  ],
  dedup: { exactRemoved: 2, overlapsMerged: 1, tokensSaved: 830 },
  warnings: ['model "x" unknown'],
};

describe('renderPackReport', () => {
  const report = renderPackReport(result, 'why does checkout fail');
  const lines = [
    '**Task:** `why does checkout fail`',
    '**Tokens:** 11,873 of 12,000 available — fits',
    '**Included:** 1 chunk — reference 1',
    '**Left out:** 2 chunks — over_budget 1, secret 1',
    '**Model:** `gpt-4o` · encoding `o200k_base` · exact count',
    '| open_files | 3,600 | 0 |',
    '| tool_results | 4,800 | 4,700 |',
    '## Included (1)',
    '| reference | cart/service.go | 10–41 | 512 | 0.83 |',
    '## Left out (2)',
    '### over_budget (1, 900 tokens)',
    '| search_result | cart/old.go | 1–80 | 900 | 0.31 |',
    '### secret (1)',
    '| open_file | .env |  |  |  |',
    '2 exact duplicates removed, 1 overlaps merged, 830 tokens saved.',
    '- `model "x" unknown`',
  ];
  for (const line of lines) {
    it(`has ${line}`, () => assert.ok(report.split('\n').includes(line), `report lacks line ${JSON.stringify(line)}:\n${report}`));
  }
  it('orders categories by name', () => {
    assert.ok(report.indexOf('| open_files') < report.indexOf('| tool_results'));
  });
  it('says when nothing was left out', () => {
    const r = renderPackReport({ ...result, excluded: [], warnings: [] }, '');
    assert.ok(r.includes('## Left out (0)\n\n_none_'));
    assert.ok(r.includes('**Left out:** nothing'));
    assert.ok(!r.includes('**Task:**'));
    assert.ok(!r.includes('## Warnings'));
  });
});

describe('fits and packSummary', () => {
  const cases: Array<{ name: string; r: PackResult; fits: boolean; summary: string }> = [
    {
      name: 'fits',
      r: result,
      fits: true,
      summary: 'Packed 11,873 tokens — fits the 12,000 available (1 chunks included, 2 left out).',
    },
    {
      name: 'exactly full, estimated',
      r: { ...result, tokenCount: 12000, exact: false },
      fits: true,
      summary: 'Packed ≈12,000 tokens — fits the 12,000 available (1 chunks included, 2 left out).',
    },
    {
      name: 'over',
      r: { ...result, tokenCount: 12001 },
      fits: false,
      summary: 'Packed 12,001 tokens — DOES NOT FIT the 12,000 available (1 chunks included, 2 left out).',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(fits(c.r), c.fits);
      assert.equal(packSummary(c.r), c.summary);
    });
  }
});

describe('renderBudgetReport', () => {
  const s: BudgetStatus = {
    model: 'gpt-4o',
    encoding: 'o200k_base',
    exact: false,
    total: 100000,
    available: 90000,
    used: 81000,
    percent: 90,
    level: 'warning',
    openFiles: 2,
  };
  it('without a pack', () => {
    const got = renderBudgetReport(s);
    // The thresholds are configurable: without them from the server the label says the use.
    assert.ok(got.includes('**Level:** warning (90.0 % used)'), got);
    assert.ok(got.includes('**Open files:** 2 using 81,000 of 90,000 available tokens (90.0 %)'), got);
    assert.ok(got.includes('estimated count'), got);
    assert.ok(got.includes('No context packed yet'), got);
    assert.ok(!got.includes('**Estimate:**'), got);
  });
  it('with an estimate: what it is and how to calibrate it', () => {
    const got = renderBudgetReport({ ...s, estimate: { basis: 'o200k_base', factor: 1.25, calibrated: false, samples: 0 } });
    assert.ok(got.includes('**Estimate:** upper bound: o200k_base × 1.25, not calibrated (0 samples). To calibrate it, run "Acode: Report Actual Token Usage…"'), got);
  });
  it('with the last pack', () => {
    const got = renderBudgetReport(s, { result, query: 'q' });
    assert.ok(got.includes('# Last packed context'), got);
    assert.ok(!got.includes('No context packed yet'), got);
    assert.ok(!got.includes('Packing since the server started'), got);
  });
  it('with the packing statistics (acode/packStats)', () => {
    const stats = {
      packs: 2, failed: 1, latencyMs: { p50: 3.383, p95: 7.95, max: 7.95 },
      chunks: { considered: 12, included: 10 }, tokens: { packed: 992, available: 6000, utilization: 0.1653 },
      dedup: { exactRemoved: 2, overlapsMerged: 0, tokensSaved: 118 },
      cache: { hits: 116, misses: 54, evictions: 0, entries: 54, hitRate: 0.6824 },
    };
    const got = renderBudgetReport(s, { result, query: 'q' }, stats);
    const section = renderPackStats(stats).join('\n');
    assert.ok(got.indexOf(section) >= 0 && got.indexOf(section) < got.indexOf('# Last packed context'), got);
    for (const want of [
      '- **Packs:** 2 answered, 1 failed',
      '- **Latency:** p50 3.4 ms · p95 8.0 ms · max 8.0 ms',
      '- **Chunks:** 10 included of 12 considered',
      '- **Tokens:** 992 packed of 6,000 available (16.5 %)',
      '- **Dedup:** 2 duplicates removed, 0 overlaps merged, 118 tokens saved',
      '- **Count cache:** 68.2 % hits (116 hits, 54 misses, 0 evictions, 54 entries)',
    ]) {
      assert.ok(section.includes(want), `${section}\nlacks ${want}`);
    }
  });
});

describe('inline and cell', () => {
  const cases: Array<[string, string, string]> = [
    ['plain', inline('a b'), '`a b`'],
    ['backticks inside', inline('a `b` c'), '``a `b` c``'],
    ['backtick at the edge', inline('`x'), '`` `x ``'],
    ['newlines', inline('a\nb'), '`a b`'],
    ['pipe in cell', cell('a|b'), 'a\\|b'],
    ['backslash in cell', cell('a\\b'), 'a\\\\b'],
  ];
  for (const [name, got, want] of cases) {
    it(name, () => assert.equal(got, want));
  }
});

describe('leftOutTables', () => {
  it('caps each reason at MaxRowsPerReason rows and sums up the rest', () => {
    const many = Array.from({ length: 790 }, (_, i) => ({ type: 'open_file', path: `bin/${i}.so`, reason: 'binary' }));
    const over = Array.from({ length: 3 }, (_, i) => ({ type: 'open_file', path: `a${i}.go`, startLine: 1, endLine: 9, tokens: 100, reason: 'over_budget' }));
    const lines = leftOutTables([...many, ...over]);
    assert.ok(lines.includes('### binary (790)'), lines.join('\n'));
    assert.ok(lines.includes('### over_budget (3, 300 tokens)'), lines.join('\n'));
    assert.equal(lines.filter((l) => l.startsWith('| open_file | bin/')).length, MaxRowsPerReason);
    assert.ok(lines.includes(`_… and ${790 - MaxRowsPerReason} more._`), lines.join('\n'));
    assert.ok(lines.indexOf('### binary (790)') < lines.indexOf('### over_budget (3, 300 tokens)'));
  });
});

describe('toolPlacement', () => {
  const withTool: PackResult = {
    ...result,
    content: '## File: a.go (lines 1-3)\n```go\nx\n```\n\n## Tool: go test ./cart\n```\nFAIL\n```\n',
    included: [...result.included, { type: 'tool_result', label: 'go test ./cart', startLine: 1, endLine: 1, tokens: 40, score: 0.5 }],
  };
  it('finds the section of an included tool output', () => {
    const p = toolPlacement(withTool, 'go test ./cart');
    assert.deepEqual(p, { label: 'go test ./cart', included: true, section: 2, sections: 2, tokens: 40, reason: undefined });
    assert.equal(toolLine(p), '**Tool output:** `go test ./cart` — included, 40 tokens, section 2 of 2 (sections are ordered by score)');
  });
  it('says why a tool output was left out', () => {
    const r = { ...result, excluded: [{ type: 'tool_result', label: 'make', reason: 'over_budget', tokens: 9000 }] };
    const p = toolPlacement(r, 'make');
    assert.equal(p.included, false);
    assert.equal(toolLine(p), '**Tool output:** `make` — LEFT OUT (over_budget)');
    assert.ok(renderPackReport(r, 'q', 'make').includes('**Tool output:** `make` — LEFT OUT (over_budget)'));
  });
});
