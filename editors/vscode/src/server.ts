// Lifecycle of the acode-lsp language client: finding the binary, starting,
// restarting within a crash budget, stopping within a timeout, and passing
// settings and acode/budget notifications along.

import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { Methods, type BudgetStatus } from './protocol';
import { CrashBudget } from './crashBudget';
import { errorText } from './errors';
import { missingServerMessage, resolveServerPath } from './serverPath';
import { serverSettings, type ServerSettings } from './settings';

/** StopTimeoutMs is how long the server gets to answer shutdown before it is killed. */
export const StopTimeoutMs = 3000;

/** MaxCrashes crashes within CrashWindowMs are restarted; one more and the server stays stopped. */
export const MaxCrashes = 5;
/** CrashWindowMs is the window of the crash budget. */
export const CrashWindowMs = 3 * 60 * 1000;

/** currentSettings reads the acode.* settings into the server's shape. */
export function currentSettings(): ServerSettings {
  const cfg = vscode.workspace.getConfiguration('acode');
  return serverSettings((key) => cfg.get(key));
}

/** AcodeServer owns the language client of acode-lsp. */
export class AcodeServer implements vscode.Disposable {
  private client?: LanguageClient;
  private readonly crashes = new CrashBudget(MaxCrashes, CrashWindowMs);
  private readonly budget = new vscode.EventEmitter<BudgetStatus>();
  private readonly failure = new vscode.EventEmitter<string>();
  private readonly starting = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** onBudget fires on every acode/budget notification and budgetStatus answer. */
  readonly onBudget = this.budget.event;
  /** onFailure fires with a reason when the server cannot run. */
  readonly onFailure = this.failure.event;
  /** onStarting fires when the server is being (re)started. */
  readonly onStarting = this.starting.event;

  constructor(
    private readonly output: vscode.OutputChannel,
    private readonly traceOutput: vscode.OutputChannel,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('acode.serverPath')) {
          void this.restart();
        } else if (
          ['acode.model', 'acode.encoding', 'acode.budget', 'acode.exclude'].some((k) => e.affectsConfiguration(k))
        ) {
          void this.client?.sendNotification(DidChangeConfigurationNotification.type, {
            settings: { acode: currentSettings() },
          });
        }
      }),
    );
  }

  /** running tells whether the client is up. */
  get running(): boolean {
    return this.client?.isRunning() ?? false;
  }

  /** start finds the binary and starts the client; failures are reported, not thrown. */
  async start(): Promise<void> {
    this.starting.fire();
    const configured = vscode.workspace.getConfiguration('acode').get<string>('serverPath') ?? '';
    const command = resolveServerPath(configured, process.env, os.homedir(), process.platform, isExecutable);
    if (!command || !isExecutable(command)) {
      const msg = missingServerMessage(configured);
      this.output.appendLine(msg);
      this.failure.fire('acode-lsp not found');
      void vscode.window.showErrorMessage(msg, 'Open Settings', 'Show Output').then((pick) => {
        if (pick === 'Open Settings') {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'acode.serverPath');
        } else if (pick === 'Show Output') {
          this.output.show();
        }
      });
      return;
    }
    this.output.appendLine(`Starting ${command}`);
    const serverOptions: ServerOptions = { command, args: [], options: { env: process.env } };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
      initializationOptions: currentSettings(),
      outputChannel: this.output,
      traceOutputChannel: this.traceOutput,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      errorHandler: this.errorHandler(),
      middleware: {
        workspace: {
          // Answer the server's pull for "acode" with the same settings as the push.
          configuration: async (params, token, next) => {
            const rest = await next(params, token);
            if (!Array.isArray(rest)) {
              return rest;
            }
            return params.items.map((item, i) => (item.section === 'acode' ? currentSettings() : rest[i]));
          },
        },
      },
    };
    const client = new LanguageClient('acode', 'Acode', serverOptions, clientOptions);
    client.onNotification(Methods.budget, (s: BudgetStatus) => this.budget.fire(s));
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      this.failure.fire(`acode-lsp failed to start: ${errorText(err)}`);
      void vscode.window.showErrorMessage(`Acode: acode-lsp (${command}) failed to start: ${errorText(err)}`);
      return;
    }
    try {
      this.budget.fire(await client.sendRequest<BudgetStatus>(Methods.budgetStatus, {}));
    } catch (err) {
      this.output.appendLine(`acode/budgetStatus failed: ${errorText(err)}`);
    }
  }

  /** stop stops the client, killing the server if it does not exit within StopTimeoutMs. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client?.needsStop()) {
      try {
        await client.stop(StopTimeoutMs);
      } catch (err) {
        this.output.appendLine(`Stopping acode-lsp: ${errorText(err)}`);
      }
    }
  }

  /** restart stops and starts the server, resetting the crash budget. */
  async restart(): Promise<void> {
    this.crashes.reset();
    await this.stop();
    await this.start();
  }

  /** request sends an acode/* request; it fails with a readable error when the server is down. */
  async request<R>(method: string, params: unknown, token?: vscode.CancellationToken): Promise<R> {
    if (!this.client || !this.client.isRunning()) {
      throw new Error('acode-lsp is not running (see the "Acode" output, or run "Acode: Restart Language Server")');
    }
    return token ? this.client.sendRequest<R>(method, params, token) : this.client.sendRequest<R>(method, params);
  }

  private errorHandler(): ErrorHandler {
    return {
      error: (): ErrorHandlerResult => ({ action: ErrorAction.Continue }),
      closed: (): CloseHandlerResult => {
        if (!this.crashes.crashed(Date.now())) {
          this.failure.fire('acode-lsp keeps crashing');
          return {
            action: CloseAction.DoNotRestart,
            message: `Acode: acode-lsp crashed ${this.crashes.count} times in 3 minutes and will not be restarted. See the "Acode" output, then run "Acode: Restart Language Server".`,
          };
        }
        this.output.appendLine(`acode-lsp stopped unexpectedly; restarting (${this.crashes.count}/${MaxCrashes}).`);
        return { action: CloseAction.Restart, handled: true };
      },
    };
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
    this.budget.dispose();
    this.failure.dispose();
    this.starting.dispose();
  }
}

function isExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) {
      return false;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export { errorText };
