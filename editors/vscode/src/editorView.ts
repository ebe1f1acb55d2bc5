// EditorView (sources.ts) implemented with the vscode API: definitions,
// references and symbols come from the other language servers through the
// vscode.execute*Provider commands.

import * as vscode from 'vscode';
import type { Position } from './protocol';
import type { ActiveEditor, EditorView, Location, SymbolRange } from './sources';
import { Scheme } from './documents';

// containerKinds are the symbol kinds sent whole when a reference is inside one.
const containerKinds = new Set<vscode.SymbolKind>([
  vscode.SymbolKind.Function,
  vscode.SymbolKind.Method,
  vscode.SymbolKind.Constructor,
  vscode.SymbolKind.Class,
  vscode.SymbolKind.Struct,
  vscode.SymbolKind.Interface,
  vscode.SymbolKind.Enum,
]);

/** VSCodeView is the EditorView of the running VS Code window. */
export class VSCodeView implements EditorView {
  activeEditor(): ActiveEditor | undefined {
    const ed = vscode.window.activeTextEditor;
    if (!ed || ed.document.uri.scheme === Scheme) {
      return undefined;
    }
    const sel = ed.selection;
    const wordRange = ed.document.getWordRangeAtPosition(sel.active);
    return {
      uri: ed.document.uri.toString(),
      cursor: { line: sel.active.line, character: sel.active.character },
      selection: sel.isEmpty ? undefined : toRange(sel),
      word: wordRange ? ed.document.getText(wordRange) : undefined,
    };
  }

  openDocuments(): string[] {
    const out: string[] = [];
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && isPackable(active)) {
      out.push(active.toString());
    }
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputText && isPackable(tab.input.uri)) {
          out.push(tab.input.uri.toString());
        }
      }
    }
    return out;
  }

  async definitions(uri: string, at: Position): Promise<Location[]> {
    const res = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>(
      'vscode.executeDefinitionProvider',
      vscode.Uri.parse(uri),
      new vscode.Position(at.line, at.character),
    );
    return (res ?? []).map(toLocation).filter(isFileLocation);
  }

  async references(uri: string, at: Position): Promise<Location[]> {
    const res = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      vscode.Uri.parse(uri),
      new vscode.Position(at.line, at.character),
    );
    return (res ?? []).map(toLocation).filter(isFileLocation);
  }

  async symbols(uri: string): Promise<SymbolRange[]> {
    const res = await vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>(
      'vscode.executeDocumentSymbolProvider',
      vscode.Uri.parse(uri),
    );
    return (res ?? []).map(toSymbol);
  }
}

function isPackable(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' || uri.scheme === 'untitled';
}

function isFileLocation(loc: Location): boolean {
  return loc.uri.startsWith('file:');
}

function toRange(r: vscode.Range): Location['range'] {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

function toLocation(l: vscode.Location | vscode.LocationLink): Location {
  if ('targetUri' in l) {
    // A LocationLink's targetRange is the whole definition: better than the name.
    return { uri: l.targetUri.toString(), range: toRange(l.targetRange) };
  }
  return { uri: l.uri.toString(), range: toRange(l.range) };
}

function toSymbol(s: vscode.DocumentSymbol | vscode.SymbolInformation): SymbolRange {
  if ('location' in s) {
    return { name: s.name, container: containerKinds.has(s.kind), range: toRange(s.location.range), children: [] };
  }
  return {
    name: s.name,
    container: containerKinds.has(s.kind),
    range: toRange(s.range),
    children: (s.children ?? []).map(toSymbol),
  };
}
