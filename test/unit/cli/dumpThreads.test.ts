// `mpe-trace dump` of a SLOG-2 file in parts (src/cli/dumpSlog2.ts): the time-ordered stream read
// part by part is the whole stream; the decoder thread formatting every other part gives the same
// bytes (text and JSON, whole file and windows) and the same warnings as one thread; a part the
// thread cannot read fails the dump with the file and offset; the direct text lines equal the
// records' lines, control characters escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { dumpSlog2 } from '../../../src/cli/dumpSlog2';
import { convertFile } from '../../../src/convert/convertJob';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import type { Category, Drawable } from '../../../src/core/model/types';
import { makePrimitive } from '../../../src/core/model/types';
import { DumpLines, dumpParts, dumpRecord, formatDumpLine } from '../../../src/core/info/dumpLines';
import { escapeControlsOnly } from '../../../src/core/text/safeText';
import { FileSource } from '../../../src/io/fileSource';
import { bundleNode } from '../../helpers/bundle';
import { fixture } from '../../helpers/paths';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-dump-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

const decoderScript = bundleNode('src/worker/decoder.ts', path.join(dir, 'decoder.js'));

const FIXTURES = ['ring_p2p_4', 'bigrun_medium_4', 'collectives_8~', 'grid_comms_16~', 'threads_2x3~', 'user_states_4~', 'undescribed_state_2~'];

/**
 * A fixture as a plain file on disk (the thread opens files by path); `name~`: its CLOG2 converted
 * with small leaves (many parts, upper nodes, source locations where the CLOG2 has them).
 */
