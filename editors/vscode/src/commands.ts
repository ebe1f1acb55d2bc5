// The extension's commands: Pack Context…, Count Tokens in Selection, Show
// Budget Report, Copy Packed Context, Restart Language Server, Report Actual
// Token Usage…, and the what-if lens commands Pin Chunk / Show Chunk Report.

import * as vscode from 'vscode';
import { Documents } from './documents';
import { VSCodeView } from './editorView';
import { budgetPresets, packBudget, parseBudget, type BudgetChoice } from './budgetPresets';
import { parseActualTokens, ReportUsageTitle, usageRequest, usageResultText, type UsageSource } from './calibrate';
import { chunkName, isChunkArgs, Pinned, renderChunkReport } from './chunks';
import {
  Methods,
  type BudgetStatus,
  type ChunkArgs,
  type CountResult,
  type PackParams,
  type PackResult,
  type PackStats,
  type UsageResult,
} from './protocol';
import { packSummary, renderBudgetReport, renderPackReport, toolLine, toolPlacement } from './report';
import { errorText, type AcodeServer } from './server';
import { gatherSources, type ToolResult } from './sources';
import { formatNumber } from './status';
import { pickToolResult } from './toolOutput';

/** Commands holds the state the commands share (the last pack). */
export class Commands {
  private lastQuery = '';
  private lastCommand?: string;
  private lastPack?: { result: PackResult; query: string; toolLabel?: string };
  private lastBudget?: string;
  private readonly pinned = new Pinned();

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
      vscode.commands.registerCommand('acode.pinChunk', (a?: unknown) => this.pinChunk(a)),
      vscode.commands.registerCommand('acode.showChunkReport', (a?: unknown) => this.chunkReport(a)),
      vscode.commands.registerCommand('acode.reportUsage', (n?: number) => this.reportUsage(n)),
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
    let budget: number | undefined;
    if (interactive && vscode.workspace.getConfiguration('acode').get<boolean>('pack.askForBudget', true)) {
      const picked = await this.pickBudget();
      if (picked === null) {
        return undefined;
      }
      budget = picked;
    }
    const pinned = this.pinned.take();
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Acode: packing context…', cancellable: true },
        async (progress, token) => {
          progress.report({ message: 'asking language servers for definitions and references' });
          const timeoutMs = vscode.workspace.getConfiguration('acode').get<number>('pack.sourceTimeoutMs', 5000);
          const sources = await gatherSources(new VSCodeView(), { toolResult, timeoutMs }, (what, err) =>
            this.output.appendLine(`Pack: ${what} failed: ${errorText(err)}`),
          );
          sources.push(...pinned);
          progress.report({ message: `ranking ${sources.length} sources` });
          const params: PackParams = { query, includeOpenFiles: false, sources };
          if (budget !== undefined) {
            params.budget = packBudget(budget);
          }
          return this.server.request<PackResult>(Methods.packContext, params, token);
        },
      );
      await this.show(result, query, toolResult?.label);
      return result;
    } catch (err) {
      void vscode.window.showErrorMessage(`Acode: packing failed: ${errorText(err)}`);
      return undefined;
    }
  }

  /**
   * pickBudget asks for this pack's budget: the configured window, smaller
   * presets, or a custom size. It returns the room the context may take
   * (undefined: the configured window), or null when the user cancels the pack.
   */
  private async pickBudget(): Promise<number | undefined | null> {
    let status: BudgetStatus;
    try {
      status = await this.server.request<BudgetStatus>(Methods.budgetStatus, {});
    } catch {
      return undefined; // the pack itself will say what is wrong
    }
    type Item = vscode.QuickPickItem & { choice: BudgetChoice };
    const items: Item[] = budgetPresets(status).map((choice) => ({
      label: choice.label,
      description: choice.description,
      choice,
    }));
    const last = items.findIndex((i) => i.label === this.lastBudget);
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = 'Acode: budget for this context';
    qp.placeholder = 'Tokens the packed context may use (a narrow question needs less than the whole window)';
    qp.items = items;
    qp.ignoreFocusOut = true;
    if (last >= 0) {
      qp.activeItems = [items[last]];
    }
    const pick = await new Promise<Item | undefined>((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0] ?? qp.activeItems[0]));
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
    qp.dispose();
    if (!pick) {
      return null;
    }
    if (!pick.choice.custom) {
      this.lastBudget = pick.label;
      return pick.choice.room;
    }
    const text = await vscode.window.showInputBox({
      title: 'Acode: budget for this context',
      prompt: 'Tokens the packed context may take (its whole budget: no reserves are taken from it).',
      placeHolder: 'e.g. 12000 or 12k',
      ignoreFocusOut: true,
      validateInput: (v) => parseBudget(v).error,
    });
    const n = text === undefined ? undefined : parseBudget(text).tokens;
    if (n === undefined) {
      return null;
    }
    return n;
  }

  private async show(result: PackResult, query: string, toolLabel?: string): Promise<void> {
    this.lastPack = { result, query, toolLabel };
    const contextUri = this.docs.set('context.md', result.content);
    const reportUri = this.docs.setVersioned('context-report.md', renderPackReport(result, query, toolLabel));
    const contextDoc = await vscode.workspace.openTextDocument(contextUri);
    await vscode.languages.setTextDocumentLanguage(contextDoc, 'markdown');
    await vscode.window.showTextDocument(contextDoc, { viewColumn: vscode.ViewColumn.One, preview: false });
    await this.preview(reportUri, true);
    if (toolLabel !== undefined) {
      const where = toolPlacement(result, toolLabel);
      if (!where.included) {
        void vscode.window.showWarningMessage(`Acode: ${toolLine(where).replace(/\*\*/g, '')}`);
      }
    }
    void vscode.window.showInformationMessage(packSummary(result), 'Copy to Clipboard').then((pick) => {
      if (pick === 'Copy to Clipboard') {
        void this.copy();
      }
    });
  }

  /**
   * preview shows an acode: markdown document rendered (VS Code's markdown
   * preview), beside the active editor or in it.
   */
  private async preview(uri: vscode.Uri, beside: boolean): Promise<void> {
    // One preview per report: the previous one (an older version) goes.
    const label = `Preview ${uri.path.replace(/^.*\//, '')}`;
    const old = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputWebview && t.label === label);
    if (old.length > 0) {
      await vscode.window.tabGroups.close(old, true);
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    try {
      await vscode.commands.executeCommand(beside ? 'markdown.showPreviewToSide' : 'markdown.showPreview', uri);
    } catch {
      // No markdown preview (the built-in extension disabled): the source.
      await vscode.window.showTextDocument(doc, {
        viewColumn: beside ? vscode.ViewColumn.Beside : undefined,
        preserveFocus: beside,
        preview: false,
      });
    }
  }

  /** pinChunk (a what-if lens click) keeps a chunk for the next pack. */
  async pinChunk(arg: unknown): Promise<void> {
    if (!isChunkArgs(arg)) {
      void vscode.window.showWarningMessage('Acode: Pin Chunk is run from a code lens of acode-lsp.');
      return;
    }
    const name = chunkName(arg, vscode.workspace.asRelativePath(vscode.Uri.parse(arg.uri)));
    const isNew = this.pinned.pin(arg);
    const pick = await vscode.window.showInformationMessage(
      isNew
        ? `Acode: pinned ${name} — the next pack sends it as a reference (${this.pinned.size} pinned).`
        : `Acode: ${name} is already pinned for the next pack.`,
      'Pack Now',
      'Show Chunk Report',
    );
    if (pick === 'Pack Now') {
      await vscode.commands.executeCommand('acode.packContext');
    } else if (pick === 'Show Chunk Report') {
      await this.chunkReport(arg);
    }
  }

  /** chunkReport (a what-if lens click) shows what a pack does with a chunk. */
  async chunkReport(arg: unknown): Promise<void> {
    if (!isChunkArgs(arg)) {
      void vscode.window.showWarningMessage('Acode: Show Chunk Report is run from a code lens of acode-lsp.');
      return;
    }
    const rel = vscode.workspace.asRelativePath(vscode.Uri.parse(arg.uri));
    const uri = this.docs.setVersioned('chunk-report.md', renderChunkReport(arg as ChunkArgs, rel, this.lastPack));
    await this.preview(uri, true);
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

  /**
   * reportUsage (Report Actual Token Usage…) asks for the input token count
   * the provider's response showed and sends acode/reportUsage for the last
   * packed context (or, before any pack, the selection or the document), so
   * that the server calibrates its estimate for the model. A number passed
   * as argument skips the question.
   */
  async reportUsage(actualArg?: number): Promise<UsageResult | undefined> {
    const src: UsageSource = {};
    if (this.lastPack) {
      src.lastPack = { content: this.lastPack.result.content, model: this.lastPack.result.model };
    } else {
      const ed = vscode.window.activeTextEditor;
      if (!ed) {
        void vscode.window.showWarningMessage(
          'Acode: nothing to report usage for. Pack a context (or open the file you sent) first.',
        );
        return undefined;
      }
      src.selection = ed.selection.isEmpty ? '' : ed.document.getText(ed.selection);
      src.document = ed.document.getText();
    }
    if (!src.lastPack?.model) {
      try {
        src.model = (await this.server.request<BudgetStatus>(Methods.budgetStatus, {})).model;
      } catch (err) {
        void vscode.window.showErrorMessage(`Acode: cannot read the model: ${errorText(err)}`);
        return undefined;
      }
    }
    const preview = usageRequest(src, 1);
    if (!preview) {
      void vscode.window.showWarningMessage('Acode: the text to report usage for is empty.');
      return undefined;
    }
    let actual = typeof actualArg === 'number' ? parseActualTokens(String(actualArg)).tokens : undefined;
    if (actual === undefined) {
      const input = await vscode.window.showInputBox({
        title: ReportUsageTitle.replace(/…$/, ''),
        prompt: `Input tokens the provider counted for ${preview.what} (model ${preview.params.model}).`,
        placeHolder: 'e.g. 12345 (the usage your provider\'s response showed)',
        ignoreFocusOut: true,
        validateInput: (v) => parseActualTokens(v).error,
      });
      actual = input === undefined ? undefined : parseActualTokens(input).tokens;
    }
    if (actual === undefined) {
      return undefined;
    }
    const req = usageRequest(src, actual);
    if (!req) {
      return undefined;
    }
    try {
      const r = await this.server.request<UsageResult>(Methods.reportUsage, req.params);
      void vscode.window.showInformationMessage(usageResultText(r, actual));
      return r;
    } catch (err) {
      void vscode.window.showErrorMessage(`Acode: reporting usage failed: ${errorText(err)}`);
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
    const uri = this.docs.setVersioned('budget.md', renderBudgetReport(status, this.lastPack, stats));
    await this.preview(uri, false);
  }
}
