// The wait-state analysis follows the active timeline, but not a preview of a CLOG2 still
// converting (its waits are of a part, and its snapshots come every 1.5 s: each would be a whole
// pass, on the extension host's thread for a snapshot); the whole trace is analysed when it comes.
import { recorded, EventEmitter, Uri } from '../../helpers/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { registerTraceAnalysis } from '../../../src/host/traceAnalysisCommands';
import type { TraceEditorProvider } from '../../../src/host/traceEditorProvider';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../../src/io/fileSource';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { fixture } from '../../helpers/paths';

test('a preview is not analysed; the whole trace that replaces it is', async () => {
  const disk = await FileSource.open(fixture('ring_p2p_4.slog2'));
  const bytes = await disk.read(0, disk.size);
  await disk.close();
  // Snapshots are read through an overlay, not a file the analysis worker could open: here, memory.
  const preview = await Slog2File.open(new MemorySource('ring.clog2 (snapshot)', bytes.slice()));
  const whole = await Slog2File.open(new MemorySource('ring.slog2', bytes.slice()));
  const uri = Uri.file('/traces/ring.clog2') as unknown as vscode.Uri;
  const changed = new EventEmitter<void>();
  let active: { uri: vscode.Uri; file: Slog2File; preview?: { shownBytes: number; totalBytes: number } } = {
    uri,
    file: preview,
    preview: { shownBytes: 1 << 20, totalBytes: 3 << 20 },
  };
  const provider = {
    activeTrace: () => active,
    onDidChangeActiveTrace: changed.event,
    editorsOf: () => [{ painted: 1 }],
    broadcast: () => undefined,
  } as unknown as TraceEditorProvider;
  const subscriptions: { dispose(): unknown }[] = [];
  const log = { warn: () => undefined, info: () => undefined } as unknown as vscode.LogOutputChannel;
  const handle = registerTraceAnalysis({ subscriptions } as unknown as vscode.ExtensionContext, undefined, log);
  try {
    handle.follow(provider);
    changed.fire();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(handle.analysis.result(uri), undefined, 'no analysis of the preview');
    assert.equal(recorded.diagnostics.has(uri.toString()), false);

    active = { uri, file: whole };
    changed.fire();
    for (let i = 0; i < 200 && handle.analysis.result(uri) === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(handle.analysis.result(uri) !== undefined, 'the whole trace is analysed');
    assert.ok(recorded.diagnostics.has(uri.toString()), 'and its problems published');
  } finally {
    for (const s of subscriptions) s.dispose();
    await preview.close();
    await whole.close();
  }
});
