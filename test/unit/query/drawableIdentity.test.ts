// Stable drawable identity: every real row of a payload (state, arrow, event) resolves through the
// identity the server kept — one tree node, exact category, rows and start — to a drawable whose
// payload times match, on every fixture and at every tree depth; a stale or unknown identity is no
// answer (the caller then searches), and a window server keeps identities per request and generation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { LruCache } from '../../../src/core/bytes/lruCache';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { findByIdentity, type DrawableRef } from '../../../src/core/query/details';
import { buildWindow, type WindowIdentities } from '../../../src/core/query/buildWindow';
import { WindowServer, type CachedWindow, type WindowAnswer } from '../../../src/core/query/windowServer';
import type { WindowColumns } from '../../../src/core/query/windowColumns';
import { fixture } from '../../helpers/paths';

const NAMES = ['user_states_4', 'ring_p2p_4', 'collectives_8', 'pi_bcast_4', 'threads_2x3', 'grid_comms_16'];

async function open(name: string): Promise<Slog2File> {
  const plain = fixture(`${name}.slog2`);
  const bytes = fs.existsSync(plain) ? fs.readFileSync(plain) : gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`)));
  return Slog2File.open(new MemorySource(`${name}.slog2`, new Uint8Array(bytes)));
}

type Kind = 'state' | 'arrow' | 'event';

function rowsOf(c: WindowColumns, kind: Kind): { n: number; at: (i: number) => { row: number; toRow: number; category: number; start: number; end: number } } {
  const base = c.header.baseTime;
  if (kind === 'state')
    return {
      n: c.states.start.length,
      at: (i) => ({
        row: c.states.row[i]!,
        toRow: c.states.row[i]!,
        category: c.states.category[i]!,
        start: base + c.states.start[i]!,
        end: base + c.states.end[i]!,
      }),
    };
  if (kind === 'arrow')
    return {
      n: c.arrows.start.length,
      at: (i) => ({
        row: c.arrows.fromRow[i]!,
        toRow: c.arrows.toRow[i]!,
        category: c.arrows.category[i]!,
        start: base + c.arrows.start[i]!,
        end: base + c.arrows.end[i]!,
      }),
    };
  return {
    n: c.events.time.length,
    at: (i) => ({
      row: c.events.row[i]!,
      toRow: c.events.row[i]!,
      category: c.events.category[i]!,
      start: base + c.events.time[i]!,
      end: base + c.events.time[i]!,
    }),
  };
}

for (const name of NAMES) {
  test(`identity: every real payload row of ${name} resolves to its drawable (all depths)`, async () => {
    const file = await open(name);
    const layout = rowLayoutOf(file.lineIDMaps[0]!);
    const [t0, t1] = file.timeRange;
    let resolved = 0;
    for (let depth = 0; depth <= file.maxDepth; depth++) {
      let ids: WindowIdentities | undefined;
      const c = await buildWindow(
        file,
        { t0, t1, rowStart: 0, rowEnd: layout.labels.length, mapIndex: 0, lowestDepth: depth, rowOfLine: layout.rowOfLine },
        undefined,
        { set: (x) => (ids = x) },
      );
      assert.ok(ids, 'identities were given');
      const got: WindowIdentities = ids;
      for (const kind of ['state', 'arrow', 'event'] as const) {
        const rows = rowsOf(c, kind);
        const table = kind === 'state' ? got.states : kind === 'arrow' ? got.arrows : got.events;
        assert.equal(table.earliest.length, rows.n, `${kind} identities align with the table`);
        for (let i = 0; i < rows.n; i++) {
          const r = rows.at(i);
          if (r.category < 0) continue; // shadows: summaries, nothing to resolve
          const ref: DrawableRef = { drawable: kind, mapIndex: 0, lowestDepth: depth, tolerance: 0, ...r, at: { requestId: 1, final: true, index: i } };
          const p = await findByIdentity(file, layout, got, ref);
          assert.ok(p, `${name} depth ${depth} ${kind} ${i} resolves`);
          assert.equal(p.category, r.category);
          // The payload's float32 offsets round the start; the identity keeps it exactly.
          const start = kind === 'state' ? p.earliest : p.vertices[0]!.time;
          assert.ok(Math.abs(start - r.start) <= 1e-6 * Math.max(1, Math.abs(t1 - t0)), `${kind} ${i}: ${start} vs ${r.start}`);
          resolved++;
        }
      }
    }
    assert.ok(resolved > 0);
    // A row index past the table, or another kind's table, is no answer.
    const ids = { states: { nodeDepth: new Int32Array(0), nodeXpos: new Int32Array(0), earliest: new Float64Array(0) } } as unknown as WindowIdentities;
    const none = await findByIdentity(
      file,
      layout,
      { ...ids, arrows: ids.states, events: ids.states },
      {
        drawable: 'state',
        mapIndex: 0,
        category: 0,
        row: 0,
        toRow: 0,
        start: t0,
        end: t1,
        lowestDepth: 0,
        tolerance: 0,
        at: { requestId: 1, final: true, index: 5 },
      },
    );
    assert.equal(none, undefined);
    await file.close();
  });
}

test('the window server keeps the identities of what it sent, per request, coarse or final, and generation', async () => {
  const file = await open('user_states_4');
  const layouts = file.lineIDMaps.map(rowLayoutOf);
  const answers: WindowAnswer[] = [];
  const doc = { generation: 3, opened: { file, layouts }, windows: new LruCache<CachedWindow>(8), marksVersion: 0, siteMarker: undefined, rowIndex: undefined };
  const server = new WindowServer(doc, (a) => answers.push(a));
  const [t0, t1] = file.timeRange;
  const request = { t0, t1, rowStart: 0, rowEnd: layouts[0]!.labels.length, mapIndex: 0, pixelWidth: 1200, visibleSpan: t1 - t0 };
  await server.serve({ channel: 'main', requestId: 7, generation: 3, request });
  const final = answers.find((a) => a.kind === 'window' && a.final);
  assert.ok(final && final.kind === 'window');
  const ids = server.identitiesOf(7, true, 3);
  assert.ok(ids);
  assert.equal(ids.states.earliest.length, final.payload.states.count);
  assert.equal(server.identitiesOf(7, true, 4), undefined, 'another generation');
  assert.equal(server.identitiesOf(8, true, 3), undefined, 'a request it did not answer');
  // Served again from the document's cache: the identities come with the payload.
  await server.serve({ channel: 'main', requestId: 9, generation: 3, request });
  assert.equal(server.identitiesOf(9, true, 3), ids);
  await file.close();
});
