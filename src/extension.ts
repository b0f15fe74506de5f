// Extension entry point: registers providers, commands and views. No logic lives here.
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // The trace editor, commands and views are registered here as they land (issues 4–7).
}

export function deactivate(): void {}
