/**
 * The fuzzer's seed inputs: the fixture traces (bigrun gunzipped), the upstream traces when
 * ../shared/traces is present, and small synthetic CLOG2 files plus their SLOG-2 conversions
 * (which carry the source-location table). Built deterministically, so a case id reproduces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'fflate';
import { convertClog2 } from '../../src/core/formats/clog2/convertClog2';
import { MemorySink, writeConversion } from '../../src/core/formats/slog2/writer';
import { synthesizeClog2, type SynthOptions } from '../../src/core/synth/synthClog2';
import { clog2Structure, clogStructure, NO_STRUCTURE, slog2Structure, type SeedStructure } from './structure';

/** `gz`: a gzip'd small CLOG2 (the `.clog2.gz` path: streaming gunzip, then conversion). */
export type SeedFormat = 'slog2' | 'clog2' | 'clog' | 'gz' | 'alog' | 'slog1';

export interface Seed {
  readonly name: string;
  readonly format: SeedFormat;
  readonly bytes: Uint8Array;
  readonly structure: SeedStructure;
  /** Relative chance of being picked: big seeds are slow to read, so they are picked rarely. */
  readonly weight: number;
}

const SYNTH_CONFIGS: readonly Omit<SynthOptions, 'sink' | 'rewritePreamble'>[] = [
  { ranks: 2, seconds: 0.003, seed: 1, blockSize: 1024 },
  { ranks: 3, threads: 2, seconds: 0.004, seed: 2, blockSize: 2048, srcloc: true },
  { ranks: 1, seconds: 0.002, seed: 3, blockSize: 4096, srcloc: true },
  { ranks: 5, seconds: 0.002, seed: 4, blockSize: 8192 },
];

export async function synthBytes(o: Omit<SynthOptions, 'sink' | 'rewritePreamble'>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let preamble: Uint8Array | undefined;
  await synthesizeClog2({
    ...o,
    sink: async (c) => {
      parts.push(c.slice());
    },
    rewritePreamble: async (p) => {
      preamble = p.slice();
    },
  });
  const out = concat(parts);
  if (preamble) out.set(preamble, 0);
  return out;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A clean CLOG2 converted to SLOG-2 by our writer (small leaves, so the tree has depth). */
export async function writtenSlog2(clog2: Uint8Array, leafBytes: number): Promise<Uint8Array> {
  const sink = new MemorySink();
  await writeConversion(convertClog2(once(clog2), { name: 'seed' }), sink, { leafBytes, childrenPerNode: 2 });
  return sink.bytes();
}

function seed(name: string, format: SeedFormat, bytes: Uint8Array): Seed {
  const structure =
    format === 'slog2' ? slog2Structure(bytes) : format === 'clog2' ? clog2Structure(bytes) : format === 'clog' ? clogStructure(bytes) : NO_STRUCTURE;
  const weight = bytes.length > 1 << 20 ? 0.03 : bytes.length > 200_000 ? 0.3 : 1;
  return { name, format, bytes, structure, weight };
}

export async function loadCorpus(root: string): Promise<Seed[]> {
  const seeds: Seed[] = [];
  const fixtures = path.join(root, 'test', 'fixtures');
  for (const f of fs.readdirSync(fixtures).sort()) {
    const p = path.join(fixtures, f);
    const m = /^(.*)\.(slog2|clog2)(\.gz)?$/.exec(f);
    if (!m) continue;
    const raw = new Uint8Array(fs.readFileSync(p));
    seeds.push(seed(f.replace(/\.gz$/, ''), m[2] as SeedFormat, m[3] ? gunzipSync(raw) : raw));
  }
  // MPICH 1.2.0's old CLOG, ALOG and SLOG-1 files (test/fixtures/legacy).
  const legacy = path.join(fixtures, 'legacy');
  for (const f of fs.existsSync(legacy) ? fs.readdirSync(legacy).sort() : []) {
    const m = /^(.*)\.(clog|alog|slog)(\.gz)?$/.exec(f);
    if (!m) continue;
    const raw = new Uint8Array(fs.readFileSync(path.join(legacy, f)));
    seeds.push(seed(`legacy/${f.replace(/\.gz$/, '')}`, m[2] === 'slog' ? 'slog1' : (m[2] as SeedFormat), m[3] ? gunzipSync(raw) : raw));
  }
  const upstream = path.resolve(root, '..', 'shared', 'traces', 'upstream');
  if (fs.existsSync(upstream)) {
    for (const f of fs.readdirSync(upstream).sort()) {
      if (f.endsWith('.clog')) seeds.push(seed(`upstream/${f}`, 'clog', new Uint8Array(fs.readFileSync(path.join(upstream, f)))));
      if (f.endsWith('.slog2')) seeds.push(seed(`upstream/${f}`, 'slog2', new Uint8Array(fs.readFileSync(path.join(upstream, f)))));
    }
  }
  for (const [i, c] of SYNTH_CONFIGS.entries()) {
    const bytes = await synthBytes(c);
    seeds.push(seed(`synth${i}.clog2`, 'clog2', bytes));
    seeds.push(seed(`synth${i}.slog2`, 'slog2', await writtenSlog2(bytes, 2048)));
  }
  for (const s of seeds.filter((x) => x.format === 'clog2' && x.bytes.length < 100_000).slice(0, 3)) {
    seeds.push(seed(`${s.name}.gz`, 'gz', gzipSync(s.bytes, { level: 6, mtime: 0 })));
  }
  return seeds;
}
