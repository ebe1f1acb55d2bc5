// Markdown shown beside a packed context (what was included, what was left
// out and why) and by "Acode: Show Budget Report". Pure functions.

import { calibrateHint, estimateText } from './calibrate';
import type { BudgetStatus, ChunkReport, PackResult, PackStats } from './protocol';
import { formatNumber, levelLabel } from './status';

/** fits tells whether a packed context is within its available budget. */
export function fits(r: PackResult): boolean {
  return r.tokenCount <= r.budget.available;
}

/** packSummary is the one-line notice shown after packing. */
export function packSummary(r: PackResult): string {
  const approx = r.exact ? '' : '≈';
  const verdict = fits(r) ? 'fits' : 'DOES NOT FIT';
  return `Packed ${approx}${formatNumber(r.tokenCount)} tokens — ${verdict} the ${formatNumber(r.budget.available)} available (${r.included.length} chunks included, ${r.excluded.length} left out).`;
}

/** MaxRowsPerReason caps each reason's table of left-out chunks; the rest are summed up. */
export const MaxRowsPerReason = 20;

/**
 * leftOutTables lists the left-out chunks one table per reason (reasons
 * sorted, chunks in the server's order), at most MaxRowsPerReason rows each,
 * with a line that sums up the rest.
 */
export function leftOutTables(chunks: ChunkReport[]): string[] {
  if (chunks.length === 0) {
    return ['_none_', ''];
  }
  const byReason = new Map<string, ChunkReport[]>();
  for (const c of chunks) {
    const k = c.reason ?? 'unknown';
    byReason.set(k, [...(byReason.get(k) ?? []), c]);
  }
  const out: string[] = [];
  for (const reason of [...byReason.keys()].sort()) {
    const all = byReason.get(reason) ?? [];
    const tokens = all.reduce((n, c) => n + (c.tokens ?? 0), 0);
    out.push(`### ${cell(reason)} (${all.length}${tokens > 0 ? `, ${formatNumber(tokens)} tokens` : ''})`, '');
    const shown = all.slice(0, MaxRowsPerReason);
    const table = chunkTable(shown, false);
    if (all.length > shown.length) {
      const rest = all.slice(shown.length);
      const restTokens = rest.reduce((n, c) => n + (c.tokens ?? 0), 0);
      table.splice(table.length - 1, 0, '', `_… and ${rest.length} more${restTokens > 0 ? ` (${formatNumber(restTokens)} tokens)` : ''}._`);
    }
    out.push(...table);
  }
  return out;
}

/**
 * ToolPlacement says where the user's tool output went: its section's
 * position among the sections of the context (which the pack orders by
 * score), or why it was left out.
 */
export interface ToolPlacement {
  label: string;
  included: boolean;
  /** section is the 1-based position of its "## Tool:" section. */
  section?: number;
  sections: number;
  tokens: number;
  reason?: string;
}

