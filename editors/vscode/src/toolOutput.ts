// Asking the user for a tool result to pack: the last terminal command's
// output, the clipboard, or the output of a command run now (e.g. the tests).

import * as cp from 'child_process';
import * as vscode from 'vscode';
import type { ToolResult } from './sources';

/** MaxToolOutputBytes caps captured output; the server's budget trims the rest. */
const MaxToolOutputBytes = 4 * 1024 * 1024;

interface Pick extends vscode.QuickPickItem {
  id: 'none' | 'terminal' | 'clipboard' | 'command';
}

/**
 * pickToolResult asks which tool output to include. It returns null when the
 * user cancels the whole pack, undefined when they chose none.
 */
export async function pickToolResult(lastCommand: string | undefined): Promise<ToolResult | undefined | null> {
  const items: Pick[] = [
    { id: 'none', label: '$(circle-slash) No tool output', description: 'pack files and references only' },
    {
      id: 'terminal',
      label: '$(terminal) Last terminal command output',
      description: 'needs terminal shell integration',
    },
    { id: 'clipboard', label: '$(clippy) Clipboard', description: 'e.g. a test failure you copied' },
    { id: 'command', label: '$(play) Run a command…', description: lastCommand ?? 'e.g. go test ./...' },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Acode: include a tool result?',
    placeHolder: 'Tool output is ranked with the rest (tool_results category); the report says where it went',
    ignoreFocusOut: true,
  });
  if (!pick) {
    return null;
  }
  switch (pick.id) {
    case 'none':
      return undefined;
    case 'terminal':
      return lastTerminalOutput();
    case 'clipboard': {
      const content = await vscode.env.clipboard.readText();
      if (content.trim() === '') {
        void vscode.window.showWarningMessage('Acode: the clipboard is empty; packing without tool output.');
        return undefined;
      }
      return { label: 'clipboard', content };
    }
    case 'command':
      return runCommand(lastCommand);
  }
}

// lastTerminalOutput copies the active terminal's last command output through
// the clipboard (the only route the stable API offers), then restores it.
async function lastTerminalOutput(): Promise<ToolResult | undefined> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) {
    void vscode.window.showWarningMessage('Acode: no terminal is open; packing without tool output.');
    return undefined;
  }
  const saved = await vscode.env.clipboard.readText();
  const marker = `acode-${Date.now()}-${Math.random()}`;
  await vscode.env.clipboard.writeText(marker);
  try {
    await vscode.commands.executeCommand('workbench.action.terminal.copyLastCommandOutput');
    const content = await vscode.env.clipboard.readText();
    if (content === marker || content.trim() === '') {
      void vscode.window.showWarningMessage(
        'Acode: the terminal has no command output to copy (is shell integration on?); packing without tool output.',
      );
      return undefined;
    }
    return { label: `terminal: ${terminal.name}`, content };
  } finally {
    await vscode.env.clipboard.writeText(saved);
  }
}

async function runCommand(lastCommand: string | undefined): Promise<ToolResult | undefined | null> {
  const command = await vscode.window.showInputBox({
    title: 'Acode: command whose output to pack',
    prompt: 'Runs in the first workspace folder; stdout and stderr are packed as a tool result.',
    value: lastCommand ?? 'go test ./...',
    ignoreFocusOut: true,
  });
  if (command === undefined) {
    return null;
  }
  if (command.trim() === '') {
    return undefined;
  }
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const content = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Acode: running ${command}`, cancellable: true },
    (_progress, token) => capture(command, cwd, token),
  );
  return { label: command, content };
}

// capture runs a shell command and returns its interleaved output and exit status.
function capture(command: string, cwd: string | undefined, token: vscode.CancellationToken): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const child = cp.spawn(command, { cwd, shell: true, env: process.env });
    const take = (b: Buffer): void => {
      if (size < MaxToolOutputBytes) {
        chunks.push(b);
        size += b.length;
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const cancel = token.onCancellationRequested(() => child.kill());
    child.on('error', (err) => {
      cancel.dispose();
      resolve(`$ ${command}\n${err.message}\n`);
    });
    child.on('close', (code, signal) => {
      cancel.dispose();
      const status = signal ? `killed by ${signal}` : `exit status ${code}`;
      resolve(`$ ${command}\n${Buffer.concat(chunks).toString('utf8')}\n(${status})\n`);
    });
  });
}
