// Gathering of the sources sent with acode/packContext: the tool result the
// user picked, the active selection, the definitions and references of the
// symbol under the cursor (asked from the editor's other language servers),
// and the open editors. Pure logic over the EditorView interface, so that it
// is tested without VS Code; extension.ts implements EditorView with the
// vscode API (vscode.executeDefinitionProvider and friends).

import type { Position, Range, Source } from './protocol';

/** Location is a range in a document, as the other language servers answer. */
export interface Location {
  uri: string;
  range: Range;
}

/** SymbolRange is a document symbol: its whole range and its children. */
export interface SymbolRange {
  name: string;
  /** container is true for symbols worth sending whole: functions, methods, types. */
  container: boolean;
  range: Range;
  children: SymbolRange[];
}

/** ActiveEditor is the editor that has the focus. */
export interface ActiveEditor {
  uri: string;
  cursor: Position;
  /** selection is the selected range, undefined when the selection is empty. */
  selection?: Range;
  /** word is the identifier under the cursor, if any. */
  word?: string;
}

/** EditorView is what gatherSources needs from the editor. */
export interface EditorView {
  activeEditor(): ActiveEditor | undefined;
  /** openDocuments lists the URIs of the open text editors (tabs), active first. */
  openDocuments(): string[];
  definitions(uri: string, at: Position): Promise<Location[]>;
  references(uri: string, at: Position): Promise<Location[]>;
  symbols(uri: string): Promise<SymbolRange[]>;
}

/** ToolResult is tool output the user chose to include (terminal, tests…). */
export interface ToolResult {
  label: string;
  content: string;
}

/** GatherOptions tunes gatherSources. */
export interface GatherOptions {
  toolResult?: ToolResult;
  /** maxReferences caps the references sent (default 30). */
  maxReferences?: number;
  /** contextLines around a reference outside any function (default 3). */
  contextLines?: number;
  /** maxSymbolLines: longer symbols are cut to a window around the location (default 300). */
  maxSymbolLines?: number;
  /** includeOpenEditors sends each open editor as an open_file source (default true). */
  includeOpenEditors?: boolean;
  /**
   * timeoutMs bounds each request to the other language servers (default
   * 5000, setting acode.pack.sourceTimeoutMs): one that does not answer in
   * time is reported and skipped, so a slow server cannot hold a pack (seed
   * FR-016-30).
   */
  timeoutMs?: number;
}

