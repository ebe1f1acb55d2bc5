// The extension's commands: Pack Context…, Count Tokens in Selection, Show
// Budget Report, Copy Packed Context, Restart Language Server.

import * as vscode from 'vscode';
import { Documents } from './documents';
import { VSCodeView } from './editorView';
import { Methods, type BudgetStatus, type CountResult, type PackParams, type PackResult, type PackStats } from './protocol';
import { packSummary, renderBudgetReport, renderPackReport } from './report';
import { errorText, type AcodeServer } from './server';
import { gatherSources, type ToolResult } from './sources';
import { formatNumber } from './status';
import { pickToolResult } from './toolOutput';

/** Commands holds the state the commands share (the last pack). */
export class Commands {
  private lastQuery = '';
  private lastCommand?: string;
  private lastPack?: { result: PackResult; query: string };

  constructor(
    private readonly server: AcodeServer,
    private readonly docs: Documents,
    private readonly output: vscode.OutputChannel,
  ) {}

  /** register registers every command. */
  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('acode.packContext', (query?: string) => this.pack(query)),
      vscode.commands.registerCommand('acode.countTokens', () => this.count()),
      vscode.commands.registerCommand('acode.showBudgetReport', () => this.budgetReport()),
      vscode.commands.registerCommand('acode.copyContext', () => this.copy()),
      vscode.commands.registerCommand('acode.restartServer', () => this.server.restart()),
    ];
  }

  /**
   * pack asks for the task, gathers the sources, sends acode/packContext and
   * opens the context with its report beside it. A query passed as argument
   * (from another extension or a keybinding) skips the questions.
   */
  async pack(queryArg?: string): Promise<PackResult | undefined> {
    const interactive = typeof queryArg !== 'string';
    const query = interactive
      ? await vscode.window.showInputBox({
          title: 'Acode: Pack Context',
          prompt: 'Describe the task: it ranks what goes into the context.',
          placeHolder: 'e.g. why does checkout fail for empty carts',
          value: this.lastQuery,
          ignoreFocusOut: true,
        })
      : queryArg;
    if (query === undefined) {
      return undefined;
    }
    this.lastQuery = query;
    let toolResult: ToolResult | undefined;
    if (interactive && vscode.workspace.getConfiguration('acode').get<boolean>('pack.askForToolOutput', true)) {
      const picked = await pickToolResult(this.lastCommand);
      if (picked === null) {
        return undefined;
      }
      toolResult = picked;
      if (toolResult && toolResult.label !== 'clipboard' && !toolResult.label.startsWith('terminal:')) {
        this.lastCommand = toolResult.label;
      }
    }
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Acode: packing context…', cancellable: true },
        async (progress, token) => {
          progress.report({ message: 'asking language servers for definitions and references' });
          const sources = await gatherSources(new VSCodeView(), { toolResult }, (what, err) =>
            this.output.appendLine(`Pack: ${what} failed: ${errorText(err)}`),
          );
          progress.report({ message: `ranking ${sources.length} sources` });
          const params: PackParams = { query, includeOpenFiles: false, sources };
          return this.server.request<PackResult>(Methods.packContext, params, token);
        },
      );
      await this.show(result, query);
      return result;
    } catch (err) {
      void vscode.window.showErrorMessage(`Acode: packing failed: ${errorText(err)}`);
      return undefined;
    }
  }

  private async show(result: PackResult, query: string): Promise<void> {
    this.lastPack = { result, query };
    const contextUri = this.docs.set('context.md', result.content);
    const reportUri = this.docs.set('context-report.md', renderPackReport(result, query));
    const contextDoc = await vscode.workspace.openTextDocument(contextUri);
    await vscode.languages.setTextDocumentLanguage(contextDoc, 'markdown');
    await vscode.window.showTextDocument(contextDoc, { viewColumn: vscode.ViewColumn.One, preview: false });
    const reportDoc = await vscode.workspace.openTextDocument(reportUri);
    await vscode.languages.setTextDocumentLanguage(reportDoc, 'markdown');
    await vscode.window.showTextDocument(reportDoc, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: false,
    });
    void vscode.window.showInformationMessage(packSummary(result), 'Copy to Clipboard').then((pick) => {
      if (pick === 'Copy to Clipboard') {
        void this.copy();
      }
    });
  }

  /** copy puts the last packed context on the clipboard. */
  async copy(): Promise<void> {
    if (!this.lastPack) {
      void vscode.window.showWarningMessage('Acode: nothing packed yet. Run "Acode: Pack Context…" first.');
      return;
    }
    await vscode.env.clipboard.writeText(this.lastPack.result.content);
    void vscode.window.showInformationMessage(
      `Acode: copied ${formatNumber(this.lastPack.result.tokenCount)} tokens of context to the clipboard.`,
    );
  }

  /** count counts the tokens of the selection, or of the whole document without one. */
  async count(): Promise<CountResult | undefined> {
    const ed = vscode.window.activeTextEditor;
    if (!ed) {
      void vscode.window.showWarningMessage('Acode: open a file to count its tokens.');
      return undefined;
    }
    const text = ed.selection.isEmpty ? ed.document.getText() : ed.document.getText(ed.selection);
    const what = ed.selection.isEmpty ? 'Document' : 'Selection';
    try {
      const r = await this.server.request<CountResult>(Methods.countTokens, { text });
      void vscode.window.showInformationMessage(
        `Acode: ${what}: ${r.exact ? '' : '≈'}${formatNumber(r.tokens)} tokens (${r.encoding}, ${r.exact ? 'exact' : 'estimated'}).`,
      );
      return r;
    } catch (err) {
      void vscode.window.showErrorMessage(`Acode: counting tokens failed: ${errorText(err)}`);
      return undefined;
    }
  }

  /** budgetReport opens the budget report (budget status and the last pack). */
  async budgetReport(): Promise<void> {
    let status: BudgetStatus;
    try {
      status = await this.server.request<BudgetStatus>(Methods.budgetStatus, {});
    } catch (err) {
      void vscode.window.showErrorMessage(`Acode: cannot read the budget: ${errorText(err)}`);
      return;
    }
    // A server without acode/packStats (older) leaves the section out.
    const stats = await this.server.request<PackStats>(Methods.packStats, {}).catch(() => undefined);
    const uri = this.docs.set('budget.md', renderBudgetReport(status, this.lastPack, stats));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: false });
  }
}
