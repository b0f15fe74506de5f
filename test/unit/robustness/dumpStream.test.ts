// Issue 14 §5: `dump` of a CLOG2 no longer holds every drawable: past a cap it hands out the window
// slice by slice in start order (further passes over the file), and equal start times beyond the
// cap come out in file order with a warning. The order is the same as the one-pass sort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chunksOf, MemorySource } from '../../../src/core/bytes/memorySource';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { drawingOrderCompare } from '../../../src/core/formats/slog2/drawingOrder';
import type { Primitive } from '../../../src/core/model/types';
import { hostileClog2Bytes } from '../../../src/core/synth/hostileClog2';
import { inStartOrder } from '../../../src/cli/startOrder';
import { fixture } from '../../helpers/paths';
import { cliPath, runCli } from '../cli/runCli';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-dump-stream-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

function passOf(bytes: Uint8Array): () => AsyncIterable<readonly Primitive[]> {
  return () => convertClog2(chunksOf(new MemorySource('x.clog2', bytes), 1 << 16), { name: 'x.clog2' }).batches;
}

async function collect(g: AsyncIterable<Primitive>): Promise<Primitive[]> {
  const out: Primitive[] = [];
  for await (const d of g) out.push(d);
  return out;
}

test('sliced start order equals the one-pass sort on a real trace, with a tiny cap', async () => {
  const bytes = new Uint8Array(fs.readFileSync(fixture('user_states_4.clog2')));
  const whole = await collect(inStartOrder(passOf(bytes), -Infinity, Infinity, 1e9).drawables);
  for (const cap of [7, 50]) {
    const sliced = inStartOrder(passOf(bytes), -Infinity, Infinity, cap);
    const got = await collect(sliced.drawables);
    assert.equal(got.length, whole.length);
    for (let i = 1; i < got.length; i++) assert.ok(drawingOrderCompare(got[i - 1]!, got[i]!) <= 0, `order broken at ${i} (cap ${cap})`);
    const key = (d: Primitive) => `${d.category}|${d.earliest}|${d.latest}|${d.vertices.map((v) => v.lineID).join(',')}`;
    assert.deepEqual(got.map(key).sort(), whole.map(key).sort());
  }
  // A window: the same drawables as filtering the whole.
  const [t0, t1] = [whole[10]!.earliest, whole[60]!.earliest];
  const win = await collect(inStartOrder(passOf(bytes), t0, t1, 5).drawables);
  assert.equal(win.length, whole.filter((d) => d.earliest <= t1 && t0 <= d.latest).length);
});

test('equal start times beyond the cap: file order, a warning, nothing held', async () => {
  const bytes = await hostileClog2Bytes({ events: 5000, times: 'equal' });
  const r = inStartOrder(passOf(bytes), -Infinity, Infinity, 100);
  const got = await collect(r.drawables);
  assert.equal(got.length, 5000);
  assert.match(r.warnings.join('\n'), /5000 drawables start within \[1, 1\] s: more than 100 to sort at once, listed in file order/);
});

test('mpe-trace dump of 10^6 equal-time events runs in a 150 MB heap (held every drawable before)', async () => {
  const file = path.join(dir, 'equal.clog2.gz');
  fs.writeFileSync(file, gzipSync(await hostileClog2Bytes({ events: 1_000_000, times: 'equal' }), { level: 9 }));
  const r = spawnSync(process.execPath, ['--max-old-space-size=150', cliPath(), 'dump', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr.slice(0, 2000));
  assert.equal(r.stdout.split('\n').length - 1, 1_000_000);
  assert.match(r.stderr, /listed in file order/);
  // A normal trace dumps as before (one pass, sorted).
  assert.equal(runCli(['dump', fixture('user_states_4.clog2')]).status, 0);
});
