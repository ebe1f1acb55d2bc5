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
