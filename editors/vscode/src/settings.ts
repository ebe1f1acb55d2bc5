// Translation of the acode.* settings into the server's settings object, the
// shape sent both as initializationOptions and, under the section "acode",
// in workspace/didChangeConfiguration.

/** ServerSettings is what acode-lsp reads from the editor. Unset keys are left out. */
export interface ServerSettings {
  model?: string;
  encoding?: string;
  budget?: {
    totalTokens?: number;
    systemReserve?: number;
    responseReserve?: number;
    categories?: Record<string, number>;
    redistribute?: boolean;
  };
  exclude?: string[];
}

/** SettingsReader reads one setting under "acode" (e.g. "budget.totalTokens"). */
export type SettingsReader = (key: string) => unknown;

/**
 * serverSettings builds the server's settings from the editor's. Settings left
 * at their default (null or empty) are not sent, so `.agent/config.yml` keeps
 * deciding them: editor settings override the file only where the user set one.
 */
export function serverSettings(get: SettingsReader): ServerSettings {
  const out: ServerSettings = {};
  const model = nonEmptyString(get('model'));
  if (model !== undefined) {
    out.model = model;
  }
  const encoding = nonEmptyString(get('encoding'));
  if (encoding !== undefined) {
    out.encoding = encoding;
  }
  const budget: NonNullable<ServerSettings['budget']> = {};
  for (const key of ['totalTokens', 'systemReserve', 'responseReserve'] as const) {
    const v = get(`budget.${key}`);
    if (typeof v === 'number' && Number.isFinite(v)) {
      budget[key] = v;
    }
  }
  const categories = get('budget.categories');
  if (categories !== null && typeof categories === 'object' && !Array.isArray(categories)) {
    const cats: Record<string, number> = {};
    for (const [k, v] of Object.entries(categories as Record<string, unknown>)) {
      if (typeof v === 'number' && Number.isFinite(v)) {
        cats[k] = v;
      }
    }
    if (Object.keys(cats).length > 0) {
      budget.categories = cats;
    }
  }
  const redistribute = get('budget.redistribute');
  if (typeof redistribute === 'boolean') {
    budget.redistribute = redistribute;
  }
  if (Object.keys(budget).length > 0) {
    out.budget = budget;
  }
  const exclude = get('exclude');
  if (Array.isArray(exclude)) {
    const globs = exclude.filter((g): g is string => typeof g === 'string' && g !== '');
    if (globs.length > 0) {
      out.exclude = globs;
    }
  }
  return out;
}

function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
