/**
 * `vscode://mpe-trace.mpe-trace-viewer/open?...` deep links: decodes the view with the strict
 * pure decoder, resolves the trace inside the workspace (or asks before opening an absolute path
 * from a link) and hands the result to the editor's `openAt`.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { realPathInside } from '../io/pathContainment';
import { decodeViewQuery, encodeViewLink, VIEW_LINK_PATH, type ViewLink } from '../core/viewLink';

export type OpenViewAt = (trace: vscode.Uri, view: ViewLink) => Promise<void>;

export function registerViewLinkHandler(context: vscode.ExtensionContext, openAt: OpenViewAt): vscode.Disposable {
  const handler: vscode.UriHandler = {
    handleUri: async (uri) => {
      try {
        await handleViewLink(uri, openAt);
      } catch (e) {
        void vscode.window.showErrorMessage(`MPE Trace: could not open the link: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
  };
  const registration = vscode.window.registerUriHandler(handler);
  context.subscriptions.push(registration);
  return registration;
}

async function handleViewLink(uri: vscode.Uri, openAt: OpenViewAt): Promise<void> {
  if (uri.path !== VIEW_LINK_PATH) throw new Error(`unknown link path "${uri.path.slice(0, 80)}" (expected ${VIEW_LINK_PATH})`);
  const decoded = decodeViewQuery(uri.query);
  if (!decoded.ok) throw new Error(decoded.error);
  const view = decoded.view;
  const trace = await locateTrace(view);
  if (trace === undefined) return; // the user declined or the file was not found (already told)
  await openAt(trace, view);
}

/** The trace a link names: inside a workspace folder, or an absolute path after the user agrees. */
export async function locateTrace(view: ViewLink): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!view.absolute) {
    const candidates = folders.filter((f) => view.folder === undefined || f.name === view.folder);
    for (const f of candidates) {
      const uri = vscode.Uri.joinPath(f.uri, ...view.trace.split(/[\\/]/).filter((s) => s !== '' && s !== '.'));
      // `..` segments or a symlink must not lead out of the folder: compare real paths.
      if (!(await insideFolder(uri, f.uri))) continue;
      if (await exists(uri)) return uri;
    }
    const where = view.folder !== undefined ? `workspace folder "${view.folder}"` : 'the open workspace folders';
    void vscode.window.showErrorMessage(`MPE Trace: the link names ${view.trace}, which is not in ${where}.`);
    return undefined;
  }
  // Normalised (no `..`) and resolved through links before the "inside the workspace" test.
  const uri = vscode.Uri.file(path.resolve(view.trace));
  const where = await realPathInside(
    uri.fsPath,
    folders.filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
  );
  if (!where.inside) {
    const open = 'Open';
    const answer = await vscode.window.showWarningMessage(
      `A link asks to open the trace ${view.trace}${where.real !== view.trace ? ` (${where.real})` : ''}, outside the workspace. Open it?`,
      { modal: true },
      open,
    );
    if (answer !== open) return undefined;
  }
  if (!(await exists(uri))) {
    void vscode.window.showErrorMessage(`MPE Trace: the linked trace ${view.trace} does not exist.`);
    return undefined;
  }
  return uri;
}

/** The link for a view of `trace`: workspace-relative when the trace is in a workspace folder. */
export function viewLinkFor(trace: vscode.Uri, view: Omit<ViewLink, 'trace' | 'absolute' | 'folder'>): string {
  const folder = vscode.workspace.getWorkspaceFolder(trace);
  const base =
    folder !== undefined
      ? { trace: vscode.workspace.asRelativePath(trace, false), absolute: false, folder: folder.name }
      : { trace: trace.fsPath, absolute: true };
  return encodeViewLink({ ...view, ...base }, vscode.env.uriScheme);
}

/** `uri` lies in `folder`: by real paths for local files, by normalised path text otherwise. */
async function insideFolder(uri: vscode.Uri, folder: vscode.Uri): Promise<boolean> {
  if (uri.scheme !== folder.scheme) return false;
  if (uri.scheme === 'file') return (await realPathInside(uri.fsPath, [folder.fsPath])).inside;
  const base = path.posix.normalize(folder.path.endsWith('/') ? folder.path : folder.path + '/');
  return path.posix.normalize(uri.path).startsWith(base);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    return (stat.type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}
