import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BudgetStatus } from '../protocol';
import { formatCount, levelLabel, statusBackground, statusText, statusTooltip } from '../status';

const base: BudgetStatus = {
  model: 'gpt-4o',
  encoding: 'o200k_base',
  exact: true,
  total: 100000,
  available: 90000,
  used: 12345,
  percent: 13.7,
  level: 'normal',
  openFiles: 3,
};

describe('formatCount', () => {
  const cases: Array<[number, string]> = [
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1K'],
    [1049, '1K'],
    [1050, '1K'],
    [1099, '1K'],
    [1100, '1.1K'],
    [12345, '12.3K'],
    [90000, '90K'],
    [99960, '99.9K'],
    [100000, '100K'],
    [128000, '128K'],
    [999999, '999K'],
    [1000000, '1M'],
    [1250000, '1.2M'],
    [-1500, '-1.5K'],
    [Number.NaN, '?'],
  ];
  for (const [n, want] of cases) {
    it(`${n} -> ${want}`, () => assert.equal(formatCount(n), want));
  }
});

describe('statusText', () => {
  const cases: Array<{ name: string; s: Partial<BudgetStatus>; want: string }> = [
    { name: 'exact', s: {}, want: '$(symbol-numeric) 12.3K / 90K' },
    { name: 'estimated', s: { exact: false }, want: '$(symbol-numeric) ≈12.3K / 90K' },
    { name: 'empty', s: { used: 0, openFiles: 0 }, want: '$(symbol-numeric) 0 / 90K' },
    { name: 'over', s: { used: 95000, available: 90000 }, want: '$(symbol-numeric) 95K / 90K' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(statusText({ ...base, ...c.s }), c.want));
  }
});

describe('statusBackground', () => {
  const cases: Array<[string, string | undefined]> = [
    ['normal', undefined],
    ['warning', 'statusBarItem.warningBackground'],
    ['critical', 'statusBarItem.errorBackground'],
    ['unknown', undefined],
  ];
  for (const [level, want] of cases) {
    it(level, () => assert.equal(statusBackground(level), want));
  }
});

describe('statusTooltip', () => {
  const cases: Array<{ name: string; s: Partial<BudgetStatus>; has: string[]; lacks?: string[] }> = [
    {
      name: 'exact',
      s: {},
      has: ['`gpt-4o`', '`o200k_base`', 'exact count', '3 open files', '12,345 of 90,000', '13.7 %', 'normal'],
      lacks: ['≈', 'stimate', 'calibrat'],
    },
    { name: 'estimated, one file', s: { exact: false, openFiles: 1, model: 'llama' }, has: ['estimated count', 'used by 1 open file\n', '`llama`'] },
    { name: 'critical', s: { level: 'critical', percent: 95.25 }, has: ['critical', '95.3 %'] },
    {
      name: 'estimate, not calibrated',
      s: {
        exact: false,
        model: 'claude-sonnet-4-5',
        encoding: 'estimate:claude-sonnet-4-5×1.25',
        estimate: { basis: 'o200k_base', factor: 1.25, calibrated: false, samples: 0 },
      },
      has: [
        '≈12,345 of 90,000',
        'Estimated upper bound: o200k_base × 1.25, not calibrated (0 samples).',
        'run "Acode: Report Actual Token Usage…" with the input token count',
      ],
    },
    {
      name: 'estimate, calibrated',
      s: {
        exact: false,
        model: 'claude-opus-4-7',
        estimate: { basis: 'o200k_base', factor: 1.43725, calibrated: true, samples: 1 },
      },
      has: ['Estimated upper bound: o200k_base × 1.437, calibrated (1 sample).', 'Report Actual Token Usage'],
      lacks: ['not calibrated'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const tip = statusTooltip({ ...base, ...c.s });
      for (const h of c.has) {
        assert.ok(tip.includes(h), `tooltip ${JSON.stringify(tip)} lacks ${JSON.stringify(h)}`);
      }
      for (const h of c.lacks ?? []) {
        assert.ok(!tip.includes(h), `tooltip ${JSON.stringify(tip)} has ${JSON.stringify(h)}`);
      }
    });
  }
});

describe('levelLabel', () => {
  const t = { warningPercent: 60, criticalPercent: 75, minRemainingTokens: 5000 };
  const cases: Array<[string, number | undefined, typeof t | undefined, string]> = [
    ['normal', 12, undefined, 'normal'],
    ['warning', 82.34, undefined, 'warning (82.3 % used)'],
    ['critical', 97, undefined, 'critical (97.0 % used)'],
    ['warning', 61, t, 'warning (60–75 % used, or under 5,000 tokens left)'],
    ['critical', 80, t, 'critical (over 75 % used)'],
    ['warning', undefined, undefined, 'warning'],
  ];
  for (const [level, percent, th, want] of cases) {
    it(`${level} ${percent} ${th ? 'with' : 'without'} thresholds`, () => assert.equal(levelLabel(level, percent, th), want));
  }
});
