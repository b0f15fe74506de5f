/**
 * "Go to source": opens the file and line a drawable's source location names.
 *
 * The webview only ever sends a site id (an index into the trace's source-location table, which
 * the host holds); the host resolves the recorded path with the pure resolver (mappings, absolute,
 * suffix, file name, 39-byte truncated names) and opens without asking only files inside a
 * workspace folder or produced by the user's own `mpeTrace.sourcePathMappings`. Anything else
 * (an absolute path elsewhere on this machine, named by an untrusted trace) needs a yes first.
 */
import * as vscode from 'vscode';
import type { SourceLocation } from '../core/model/types';
import {
  effectiveMappingsValue,
  fileNameGlob,
  ignoredWorkspaceMappings,
  mappingFromPick,
  normalizePath,
  parseMappings,
  resolveSourcePath,
  type Resolution,
  type SourceCandidate,
  type SourceFileSystem,
} from '../core/sourcePath';
import { realPathInside } from '../io/pathContainment';

export const MAPPINGS_SECTION = 'mpeTrace';
export const MAPPINGS_KEY = 'sourcePathMappings';

/** Site id → location: the trace's table (e.g. SourceLocationTable.sites) or a lookup function. */
export type SourceSiteLookup = readonly SourceLocation[] | ((id: number) => SourceLocation | undefined);

export interface OpenSourceOptions {
  /** Open in the editor group beside the trace (Alt+click). */
  readonly beside?: boolean;
  /** Treat the recorded name as never truncated (file names from info text). */
  readonly notTruncated?: boolean;
}

export type OpenSourceResult =
  { readonly opened: true; readonly uri: vscode.Uri; readonly line: number; readonly reason: string } | { readonly opened: false; readonly reason: string };

