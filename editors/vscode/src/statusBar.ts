// The status bar item: `$(symbol-numeric) 12.3K / 90K` from acode/budget,
// coloured at warning/critical; a click opens the budget report.

import * as vscode from 'vscode';
import type { BudgetStatus } from './protocol';
import { statusBackground, statusText, statusTooltip } from './status';

/** BudgetStatusBar shows the server's budget in the status bar. */
export class BudgetStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  last?: BudgetStatus;

  constructor() {
    this.item = vscode.window.createStatusBarItem('acode.budget', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Acode Budget';
    this.item.command = 'acode.showBudgetReport';
    this.starting();
    this.item.show();
  }

  /** starting shows that the server is starting. */
  starting(): void {
    this.item.text = '$(sync~spin) acode';
    this.item.tooltip = 'Acode: starting acode-lsp…';
    this.item.backgroundColor = undefined;
  }

  /** update shows a budget status. */
  update(s: BudgetStatus): void {
    this.last = s;
    this.item.text = statusText(s);
    const tip = new vscode.MarkdownString(statusTooltip(s));
    tip.isTrusted = false;
    this.item.tooltip = tip;
    const bg = statusBackground(s.level);
    this.item.backgroundColor = bg ? new vscode.ThemeColor(bg) : undefined;
  }

  /** failed shows that the server is not running, and why. */
  failed(reason: string): void {
    this.item.text = '$(warning) acode';
    this.item.tooltip = `Acode: ${reason}`;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
  }

  dispose(): void {
    this.item.dispose();
  }
}
