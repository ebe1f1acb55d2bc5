import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Range, Source } from '../protocol';
import {
  gatherSources,
  innermost,
  lastLine,
  Relevance,
  wholeLines,
  withTimeout,
  type ActiveEditor,
  type EditorView,
  type Location,
  type SymbolRange,
} from '../sources';

function r(sl: number, sc: number, el: number, ec: number): Range {
  return { start: { line: sl, character: sc }, end: { line: el, character: ec } };
}

function sym(name: string, range: Range, container = true, children: SymbolRange[] = []): SymbolRange {
  return { name, container, range, children };
}

/** fakeView answers from fixed tables and records what it was asked. */
class FakeView implements EditorView {
  asked: string[] = [];
  constructor(
    private readonly active: ActiveEditor | undefined,
    private readonly tabs: string[] = [],
    private readonly defs: Location[] | Error = [],
    private readonly refs: Location[] | Error = [],
    private readonly syms: Record<string, SymbolRange[]> = {},
  ) {}
  activeEditor(): ActiveEditor | undefined {
    return this.active;
  }
  openDocuments(): string[] {
    return this.tabs;
  }
  async definitions(uri: string): Promise<Location[]> {
    this.asked.push(`definitions ${uri}`);
    if (this.defs instanceof Error) {
      throw this.defs;
    }
    return this.defs;
  }
  async references(uri: string): Promise<Location[]> {
    this.asked.push(`references ${uri}`);
    if (this.refs instanceof Error) {
      throw this.refs;
    }
    return this.refs;
  }
  async symbols(uri: string): Promise<SymbolRange[]> {
    this.asked.push(`symbols ${uri}`);
    return this.syms[uri] ?? [];
  }
}

const A = 'file:///ws/a.go';
const B = 'file:///ws/b.go';

// Symbols of b.go: type Cart (lines 2-10) with method Total (4-8); func Use (12-20).
const bSymbols = [
  sym('Cart', r(2, 0, 10, 1), true, [sym('Total', r(4, 0, 8, 1)), sym('items', r(3, 1, 3, 20), false)]),
  sym('Use', r(12, 0, 20, 1)),
  sym('limit', r(22, 0, 22, 15), false),
];

describe('gatherSources', () => {
  const cases: Array<{
    name: string;
    view: FakeView;
    opts?: Parameters<typeof gatherSources>[1];
    want: Source[];
    errors?: string[];
  }> = [
    {
      name: 'no editor: open tabs only, deduplicated',
      view: new FakeView(undefined, [A, B, A]),
      want: [
        { type: 'open_file', uri: A },
        { type: 'open_file', uri: B },
      ],
    },
    {
      name: 'tool result first, blank tool result dropped',
      view: new FakeView(undefined, []),
      opts: { toolResult: { label: 'go test ./cart', content: '--- FAIL: TestCheckout' } },
      want: [{ type: 'tool_result', label: 'go test ./cart', content: '--- FAIL: TestCheckout' }],
    },
    {
      name: 'blank tool result dropped',
      view: new FakeView(undefined, []),
      opts: { toolResult: { label: 'clipboard', content: ' \n' } },
      want: [],
    },
    {
      name: 'selection becomes whole lines',
      view: new FakeView({ uri: A, cursor: { line: 7, character: 3 }, selection: r(5, 4, 7, 3) }, [], [], []),
      opts: { includeOpenEditors: false },
      want: [{ type: 'open_file', label: 'selection', uri: A, range: wholeLines(5, 7), relevance: Relevance.selection }],
    },
    {
      name: 'selection ending at column 0 stops at the line before',
      view: new FakeView({ uri: A, cursor: { line: 8, character: 0 }, selection: r(5, 0, 8, 0) }),
      opts: { includeOpenEditors: false },
      want: [{ type: 'open_file', label: 'selection', uri: A, range: wholeLines(5, 7), relevance: Relevance.selection }],
    },
    {
      name: 'definition widened to its symbol, references to their function or a window',
      view: new FakeView(
        { uri: A, cursor: { line: 1, character: 5 }, word: 'Total' },
        [A],
        [{ uri: B, range: r(4, 15, 4, 20) }],
        [
          { uri: B, range: r(15, 2, 15, 7) }, // inside Use
          { uri: B, range: r(22, 8, 22, 13) }, // top level: window of context lines
          { uri: B, range: r(6, 2, 6, 7) }, // inside the definition: skipped
          { uri: B, range: r(16, 2, 16, 7) }, // same function as an earlier one: skipped
          { uri: A, range: r(1, 5, 1, 10) }, // no symbols in a.go: window, clamped at 0
        ],
        { [B]: bSymbols },
      ),
      want: [
        { type: 'reference', label: 'definition of Total', uri: B, range: wholeLines(4, 8), relevance: Relevance.definition },
        { type: 'reference', label: 'reference to Total', uri: A, range: wholeLines(0, 4), relevance: Relevance.reference },
        { type: 'reference', label: 'reference to Total', uri: B, range: wholeLines(12, 20), relevance: Relevance.reference },
        { type: 'reference', label: 'reference to Total', uri: B, range: wholeLines(19, 25), relevance: Relevance.reference },
        { type: 'open_file', uri: A },
      ],
    },
    {
      name: 'references capped',
      view: new FakeView(
        { uri: A, cursor: { line: 0, character: 0 } },
        [],
        [],
        [10, 20, 30, 40].map((l) => ({ uri: A, range: r(l, 0, l, 3) })),
      ),
      opts: { maxReferences: 2, contextLines: 1 },
      want: [
        { type: 'reference', label: 'reference to', uri: A, range: wholeLines(9, 11), relevance: Relevance.reference },
        { type: 'reference', label: 'reference to', uri: A, range: wholeLines(19, 21), relevance: Relevance.reference },
      ],
    },
    {
      name: 'long symbol cut to a window',
      view: new FakeView(
        { uri: A, cursor: { line: 0, character: 0 } },
        [],
        [{ uri: B, range: r(500, 5, 500, 9) }],
        [],
        { [B]: [sym('Huge', r(0, 0, 1000, 1))] },
      ),
      opts: { maxSymbolLines: 100 },
      want: [{ type: 'reference', label: 'definition of', uri: B, range: wholeLines(450, 550), relevance: Relevance.definition }],
    },
    {
      name: 'failing language servers are skipped and reported',
      view: new FakeView({ uri: A, cursor: { line: 0, character: 0 } }, [A], new Error('no definition provider'), new Error('boom')),
      want: [{ type: 'open_file', uri: A }],
      errors: ['definitions: no definition provider', 'references: boom'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const errors: string[] = [];
      const got = await gatherSources(c.view, c.opts, (what, err) => errors.push(`${what}: ${(err as Error).message}`));
      assert.deepEqual(got, c.want);
      assert.deepEqual(errors, c.errors ?? []);
    });
  }

  it('asks for the symbols of each document once', async () => {
    const view = new FakeView(
      { uri: A, cursor: { line: 0, character: 0 } },
      [],
      [{ uri: B, range: r(4, 0, 4, 3) }],
      [
        { uri: B, range: r(13, 0, 13, 3) },
        { uri: B, range: r(22, 0, 22, 3) },
      ],
      { [B]: bSymbols },
    );
    await gatherSources(view);
    assert.deepEqual(view.asked, [`definitions ${A}`, `symbols ${B}`, `references ${A}`]);
  });
});

