// The editor's preview of a big CLOG2 converts only its first bytes (conversionInput.ts
// `prefixBytes`). A merged CLOG2 is in time order, so the preview must hold exactly the trace's
// drawables that end before the cut: each one the whole conversion has (same category, times,
// timelines, info), and every one of those, in one thread and in two alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { convertFile } from '../../../src/convert/convertJob';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../../src/io/fileSource';
import type { Drawable, Primitive } from '../../../src/core/model/types';
import { bundleNode } from '../../helpers/bundle';
import { fixture } from '../../helpers/paths';
import { damagedClog2Inputs } from '../../helpers/fixtureTraces';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-prefix-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const converterScript = bundleNode('src/worker/converter.ts', path.join(dir, 'converter.js'));

function primitiveKey(p: Primitive): string {
  return `${p.vertices.map((v) => `${v.time}@${v.lineID}`).join(',')}|${p.info ? Buffer.from(p.info).toString('hex') : ''}`;
}

/** Each drawable as text (its category by name: numbering is the converter's, not the file's). */
async function drawablesOf(file: string): Promise<{ keys: Map<string, number>; latest: number; count: number }> {
  const slog2 = await Slog2File.open(await FileSource.open(file));
  try {
    const keys = new Map<string, number>();
    let count = 0;
    for await (const d of slog2.allDrawables()) {
      const name = slog2.categories.get(d.category)?.name ?? `#${d.category}`;
      const key = `${name}|${keyOf(d)}|${d.latest}`;
      keys.set(key, (keys.get(key) ?? 0) + 1);
      count++;
    }
    return { keys, latest: slog2.timeRange[1], count };
  } finally {
    await slog2.close();
  }
}

function keyOf(d: Drawable): string {
  return d.kind === 'primitive' ? primitiveKey(d) : d.primitives.map(primitiveKey).join(';');
}

const input = path.join(dir, 'run.clog2');

test('a prefix converts to the drawables that end before the cut, in one thread and in two', async () => {
  await synthesizeClog2File(input, { ranks: 8, bytes: 4e6, srcloc: true, seed: 11 });
  const size = fs.statSync(input).size;
  await convertFile(input, path.join(dir, 'whole.slog2'), { force: true });
  const whole = await drawablesOf(path.join(dir, 'whole.slog2'));
  for (const cut of [Math.floor(size * 0.3), Math.floor(size * 0.71) + 13]) {
    const one = await convertFile(input, path.join(dir, 'one.slog2'), { force: true, prefixBytes: cut });
    // The tail's last event record is when the run ends: the whole conversion's last time.
    assert.equal(one.runEnd, whole.latest);
    await convertFile(input, path.join(dir, 'two.slog2'), { force: true, prefixBytes: cut, converterScript });
    assert.ok(fs.readFileSync(path.join(dir, 'one.slog2')).equals(fs.readFileSync(path.join(dir, 'two.slog2'))), 'same bytes in one and two threads');
    const part = await drawablesOf(path.join(dir, 'one.slog2'));
    assert.ok(part.count > whole.count * 0.1 && part.count < whole.count, `${part.count} of ${whole.count} drawables`);
    assert.ok(part.latest < whole.latest);
    for (const [key, n] of part.keys) assert.ok((whole.keys.get(key) ?? 0) >= n, `the whole conversion lacks ${key}`);
    // Everything that ended before the preview's last time had all its records in the prefix.
    let missing = 0;
    for (const [key, n] of whole.keys) {
      const latest = Number(key.slice(key.lastIndexOf('|') + 1));
      if (latest < part.latest && (part.keys.get(key) ?? 0) < n) missing++;
    }
    assert.equal(missing, 0, `drawables ending before ${part.latest} missing from the preview`);
  }
});

test('a prefix as long as the file is the whole conversion, byte for byte', async () => {
  const size = fs.statSync(input).size;
  await convertFile(input, path.join(dir, 'all.slog2'), { force: true, prefixBytes: size + 100, converterScript });
  assert.ok(fs.readFileSync(path.join(dir, 'all.slog2')).equals(fs.readFileSync(path.join(dir, 'whole.slog2'))));
});

test('a prefix of a gzip or non-CLOG2 input is refused, naming the file', async () => {
  for (const name of ['bigrun_medium_4.clog2.gz', 'legacy']) {
    const file = name === 'legacy' ? path.join(path.dirname(fixture('pi_bcast_4.clog2')), 'legacy', legacyAlog()) : fixture(name);
    await assert.rejects(convertFile(file, path.join(dir, 'x.slog2'), { force: true, prefixBytes: 1000 }), (e: unknown) => {
      assert.ok(isFormatError(e) && e.message.includes(file) && /prefix/.test(e.message), String(e));
      return true;
    });
  }
  assert.equal(fs.existsSync(path.join(dir, 'x.slog2')), false);
});

function legacyAlog(): string {
  const names = fs.readdirSync(path.join(path.dirname(fixture('pi_bcast_4.clog2')), 'legacy'));
  const alog = names.find((n) => n.endsWith('.alog'));
  assert.ok(alog, 'an ALOG fixture');
  return alog;
}

test('a prefix of damaged or crafted input converts or fails clearly (a FormatError naming the file), at any cut', async () => {
  const inputs = damagedClog2Inputs();
  // The synthesized trace with its last 3 blocks overwritten by noise: reading the definitions of
  // the tail gets past the damage (as the reader does), and the prefix still converts.
  const noisy = path.join(dir, 'noisy-tail.clog2');
  const bytes = fs.readFileSync(input);
  let seed = 7;
  for (let i = bytes.length - 3 * 65536; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  fs.writeFileSync(noisy, bytes);
  inputs.push(noisy);
  let converted = 0;
  for (const file of inputs) {
    const size = fs.statSync(file).size;
    for (const cut of [1, 1024, 1025, Math.floor(size / 2), size - 1]) {
      try {
        await convertFile(file, path.join(dir, 'cut.slog2'), { force: true, prefixBytes: cut });
        const slog2 = await Slog2File.open(await FileSource.open(path.join(dir, 'cut.slog2')));
        await slog2.close();
        converted++;
      } catch (e) {
        // Either the input's error at its offset, or the writer's (a cut before the first drawable), as for a whole file.
        const clear = (isFormatError(e) && e.message.includes(file)) || (e instanceof Error && /input has no drawables/.test(e.message));
        assert.ok(clear, `${path.basename(file)} cut at ${cut}: ${String(e)}`);
      }
    }
  }
  assert.ok(converted >= 6, `${converted} cuts converted`);
  const part = await convertFile(noisy, path.join(dir, 'noisy.slog2'), { force: true, prefixBytes: 1 << 20 });
  assert.ok(part.written.drawables > 1000, `${part.written.drawables} drawables before the noise`);
});