export class SourceLinks implements vscode.Disposable {
  private readonly cache = new Map<string, Promise<Resolution>>();
  private readonly approved = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });

  constructor(private readonly output?: vscode.OutputChannel) {
    const clear = (): void => this.cache.clear();
    this.disposables.push(
      this.highlight,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${MAPPINGS_SECTION}.${MAPPINGS_KEY}`)) clear();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(clear),
      vscode.workspace.onDidGrantWorkspaceTrust(clear),
      vscode.workspace.onDidCreateFiles(clear),
      vscode.workspace.onDidDeleteFiles(clear),
      vscode.workspace.onDidRenameFiles(clear),
    );
  }

  /**
   * Opens the location with id `siteId` of `table`. Ids outside the table are refused: the
   * webview can name a location, never a path.
   */
  async open(siteId: number, table: SourceSiteLookup, options: OpenSourceOptions = {}): Promise<OpenSourceResult> {
    const loc = lookup(siteId, table);
    if (loc === undefined) {
      this.log(`source location ${String(siteId).slice(0, 20)} is not in the trace's table`);
      return { opened: false, reason: 'unknown source location' };
    }
    return this.openLocation(loc, options);
  }

  /** Host-side entry (hover links, CodeLens, commands): the location comes from the trace itself. */
  async openLocation(loc: SourceLocation, options: OpenSourceOptions = {}): Promise<OpenSourceResult> {
    const line = Number.isSafeInteger(loc.line) && loc.line > 0 ? loc.line : 1;
    const resolution = await this.resolve(loc.file, options.notTruncated);
    if (!resolution.found) return this.notFound(loc, line, resolution, options);
    const candidate = resolution.best;
    if (!(await this.allowed(candidate))) return { opened: false, reason: 'not opened: outside the workspace' };
    const uri = this.uriFor(candidate.path);
    await this.show(uri, line, options.beside ?? false);
    this.log(`${loc.file}:${loc.line} → ${candidate.path}:${line} (${resolution.reason})`);
    if (resolution.ambiguous) void this.offerOthers(resolution.candidates, candidate, loc, line, options);
    return { opened: true, uri, line, reason: resolution.reason };
  }

  /** Resolution without opening (e.g. to label a "Go to source" link); cached until files or settings change. */
  resolve(recorded: string, notTruncated?: boolean): Promise<Resolution> {
    const key = `${notTruncated ? 'n' : 't'}:${recorded}`;
    let r = this.cache.get(key);
    if (r === undefined) {
      const { mappings, problems } = parseMappings(this.mappingsSetting());
      for (const p of problems) this.log(p);
      const options = { roots: this.roots().map((f) => f.root), mappings, fs: this.fileSystem() };
      r = resolveSourcePath(recorded, notTruncated ? { ...options, truncated: false } : options);
      this.cache.set(key, r);
      r.catch(() => this.cache.delete(key));
    }
    return r;
  }

  /** The mappings in force: in an untrusted workspace only the user's own value (src/core/sourcePath/trust.ts). */
  private mappingsSetting(): unknown {
    const config = vscode.workspace.getConfiguration(MAPPINGS_SECTION);
    const inspected = config.inspect<unknown>(MAPPINGS_KEY);
    const trusted = vscode.workspace.isTrusted;
    if (ignoredWorkspaceMappings(inspected, trusted)) this.log('the workspace sets mpeTrace.sourcePathMappings; ignored until the workspace is trusted');
    return effectiveMappingsValue(inspected, config.get<unknown>(MAPPINGS_KEY), trusted);
  }

  /** The local file a recorded name resolves to, without asking or opening (CodeLens, hovers). */
  async localUri(recorded: string): Promise<vscode.Uri | undefined> {
    const r = await this.resolve(recorded).catch(() => undefined);
    return r?.found ? this.uriFor(r.best.path) : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async show(uri: vscode.Uri, line: number, beside: boolean): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const index = Math.min(Math.max(0, line - 1), Math.max(0, doc.lineCount - 1));
    const column = doc.lineAt(index).firstNonWhitespaceCharacterIndex;
    const pos = new vscode.Position(index, column);
    const range = new vscode.Range(pos, pos);
    const editor = await vscode.window.showTextDocument(doc, {
      selection: range,
      viewColumn: beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
      preserveFocus: false,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
    // A short highlight so the eye finds the line.
    editor.setDecorations(this.highlight, [doc.lineAt(index).range]);
    setTimeout(() => editor.setDecorations(this.highlight, []), 1500);
  }

  /**
   * Opens without asking only a file whose real path lies inside a workspace folder's real path (a
   * symlink `ws/sys -> /etc` does not make /etc/passwd part of the workspace). Anything else — a
   * mapped target outside the folders included, since mappings can come from a repository's
   * settings — is opened only after the user agrees (once per real path).
   */
  private async allowed(c: SourceCandidate): Promise<boolean> {
    const uri = this.uriFor(c.path);
    let shown = c.path;
    if (uri.scheme === 'file') {
      const fileRoots = this.roots()
        .filter((r) => r.folder.uri.scheme === 'file')
        .map((r) => r.folder.uri.fsPath);
      const where = await realPathInside(uri.fsPath, fileRoots);
      if (where.inside) return true;
      shown = where.real;
    } else if (c.root !== undefined && !c.path.split('/').includes('..')) return true; // virtual folders: no links
    if (this.approved.has(shown)) return true;
    const open = 'Open';
    const why = c.kind === 'mapped' ? ' (through a source path mapping)' : '';
    const answer = await vscode.window.showWarningMessage(
      `The trace names ${c.path}${shown !== c.path ? `, which is ${shown}` : ''}${why}, outside the workspace folders. Open it?`,
      { modal: true },
      open,
    );
    if (answer !== open) return false;
    this.approved.add(shown);
    return true;
  }

  private async notFound(loc: SourceLocation, line: number, r: Resolution & { found: false }, options: OpenSourceOptions): Promise<OpenSourceResult> {
    this.log(`${loc.file}:${loc.line}: ${r.reason}`);
    const findFile = 'Find file…';
    const setMapping = 'Set path mapping…';
    // A mapping only helps for absolute recorded paths (the resolver then suggests one).
    const buttons = r.suggestion !== undefined ? [findFile, setMapping] : [findFile];
    const answer = await vscode.window.showWarningMessage(`MPE Trace: cannot find the source file of ${loc.file}:${loc.line}: ${r.reason}.`, ...buttons);
    if (answer === findFile) return this.pickFile(loc, line, options);
    if (answer === setMapping && r.suggestion !== undefined) {
      const added = await this.askMapping(r.suggestion.from);
      if (added) {
        this.cache.clear();
        return this.openLocation(loc, options);
      }
    }
    return { opened: false, reason: r.reason };
  }

  /** Quick pick among workspace files with the same extension (typed text filters by name). */
  private async pickFile(loc: SourceLocation, line: number, options: OpenSourceOptions): Promise<OpenSourceResult> {
    const name = baseName(loc.file);
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : undefined;
    const files = await vscode.workspace.findFiles(ext !== undefined && /^[A-Za-z0-9_+-]+$/.test(ext) ? `**/*.${ext}` : '**/*', undefined, 5000);
    const items = files
      .map((uri) => ({ label: baseName(uri.path), description: vscode.workspace.asRelativePath(uri, true), uri }))
      .sort((a, b) => (a.description < b.description ? -1 : a.description > b.description ? 1 : 0));
    const quickPick = vscode.window.createQuickPick<(typeof items)[number]>();
    quickPick.items = items;
    quickPick.matchOnDescription = true;
    quickPick.value = name;
    quickPick.placeholder = `File for ${loc.file}:${loc.line}`;
    const picked = await new Promise<(typeof items)[number] | undefined>((resolve) => {
      quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
      quickPick.onDidHide(() => resolve(undefined));
      quickPick.show();
    });
    quickPick.dispose();
    if (picked === undefined) return { opened: false, reason: 'no file chosen' };
    await this.show(picked.uri, line, options.beside ?? false);
    void this.offerRemember(loc.file, picked.uri);
    return { opened: true, uri: picked.uri, line, reason: 'chosen by the user' };
  }

  /** After a manual pick: offer the mapping that would have found it. */
  private async offerRemember(recorded: string, picked: vscode.Uri): Promise<void> {
    if (picked.scheme !== 'file') return;
    const m = mappingFromPick(recorded, picked.fsPath);
    if (m === undefined) return;
    const remember = 'Remember';
    const answer = await vscode.window.showInformationMessage(`Map "${m.from}" to "${m.to}" for other locations of this trace?`, remember);
    if (answer === remember) await this.addMapping(m.from, m.to);
  }

  private async offerOthers(
    candidates: readonly SourceCandidate[],
    chosen: SourceCandidate,
    loc: SourceLocation,
    line: number,
    options: OpenSourceOptions,
  ): Promise<void> {
    const other = 'Choose another…';
    const answer = await vscode.window.showInformationMessage(
      `${loc.file} matches ${candidates.length} files; opened ${vscode.workspace.asRelativePath(this.uriFor(chosen.path), true)}.`,
      other,
    );
    if (answer !== other) return;
    const pick = await vscode.window.showQuickPick(
      candidates.map((c) => ({ label: vscode.workspace.asRelativePath(this.uriFor(c.path), true), description: c.kind, c })),
      { placeHolder: `File for ${loc.file}:${loc.line}` },
    );
    if (pick !== undefined && (await this.allowed(pick.c))) {
      await this.show(this.uriFor(pick.c.path), line, options.beside ?? false);
      void this.offerRemember(loc.file, this.uriFor(pick.c.path));
    }
  }

  private async askMapping(from: string): Promise<boolean> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const to = await vscode.window.showInputBox({
      title: 'MPE Trace: source path mapping',
      prompt: `Local folder that replaces "${from}" (\${workspaceFolder} is the first workspace folder)`,
      value: folder !== undefined ? '${workspaceFolder}' : '',
      validateInput: (v) => (v.trim() === '' ? 'Enter a folder' : undefined),
    });
    if (to === undefined) {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${MAPPINGS_SECTION}.${MAPPINGS_KEY}`);
      return false;
    }
    await this.addMapping(from, to.trim());
    return true;
  }

  /** Adds one entry to the workspace (or, without a workspace, user) setting. */
  private async addMapping(from: string, to: string): Promise<void> {
    const config = vscode.workspace.getConfiguration(MAPPINGS_SECTION);
    const current = this.mappingsSetting();
    const next: Record<string, unknown> =
      typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
    next[from] = to;
    // Untrusted: the workspace value would be ignored, so the user's own setting gets the entry.
    const target =
      vscode.workspace.workspaceFolders !== undefined && vscode.workspace.isTrusted ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config.update(MAPPINGS_KEY, next, target);
    this.cache.clear();
    this.log(`added source path mapping "${from}" → "${to}"`);
  }

  private roots(): { root: string; folder: vscode.WorkspaceFolder }[] {
    return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
      root: normalizePath(folder.uri.scheme === 'file' ? folder.uri.fsPath : folder.uri.path),
      folder,
    }));
  }

  /** A resolver path ('/' form) back to a URI: inside a folder keep the folder's scheme. */
  private uriFor(path: string): vscode.Uri {
    for (const { root, folder } of this.roots()) {
      if (folder.uri.scheme === 'file') continue;
      if (path === root || path.startsWith(root.endsWith('/') ? root : root + '/')) return folder.uri.with({ path });
    }
    return vscode.Uri.file(path);
  }

  private fileSystem(): SourceFileSystem {
    return {
      exists: async (path) => {
        try {
          const stat = await vscode.workspace.fs.stat(this.uriFor(path));
          return (stat.type & vscode.FileType.File) !== 0;
        } catch {
          return false;
        }
      },
      findFiles: async (name, { prefix, ignoreCase }) => {
        const glob = `**/${fileNameGlob(name, ignoreCase)}${prefix ? '*' : ''}`;
        const uris = await vscode.workspace.findFiles(glob, undefined, 500);
        return uris.map((u) => (u.scheme === 'file' ? u.fsPath : u.path));
      },
    };
  }

  private log(line: string): void {
    this.output?.appendLine(`[source] ${line}`);
  }
}

function lookup(id: number, table: SourceSiteLookup): SourceLocation | undefined {
  if (!Number.isSafeInteger(id) || id < 0) return undefined;
  if (typeof table === 'function') return table(id);
  return id < table.length ? table[id] : undefined;
}

function baseName(path: string): string {
  const p = path.replace(/\\/g, '/');
  return p.slice(p.lastIndexOf('/') + 1);
}
