// Read-only documents under the acode: scheme that show packed contexts and
// reports: acode:/context.md, acode:/context-report.md, acode:/budget.md.

import * as vscode from 'vscode';

/** Scheme is the URI scheme of the extension's virtual documents. */
export const Scheme = 'acode';

/** Documents serves and refreshes the acode: virtual documents. */
export class Documents implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** set stores a document's text and returns its URI. */
  set(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: Scheme, path: `/${name}` });
    this.contents.set(uri.path, text);
    this.changed.fire(uri);
    return uri;
  }

  private version = 0;

  /**
   * setVersioned stores a document's text and returns a URI that no earlier
   * call returned (same path, a new query): a markdown preview opened on it
   * renders this text, never a copy VS Code kept of an earlier one.
   */
  setVersioned(name: string, text: string): vscode.Uri {
    const uri = this.set(name, text);
    return uri.with({ query: `v=${++this.version}` });
  }

  /** get returns a document's text, if set. */
  get(name: string): string | undefined {
    return this.contents.get(`/${name}`);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}
