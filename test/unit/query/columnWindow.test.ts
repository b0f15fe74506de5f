// Full-detail windows of a SLOG-2 file are built from each node's columns (buildWindow.ts
// readsColumns, formats/slog2/nodeColumns.ts), no object per drawable: the same payload, byte for
// byte, and the same identities as from the object reader's drawables (Slog2File.query), for the
// reference tools' files and for a conversion with source locations (FLAG_HAS_SOURCE, and site
// marks from both ends' sites), over the whole trace and over spans cutting through nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { buildWindow, type WindowIdentities, type WindowSource } from '../../../src/core/query/buildWindow';
import { rowLayoutOf, defaultMapIndex } from '../../../src/core/query/rows';
import { FLAG_HAS_SOURCE, FLAG_SITE_MATCH, type WindowColumns } from '../../../src/core/query/windowColumns';
import type { SiteMarker } from '../../../src/core/model/siteFlags';
import { FileSource } from '../../../src/io/fileSource';
import { fixture } from '../../helpers/paths';
import { runCli } from '../cli/runCli';

/** The same file seen only through its object query (not a Slog2File: buildWindow reads objects). */
function objectsOnly(file: Slog2File): WindowSource {
  return {
    get categories() {
      return file.categories;
    },
    get nodesRead() {
      return file.nodesRead;
    },
    query: (t0, t1, options) => file.query(t0, t1, options),
  };
}

/** Every column of every table as bytes, and the header without its build time and node count (they differ from build to build). */
function bytesOf(w: WindowColumns): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify({ ...w.header, buildMs: 0, nodesRead: 0 }))];
  for (const table of [w.states, w.shadows, w.shadowWeights, w.arrows, w.events])
    for (const [name, column] of Object.entries(table).sort(([x], [y]) => x.localeCompare(y))) {
      const view = column as ArrayBufferView;
      parts.push(Buffer.from(name), Buffer.from(view.buffer, view.byteOffset, view.byteLength));
    }
  return Buffer.concat(parts);
}

async function compareFile(file: Slog2File, what: string, marks?: SiteMarker): Promise<number> {
  const mapIndex = defaultMapIndex(file.lineIDMaps);
  const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
  const [a, b] = file.timeRange;
  let sourced = 0;
  for (const [f0, f1] of [
    [0, 1],
    [0.3, 0.55],
    [0.61, 0.62],
  ] as const) {
    const spec = {
      t0: a + (b - a) * f0,
      t1: a + (b - a) * f1,
      rowStart: 0,
      rowEnd: layout.labels.length,
      mapIndex,
      lowestDepth: 0,
      rowOfLine: layout.rowOfLine,
      ...(marks !== undefined ? { marks } : {}),
    };
    let byColumns: WindowIdentities | undefined;
    let byObjects: WindowIdentities | undefined;
    const c = await buildWindow(file, spec, undefined, { set: (x) => (byColumns = x) });
    const o = await buildWindow(objectsOnly(file), spec, undefined, { set: (x) => (byObjects = x) });
    const span = `${what}, span ${f0}–${f1}`;
    assert.ok(c.states.start.length + c.arrows.start.length + c.events.time.length > 0 || f1 - f0 < 0.1, `${span}: something in the window`);
    assert.ok(bytesOf(c).equals(bytesOf(o)), `${span}: the same payload`);
    assert.deepEqual(byColumns, byObjects, `${span}: the same identities`);
    assert.ok(c.header.nodesRead > 0, `${span}: nodes counted`);
    for (const t of [c.states, c.arrows, c.events])
      sourced += t.flags.filter((f) => (f & (marks === undefined ? FLAG_HAS_SOURCE : FLAG_SITE_MATCH)) !== 0).length;
  }
  return sourced;
}

test('a full-detail window from node columns is the object reader’s, byte for byte', async () => {
  for (const name of ['user_states_4.slog2', 'grid_comms_16.slog2', 'collectives_8.slog2', 'ring_p2p_4.slog2', 'threads_2x3.slog2']) {
    const file = await Slog2File.open(await FileSource.open(fixture(name)));
    try {
      await compareFile(file, name);
    } finally {
      await file.close();
    }
  }
  // our conversion keeps the source locations: the columns say which drawables have one
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-column-window-'));
  try {
    const out = path.join(dir, 'u.slog2');
    assert.equal(runCli(['convert', fixture('user_states_4.clog2'), '-o', out, '--quiet', '--leaf-bytes', '2048']).status, 0);
    const file = await Slog2File.open(await FileSource.open(out));
    try {
      assert.ok(file.maxDepth >= 2, 'small leaves: drawables in upper nodes too');
      const sourced = await compareFile(file, 'user_states_4 converted');
      assert.ok(sourced > 100, `drawables with a source flagged (${sourced})`);
      // marks from both ends (a row's end site read wrong, or asked of the start, changes the bits)
      const endMarked = await compareFile(file, 'user_states_4 converted, marked', (start, end) =>
        end === undefined ? (start?.line ?? 0) & 0xf8 : FLAG_SITE_MATCH | ((end.line * 8) & 0xf8),
      );
      assert.ok(endMarked > 20, `drawables marked by their end site (${endMarked})`);
    } finally {
      await file.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
