// Issue 14 §5 and §12: equal, NaN/±∞ and descending record times at scale. The reorder buffer stays
// bounded (a fatal heap OOM before), ties come out in a stable order, and records with non-finite
// times are dropped, counted and reported (CLI summary line, warnings, info --json) — never silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ReorderBuffer } from '../../../src/core/formats/convert/reorder';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { chunksOf, MemorySource } from '../../../src/core/bytes/memorySource';
import { hostileClog2Bytes, type TimeShape } from '../../../src/core/synth/hostileClog2';
import type { Primitive } from '../../../src/core/model/types';
import { cliPath, runCli } from '../cli/runCli';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-hostile-times-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

function event(t: number, id: number): Primitive {
  return { kind: 'primitive', category: id, vertices: [{ time: t, lineID: 0 }], earliest: t, latest: t, info: undefined, source: undefined };
}

test('the reorder buffer is bounded: 10^6 equal times never hold more than its capacity, ties stay stable', () => {
  const out: Primitive[] = [];
  const buf = new ReorderBuffer(out, 1024);
  let peak = 0;
  for (let i = 0; i < 1_000_000; i++) {
    buf.push(event(5, i));
    peak = Math.max(peak, buf.size);
  }
  buf.releaseAll(out);
  assert.ok(peak <= 1024, `peak ${peak}`);
  assert.equal(out.length, 1_000_000);
  for (let i = 0; i < out.length; i++) if (out[i]!.category !== i) assert.fail(`tie order broken at ${i}`);
  assert.ok(buf.forcedReleases > 0);
  // Descending times: bounded too; what could not be ordered is counted as late.
  const desc: Primitive[] = [];
  const d = new ReorderBuffer(desc, 1024);
  for (let i = 0; i < 100_000; i++) d.push(event(1e6 - i, i));
  d.releaseAll(desc);
  assert.equal(desc.length, 100_000);
  assert.ok(d.lateArrivals > 0);
});

async function convertShape(times: TimeShape, events: number) {
  const bytes = await hostileClog2Bytes({ events, times });
  const conv = convertClog2(chunksOf(new MemorySource('x.clog2', bytes), 1 << 16), { name: 'x.clog2' });
  let n = 0;
  let last = -Infinity;
  let nonMonotone = 0;
  for await (const batch of conv.batches) {
    for (const p of batch) {
      n++;
      assert.ok(Number.isFinite(p.earliest) && Number.isFinite(p.latest), 'no drawable with a non-finite time');
      if (p.latest < last) nonMonotone++;
      last = p.latest;
    }
  }
  return { n, nonMonotone, summary: conv.summary };
}

test('NaN / infinite times: dropped as bad records, counted and reported, the rest converted', async () => {
  for (const times of ['nan', 'infinite'] as const) {
    const { n, summary } = await convertShape(times, 1000);
    assert.equal(summary.unmatched.badTimes, 250, times);
    assert.equal(n, 750, times);
    assert.equal(summary.drawables.total, 750);
    assert.ok(
      summary.warnings.some((w) => /250 event records with a NaN or infinite time dropped/.test(w)),
      summary.warnings.join('\n'),
    );
  }
  const file = path.join(dir, 'nan.clog2');
  fs.writeFileSync(file, await hostileClog2Bytes({ events: 12, times: 'nan' }));
  const out = path.join(dir, 'nan.slog2');
  const r = runCli(['convert', file, '-o', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /9 drawables.*; 3 records with NaN\/infinite times dropped/);
  assert.match(r.stderr, /warning: .*3 event records with a NaN or infinite time dropped/);
  const info = runCli(['info', '--json', file]);
  assert.equal(info.status, 0, info.stderr);
  assert.deepEqual(JSON.parse(info.stdout).dropped, { badTimes: 3, records: 0, finals: 0 });
  assert.match(runCli(['info', file]).stdout, /dropped +3 records with NaN\/infinite times/);
});

test('descending and mixed times at scale: every finite record converted, memory bounded', async () => {
  for (const times of ['descending', 'mixed'] as const) {
    const { n, summary } = await convertShape(times, 400_000);
    assert.equal(n + summary.unmatched.badTimes, 400_000, times);
    assert.equal(n, summary.drawables.total);
  }
});

test('info on 10^6 equal-time events (gzip) runs in a 150 MB heap (was a fatal OOM)', async () => {
  const file = path.join(dir, 'equal.clog2.gz');
  fs.writeFileSync(file, gzipSync(await hostileClog2Bytes({ events: 1_000_000, times: 'equal' }), { level: 9 }));
  const r = spawnSync(process.execPath, ['--max-old-space-size=150', cliPath(), 'info', '--json', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr.slice(0, 2000));
  assert.equal(JSON.parse(r.stdout).drawables.event, 1_000_000);
  assert.match(r.stderr, /released in file order/);
});
