// Shadow buffers as columns (src/core/formats/slog2/shadowTable.ts): the table and the objects made
// from it equal the reader's shadow-by-shadow decoding (parseShadow), with the same drops,
// warnings and categories seen, for random sections in both SLOG-2 versions and for every buffer
// of the fixtures and of a file of our converter; and the straight walk over a section (walkShadows) never passes where the
// checked walk (skipShadow) would fail, on damaged sections too; windows built from the tables
// equal those built from the objects; each kept shadow's weights in drawing order.
// Registered twice: with the WebAssembly kernel (shadowTable.test.ts) and without it
// (shadowTableNoWasm.test.ts), whose JS loop must give the same.
import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryReader } from '../../../src/core/bytes/binaryReader';
import { decodeShadowTable, shadowObjects, walkShadows } from '../../../src/core/formats/slog2/shadowTable';
import { parseDrawableEntry, parseNodeHeader, parseShadow, skipShadow, type NodeParseContext } from '../../../src/core/formats/slog2/treeNode';
import type { Slog2Version } from '../../../src/core/formats/slog2/header';
import type { CategoryWeight, Shadow } from '../../../src/core/model/types';
import { Prng } from '../../../src/core/synth/prng';
import { FIXTURE_TRACES, openFixtureSlog2 } from '../../helpers/fixtureTraces';
import { synthSlog2 } from '../rowIndex/rowIndexHelpers';
import { buildWindow, type WindowSource } from '../../../src/core/query/buildWindow';
import { defaultMapIndex, rowLayoutOf } from '../../../src/core/query/rows';
import { comparable } from '../../helpers/windowComparable';

const under = (rng: Prng, n: number): number => rng.int(0, n - 1);

/** Registers the cases, their names prefixed with `label` (which decoder runs). */
export function shadowTableCases(label: string): void {
  const test = (name: string, fn: () => void | Promise<void>): void => void nodeTest(`${label}: ${name}`, fn);
  registerCases(test);
}

type Register = (name: string, fn: () => void | Promise<void>) => void;

/** A context that records what the decoder reports: categories with their offsets, warnings. */
function recorder(version: Slog2Version): NodeParseContext & { seen: number[]; seenAt: string[]; warnings: string[] } {
  const seen: number[] = [];
  const seenAt: string[] = [];
  const warnings: string[] = [];
  const seeCategory = (c: number, at: number): void => {
    seen.push(c);
    seenAt.push(`${c}@${at}`);
  };
  return { version, seen, seenAt, warnings, seeCategory, warn: (m) => warnings.push(m) };
}

/** The categories' first places, of a record of every occurrence. */
function firstPlaces(r: { seen: number[]; seenAt: string[] }): string[] {
  return r.seenAt.filter((_, i) => r.seen.indexOf(r.seen[i]!) === i);
}

/** Each shadow's weights in drawing order, by a sort with a comparator (ShadowTable.weightOrder). */
function drawingOrder(weights: readonly CategoryWeight[]): CategoryWeight[] {
  const ratio = (x: number): number => (Number.isFinite(x) ? x : 0);
  return [...weights].sort((a, b) => ratio(b.excl) - ratio(a.excl) || ratio(b.incl) - ratio(a.incl) || a.category - b.category);
}

/** A shadow section (two counted lists) of random shadows, some with NaN or infinite times. */
function randomSection(rng: Prng, version: Slog2Version, spread = 45): { bytes: Uint8Array; counts: [number, number] } {
  const out: number[] = [];
  const view = new DataView(new ArrayBuffer(8));
  const put = (n: number, set: (v: DataView) => void): void => {
    set(view);
    for (let i = 0; i < n; i++) out.push(view.getUint8(i));
  };
  const most = spread > 45 ? 60 : 6;
  const counts: [number, number] = [under(rng, most), under(rng, most)];
  const time = (): number => (under(rng, 25) === 0 ? [Number.NaN, Infinity, -Infinity][under(rng, 3)]! : rng.next() * 100);
  for (const n of counts) {
    put(4, (v) => v.setInt32(0, n));
    for (let k = 0; k < n; k++) {
      put(4, (v) => v.setInt32(0, [-1, -2, -3, under(rng, spread - 5)][under(rng, 4)]!));
      const info = under(rng, 3) === 0 ? under(rng, 9) : 0;
      put(2, (v) => v.setInt16(0, info));
      for (let i = 0; i < info; i++) out.push(under(rng, 256));
      const nverts = 1 + under(rng, 3);
      put(2, (v) => v.setInt16(0, nverts));
      for (let i = 0; i < nverts; i++) {
        put(8, (v) => v.setFloat64(0, time()));
        put(4, (v) => v.setInt32(0, under(rng, 70) - 3));
      }
      put(8, (v) => v.setFloat64(0, time()));
      put(8, (v) => v.setFloat64(0, time()));
      put(8, (v) => v.setBigInt64(0, BigInt(under(rng, 1e9))));
      const nweights = under(rng, 7);
      put(4, (v) => v.setInt32(0, nweights));
      for (let w = 0; w < nweights; w++) {
        put(4, (v) => v.setInt32(0, under(rng, spread)));
        // ratios: often tied, NaN or infinite (the drawing order's tie-breaks and its NaN-as-0)
        const ratio = (): number => (under(rng, 3) === 0 ? [0, 0.5, Number.NaN, Infinity, -Infinity][under(rng, 5)]! : rng.next());
        put(4, (v) => v.setFloat32(0, ratio()));
        put(4, (v) => v.setFloat32(0, ratio()));
        if (version === 'SLOG 2.0.6') put(8, (v) => v.setBigInt64(0, BigInt(under(rng, 1e6))));
      }
    }
  }
  return { bytes: Uint8Array.from(out), counts };
}

