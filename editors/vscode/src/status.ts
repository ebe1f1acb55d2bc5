// Formatting of the status bar item fed by acode/budget. Pure functions:
// extension.ts applies them to a vscode.StatusBarItem.

import { calibrateHint, estimateText } from './calibrate';
import type { BudgetLevel, BudgetStatus, Thresholds } from './protocol';

/**
 * formatCount writes a token count compactly: 950, 12.3K, 90K, 1.2M.
 * One decimal is kept below 100 of a unit and dropped when it is zero.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) {
    return '?';
  }
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(Math.round(n));
  const units: Array<[number, string]> = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) {
      const v = abs / size;
      // Round down so that 99,960 shows as 99.9K, never as a misleading 100K.
      const text = v >= 100 ? String(Math.floor(v)) : (Math.floor(v * 10) / 10).toFixed(1).replace(/\.0$/, '');
      return sign + text + suffix;
    }
  }
  return sign + String(abs);
}

/** formatNumber writes n with thousands separators: 12,345. */
export function formatNumber(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** statusText is the status bar text: `$(symbol-numeric) 12.3K / 90K`, `≈` when estimated. */
export function statusText(s: BudgetStatus): string {
  const approx = s.exact ? '' : '≈';
  return `$(symbol-numeric) ${approx}${formatCount(s.used)} / ${formatCount(s.available)}`;
}

/** statusTooltip is the markdown tooltip of the status bar item. */
export function statusTooltip(s: BudgetStatus): string {
  const percent = Number.isFinite(s.percent) ? s.percent.toFixed(1) : '?';
  const files = s.openFiles === 1 ? '1 open file' : `${s.openFiles} open files`;
  const lines = [
    `**Acode context budget** — ${levelLabel(s.level, s.percent, s.thresholds)}`,
    '',
    `${s.exact ? '' : '≈'}${formatNumber(s.used)} of ${formatNumber(s.available)} available tokens (${percent} %) used by ${files}`,
    '',
    `Model: \`${s.model}\` · encoding \`${s.encoding}\` · ${s.exact ? 'exact count' : 'estimated count'}`,
    '',
  ];
  const est = estimateText(s);
  if (est) {
    // Capitalized for the start of a sentence: "Estimated upper bound: …".
    lines.push(`${est.charAt(0).toUpperCase()}${est.slice(1)}. ${calibrateHint()}`, '');
  }
  lines.push(`Window ${formatNumber(s.total)} tokens. Click for the budget report.`);
  return lines.join('\n');
}

/**
 * levelLabel names a budget level for people. The thresholds are
 * configurable (context.budget.warnings), so the label states them only when
 * the server sent them; otherwise it says how much is used.
 */
export function levelLabel(level: BudgetLevel | string, percent?: number, t?: Thresholds): string {
  const used = percent !== undefined && Number.isFinite(percent) ? `${percent.toFixed(1)} % used` : undefined;
  if (t) {
    switch (level) {
      case 'warning':
        return `warning (${t.warningPercent}–${t.criticalPercent} % used, or under ${formatNumber(t.minRemainingTokens)} tokens left)`;
      case 'critical':
        return `critical (over ${t.criticalPercent} % used)`;
    }
  }
  if (level === 'normal' || used === undefined) {
    return level;
  }
  return `${level} (${used})`;
}

/** statusBackground is the theme colour id for a level, or undefined for normal. */
export function statusBackground(level: BudgetLevel | string): string | undefined {
  switch (level) {
    case 'warning':
      return 'statusBarItem.warningBackground';
    case 'critical':
      return 'statusBarItem.errorBackground';
    default:
      return undefined;
  }
}