/** toolPlacement finds the tool output labelled label in a pack result. */
export function toolPlacement(r: PackResult, label: string): ToolPlacement {
  const headers = r.content.split('\n').filter((l) => /^## (File|Tool): /.test(l));
  const one = label.replace(/[\r\n]+/g, ' ');
  const idx = headers.findIndex((h) => h === `## Tool: ${one}` || h.startsWith(`## Tool: ${one} (lines `));
  const inc = r.included.filter((c) => c.type === 'tool_result' && c.label === label);
  const exc = r.excluded.find((c) => c.type === 'tool_result' && c.label === label);
  return {
    label,
    included: inc.length > 0,
    section: idx >= 0 ? idx + 1 : undefined,
    sections: headers.length,
    tokens: inc.reduce((n, c) => n + (c.tokens ?? 0), 0),
    reason: inc.length > 0 ? undefined : exc?.reason ?? 'not in the result',
  };
}

/** toolLine is the report's line about the tool output. */
export function toolLine(p: ToolPlacement): string {
  if (p.included) {
    const where = p.section !== undefined ? `section ${p.section} of ${p.sections} (sections are ordered by score)` : 'in the context';
    return `**Tool output:** ${inline(p.label)} — included, ${formatNumber(p.tokens)} tokens, ${where}`;
  }
  return `**Tool output:** ${inline(p.label)} — LEFT OUT (${p.reason})`;
}

/** renderPackReport is the markdown report of one packContext result. */
export function renderPackReport(r: PackResult, query: string, toolLabel?: string): string {
  const lines: string[] = [];
  const approx = r.exact ? 'exact' : 'estimated';
  lines.push('# Acode context report', '');
  if (query !== '') {
    lines.push(`**Task:** ${inline(query)}`, '');
  }
  lines.push(
    `**Tokens:** ${formatNumber(r.tokenCount)} of ${formatNumber(r.budget.available)} available — ${fits(r) ? 'fits' : 'DOES NOT FIT'}`,
    '',
    `**Included:** ${tally(r.included, (c) => String(c.type))}`,
    '',
    `**Left out:** ${tally(r.excluded, (c) => c.reason ?? 'unknown')}`,
    '',
    ...(toolLabel !== undefined ? [toolLine(toolPlacement(r, toolLabel)), ''] : []),
    `**Model:** ${inline(r.model)} · encoding ${inline(r.encoding)} · ${approx} count`,
    '',
    `**Window:** ${formatNumber(r.budget.total)} total − ${formatNumber(r.budget.systemReserve)} system reserve − ${formatNumber(r.budget.responseReserve)} response reserve`,
    '',
  );

  const cats = Object.entries(r.budget.categories ?? {});
  if (cats.length > 0) {
    lines.push('## Budget by category', '', '| category | allocated | used |', '|---|---:|---:|');
    for (const [name, use] of cats.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      lines.push(`| ${cell(name)} | ${formatNumber(use.allocated)} | ${formatNumber(use.used)} |`);
    }
    lines.push('');
  }

  lines.push(`## Included (${r.included.length})`, '');
  lines.push(...chunkTable(r.included, false));
  lines.push(`## Left out (${r.excluded.length})`, '');
  lines.push(...leftOutTables(r.excluded));

  const d = r.dedup;
  if (d) {
    lines.push(
      '## Deduplication',
      '',
      `${d.exactRemoved} exact duplicates removed, ${d.overlapsMerged} overlaps merged, ${formatNumber(d.tokensSaved)} tokens saved.`,
      '',
    );
  }
  if (r.warnings && r.warnings.length > 0) {
    lines.push('## Warnings', '');
    for (const w of r.warnings) {
      lines.push(`- ${inline(w)}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** tally counts chunks by a key: "5 chunks — open_file 3, reference 2" (keys sorted). */
export function tally(chunks: ChunkReport[], key: (c: ChunkReport) => string): string {
  if (chunks.length === 0) {
    return 'nothing';
  }
  const counts = new Map<string, number>();
  for (const c of chunks) {
    counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
  }
  const parts = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, n]) => `${k} ${n}`);
  return `${chunks.length} ${chunks.length === 1 ? 'chunk' : 'chunks'} — ${parts.join(', ')}`;
}

function chunkTable(chunks: ChunkReport[], withReason: boolean): string[] {
  if (chunks.length === 0) {
    return ['_none_', ''];
  }
  const head = withReason
    ? ['| reason | type | source | lines | tokens | score |', '|---|---|---|---|---:|---:|']
    : ['| type | source | lines | tokens | score |', '|---|---|---|---:|---:|'];
  const rows = chunks.map((c) => {
    const cols = [
      cell(c.type),
      cell(c.path ?? c.label ?? ''),
      c.startLine !== undefined && c.endLine !== undefined ? `${c.startLine}–${c.endLine}` : '',
      c.tokens !== undefined ? formatNumber(c.tokens) : '',
      c.score !== undefined ? c.score.toFixed(2) : '',
    ];
    if (withReason) {
      cols.unshift(cell(c.reason ?? ''));
    }
    return `| ${cols.join(' | ')} |`;
  });
  return [...head, ...rows, ''];
}

/** renderBudgetReport is the markdown of "Acode: Show Budget Report". */
export function renderBudgetReport(
  s: BudgetStatus,
  last?: { result: PackResult; query: string; toolLabel?: string },
  stats?: PackStats,
): string {
  const lines = [
    '# Acode budget',
    '',
    `**Level:** ${levelLabel(s.level, s.percent, s.thresholds)}`,
    '',
    `**Open files:** ${s.openFiles} using ${formatNumber(s.used)} of ${formatNumber(s.available)} available tokens (${Number.isFinite(s.percent) ? s.percent.toFixed(1) : '?'} %)`,
    '',
    `**Model:** ${inline(s.model)} · encoding ${inline(s.encoding)} · ${s.exact ? 'exact' : 'estimated'} count`,
    '',
  ];
  const est = estimateText(s);
  if (est && s.estimate) {
    lines.push(`**Estimate:** ${est.replace(/^estimated /, '')}. ${calibrateHint()}`, '');
  }
  lines.push(`**Window:** ${formatNumber(s.total)} tokens`, '');
  if (stats) {
    lines.push(...renderPackStats(stats));
  }
  if (last) {
    lines.push('---', '', renderPackReport(last.result, last.query, last.toolLabel).replace(/^# Acode context report/, '# Last packed context'));
  } else {
    lines.push('_No context packed yet: run "Acode: Pack Context…"._', '');
  }
  return lines.join('\n');
}

/** renderPackStats is the acode/packStats section of the budget report. */
export function renderPackStats(st: PackStats): string[] {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  return [
    '## Packing since the server started',
    '',
    `- **Packs:** ${formatNumber(st.packs)} answered, ${formatNumber(st.failed)} failed`,
    `- **Latency:** p50 ${ms(st.latencyMs.p50)} · p95 ${ms(st.latencyMs.p95)} · max ${ms(st.latencyMs.max)}`,
    `- **Chunks:** ${formatNumber(st.chunks.included)} included of ${formatNumber(st.chunks.considered)} considered`,
    `- **Tokens:** ${formatNumber(st.tokens.packed)} packed of ${formatNumber(st.tokens.available)} available (${pct(st.tokens.utilization)})`,
    `- **Dedup:** ${formatNumber(st.dedup.exactRemoved)} duplicates removed, ${formatNumber(st.dedup.overlapsMerged)} overlaps merged, ${formatNumber(st.dedup.tokensSaved)} tokens saved`,
    `- **Count cache:** ${pct(st.cache.hitRate)} hits (${formatNumber(st.cache.hits)} hits, ${formatNumber(st.cache.misses)} misses, ${formatNumber(st.cache.evictions)} evictions, ${formatNumber(st.cache.entries)} entries)`,
    '',
  ];
}

/** inline quotes text as inline code, with a fence longer than any backtick run inside. */
export function inline(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** cell escapes text for a markdown table cell. */
export function cell(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}
