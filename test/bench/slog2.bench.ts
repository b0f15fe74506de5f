// SLOG-2 reader benchmark: for the largest .slog2 in ../shared/traces (else the bigrun fixture):
// open time, a full scan, and 100 random windows at several zoom levels with the level of detail
// picked by chooseLowestDepth: time per window, nodes touched and read (cache misses), drawables
// and shadows returned. Peak memory is printed by the runner's preload. Figures only.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ByteSource } from '../../src/core/bytes/byteSource';
import { MemorySource } from '../../src/core/bytes/memorySource';
import { chooseLowestDepth } from '../../src/core/formats/slog2/levelOfDetail';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../src/io/fileSource';
import { fixture, sharedTracesDir } from '../helpers/paths';
import { describeBaseline, ratio, readScanBaseline } from './baseline';
import { Prng } from '../../src/core/synth/prng';
import { synthBytes, writtenSlog2 } from '../fuzz/corpus';

function largestSlog2(): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.slog2$/.test(e.name)) found.push(p);
    }
  };
  if (sharedTracesDir) walk(sharedTracesDir);
  found.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  return found[0] ?? fixture('bigrun_medium_4.slog2.gz');
}

async function openSource(p: string): Promise<ByteSource> {
  if (p.endsWith('.gz')) return new MemorySource(p, new Uint8Array(gunzipSync(fs.readFileSync(p))));
  return FileSource.open(p);
}

/** Seeded (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}

const fmt = (x: number, d = 2) => x.toFixed(d);

async function main(): Promise<void> {
  const p = largestSlog2();
  const size = fs.statSync(p).size;
  console.log(`file: ${path.relative(process.cwd(), p)} (${(size / 2 ** 20).toFixed(2)} MiB on disk)`);
  const baseline = p.endsWith('.gz') ? undefined : await readScanBaseline(p);
  if (baseline) console.log(describeBaseline(baseline));

  let t = performance.now();
  const file = await Slog2File.open(await openSource(p));
  const openMs = performance.now() - t;
  const [a, b] = file.timeRange;
  console.log(
    `open: ${fmt(openMs)} ms${baseline ? ` (${fmt((openMs / 1000 / baseline.seconds) * 100, 1)} % of reading the whole file)` : ''} (header, ${file.categories.size} categories, ${file.lineIDMaps.length} line-ID maps, ${file.treeDir.length} TreeDir entries, depth ${file.maxDepth}); nodes read at open: ${file.nodesRead}`,
  );

  t = performance.now();
  let total = 0;
  for await (const _ of file.allDrawables()) total++;
  const scanMs = performance.now() - t;
  console.log(`full scan: ${total} drawables, ${file.nodesRead} nodes, ${fmt(scanMs)} ms${baseline ? ` = ${ratio(scanMs / 1000, baseline)}` : ''}`);

  const MAX_NODES = 8;
  console.log(
    `\n100 random windows per zoom level, lowest depth = chooseLowestDepth(window, ${MAX_NODES} nodes); fresh reader (cache 32 nodes) per zoom level`,
  );
  console.log('zoom      depth(min..max)  ms/window(mean  p50   max)  nodes touched  nodes read  drawables  shadows');
  const random = rng(4242);
  for (const zoom of [1, 10, 100, 1000, 10000]) {
    const reader = await Slog2File.open(file.source, { nodeCacheSize: 32 });
    const width = (b - a) / zoom;
    const times: number[] = [];
    let touched = 0;
    let drawables = 0;
    let shadows = 0;
    let dmin = Infinity;
    let dmax = -Infinity;
    for (let k = 0; k < 100; k++) {
      const t0 = a + random() * (b - a - width);
      const t1 = t0 + width;
      const start = performance.now();
      const depth = chooseLowestDepth(reader, t0, t1, MAX_NODES);
      for await (const s of reader.query(t0, t1, { lowestDepth: depth })) {
        touched++;
        drawables += s.drawables.length;
        shadows += s.shadows.length;
      }
      times.push(performance.now() - start);
      dmin = Math.min(dmin, depth);
      dmax = Math.max(dmax, depth);
    }
    times.sort((x, y) => x - y);
    const mean = times.reduce((x, y) => x + y, 0) / times.length;
    console.log(
      `1/${String(zoom).padEnd(6)}  ${`${dmin}..${dmax}`.padEnd(15)}  ${fmt(mean).padStart(14)} ${fmt(times[50]!).padStart(5)} ${fmt(times[99]!).padStart(6)}   ${fmt(touched / 100, 1).padStart(12)}  ${fmt(reader.nodesRead / 100, 2).padStart(10)}  ${fmt(drawables / 100, 0).padStart(9)}  ${fmt(shadows / 100, 0).padStart(7)}`,
    );
  }

  console.log('\nexact windows (lowest depth 0, cold reader per window):');
  for (const zoom of [1, 100, 10000]) {
    const width = (b - a) / zoom;
    let nodes = 0;
    let ms = 0;
    for (let k = 0; k < 20; k++) {
      const reader = await Slog2File.open(file.source);
      const t0 = a + random() * (b - a - width);
      const start = performance.now();
      for await (const _ of reader.query(t0, t0 + width));
      ms += performance.now() - start;
      nodes += reader.nodesRead;
    }
    console.log(`1/${String(zoom).padEnd(6)}  ${fmt(ms / 20)} ms/window, ${fmt(nodes / 20, 1)} nodes read of ${file.treeDir.length}`);
  }
  await file.close();
  await deepTree();
}

/**
 * A header claiming max_treedepth 32767 (the root moved there, the levels between empty) over ~770 leaves
 * (test/unit/limits/deepTree.test.ts checks the result): the work must follow the nodes that exist. About
 * 0.5 s on a loaded 2-core machine; visiting every claimed level per leaf cost ~0.3 s per thousand leaves more.
 */
async function deepTree(): Promise<void> {
  const b = await writtenSlog2(await synthBytes({ ranks: 4, seconds: 0.05, seed: 9, blockSize: 8192 }), 256);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const maxDepth = dv.getInt16(18);
  const treeDir = Number(dv.getBigInt64(24 + 48));
  const entries = dv.getInt32(treeDir);
  let leaves = 0;
  for (let i = 0; i < entries; i++) {
    const e = treeDir + 4 + 34 * i;
    if (dv.getInt16(e) === 0) leaves++;
    if (dv.getInt16(e) === maxDepth) dv.setInt16(e, 32767);
  }
  dv.setInt16(18, 32767);
  const start = performance.now();
  const file = await Slog2File.open(new MemorySource('deep.slog2', b));
  let n = 0;
  for await (const _ of file.allDrawables()) n++;
  for await (const _ of file.drawablesInTimeOrder()) n++;
  console.log(
    `\nmax_treedepth 32767 claimed over ${leaves} leaves: open + full read + time-ordered read (${n / 2} drawables each) ${fmt(performance.now() - start)} ms`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
