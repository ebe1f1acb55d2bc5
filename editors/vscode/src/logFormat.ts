// The "Acode" output channel for people: acode-lsp logs JSON lines on
// stderr (zap); unless tracing is on they are shown as
// "12:34:56 info  packed — tokens 638, included 6". Pure functions plus a
// thin OutputChannel wrapper.

import type * as vscode from 'vscode';

const skipKeys = new Set(['level', 'ts', 'msg', 'logger', 'caller', 'stacktrace']);

/**
 * humanLogLine turns one zap JSON log line into a readable one. A line that
 * is not a JSON object comes back as it is.
 */
export function humanLogLine(line: string): string {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) {
    return line;
  }
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(trimmed) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof rec !== 'object' || rec === null || typeof rec.msg !== 'string') {
    return line;
  }
  const time = typeof rec.ts === 'number' ? clock(rec.ts) : typeof rec.ts === 'string' ? isoClock(rec.ts) : '';
  const level = typeof rec.level === 'string' ? rec.level : 'info';
  const fields = Object.entries(rec)
    .filter(([k]) => !skipKeys.has(k))
    .map(([k, v]) => `${k} ${fieldText(v)}`);
  const head = [time, level.padEnd(5), rec.msg].filter((s) => s !== '').join(' ');
  return fields.length > 0 ? `${head} — ${fields.join(', ')}` : head;
}

/** clock is the local time of day of a Unix time in seconds: 12:34:56. */
function clock(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** isoClock is the time of day of an ISO 8601 time as the server wrote it: 2026-11-23T12:34:56.789Z → 12:34:56. */
function isoClock(ts: string): string {
  return /T(\d\d:\d\d:\d\d)/.exec(ts)?.[1] ?? ts;
}

function fieldText(v: unknown): string {
  if (typeof v === 'string') {
    return v;
  }
  if (Array.isArray(v)) {
    return v.map(fieldText).join(' ');
  }
  return JSON.stringify(v);
}

/**
 * humanText applies humanLogLine to every complete line of a chunk of
 * output; the language client writes the server's stderr in chunks.
 */
export function humanText(text: string): string {
  return text
    .split('\n')
    .map((l) => humanLogLine(l))
    .join('\n');
}

/**
 * HumanOutputChannel wraps an output channel: what the language client
 * writes (the server's stderr) is made readable unless raw() says to keep
 * it as it is (acode.trace.server is on).
 */
export class HumanOutputChannel implements vscode.OutputChannel {
  constructor(
    private readonly inner: vscode.OutputChannel,
    private readonly raw: () => boolean,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  append(value: string): void {
    this.inner.append(this.raw() ? value : humanText(value));
  }

  appendLine(value: string): void {
    this.inner.appendLine(this.raw() ? value : humanText(value));
  }

  replace(value: string): void {
    this.inner.replace(this.raw() ? value : humanText(value));
  }

  clear(): void {
    this.inner.clear();
  }

  show(columnOrPreserve?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserve === 'boolean' || columnOrPreserve === undefined) {
      this.inner.show(columnOrPreserve);
    } else {
      this.inner.show(columnOrPreserve, preserveFocus);
    }
  }

  hide(): void {
    this.inner.hide();
  }

  dispose(): void {
    this.inner.dispose();
  }
}
