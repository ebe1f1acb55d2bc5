// Estimates and their calibration: the words the status bar tooltip uses
// for a count that is not exact, and the pure logic of "Acode: Report
// Actual Token Usage…" (which text, which model, which acode/reportUsage
// params, what the answer means). No vscode module: tested under node.

import type { Estimate, ReportUsageParams, UsageResult } from './protocol';

/** ReportUsageTitle is the command's title as the palette shows it. */
export const ReportUsageTitle = 'Acode: Report Actual Token Usage…';

/** formatFactor writes a factor with at most three decimals: 1.25, 1.312. */
export function formatFactor(f: number): string {
  if (!Number.isFinite(f)) {
    return '?';
  }
  return String(Math.round(f * 1000) / 1000);
}

/**
 * estimateText says what an estimate is, e.g. `estimated upper bound:
 * o200k_base × 1.25, not calibrated (0 samples)`; undefined for an exact
 * count. A result that is not exact but carries no estimate object (an
 * older server) gives `estimated count`.
 */
export function estimateText(s: { exact: boolean; estimate?: Estimate }): string | undefined {
  if (s.exact) {
    return undefined;
  }
  const e = s.estimate;
  if (!e) {
    return 'estimated count';
  }
  const samples = e.samples === 1 ? '1 sample' : `${e.samples} samples`;
  const cal = e.calibrated ? 'calibrated' : 'not calibrated';
  return `estimated upper bound: ${e.basis} × ${formatFactor(e.factor)}, ${cal} (${samples})`;
}

/** calibrateHint says how to calibrate an estimate, naming the command. */
export function calibrateHint(command = ReportUsageTitle): string {
  return `To calibrate it, run "${command}" with the input token count your provider's response showed for the last packed context.`;
}

/**
 * parseActualTokens reads the count a provider showed: a positive integer,
 * thousands separators (`,` `_` `'` or spaces) allowed. Abbreviations such as
 * 12k are refused: calibration needs the exact number.
 */
export function parseActualTokens(text: string): { tokens?: number; error?: string } {
  const t = text.trim().replace(/[,_' ]/g, '');
  if (t === '') {
    return { error: 'Enter the input token count the provider reported, e.g. 12345.' };
  }
  if (!/^\d+$/.test(t)) {
    return { error: 'Enter a whole number of tokens, exactly as the provider reported it (e.g. 12345, not 12k).' };
  }
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n <= 0) {
    return { error: 'The token count must be a positive whole number.' };
  }
  return { tokens: n };
}

/** UsageSource is what the command can report usage for. */
export interface UsageSource {
  /** lastPack is the last packed context this extension produced. */
  lastPack?: { content: string; model: string };
  /** selection is the active editor's selected text ('' without one). */
  selection?: string;
  /** document is the active editor's whole text. */
  document?: string;
  /** model is the server's current model (acode/budgetStatus). */
  model?: string;
}

/** UsageRequest is the text chosen for a report, described for people. */
export interface UsageRequest {
  params: ReportUsageParams;
  /** what names the text: "the last packed context", "the selection", "the document". */
  what: string;
}

/**
 * usageRequest builds the acode/reportUsage params: the last packed context
 * with the model it was packed for; without one, the selection or else the
 * whole document with the server's current model. Undefined when there is
 * no text or no model.
 */
export function usageRequest(src: UsageSource, actualTokens: number): UsageRequest | undefined {
  let text: string | undefined;
  let model: string | undefined;
  let what: string;
  if (src.lastPack && src.lastPack.content !== '') {
    text = src.lastPack.content;
    model = src.lastPack.model || src.model;
    what = 'the last packed context';
  } else if (src.selection) {
    text = src.selection;
    model = src.model;
    what = 'the selection';
  } else {
    text = src.document;
    model = src.model;
    what = 'the document';
  }
  if (!text || !model) {
    return undefined;
  }
  return { params: { model, text, actualTokens }, what };
}

/** usageResultText says what a report changed, for a notification. */
export function usageResultText(r: UsageResult, actualTokens: number): string {
  if (r.exact) {
    return r.match
      ? `Acode: ${r.model} counts exactly, and the provider agrees (${actualTokens.toLocaleString('en-US')} tokens); nothing to calibrate.`
      : `Acode: ${r.model} counts exactly; the provider said ${actualTokens.toLocaleString('en-US')} tokens, which differs — nothing learned (a provider's count often includes a chat template or system prompt).`;
  }
  const reports = r.samples === 1 ? '1 report' : `${r.samples} reports`;
  return `Acode: ${r.model} estimates are now o200k_base × ${formatFactor(r.factor)} (calibrated from ${reports}).`;
}