describe('innermost', () => {
  const flat = [sym('Cart', r(2, 0, 10, 1)), sym('Total', r(4, 0, 8, 1)), sym('items', r(3, 1, 3, 20), false)];
  const cases: Array<{ name: string; syms: SymbolRange[]; line: number; containers: boolean; want: string | undefined }> = [
    { name: 'nested method', syms: bSymbols, line: 5, containers: true, want: 'Total' },
    { name: 'nested field, any kind', syms: bSymbols, line: 3, containers: false, want: 'items' },
    { name: 'nested field, containers only', syms: bSymbols, line: 3, containers: true, want: 'Cart' },
    { name: 'flat list picks the narrowest', syms: flat, line: 6, containers: true, want: 'Total' },
    { name: 'outside everything', syms: bSymbols, line: 11, containers: false, want: undefined },
    { name: 'end line included', syms: bSymbols, line: 20, containers: true, want: 'Use' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(innermost(c.syms, c.line, c.containers)?.name, c.want));
  }
});

describe('wholeLines', () => {
  it('spans first..last, both included, under acode-lsp and LSP readings', () => {
    assert.deepEqual(wholeLines(5, 7), { start: { line: 5, character: 0 }, end: { line: 7, character: 2147483647 } });
    assert.equal(lastLine(wholeLines(5, 7)), 7);
    assert.equal(lastLine(wholeLines(0, 0)), 0);
  });
});

describe('lastLine', () => {
  const cases: Array<[Range, number]> = [
    [r(3, 0, 3, 0), 3],
    [r(3, 2, 5, 0), 4],
    [r(3, 2, 5, 1), 5],
  ];
  for (const [range, want] of cases) {
    it(JSON.stringify(range), () => assert.equal(lastLine(range), want));
  }

  // Seed FR-016-30: a language server that never answers cannot hold a pack.
  it('skips a source that does not answer in time and goes on', async () => {
    const view = new FakeView(
      { uri: A, cursor: { line: 0, character: 0 } },
      [A],
      [],
      [{ uri: B, range: r(13, 0, 13, 3) }],
      { [B]: bSymbols },
    );
    view.definitions = () => new Promise<Location[]>(() => {}); // hangs
    const errors: string[] = [];
    const started = Date.now();
    const got = await gatherSources(view, { timeoutMs: 50 }, (what, err) => errors.push(`${what}: ${(err as Error).message}`));
    assert.ok(Date.now() - started < 5000, 'gathering waited for the hung request');
    assert.deepEqual(errors, ['definitions: timed out after 50 ms']);
    assert.deepEqual(
      got.map((s) => [s.type, s.label ?? '', s.uri]),
      [
        ['reference', 'reference to', B],
        ['open_file', '', A],
      ],
    );
  });
});

describe('withTimeout', () => {
  it('passes a value through', async () => assert.equal(await withTimeout(Promise.resolve(3), 100), 3));
  it('no limit at 0', async () => assert.equal(await withTimeout(new Promise((ok) => setTimeout(() => ok(4), 20)), 0), 4));
  it('rejects after the limit', async () => assert.rejects(withTimeout(new Promise(() => {}), 10), /timed out after 10 ms/));
});
