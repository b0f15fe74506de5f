/**
 * Partial reads (issue 9): a CLOG2 cut short — a half-written file from a crashed run or a quota —
 * still converts: the drawables completed before the cut, a `truncated` flag and a warning, never an
 * outright failure. Cuts at block boundaries and inside blocks of bigrun_medium_4 (65 blocks) and
 * user_states_4; what the cut file yields is a subset of what the whole file yields, and grows
 * with the cut.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'fflate';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { gunzipChunks } from '../../../src/io/gzip';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { collectConversion, type ConversionSummary } from '../../../src/core/formats/convert/result';
import type { Primitive } from '../../../src/core/model/types';
import { fixture } from '../../helpers/paths';

async function* chunks(b: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

function key(p: Primitive): string {
  return `${p.category}|${p.vertices.map((v) => `${v.time}@${v.lineID}`).join(',')}`;
}

async function convert(b: Uint8Array): Promise<{ keys: Set<string>; summary: ConversionSummary }> {
  const { drawables, summary } = await collectConversion(convertClog2(chunks(b, 65536), { name: 'cut.clog2' }));
  return { keys: new Set(drawables.map(key)), summary };
}

/** Offset just after the ENDLOG record (walks the blocks like the writer laid them out). */
function endLogEnd(b: Uint8Array, blockSize: number): number {
  const sizes = [24, 24, 136, 128, 64, 32, 64, 48, 40, 72, 72, 32];
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let block = 1024; block < b.length; block += blockSize) {
    for (let pos = block; pos + 24 <= b.length;) {
      const rectype = dv.getInt32(pos + 20);
      if (rectype === 0) return pos + 24;
      if (rectype === 1) break;
      pos += sizes[rectype]!;
    }
  }
  throw new Error('no ENDLOG');
}

async function checkCuts(name: string, bytes: Uint8Array, cuts: readonly number[]): Promise<void> {
  const whole = await convert(bytes);
  const end = endLogEnd(bytes, 65536);
  let previous = 0;
  for (const cut of cuts) {
    const { keys, summary } = await convert(bytes.subarray(0, cut));
    const what = `${name} cut at ${cut}`;
    assert.ok(summary.drawables.total > 0, `${what}: no drawables`);
    assert.ok(summary.drawables.total >= previous, `${what}: fewer drawables (${summary.drawables.total}) than a shorter cut (${previous})`);
    previous = summary.drawables.total;
    if (cut < end) {
      assert.equal(summary.truncated, true, what);
      assert.ok(
        summary.warnings.some((w) => w.includes(`truncated at byte ${cut}`)),
        `${what}: ${summary.warnings.join(' | ')}`,
      );
      assert.ok(summary.drawables.total <= whole.summary.drawables.total, what);
    }
    for (const k of keys) assert.ok(whole.keys.has(k), `${what}: drawable ${k} is not in the whole file's conversion`);
  }
}

test('bigrun_medium_4: cuts at block boundaries and inside blocks keep everything before the cut', async () => {
  const bytes = gunzipSync(new Uint8Array(fs.readFileSync(fixture('bigrun_medium_4.clog2.gz'))));
  const block = (k: number): number => 1024 + k * 65536;
  assert.ok(bytes.length > block(64));
  await checkCuts('bigrun', bytes, [block(0) + 24 * 100 + 7, block(1), block(1) + 24, block(9) + 40_000, block(32), block(32) + 1, block(64) + 12_345]);
});

test('user_states_4: cuts inside its block keep the drawables before the cut; after ENDLOG nothing is lost', async () => {
  const bytes = new Uint8Array(fs.readFileSync(fixture('user_states_4.clog2')));
  await checkCuts('user_states_4', bytes, [1024 + 4000, 1024 + 8000 + 3, 1024 + 16_000, 1024 + 32_000]);
  // Cut inside the communicator table (after ENDLOG): every drawable is there.
  const { summary } = await convert(bytes.subarray(0, 66560 + 10));
  assert.equal(summary.truncated, false);
  assert.equal(summary.drawables.total, 290);
});

test('a .clog2.gz cut short converts what was decompressed, flagged truncated (was: corrupt gzip data, nothing)', async () => {
  const raw = new Uint8Array(fs.readFileSync(fixture('user_states_4.clog2')));
  const gz = gzipSync(raw, { level: 6, mtime: 0 });
  const whole = await convert(raw);
  let previous = 0;
  for (const cut of [Math.floor(gz.length / 4), Math.floor(gz.length / 3), Math.floor(gz.length / 2)]) {
    const conversion = convertClog2(gunzipChunks(new MemorySource('cut.clog2.gz', gz.subarray(0, cut)), 1024), { name: 'cut.clog2.gz' });
    const { drawables, summary } = await collectConversion(conversion);
    assert.ok(summary.truncated, `cut ${cut}`);
    assert.ok(
      summary.warnings.some((w) => w.includes('truncated at byte')),
      `cut ${cut}`,
    );
    assert.ok(drawables.length > previous, `cut ${cut}: ${drawables.length} drawables`);
    previous = drawables.length;
    for (const d of drawables) assert.ok(whole.keys.has(key(d)), `cut ${cut}`);
  }
  // Damage that is not a cut is still an error: a bad deflate block type (BTYPE 3) after the header.
  const bad = gz.slice();
  bad[10] = 0xff;
  await assert.rejects(
    collectConversion(convertClog2(gunzipChunks(new MemorySource('bad.clog2.gz', bad), 1024), { name: 'bad' })),
    (e: unknown) => isFormatError(e) && /corrupt gzip data/.test(e.message),
  );
});
