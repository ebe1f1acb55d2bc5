// Where the acode-lsp binary is looked for when acode.serverPath is empty.

import * as path from 'path';
import { installHint } from './surface';

/** BinaryName is the server's executable name on this platform. */
export function binaryName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'acode-lsp.exe' : 'acode-lsp';
}

/**
 * serverCandidates lists, in order, the paths tried for the server: every
 * PATH entry, then where `go install` and `make install` put binaries
 * ($GOBIN, $GOPATH/bin, ~/go/bin), then ~/.local/bin and /usr/local/bin.
 */
export function serverCandidates(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string[] {
  const name = binaryName(platform);
  const sep = platform === 'win32' ? ';' : ':';
  const dirs: string[] = [];
  for (const dir of (env.PATH ?? env.Path ?? '').split(sep)) {
    if (dir !== '') {
      dirs.push(dir);
    }
  }
  if (env.GOBIN) {
    dirs.push(env.GOBIN);
  }
  for (const gopath of (env.GOPATH ?? '').split(sep)) {
    if (gopath !== '') {
      dirs.push(path.join(gopath, 'bin'));
    }
  }
  if (home !== '') {
    dirs.push(path.join(home, 'go', 'bin'), path.join(home, '.local', 'bin'));
  }
  if (platform !== 'win32') {
    dirs.push('/usr/local/bin');
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of dirs) {
    const p = path.join(dir, name);
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  }
  return out;
}

/** IsExecutable tells whether a path is an executable file. */
export type IsExecutable = (p: string) => boolean;

/**
 * resolveServerPath returns the configured path when set (with a leading ~
 * expanded), else the first candidate that is executable, else undefined.
 */
export function resolveServerPath(
  configured: string,
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform,
  isExecutable: IsExecutable,
): string | undefined {
  const setting = configured.trim();
  if (setting !== '') {
    if (setting === '~' || setting.startsWith('~/')) {
      return path.join(home, setting.slice(1));
    }
    return setting;
  }
  return serverCandidates(env, home, platform).find(isExecutable);
}

/** missingServerMessage explains how to get the server when none is found. */
export function missingServerMessage(configured: string): string {
  if (configured.trim() !== '') {
    return `Acode: the language server "${configured}" (setting acode.serverPath) cannot be run. Fix the path, or clear the setting to use acode-lsp from PATH.`;
  }
  return `Acode: acode-lsp was not found on PATH, in $GOBIN, $GOPATH/bin, ~/go/bin, ~/.local/bin or /usr/local/bin. To install it, ${installHint}; or set acode.serverPath.`;
}
