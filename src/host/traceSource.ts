/**
 * Opens the bytes of a trace URI as a ByteSource. Local files (`file:` — also on Remote-SSH/WSL,
 * where the extension host runs beside the data) get a Node file handle with positional reads, so
 * a SLOG-2 file is never read whole. Other schemes have no ranged read in `workspace.fs`, so they
 * are read whole, but only below a size limit. Gzip'd files are decompressed into memory under
 * the same limit (SLOG-2 needs random access).
 */
import * as vscode from 'vscode';
import type { ByteSource } from '../core/bytes/byteSource';
import { MemorySource } from '../core/bytes/memorySource';
import { FileSource } from '../io/fileSource';
import { FormatError } from '../core/bytes/formatError';
import { gunzipSlog2ToMemory, isGzipName } from '../io/gzip';
import { looksLikeSlog1, SLOG1_HEADER_BYTES } from '../core/formats/slog1/header';

export class TooLargeError extends Error {}

export function displayName(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
}

export async function openTraceSource(uri: vscode.Uri, wholeFileLimitBytes: number): Promise<ByteSource> {
  const raw = await openRaw(uri, wholeFileLimitBytes);
  if (!isGzipName(uri.path)) return raw;
  try {
    // Sniffed before unpacking and inflated only up to the header's extent (gzip bombs, issue 14).
    const source = await gunzipSlog2ToMemory(raw, wholeFileLimitBytes);
    if (source === undefined) throw new FormatError(displayName(uri), 0, 'the decompressed content is not an SLOG-2 file');
    return source;
  } finally {
    await raw.close();
  }
}

async function openRaw(uri: vscode.Uri, limit: number): Promise<ByteSource> {
  if (uri.scheme === 'file') return FileSource.open(uri.fsPath);
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > limit) {
    throw new TooLargeError(
      `${displayName(uri)} is ${(stat.size / 1048576).toFixed(0)} MB; files on '${uri.scheme}:' file systems must be read whole and the limit is ` +
        `${(limit / 1048576).toFixed(0)} MB (setting mpeTrace.editor.wholeFileLimitMB). Open the file from a local folder or a remote window instead.`,
    );
  }
  return new MemorySource(displayName(uri), await vscode.workspace.fs.readFile(uri));
}

/**
 * The trace kind from the file name (the editor handles SLOG-2 directly, the others via
 * conversion). `.slog` is SLOG-1 only if its content says so (see `sniffSlog1`).
 */
export function traceKind(uri: vscode.Uri): 'slog2' | 'clog2' | 'clog' | 'alog' | 'slog1' | undefined {
  const name = uri.path.toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.slog2')) return 'slog2';
  if (name.endsWith('.clog2')) return 'clog2';
  if (name.endsWith('.clog')) return 'clog';
  if (name.endsWith('.alog')) return 'alog';
  if (name.endsWith('.slog')) return 'slog1';
  return undefined;
}

/** Thrown for a `.slog` file that is not SLOG-1 (other tools use the extension too). */
export class NotSlog1Error extends Error {}

/** Checks the first bytes of a `.slog` file: the editor claims only SLOG-1 files. */
export async function sniffSlog1(uri: vscode.Uri): Promise<void> {
  let head: Uint8Array;
  if (uri.scheme === 'file') {
    const file = await FileSource.open(uri.fsPath);
    try {
      head = await file.read(0, Math.min(SLOG1_HEADER_BYTES, file.size));
    } finally {
      await file.close();
    }
  } else head = (await vscode.workspace.fs.readFile(uri)).subarray(0, SLOG1_HEADER_BYTES);
  if (!looksLikeSlog1(head)) {
    throw new NotSlog1Error(
      `${displayName(uri)} is not a SLOG-1 trace (no SLOG 0.7 header); other programs also write .slog files. Open it with another editor:`,
    );
  }
}
