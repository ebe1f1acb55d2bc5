// Translation of the acode.* settings into the server's settings object, the
// shape sent both as initializationOptions and, under the section "acode",
// in workspace/didChangeConfiguration. Which settings the server reads, and
// their types, come from the generated table in surface.ts
// (config/settings.go, `go generate ./config`).

import { settings, type ServerSettings, type SettingInfo } from './surface';

export type { ServerSettings } from './surface';

/** SettingsReader reads one setting under "acode" (e.g. "budget.totalTokens"). */
export type SettingsReader = (key: string) => unknown;

/**
 * serverSettings builds the server's settings from the editor's. Settings left
 * at their default (null or empty) are not sent, so `.agent/config.yml` keeps
 * deciding them: editor settings override the file only where the user set one.
 * A value of the wrong type is left out as if unset.
 */
export function serverSettings(get: SettingsReader): ServerSettings {
  const out: Record<string, unknown> = {};
  for (const s of settings) {
    if (!s.server) {
      continue;
    }
    const v = settingValue(s, get(s.key));
    if (v === undefined) {
      continue;
    }
    const path = s.key.split('.');
    let at = out;
    for (const part of path.slice(0, -1)) {
      at = (at[part] ??= {}) as Record<string, unknown>;
    }
    at[path[path.length - 1]] = v;
  }
  return out as ServerSettings;
}

/** settingValue is v when it is a set value of the setting's type, else undefined. */
export function settingValue(s: SettingInfo, v: unknown): unknown {
  switch (s.type) {
    case 'string':
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    case 'integer':
      return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
    case 'boolean':
      return typeof v === 'boolean' ? v : undefined;
    case 'object': {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) {
        return undefined;
      }
      const nums: Record<string, number> = {};
      for (const [k, n] of Object.entries(v as Record<string, unknown>)) {
        if (typeof n === 'number' && Number.isFinite(n)) {
          nums[k] = n;
        }
      }
      return Object.keys(nums).length > 0 ? nums : undefined;
    }
    case 'array': {
      if (!Array.isArray(v)) {
        return undefined;
      }
      const items = v.filter((g): g is string => typeof g === 'string' && g !== '');
      return items.length > 0 ? items : undefined;
    }
  }
  return undefined;
}
