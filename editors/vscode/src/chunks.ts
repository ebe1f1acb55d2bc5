// The what-if lens commands: acode.pinChunk keeps a chunk for the next pack
// (sent as a reference source with relevance 1), acode.showChunkReport
// describes what a pack does with it. Pure logic; commands.ts wires it.

import type { ChunkArgs, PackResult, Source } from './protocol';
import { formatNumber } from './status';

/** isChunkArgs checks the shape of a lens command argument. */
export function isChunkArgs(v: unknown): v is ChunkArgs {
  const a = v as ChunkArgs;
  return (
    typeof a === 'object' &&
    a !== null &&
    typeof a.uri === 'string' &&
    Number.isInteger(a.startLine) &&
    Number.isInteger(a.endLine) &&
    a.startLine >= 1 &&
    a.endLine >= a.startLine
  );
}

/** chunkName is "cart/service.go lines 10–41" (the file's name for a whole-file lens). */
export function chunkName(a: ChunkArgs, relPath: string): string {
  return a.wholeFile ? relPath : `${relPath} lines ${a.startLine}–${a.endLine}`;
}

/** Pinned holds the chunks pinned for the next pack, in pinning order. */
export class Pinned {
  private readonly chunks: ChunkArgs[] = [];

  /** pin adds a chunk (once) and reports whether it was new. */
  pin(a: ChunkArgs): boolean {
    if (this.chunks.some((c) => c.uri === a.uri && c.startLine === a.startLine && c.endLine === a.endLine)) {
      return false;
    }
    this.chunks.push(a);
    return true;
  }

  get size(): number {
    return this.chunks.length;
  }

  /** take returns the pinned chunks as reference sources and forgets them. */
  take(): Source[] {
    const out = this.chunks.map(pinnedSource);
    this.chunks.length = 0;
    return out;
  }
}

/** pinnedSource is a pinned chunk as a packContext source: the lines read by the server, relevance 1. */
export function pinnedSource(a: ChunkArgs): Source {
  return {
    type: 'reference',
    uri: a.uri,
    range: { start: { line: a.startLine - 1, character: 0 }, end: { line: a.endLine, character: 0 } },
    relevance: 1,
  };
}

/**
 * renderChunkReport is the markdown shown for a lens click: the chunk, what
 * a pack of the open files at the configured budget does with it, and what
 * the last pack did with its lines.
 */
export function renderChunkReport(a: ChunkArgs, relPath: string, last?: { result: PackResult; query: string }): string {
  const lines = [`# ${chunkName(a, relPath)}`, ''];
  lines.push(`**Tokens:** ${formatNumber(a.tokens)}`, '');
  const budget = `a pack of the open files at the configured budget (${formatNumber(a.budgetTotal)} total, ${formatNumber(a.budgetAvailable)} available)`;
  if (a.inContext) {
    lines.push(`**What if:** ✓ in context — ${budget} includes every line of it.`, '');
    if (a.score !== undefined) {
      lines.push(`**Score:** ${a.score.toFixed(2)} (the best of the packed chunks that hold it)`, '');
    }
  } else if (a.toFit) {
    lines.push(
      `**What if:** +${formatNumber(a.toFit)} to fit — ${budget} leaves it out; with a total of ${formatNumber(a.budgetTotal + a.toFit)} it goes in.`,
      '',
      'Click its lens (**Acode: Pin Chunk**) to send it with the next pack whatever the budget ranks first.',
      '',
    );
  } else if (a.reason) {
    lines.push(`**What if:** not packed at any budget — ${a.reason}.`, '');
  }
  if (last) {
    const mine = (c: { path?: string; startLine?: number; endLine?: number }): boolean =>
      c.path === relPath && (c.startLine ?? 0) <= a.endLine && (c.endLine ?? 0) >= a.startLine;
    const inc = last.result.included.filter(mine);
    const exc = last.result.excluded.filter(mine);
    lines.push(`## In the last pack${last.query ? ` (“${last.query.replace(/[\r\n]+/g, ' ')}”)` : ''}`, '');
    if (inc.length === 0 && exc.length === 0) {
      lines.push('_Not among its sources._', '');
    }
    for (const c of inc) {
      lines.push(`- included: lines ${c.startLine}–${c.endLine}, ${formatNumber(c.tokens ?? 0)} tokens, score ${(c.score ?? 0).toFixed(2)}`);
    }
    for (const c of exc) {
      lines.push(`- left out (${c.reason ?? 'unknown'}): lines ${c.startLine}–${c.endLine}, ${formatNumber(c.tokens ?? 0)} tokens`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
