// Settings of the trace editor (contributes.configuration in package.json), read in one place.
import * as vscode from 'vscode';

export interface EditorSettings {
  /** Largest file read whole (virtual file systems, gzip'd SLOG-2), bytes. */
  readonly wholeFileLimitBytes: number;
  /** Size limit of the cache of SLOG-2 files converted from CLOG/CLOG2, bytes. */
  readonly conversionCacheBytes: number;
  /** Hops a dependence chain follows from the selected state. */
  readonly dependenceChainDepth: number;
  /** What draws the timeline's data layer (the webview decides `auto`). */
  readonly renderer: 'auto' | 'webgl2' | 'canvas2d';
}

const MB = 1024 * 1024;

export function editorSettings(): EditorSettings {
  const c = vscode.workspace.getConfiguration('mpeTrace');
  const num = (key: string, fallback: number, min: number): number => {
    const v = c.get<number>(key, fallback);
    return typeof v === 'number' && Number.isFinite(v) ? Math.max(min, v) : fallback;
  };
  return {
    wholeFileLimitBytes: num('editor.wholeFileLimitMB', 512, 1) * MB,
    conversionCacheBytes: num('editor.conversionCacheMB', 2048, 16) * MB,
    dependenceChainDepth: Math.min(256, Math.floor(num('analysis.dependenceChainDepth', 8, 1))),
    renderer: rendererOf(c.get<string>('editor.renderer')),
  };
}

function rendererOf(v: string | undefined): EditorSettings['renderer'] {
  return v === 'webgl2' || v === 'canvas2d' ? v : 'auto';
}