/**
 * withTimeout resolves as p does, or rejects with "timed out after N ms" when
 * p takes longer than ms (≤ 0: no limit).
 */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  if (!(ms > 0)) {
    return p;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Relevance given to each kind of gathered source (the server ranks the rest). */
export const Relevance = {
  selection: 1,
  definition: 0.9,
  reference: 0.7,
} as const;

/**
 * gatherSources builds the sources of a packContext request. Requests to the
 * other language servers that fail are skipped: the pack goes on with less.
 * Errors are reported through onError, never thrown.
 */
export async function gatherSources(
  view: EditorView,
  opts: GatherOptions = {},
  onError: (what: string, err: unknown) => void = () => {},
): Promise<Source[]> {
  const maxRefs = opts.maxReferences ?? 30;
  const context = opts.contextLines ?? 3;
  const maxLines = opts.maxSymbolLines ?? 300;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const out: Source[] = [];

  if (opts.toolResult && opts.toolResult.content.trim() !== '') {
    out.push({ type: 'tool_result', label: opts.toolResult.label, content: opts.toolResult.content });
  }

  const active = view.activeEditor();
  if (active?.selection && !isEmpty(active.selection)) {
    const last = lastLine(active.selection);
    out.push({
      type: 'open_file',
      label: 'selection',
      uri: active.uri,
      range: wholeLines(active.selection.start.line, last),
      relevance: Relevance.selection,
    });
  }

  if (active) {
    const symbolCache = new Map<string, Promise<SymbolRange[]>>();
    const symbolsOf = (uri: string): Promise<SymbolRange[]> => {
      let p = symbolCache.get(uri);
      if (!p) {
        p = withTimeout(view.symbols(uri), timeoutMs).catch((err) => {
          onError(`document symbols of ${uri}`, err);
          return [];
        });
        symbolCache.set(uri, p);
      }
      return p;
    };
    const what = active.word ? ` ${active.word}` : '';
    const seen = new Set<string>();
    const taken: Location[] = [];

    const defs = await withTimeout(view.definitions(active.uri, active.cursor), timeoutMs).catch((err) => {
      onError('definitions', err);
      return [] as Location[];
    });
    for (const def of defs) {
      const range = expand(def, await symbolsOf(def.uri), false, context, maxLines);
      const key = `${def.uri}#${range.start.line}-${range.end.line}`;
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      taken.push({ uri: def.uri, range });
      out.push({ type: 'reference', label: `definition of${what}`, uri: def.uri, range, relevance: Relevance.definition });
    }

    const refs = await withTimeout(view.references(active.uri, active.cursor), timeoutMs).catch((err) => {
      onError('references', err);
      return [] as Location[];
    });
    let sent = 0;
    for (const ref of sortLocations(refs)) {
      if (sent >= maxRefs) {
        break;
      }
      if (taken.some((t) => t.uri === ref.uri && contains(t.range, ref.range.start.line))) {
        continue; // inside a definition or reference already sent
      }
      const range = expand(ref, await symbolsOf(ref.uri), true, context, maxLines);
      const key = `${ref.uri}#${range.start.line}-${range.end.line}`;
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      taken.push({ uri: ref.uri, range });
      out.push({ type: 'reference', label: `reference to${what}`, uri: ref.uri, range, relevance: Relevance.reference });
      sent++;
    }
  }

  if (opts.includeOpenEditors ?? true) {
    const seen = new Set<string>();
    for (const uri of view.openDocuments()) {
      if (!seen.has(uri)) {
        seen.add(uri);
        out.push({ type: 'open_file', uri });
      }
    }
  }
  return out;
}

/**
 * expand widens a location to what is worth reading: the innermost symbol
 * around it (for references only a function-like container), else a window of
 * context lines. Symbols longer than maxLines are cut to a window.
 */
function expand(loc: Location, symbols: SymbolRange[], containersOnly: boolean, context: number, maxLines: number): Range {
  const line = loc.range.start.line;
  const sym = innermost(symbols, line, containersOnly);
  if (sym) {
    const first = sym.range.start.line;
    const last = lastLine(sym.range);
    if (last - first + 1 <= maxLines) {
      return wholeLines(first, last);
    }
  }
  const half = Math.floor(maxLines / 2);
  const extra = sym ? half : context;
  const first = Math.max(0, line - extra);
  const last = Math.max(lastLine(loc.range), line) + extra;
  return wholeLines(first, last);
}

/**
 * innermost returns the narrowest symbol whose range holds line (ties: the
 * deepest), among containers only when containersOnly. Works on nested
 * DocumentSymbols and on flat SymbolInformation lists alike.
 */
export function innermost(symbols: SymbolRange[], line: number, containersOnly: boolean): SymbolRange | undefined {
  let best: SymbolRange | undefined;
  const visit = (list: SymbolRange[]): void => {
    for (const s of list) {
      if (!contains(s.range, line)) {
        continue;
      }
      if ((!containersOnly || s.container) && (!best || span(s.range) <= span(best.range))) {
        best = s;
      }
      visit(s.children);
    }
  };
  visit(symbols);
  return best;
}

function span(r: Range): number {
  return lastLine(r) - r.start.line;
}

/**
 * EndOfLine is a character past the end of any line. LSP clamps it to the
 * line's length, so {line: n, character: EndOfLine} ends at the end of line
 * n under the standard reading, and acode-lsp (which reads range.end.line as
 * the last line, see docs/design.md) takes line n too: both agree. It fits the
 * uint32 of LSP positions.
 */
export const EndOfLine = 2147483647;

/** wholeLines is the range of lines first..last (0-based, both included). */
export function wholeLines(first: number, last: number): Range {
  return { start: { line: first, character: 0 }, end: { line: last, character: EndOfLine } };
}

/** lastLine is the last line a range touches (an end at character 0 does not touch its line). */
export function lastLine(r: Range): number {
  if (r.end.line > r.start.line && r.end.character === 0) {
    return r.end.line - 1;
  }
  return r.end.line;
}

function contains(r: Range, line: number): boolean {
  return line >= r.start.line && line <= lastLine(r);
}

function isEmpty(r: Range): boolean {
  return r.start.line === r.end.line && r.start.character === r.end.character;
}

/** sortLocations orders locations by URI then position, for deterministic requests. */
export function sortLocations(locs: Location[]): Location[] {
  return [...locs].sort(
    (a, b) =>
      (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
}