/** The reader's decoding of a section: parseShadow for each shadow, as treeNode.ts did before tables. */
function readerShadows(bytes: Uint8Array, base: number, counts: readonly [number, number], ctx: NodeParseContext): Shadow[] {
  const r = new BinaryReader(bytes, base, 't.slog2');
  const out: Shadow[] = [];
  for (const n of counts) {
    r.skip(4);
    for (let k = 0; k < n; k++) {
      const s = parseShadow(r, ctx);
      if (s !== undefined) out.push(s);
    }
  }
  assert.equal(r.remaining, 0);
  return out;
}

/** Bytes of the first list's shadows (after its count), by the checked walk. */
function sectionListBytes(bytes: Uint8Array, n: number, version: Slog2Version): number {
  const r = new BinaryReader(bytes, 0, 't.slog2');
  r.pos = 4;
  for (let k = 0; k < n; k++) skipShadow(r, version);
  return r.pos - 4;
}

/** A node block's shadow sections, by the checked walk: where each starts, its counts and its length. */
function sectionsOf(bytes: Uint8Array, version: Slog2Version): { at: number; counts: [number, number]; length: number }[] {
  const r = new BinaryReader(bytes, 0, 't.slog2');
  const ctx = recorder(version);
  parseNodeHeader(r);
  for (let list = 0; list < 2; list++) for (let n = r.i32(); n > 0; n--) parseDrawableEntry(r, ctx);
  const out: { at: number; counts: [number, number]; length: number }[] = [];
  for (let b = r.i32(); b > 0; b--) {
    parseNodeHeader(r);
    const at = r.pos;
    const counts: [number, number] = [0, 0];
    for (let list = 0; list < 2; list++) {
      counts[list] = r.i32();
      for (let k = 0; k < counts[list]!; k++) skipShadow(r, version);
    }
    out.push({ at, counts, length: r.pos - at });
  }
  return out;
}