async function fixtureFile(name: string): Promise<string> {
  const out = path.join(dir, `${name}.slog2`);
  if (fs.existsSync(out)) return out;
  if (name.endsWith('~')) {
    await convertFile(fixture(`${name.slice(0, -1)}.clog2`), out, { leafBytes: 1024 });
    return out;
  }
  const plain = fixture(`${name}.slog2`);
  if (fs.existsSync(plain)) fs.copyFileSync(plain, out);
  else fs.writeFileSync(out, gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
  return out;
}

/** The dump's bytes and warnings, with or without the thread (parts of `partBytes` leaf bytes). */
async function dumped(file: string, t0: number, t1: number, json: boolean, threaded: boolean, partBytes = 1): Promise<{ text: string; warnings: string[] }> {
  const slog2 = await Slog2File.open(await FileSource.open(file));
  const chunks: Buffer[] = [];
  try {
    const warnings = await dumpSlog2(slog2, {
      t0,
      t1,
      json,
      partBytes,
      script: decoderScript,
      threads: threaded ? 2 : 1,
      write: async (t) => void chunks.push(Buffer.from(typeof t === 'string' ? Buffer.from(t) : Buffer.from(t))),
    });
    return { text: Buffer.concat(chunks).toString('utf8'), warnings: [...warnings].sort() };
  } finally {
    await slog2.close();
  }
}

test('the time-ordered stream read part by part, any part size, is the whole stream', async () => {
  for (const name of FIXTURES) {
    const f = await Slog2File.open(new MemorySource(name, fs.readFileSync(await fixtureFile(name))));
    const [a, b] = f.timeRange;
    for (const [t0, t1] of [
      [-Infinity, Infinity],
      [a + (b - a) * 0.3, a + (b - a) * 0.6],
    ] as const) {
      const whole: Drawable[] = [];
      for await (const batch of f.drawableBatchesInTimeOrder(t0, t1)) whole.push(...batch);
      const leaves = f.timeOrderLeaves(t0, t1);
      for (const bytes of [1, 5000, 40000]) {
        const parts = dumpParts(leaves, bytes);
        assert.equal(parts[0]?.from ?? 0, 0);
        assert.equal(parts.at(-1)?.to ?? 0, leaves.length);
        const inParts: Drawable[] = [];
        for (const leavesOfPart of parts) for await (const batch of f.drawableBatchesInTimeOrder(t0, t1, { leaves: leavesOfPart })) inParts.push(...batch);
        assert.equal(inParts.length, whole.length, `${name} [${t0}, ${t1}] parts of ${bytes} bytes`);
        // (by content: a node read again after leaving the cache gives new objects)
        const key = (d: Drawable): string => JSON.stringify(dumpRecord(d, f.categories));
        assert.deepEqual(inParts.map(key), whole.map(key), `${name} [${t0}, ${t1}] parts of ${bytes} bytes: same drawables in the same order`);
      }
    }
    await f.close();
  }
});

test('dump in two threads: the same bytes and warnings as one thread, text and JSON, whole file and a window', async () => {
  let threaded = 0;
  for (const name of FIXTURES) {
    const file = await fixtureFile(name);
    const f = await Slog2File.open(new MemorySource(name, fs.readFileSync(file)));
    const [a, b] = f.timeRange;
    // (a file of one leaf is one part: dumped here alone)
    if (f.timeOrderLeaves().length >= 2) threaded++;
    await f.close();
    for (const [t0, t1] of [
      [-Infinity, Infinity],
      [a + (b - a) * 0.25, a + (b - a) * 0.7],
    ] as const)
      for (const json of [false, true]) {
        const one = await dumped(file, t0, t1, json, false);
        const two = await dumped(file, t0, t1, json, true);
        assert.ok(one.text.length > 0, `${name}: something dumped`);
        assert.equal(two.text, one.text, `${name} [${t0}, ${t1}] json=${json}`);
        assert.deepEqual(two.warnings, one.warnings);
      }
  }
  assert.ok(threaded >= 3, 'fixtures of several leaves');
});

test('a part the thread cannot read fails the dump with the file and the byte offset', async () => {
  const name = 'bigrun_medium_4';
  const bytes = fs.readFileSync(await fixtureFile(name));
  const f = await Slog2File.open(new MemorySource(name, bytes));
  const leaves = f.timeOrderLeaves();
  await f.close();
  // Each leaf is a part (1 byte per part): the thread formats the odd ones; damage the second leaf.
  const leaf = leaves[1]!;
  const damaged = Buffer.from(bytes);
  damaged[leaf.fptr + 34 + 4] = 7; // its first drawable's kind byte
  const file = path.join(dir, 'damaged.slog2');
  fs.writeFileSync(file, damaged);
  await assert.rejects(
    () => dumped(file, -Infinity, Infinity, false, true),
    (e: unknown) => isFormatError(e) && new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: `).test((e as Error).message),
  );
});

test("the direct text line equals the record's line with control characters escaped, composites and odd names included", () => {
  const categories = new Map<number, Category>([
    [
      1,
      {
        index: 1,
        name: 'Compute\u0007\u0085',
        topology: 'state',
        rgba: [1, 2, 3, 255],
        modifiable: true,
        width: 1,
        infoKeys: ['n=', '\u0001x'],
        infoTypes: 'd',
        methods: [],
      },
    ],
    [-3, { index: -3, name: 'Preview', topology: 'arrow', rgba: [1, 2, 3, 255], modifiable: false, width: 5, infoKeys: [], infoTypes: '', methods: [] }],
  ]);
  const info = new Uint8Array([0, 0, 0, 42]);
  const drawables: Drawable[] = [
    makePrimitive(
      1,
      [
        { time: 1e-5, lineID: 0 },
        { time: 2.5, lineID: 0 },
      ],
      info,
    ),
    makePrimitive(-3, [
      { time: 0.001, lineID: 1 },
      { time: 12345678.5, lineID: 2 },
    ]),
    makePrimitive(9, [{ time: 3, lineID: 4 }], undefined, { start: { file: 'src/a\u0001.c', line: 3 }, end: { file: 'b.c', line: 9 } }),
    {
      kind: 'composite',
      category: 1,
      earliest: 1,
      latest: 2,
      info,
      primitives: [
        makePrimitive(-3, [
          { time: 1, lineID: 0 },
          { time: 2, lineID: 1 },
        ]),
        makePrimitive(9, [{ time: 1.5, lineID: 0 }]),
      ],
    },
  ];
  const lines = new DumpLines(categories);
  for (const d of drawables) assert.equal(lines.line(d), escapeControlsOnly(formatDumpLine(dumpRecord(d, categories))));
  assert.match(lines.line(drawables[0]!), /^Compute\\x07\\x85\[1\] state /);
});

test('a file replaced after it was opened (the thread opens it again by path) fails the dump instead of splicing two traces', async () => {
  const file = path.join(dir, 'replaced.slog2');
  fs.copyFileSync(await fixtureFile('bigrun_medium_4'), file);
  const slog2 = await Slog2File.open(await FileSource.open(file));
  const other = path.join(dir, 'other.slog2');
  fs.copyFileSync(await fixtureFile('collectives_8~'), other);
  fs.renameSync(other, file);
  try {
    await assert.rejects(
      () => dumpSlog2(slog2, { t0: -Infinity, t1: Infinity, json: false, partBytes: 1, script: decoderScript, threads: 2, write: async () => undefined }),
      /replaced\.slog2 changed while it was being dumped/,
    );
  } finally {
    await slog2.close();
  }
});
