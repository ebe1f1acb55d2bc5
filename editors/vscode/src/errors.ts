// The text of an error for a message: a failed acode-lsp request carries an
// ACODE-* code in its data (docs/configuration.md#error-codes), shown with
// its meaning from the generated table.

import { errorCodes } from './surface';

/** errorText is err's message, with "(ACODE-…: meaning)" when it carries a code. */
export function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const data = (err as { data?: unknown } | null | undefined)?.data;
  const code = data !== null && typeof data === 'object' ? (data as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || message.includes(code)) {
    return message;
  }
  const meaning = errorCodes[code];
  return meaning ? `${message} (${code}: ${meaning})` : `${message} (${code})`;
}
