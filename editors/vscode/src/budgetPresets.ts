// The per-pack budget question of "Acode: Pack Context…": presets from the
// model's window and a custom number. Pure functions: commands.ts shows them
// in a quick pick.

import type { BudgetParams, BudgetStatus } from './protocol';
import { formatNumber } from './status';

/** BudgetChoice is one entry of the budget quick pick. */
export interface BudgetChoice {
  label: string;
  description: string;
  /** room is the tokens the context may take (see packBudget); undefined keeps the configured window. */
  room?: number;
  /** custom asks for a number. */
  custom?: boolean;
}

/** presetSizes are the context sizes offered below the window (tokens for the context itself). */
const presetSizes = [2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000];

/**
 * budgetPresets lists the choices for one pack: the configured window first
 * (everything available), then smaller context sizes from 2,000 tokens up to
 * half of what is available, then "Custom…". A size is the room the
 * context may take (DESIGN rule 2: an editor's per-pack budget is the room),
 * sent by packBudget.
 */
export function budgetPresets(s: BudgetStatus): BudgetChoice[] {
  const reserves = Math.max(0, s.total - s.available);
  const out: BudgetChoice[] = [
    {
      label: `${formatNumber(s.available)} tokens`,
      description: `the whole window of ${s.model || s.encoding} (${formatNumber(s.total)} − ${formatNumber(reserves)} reserved)`,
    },
  ];
  for (const size of presetSizes) {
    if (size * 2 > s.available) {
      break;
    }
    out.push({
      label: `${formatNumber(size)} tokens`,
      description: `${percent(size, s.available)} of the window`,
      room: size,
    });
  }
  out.push({ label: 'Custom…', description: 'type a number of tokens for the context', custom: true });
  return out;
}

function percent(part: number, whole: number): string {
  const p = (part * 100) / whole;
  return p < 1 ? '<1 %' : `${Math.round(p)} %`;
}

/**
 * parseBudget reads a custom context size ("12000", "12,000", "12k") and
 * returns it, or an error message for the input box.
 */
export function parseBudget(text: string): { tokens?: number; error?: string } {
  const m = /^\s*([\d,_]+(?:\.\d+)?)\s*([kKmM]?)\s*$/.exec(text);
  if (!m) {
    return { error: 'a number of tokens, e.g. 12000 or 12k' };
  }
  const n = Math.round(Number(m[1].replace(/[,_]/g, '')) * ({ '': 1, k: 1e3, m: 1e6 } as Record<string, number>)[m[2].toLowerCase()]);
  if (!Number.isFinite(n) || n <= 0) {
    return { error: 'must be more than 0 tokens' };
  }
  return { tokens: n };
}

/**
 * packBudget is acode/packContext's budget for a pack whose context may take
 * room tokens: the room is the whole budget, with no reserves taken from it
 * (the reserves belong to a model window, which this is not).
 */
export function packBudget(room: number): BudgetParams {
  return { totalTokens: room, systemReserve: 0, responseReserve: 0 };
}