function registerCases(test: Register): void {
  test('random sections in both versions: the table, its objects, drops, warnings and weight order equal the reader', () => {
    const rng = new Prng(33);
    let dropped = 0;
    let manyCategories = 0;
    for (let round = 0; round < 500; round++) {
      const version: Slog2Version = round % 2 === 0 ? 'SLOG 2.0.6' : 'SLOG 2.0.5';
      // every fifth: hundreds of categories (more than the kernel's first set holds)
      const { bytes, counts } = randomSection(rng, version, round % 5 === 4 ? 2000 : 45);
      const byTable = recorder(version);
      const byReader = recorder(version);
      const table = decodeShadowTable(bytes, 1000, 't.slog2', counts, byTable);
      const expected = readerShadows(bytes, 1000, counts, byReader);
      assert.deepEqual(shadowObjects(table), expected, `round ${round}`);
      assert.equal(table.count, expected.length);
      assert.deepEqual(byTable.warnings, byReader.warnings, `round ${round}: warnings`);
      // each category once, at its first place (the reader sees every occurrence; the file warns once per unknown one)
      assert.deepEqual(byTable.seenAt, firstPlaces(byReader), `round ${round}: categories seen`);
      if (new Set(byReader.seen).size > 128) manyCategories++;
      expected.forEach((shadow, k) => {
        const ordered = Array.from(table.weightOrder.subarray(table.weightStart[k]!, table.weightStart[k + 1]!), (o) => ({
          category: table.weightCategory[o]!,
          incl: table.weightIncl[o]!,
          excl: table.weightExcl[o]!,
          count: table.weightCount[o]!,
        }));
        assert.deepEqual(ordered, drawingOrder(shadow.weights), `round ${round}: shadow ${k}'s weight order`);
      });
      dropped += byReader.warnings.length;
      assert.equal(walkShadows(bytes, 4, counts[0], version === 'SLOG 2.0.6'), 4 + sectionListBytes(bytes, counts[0], version));
    }
    assert.ok(dropped > 10, `some shadows dropped (${dropped})`);
    assert.ok(manyCategories > 20, `sections with more than 128 categories: ${manyCategories}`);
  });

  test('every shadow buffer of the fixtures: the table and its objects equal the reader', async () => {
    let shadows = 0;
    const files = [...FIXTURE_TRACES.map((name) => [name, () => openFixtureSlog2(name)] as const), ['ours', () => synthSlog2(64, 1_500_000)] as const];
    for (const [name, open] of files) {
      const file = await open();
      const version = file.header.version;
      for (const info of file.treeDir) {
        const node = await file.readNode(info);
        const bytes = await file.readBlock(info, 'node');
        const sections = sectionsOf(bytes, version);
        assert.equal(sections.length, node.shadowBuffers.length);
        node.shadowBuffers.forEach((buf, i) => {
          const { at, counts, length } = sections[i]!;
          const expected = readerShadows(bytes.subarray(at, at + length), info.fptr + at, counts, recorder(version));
          assert.deepEqual(buf.shadows, expected, `${name} node (${info.depth},${info.xpos}) buffer ${i}`);
          assert.equal(buf.table?.count, expected.length);
          shadows += expected.length;
        });
      }
    }
    assert.ok(shadows > 2000, `shadows compared: ${shadows}`);
  });

  test('damaged sections: the straight walk stops (−1) wherever the checked walk fails, else ends where it ends', () => {
    const rng = new Prng(8);
    let failed = 0;
    let walked = 0;
    for (let round = 0; round < 3000; round++) {
      const version: Slog2Version = round % 2 === 0 ? 'SLOG 2.0.6' : 'SLOG 2.0.5';
      const { bytes, counts } = randomSection(rng, version);
      const n = counts[0];
      const damaged = bytes.subarray(0, Math.max(4, bytes.length - (under(rng, 4) === 0 ? under(rng, 40) : 0))).slice();
      for (let k = 1 + under(rng, 3); k > 0; k--)
        damaged[4 + under(rng, Math.max(1, damaged.length - 4))] = [0x80, 0x7f, 0xff, 0, under(rng, 256)][under(rng, 5)]!;
      const r = new BinaryReader(damaged, 0, 't.slog2');
      r.pos = 4;
      let checked: number | 'fails';
      try {
        for (let k = 0; k < n; k++) skipShadow(r, version);
        checked = r.pos;
      } catch {
        checked = 'fails';
      }
      const straight = walkShadows(damaged, 4, n, version === 'SLOG 2.0.6');
      if (checked === 'fails') {
        failed++;
        assert.equal(straight, -1, `round ${round}: the checked walk fails, the straight one must stop`);
      } else if (straight !== -1) {
        walked++;
        assert.equal(straight, checked, `round ${round}: the same end`);
      }
    }
    assert.ok(failed > 300 && walked > 300, `both outcomes met: ${failed} failed, ${walked} walked`);
  });

  test('windows at every depth above the leaves: built from the tables, the same payload as from the objects', async () => {
    let shadows = 0;
    for (const file of [await openFixtureSlog2('bigrun_medium_4'), await synthSlog2(64, 1_500_000)]) {
      const mapIndex = defaultMapIndex(file.lineIDMaps);
      const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
      const objects: WindowSource = {
        categories: file.categories,
        get nodesRead() {
          return file.nodesRead;
        },
        query: (t0, t1, options) => file.query(t0, t1, { ...options, shadowTables: false }),
      };
      const [a, b] = file.timeRange;
      const rows = layout.labels.length;
      for (let depth = 1; depth <= file.maxDepth; depth++)
        for (const [t0, t1] of [
          [a, b],
          [a + (b - a) * 0.3, a + (b - a) * 0.45],
        ] as const)
          for (const [rowStart, rowEnd] of [
            [0, rows],
            [1, Math.max(2, rows >> 1)],
          ] as const) {
            const spec = { t0, t1, rowStart, rowEnd, mapIndex, lowestDepth: depth, rowOfLine: layout.rowOfLine };
            const fromTables = await buildWindow(file, spec);
            assert.deepEqual(comparable(fromTables), comparable(await buildWindow(objects, spec)), `depth ${depth} [${t0}, ${t1}] rows ${rowStart}–${rowEnd}`);
            shadows += fromTables.shadows.start.length;
          }
    }
    assert.ok(shadows > 1000, `state shadows compared: ${shadows}`);
  });
}
