// Truncations and seeded random byte flips of every sample: the reader either succeeds or throws
// a FormatError (never another error, never a hang), each case within 2 s, memory bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { slog2TraceInfo } from '../../../src/core/info/slog2Info';
import { infoText } from '../../../src/core/model/infoFormat';
import { unknownCategory } from '../../../src/core/formats/slog2/categoryMap';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { samples, sampleBytes } from './samples';
import { Prng } from '../../../src/core/synth/prng';
import { primitiveBatchesInTimeOrder } from '../../../src/core/formats/slog2/columnStream';
import { fixture } from '../../helpers/paths';
import fs from 'node:fs';

/** Seeded (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}

const MEMORY_CAP = 1.5 * 2 ** 30;

/**
 * Everything a viewer or the CLI would do with a file. `full`: info (reads every node), a shadow
 * query and a time-ordered window. Otherwise (the 60k-drawable sample, to stay well inside 2 s on a
 * loaded machine): a shadow query of the upper levels and a narrow window down to the leaves.
 */
async function exercise(bytes: Uint8Array, full: boolean): Promise<void> {
  const file = await Slog2File.open(new MemorySource('mutant.slog2', bytes));
  const [a, b] = file.timeRange;
  if (full) await slog2TraceInfo(file);
  else for await (const _ of file.query(a + (b - a) * 0.4, a + (b - a) * 0.45));
  for await (const s of file.query(a, b, { lowestDepth: Math.min(1, file.maxDepth) })) {
    for (const d of s.drawables) {
      const c = file.categories.get(d.category) ?? unknownCategory(d.category);
      infoText(c.infoKeys, c.infoTypes, d.info);
    }
  }
  if (full) for await (const _ of file.drawablesInTimeOrder(a + (b - a) / 3, a + (b - a) / 2));
}

async function expectOnlyFormatErrors(label: string, bytes: Uint8Array, full: boolean): Promise<'ok' | 'error'> {
  let outcome: 'ok' | 'error' = 'ok';
  try {
    await exercise(bytes, full);
  } catch (e) {
    if (!(e instanceof FormatError)) assert.fail(`${label}: ${e instanceof Error ? e.stack : String(e)}`);
    assert.equal(e.file, 'mutant.slog2');
    assert.ok(Number.isSafeInteger(e.offset) && e.offset >= 0, `${label}: offset ${e.offset}`);
    outcome = 'error';
  }
  const mem = process.memoryUsage();
  assert.ok(mem.rss < MEMORY_CAP, `${label}: rss ${mem.rss}`);
  return outcome;
}

for (const [i, s] of samples.entries()) {
  const big = s.name === 'bigrun_medium_4';
  test(`${s.name}: truncations and random byte flips give only FormatErrors`, async () => {
    const original = sampleBytes(s);
    const random = rng(0x5106 + i);
    await exercise(original, !big); // valid: no error at all (and warms up the code before timing)
    const cuts = new Set<number>([0, 1, 11, 12, 50, 107, 108, 109, original.length - 1, original.length - 13]);
    for (let k = 0; k < (big ? 8 : 30); k++) cuts.add(Math.floor(random() * original.length));
    let errors = 0;
    for (const cut of cuts) {
      if ((await expectOnlyFormatErrors(`cut at ${cut}`, original.subarray(0, cut), !big)) === 'error') errors++;
    }
    // Every truncation loses the TreeDir at the end (or the header): all must be refused.
    assert.equal(errors, cuts.size);
    const flips = big ? 12 : 80;
    const outcomes = { ok: 0, error: 0 };
    for (let k = 0; k < flips; k++) {
      const mutant = original.slice();
      // Half the flips in the header, maps and directory (small, dense with lengths), half anywhere.
      const n = 1 + Math.floor(random() * 3);
      for (let j = 0; j < n; j++) {
        const pos = random() < 0.3 ? Math.floor(random() * Math.min(original.length, 108)) : Math.floor(random() * original.length);
        // (bigrun: leaves outside the narrow window are not read, so flips there go unnoticed; the
        // small samples are read completely.)
        mutant[pos] ^= 1 + Math.floor(random() * 255);
      }
      outcomes[await expectOnlyFormatErrors(`flip set ${k}`, mutant, !big)]++;
    }
    // The flips exercise both paths: some are detected, some land in values that stay readable.
    assert.ok(outcomes.error > 0 && outcomes.ok > 0, `outcomes ${JSON.stringify(outcomes)}`);
  });
}

test('the time-ordered streams yield every drawable the query does where the leaves leave a gap in time', async () => {
  // A damaged TreeDir (fuzz case views:248:77): one leaf's earliest is ∞, so no window finds it and
  // the leaves before and after it leave a gap; two drawables of an upper node start in the gap.
  const bytes = new Uint8Array(fs.readFileSync(fixture('regressions/views-248-77.bin')));
  const file = await Slog2File.open(new MemorySource('gap.slog2', bytes));
  const [a, b] = file.timeRange;
  const key = (d: { readonly category: number; readonly earliest: number; readonly latest: number }): string => `${d.category}@${d.earliest}-${d.latest}`;
  for (const [t0, t1] of [
    [a, b],
    [a, a + (b - a) * 0.39],
    [a + (b - a) * 0.2, a + (b - a) * 0.6],
  ] as const) {
    const queried: string[] = [];
    for await (const s of file.query(t0, t1, { lowestDepth: 0 })) for (const d of s.drawables) queried.push(key(d));
    const inOrder: string[] = [];
    for await (const d of file.drawablesInTimeOrder(t0, t1)) inOrder.push(key(d));
    let columns = 0;
    for await (const batch of primitiveBatchesInTimeOrder(file, t0, t1)) columns += batch.rows;
    assert.deepEqual([...inOrder].sort(), [...queried].sort(), `drawablesInTimeOrder over [${t0}, ${t1}]`);
    assert.equal(columns, queried.length, `primitiveBatchesInTimeOrder over [${t0}, ${t1}]`);
  }
});
