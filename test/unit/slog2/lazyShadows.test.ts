// Shadow buffers are decoded on first use (treeNode.ts): the result must equal an eager parse with
// parseShadow, structural damage must still refuse the node when it is read, and a shadow with a
// NaN time is still dropped with a warning when it is decoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { BinaryReader } from '../../../src/core/bytes/binaryReader';
import { FormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { NODE_HEADER_BYTES, parseShadow, type NodeParseContext } from '../../../src/core/formats/slog2/treeNode';
import type { Shadow } from '../../../src/core/model/types';
import { fixture } from '../../helpers/paths';
import { synthSlog2 } from '../rowIndex/rowIndexHelpers';
import { buildSynthetic, contiguous, type SynShadow, type Version } from './synthetic';

/** The node's shadow buffers parsed eagerly with parseShadow, after stepping over its drawables with the reader's own parse. */
async function eagerShadows(file: Slog2File, bytes: Uint8Array, fptr: number, drawableEnd: number): Promise<Shadow[][]> {
  const warnings: string[] = [];
  const ctx: NodeParseContext = { version: file.header.version, seeCategory: () => undefined, warn: (m) => warnings.push(m) };
  const r = new BinaryReader(bytes, fptr, file.source.name);
  r.pos = drawableEnd;
  const out: Shadow[][] = [];
  const n = r.i32();
  for (let i = 0; i < n; i++) {
    r.skip(NODE_HEADER_BYTES);
    const shadows: Shadow[] = [];
    for (let list = 0; list < 2; list++) {
      const count = r.i32();
      for (let k = 0; k < count; k++) {
        const s = parseShadow(r, ctx);
        if (s !== undefined) shadows.push(s);
      }
    }
    out.push(shadows);
  }
  return out;
}

/** Offset of the shadow buffer count: the i32 followed by the first child's header (its fptr, an i64 at +22, is known). */
function shadowSectionStart(bytes: Uint8Array, nbufs: number, firstChild: { fptr: number }): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let p = NODE_HEADER_BYTES; p + 4 + NODE_HEADER_BYTES <= bytes.length; p++)
    if (dv.getInt32(p) === nbufs && Number(dv.getBigInt64(p + 4 + 22)) === firstChild.fptr) return p;
  throw new Error('shadow section not found');
}

test('lazily decoded shadows equal an eager parseShadow walk, on every node of the fixtures and of a deep synthetic tree', async () => {
  const files: Slog2File[] = [];
  for (const name of fs.readdirSync(fixture('.')).filter((f) => f.endsWith('.slog2')))
    files.push(await Slog2File.open(new MemorySource(name, new Uint8Array(fs.readFileSync(fixture(name))))));
  files.push(await synthSlog2(32, 1 << 19, 11, 4096));
  let compared = 0;
  for (const file of files) {
    for (let depth = 1; depth <= file.maxDepth; depth++)
      for (const info of file.level(depth)) {
        const node = await file.readNode(info);
        if (node.shadowBuffers.length === 0) continue;
        const bytes = (await file.source.read(info.fptr, info.size)).slice();
        const start = shadowSectionStart(bytes, node.shadowBuffers.length, node.shadowBuffers[0]!.child);
        const eager = await eagerShadows(file, bytes, info.fptr, start);
        assert.deepEqual(
          node.shadowBuffers.map((b) => b.shadows),
          eager,
          `${file.source.name} node (${info.depth},${info.xpos})`,
        );
        compared += eager.reduce((a, s) => a + s.length, 0);
      }
    await file.close();
  }
  assert.ok(compared > 1000, `compared ${compared} shadows`);
});

const shadow = (over: Partial<SynShadow> = {}): SynShadow => ({
  category: -3,
  vertices: [
    [1.25, 0],
    [1.85, 0],
  ],
  earliest: 1,
  latest: 2,
  n: 2 ** 40 + 3,
  weights: [
    [5, 0.5, 0.25, 2 ** 33],
    [5, 0.125, 1, 7],
  ],
  ...over,
});

function build(version: Version, shadows: SynShadow[]): Uint8Array {
  return contiguous(
    buildSynthetic({
      version,
      categories: [
        { index: 5, name: 'Work', topology: 1, argb: 0xff00ff00 | 0 },
        { index: -3, name: 'Preview_State', topology: 1, argb: 0xbfffffff | 0 },
      ],
      leafDrawables: [
        {
          category: 5,
          vertices: [
            [1, 0],
            [2, 0],
          ],
        },
      ],
      shadows,
    }),
  );
}

for (const version of ['SLOG 2.0.6', 'SLOG 2.0.5'] as const) {
  test(`${version}: 64-bit counts read exactly; a NaN shadow is dropped with a warning when decoded`, async () => {
    const file = await Slog2File.open(new MemorySource('lazy.slog2', build(version, [shadow(), shadow({ earliest: NaN })])));
    const root = await file.readNode(file.level(1)[0]!);
    assert.equal(file.warnings.filter((w) => /NaN/.test(w)).length, 0, 'nothing decoded yet');
    const [s, ...rest] = root.shadowBuffers[0]!.shadows;
    assert.equal(rest.length, 0, 'the NaN shadow is dropped');
    assert.equal(s!.numRealObjs, 2 ** 40 + 3);
    assert.deepEqual(
      s!.weights.map((w) => [w.category, w.incl, w.excl]),
      [
        [5, 0.5, 0.25],
        [5, 0.125, 1],
      ],
    );
    assert.deepEqual(
      s!.weights.map((w) => w.count),
      version === 'SLOG 2.0.6' ? [2 ** 33, 7] : [NaN, NaN],
    );
    assert.equal(file.warnings.filter((w) => /shadow with a NaN or infinite time dropped/.test(w)).length, 1);
    assert.equal(root.shadowBuffers[0]!.shadows, root.shadowBuffers[0]!.shadows, 'decoded once');
  });
}

test('a shadow section that overruns its node is refused when the node is read, before any shadow is used', async () => {
  const bytes = build('SLOG 2.0.6', [shadow({ weights: Array.from({ length: 3 }, () => [5, 0.5, 0.5, 1] as [number, number, number, number]) })]);
  // Raise the weight count (the i32 before the weights) so they run past the node's end.
  const dv = new DataView(bytes.buffer);
  let at = -1;
  for (let p = 0; p + 4 <= bytes.length; p++) if (dv.getInt32(p) === 3 && dv.getFloat32(p + 8) === 0.5) at = p;
  assert.ok(at > 0, 'weight count found');
  dv.setInt32(at, 1000);
  const file = await Slog2File.open(new MemorySource('bad.slog2', bytes));
  await assert.rejects(file.readNode(file.level(1)[0]!), (e: unknown) => e instanceof FormatError && /category weight count 1000/.test(e.message));
});
