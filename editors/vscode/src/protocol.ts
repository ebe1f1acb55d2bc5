// Types of the acode/* messages of acode-lsp (see docs/design.md, "Language
// server contract"). Plain JSON shapes: no dependency on the vscode module,
// so the pure logic that uses them runs under node's test runner.

/** Position is an LSP position: 0-based line, UTF-16 character. */
export interface Position {
  line: number;
  character: number;
}

/** Range is an LSP range, end exclusive. */
export interface Range {
  start: Position;
  end: Position;
}

import type { BudgetLevel, Thresholds } from './surface';

export type { BudgetLevel, Thresholds } from './surface';

/**
 * Estimate says how a count that is not exact was made (rule 1 of DESIGN.md):
 * factor × the exact count of the basis encoding, calibrated or not by
 * acode/reportUsage.
 */
export interface Estimate {
  basis: string;
  factor: number;
  calibrated: boolean;
  samples: number;
}

/** BudgetStatus is the payload of acode/budget and acode/budgetStatus. */
export interface BudgetStatus {
  model: string;
  encoding: string;
  exact: boolean;
  /** estimate is present when exact is false. */
  estimate?: Estimate;
  total: number;
  available: number;
  used: number;
  percent: number;
  level: BudgetLevel;
  openFiles: number;
  /**
   * thresholds, when the server sends them, are where the levels start
   * (context.budget.warnings); the level labels then say them.
   */
  thresholds?: Thresholds;
}

/** SourceType is the category a packContext source belongs to. */
export type SourceType = 'tool_result' | 'open_file' | 'search_result' | 'reference';

/** Source is one item of acode/packContext's sources. */
export interface Source {
  type: SourceType;
  label?: string;
  content?: string;
  uri?: string;
  range?: Range;
  relevance?: number;
  timestamp?: string;
}

/** BudgetParams overrides the configured budget for one packContext call. */
export interface BudgetParams {
  totalTokens?: number;
  systemReserve?: number;
  responseReserve?: number;
  categories?: Record<string, number>;
  redistribute?: boolean;
}

/** PackParams are the params of acode/packContext. */
export interface PackParams {
  query: string;
  model?: string;
  budget?: BudgetParams;
  includeOpenFiles?: boolean;
  search?: { pattern: string; maxResults?: number };
  sources: Source[];
}

/** ChunkReport describes one included or excluded chunk. */
export interface ChunkReport {
  type: SourceType | string;
  /** origin says where the text came from (docs/design.md, "Item types and origins"). */
  origin?: 'editor' | 'workspace' | 'search' | 'request';
  path?: string;
  label?: string;
  startLine?: number;
  endLine?: number;
  tokens?: number;
  score?: number;
  reason?: string;
}

/** CategoryUse is the allocation and use of one budget category. */
export interface CategoryUse {
  allocated: number;
  used: number;
}

/** PackResult is the result of acode/packContext. */
export interface PackResult {
  content: string;
  tokenCount: number;
  model: string;
  encoding: string;
  exact: boolean;
  estimate?: Estimate;
  budget: {
    total: number;
    systemReserve: number;
    responseReserve: number;
    available: number;
    categories: Record<string, CategoryUse>;
  };
  included: ChunkReport[];
  excluded: ChunkReport[];
  dedup: { exactRemoved: number; overlapsMerged: number; tokensSaved: number };
  warnings: string[];
}

/** CountParams are the params of acode/countTokens. */
export interface CountParams {
  text?: string;
  uri?: string;
  model?: string;
  encoding?: string;
}

/** CountResult is the result of acode/countTokens. */
export interface CountResult {
  tokens: number;
  encoding: string;
  exact: boolean;
  estimate?: Estimate;
}

/**
 * ReportUsageParams are the params of acode/reportUsage: the provider's real
 * count (actualTokens) for a text acode counted, given as the text or as the
 * count acode gave for it (estimatedTokens) — one of the two.
 */
export interface ReportUsageParams {
  model: string;
  text?: string;
  estimatedTokens?: number;
  actualTokens: number;
}

/**
 * UsageResult is the result of acode/reportUsage: the model's factor now and
 * the reports it was learned from. For a model with an exact encoding the
 * report is only checked: exact is true and match says whether the counts agreed.
 */
export interface UsageResult {
  model: string;
  factor: number;
  samples: number;
  exact?: boolean;
  match?: boolean;
}

/** PackStats is the result of acode/packStats: packing since the server started. */
export interface PackStats {
  packs: number;
  failed: number;
  latencyMs: { p50: number; p95: number; max: number };
  chunks: { considered: number; included: number };
  tokens: { packed: number; available: number; utilization: number };
  dedup: { exactRemoved: number; overlapsMerged: number; tokensSaved: number };
  cache: { hits: number; misses: number; evictions: number; entries: number; hitRate: number };
}

/** Method names of the acode/* extensions. */
export const Methods = {
  budget: 'acode/budget',
  budgetStatus: 'acode/budgetStatus',
  packContext: 'acode/packContext',
  countTokens: 'acode/countTokens',
  packStats: 'acode/packStats',
  reportUsage: 'acode/reportUsage',
} as const;

/**
 * ChunkArgs is the argument of the what-if lens commands (acode.pinChunk,
 * acode.showChunkReport): a file or top-level chunk of an open document,
 * 1-based lines, and what a pack of the open files at the configured budget
 * does with it.
 */
export interface ChunkArgs {
  uri: string;
  path: string;
  startLine: number;
  endLine: number;
  tokens: number;
  inContext: boolean;
  /** toFit is how many tokens the total budget must grow by for the chunk to go in. */
  toFit?: number;
  /** reason is why the file stays out at any budget (secret, ignored, …). */
  reason?: string;
  score?: number;
  budgetTotal: number;
  budgetAvailable: number;
  wholeFile?: boolean;
}
