import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverSettings, type ServerSettings } from '../settings';
import { settings } from '../surface';

describe('serverSettings', () => {
  const cases: Array<{ name: string; set: Record<string, unknown>; want: ServerSettings }> = [
    { name: 'defaults send nothing', set: { model: null, encoding: null, 'budget.totalTokens': null, exclude: null }, want: {} },
    { name: 'model trimmed', set: { model: ' gpt-4 ' }, want: { model: 'gpt-4' } },
    { name: 'blank model ignored', set: { model: '  ' }, want: {} },
    { name: 'encoding', set: { encoding: 'cl100k_base' }, want: { encoding: 'cl100k_base' } },
    {
      name: 'budget numbers',
      set: { 'budget.totalTokens': 16000, 'budget.systemReserve': 0, 'budget.responseReserve': 3000 },
      want: { budget: { totalTokens: 16000, systemReserve: 0, responseReserve: 3000 } },
    },
    {
      name: 'categories keep numbers only',
      set: { 'budget.categories': { tool_results: 50, open_files: 50, bogus: 'x' } },
      want: { budget: { categories: { tool_results: 50, open_files: 50 } } },
    },
    { name: 'categories array ignored', set: { 'budget.categories': [1, 2] }, want: {} },
    { name: 'redistribute false kept', set: { 'budget.redistribute': false }, want: { budget: { redistribute: false } } },
    { name: 'exclude', set: { exclude: ['**/*.gen.go', '', 3] }, want: { exclude: ['**/*.gen.go'] } },
    { name: 'empty exclude', set: { exclude: [] }, want: {} },
    { name: 'NaN ignored', set: { 'budget.totalTokens': Number.NaN }, want: {} },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(serverSettings((k) => c.set[k]), c.want));
  }
});

describe('the generated settings table', () => {
  it('sends every server setting and none of the extension\'s own', () => {
    const set: Record<string, unknown> = {
      serverPath: '/x/acode-lsp',
      'pack.askForBudget': false,
      'trace.server': 'verbose',
      model: 'qwen3-coder',
      encoding: 'gemma3',
      'budget.totalTokens': 32000,
      'budget.systemReserve': 0,
      'budget.responseReserve': 1000,
      'budget.categories': { open_files: 100 },
      'budget.redistribute': true,
      exclude: ['vendor/**'],
    };
    assert.deepEqual(serverSettings((k) => set[k]), {
      model: 'qwen3-coder',
      encoding: 'gemma3',
      budget: { totalTokens: 32000, systemReserve: 0, responseReserve: 1000, categories: { open_files: 100 }, redistribute: true },
      exclude: ['vendor/**'],
    });
  });
  it('acode.encoding offers the eight encodings', () => {
    const enc = settings.find((s) => s.key === 'encoding');
    assert.deepEqual(enc?.enum, ['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base', 'llama3', 'qwen3', 'deepseek_v3', 'gemma3']);
  });
});
