// Acode for VS Code: starts acode-lsp (the token budget language server),
// shows its budget in the status bar and its token-cost code lenses, and
// packs context for an LLM prompt. Start reading at activate.

import * as vscode from 'vscode';
import { Commands } from './commands';
import { Documents, Scheme } from './documents';
import { HumanOutputChannel } from './logFormat';
import { AcodeServer } from './server';
import { BudgetStatusBar } from './statusBar';

let server: AcodeServer | undefined;

/** activate starts the server and registers the status bar, documents and commands. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // The server's JSON log lines, readable unless the LSP traffic is traced.
  const output = new HumanOutputChannel(
    vscode.window.createOutputChannel('Acode'),
    () => vscode.workspace.getConfiguration('acode').get<string>('trace.server', 'off') !== 'off',
  );
  const traceOutput = vscode.window.createOutputChannel('Acode Trace');
  const statusBar = new BudgetStatusBar();
  const docs = new Documents();
  server = new AcodeServer(output, traceOutput);
  const commands = new Commands(server, docs, output);
  context.subscriptions.push(
    output,
    traceOutput,
    statusBar,
    docs,
    server,
    vscode.workspace.registerTextDocumentContentProvider(Scheme, docs),
    server.onBudget((s) => statusBar.update(s)),
    server.onFailure((reason) => statusBar.failed(reason)),
    server.onStarting(() => statusBar.starting()),
    ...commands.register(),
  );
  await server.start();
}

/** deactivate stops the server within its stop timeout. */
export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
