/** Helpers for the CLOG2 / CLOG tests: reading fixtures as chunk streams, facts, reference dumps. */
import fs from 'node:fs';
import { gunzipSync } from 'fflate';
import type { ByteChunks } from '../../../src/core/bytes/byteSource';
import { chunksOf } from '../../../src/core/bytes/memorySource';
import { infoText } from '../../../src/core/model/infoFormat';
import type { Category, Primitive } from '../../../src/core/model/types';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipChunks } from '../../../src/io/gzip';

/** A fixture file as a chunk stream; `.gz` files go through the streaming gunzip. */
export async function* fileChunks(path: string, chunkBytes = 1 << 16): ByteChunks {
  const src = await FileSource.open(path);
  try {
    const stream = path.endsWith('.gz') ? gunzipChunks(src, chunkBytes) : chunksOf(src, chunkBytes);
    for await (const c of stream) yield c;
  } finally {
    await src.close();
  }
}

export async function* bytesChunks(bytes: Uint8Array, chunkBytes = 4096): ByteChunks {
  for (let i = 0; i < bytes.length; i += chunkBytes) yield bytes.subarray(i, i + chunkBytes);
}

/** The text of a dump, gunzipped if needed. */
export function readText(path: string): string {
  const raw = fs.readFileSync(path);
  return Buffer.from(path.endsWith('.gz') ? gunzipSync(new Uint8Array(raw)) : raw).toString('latin1');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export function readFacts(path: string): Json {
  // The facts files were written by Python and may contain bare NaN.
  return JSON.parse(fs.readFileSync(path, 'utf8').replace(/\bNaN\b/g, 'null'));
}

export interface DumpDrawable {
  readonly category: number;
  readonly earliest: number;
  readonly latest: number;
  readonly lineIDs: readonly number[];
  /** Vertex times as the dump prints them (Java float precision). */
  readonly times: readonly number[];
  readonly info: string;
}

const LINE =
  /^\d+: Primitive\[ infobox\[ TimeBBox\(([^,]+),([^)]+)\) Category=Category\[ index=(-?\d+), .*? count=\d+ \]: (.*)\] ((?:\([^()]+\) )+)\] bsize=\d+$/;

/** Real (non-preview) primitives of a slog2printrecur/serial dump, one per matching line. */
export function parseDumpDrawables(text: string): DumpDrawable[] {
  const out: DumpDrawable[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const category = Number(m[3]);
    if (category < 0) continue;
    const vertices = [...m[5]!.matchAll(/\(([^,]+), (-?\d+)\)/g)];
    const lineIDs = vertices.map((v) => Number(v[2]));
    const times = vertices.map((v) => Math.fround(Number(v[1])));
    out.push({ category, earliest: Number(m[1]), latest: Number(m[2]), lineIDs, times, info: m[4]! });
  }
  return out;
}

export function dumpKey(d: DumpDrawable): string {
  return `${d.category}|${d.earliest}|${d.latest}|${d.lineIDs.join(',')}|${d.times.join(',')}|${d.info}`;
}

/** The same key for one of our drawables (popup text through infoText, like the reference). */
export function drawableKey(p: Primitive, category: Category): string {
  const info = infoText(category.infoKeys, category.infoTypes, p.info);
  return `${p.category}|${p.earliest}|${p.latest}|${p.vertices.map((v) => v.lineID).join(',')}|${p.vertices.map((v) => Math.fround(v.time)).join(',')}|${info}`;
}

export function multiset(keys: Iterable<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}
