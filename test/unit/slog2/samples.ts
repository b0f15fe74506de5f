// The SLOG-2 samples with reference facts and dumps: the fixtures, plus ../shared/traces/upstream when present.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { fixturesDir, sharedTracesDir } from '../../helpers/paths';

export interface Sample {
  readonly name: string;
  /** The .slog2 or .slog2.gz file. */
  readonly file: string;
  readonly facts: string;
  readonly serialDump: string;
  readonly recurDump: string;
}

function samplesIn(dir: string): Sample[] {
  const out: Sample[] = [];
  for (const f of fs.readdirSync(dir).sort()) {
    const m = /^(.*)\.slog2(\.gz)?$/.exec(f);
    if (!m) continue;
    const name = m[1]!;
    const gz = m[2] ?? '';
    const facts = path.join(dir, `${name}.facts.json`);
    if (!fs.existsSync(facts)) continue;
    out.push({
      name,
      file: path.join(dir, f),
      facts,
      serialDump: path.join(dir, `${name}.slog2.txt${gz}`),
      recurDump: path.join(dir, `${name}.slog2recur.txt${gz}`),
    });
  }
  return out;
}

export const samples: Sample[] = [
  ...samplesIn(fixturesDir),
  ...(sharedTracesDir && fs.existsSync(path.join(sharedTracesDir, 'upstream')) ? samplesIn(path.join(sharedTracesDir, 'upstream')) : []),
];

export function sampleBytes(s: Sample): Uint8Array {
  const raw = fs.readFileSync(s.file);
  return new Uint8Array(s.file.endsWith('.gz') ? gunzipSync(raw) : raw);
}

export function sampleSource(s: Sample): MemorySource {
  return new MemorySource(s.file, sampleBytes(s));
}

export interface Slog2Facts {
  header: { version: string; MaxTreeDepth: string };
  time_range: [number, number];
  timelines: { lineids_used_by_drawables: number };
  categories: {
    index: number;
    name: string;
    kind: string;
    color_rgba: number[];
    info_fmt: string | null;
    preview: boolean;
    drawables: number;
    count_field: number;
  }[];
  drawables: { total: number; composites: number; states: number; arrows: number; events: number; printed_by_slog2printserial: number };
}

export function slog2Facts(s: Sample): Slog2Facts {
  // The facts files are Python JSON: bare NaN for 0/0 ratios.
  const text = fs.readFileSync(s.facts, 'utf8').replace(/\bNaN\b/g, 'null');
  return (JSON.parse(text) as { slog2: Slog2Facts }).slog2;
}
