/**
 * The timeline webview's HTML: a strict CSP (`default-src 'none'`; the one script by nonce, and for
 * the timeline WebAssembly compiled from its bytes; styles and fonts only from the webview's own
 * resource origin), resources limited to the extension's
 * dist/ and media/ folders, no inline handlers, no remote content.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { EditorSettings } from './config';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export interface PageOptions {
  /** Bundle in dist/ (e.g. `webview.js`) and its stylesheet. */
  readonly script: string;
  readonly style: string;
  readonly title: string;
  /** `data-state` of <body> before the script runs (tests wait on it). */
  readonly bodyState?: string;
  /** More `data-*` attributes of <body> (settings the script reads at start). */
  readonly bodyData?: Readonly<Record<string, string>>;
  /** Allow images from the webview's own origin and data: URLs (charts). */
  readonly images?: boolean;
  /**
   * Allow compiling WebAssembly ('wasm-unsafe-eval': modules only, no JS eval): the timeline
   * composes event heads in a kernel it carries in its own script (headsKernel.ts).
   */
  readonly wasm?: boolean;
  /**
   * Data the script reads at start (a JSON data block, `<script type="application/json" id="boot">`;
   * not executed, so the CSP has nothing to allow), instead of waiting a message round for it.
   */
  readonly boot?: unknown;
}

/** The one HTML shell of our webviews: strict CSP, one script by nonce, styles from the extension. */
export function webviewPageHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: PageOptions): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', page.script));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', page.style));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${page.wasm === true ? " 'wasm-unsafe-eval'" : ''}`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    ...(page.images ? [`img-src ${webview.cspSource} data:`] : []),
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escapeHtml(page.title)}</title>
</head>
<body${page.bodyState !== undefined ? ` data-state="${escapeHtml(page.bodyState)}"` : ''}${Object.entries(page.bodyData ?? {})
    .map(([k, v]) => ` data-${k.replace(/[^a-z0-9-]/g, '')}="${escapeHtml(v)}"`)
    .join('')}>
<div id="root"></div>${page.boot !== undefined ? `\n<script type="application/json" id="boot">${jsonInHtml(page.boot)}</script>` : ''}
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** The timeline's page; `renderer` (the setting) is read by the webview at start (`data-renderer`). */
export function timelineHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  title: string,
  boot?: unknown,
  renderer: EditorSettings['renderer'] = 'auto',
): string {
  return webviewPageHtml(webview, extensionUri, {
    script: 'webview.js',
    style: 'webview.css',
    title,
    bodyState: 'loading',
    bodyData: { renderer },
    wasm: true,
    ...(boot !== undefined ? { boot } : {}),
  });
}

/** JSON that cannot end its <script> element (every `<` escaped; JSON.parse reads it back as is). */
export function jsonInHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
