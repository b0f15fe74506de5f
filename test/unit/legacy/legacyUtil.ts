// Shared helpers of the legacy-format tests (ALOG, SLOG-1, MPICH 1.2.0 old CLOG).
import fs from 'node:fs';
import zlib from 'node:zlib';
import { fixture } from '../../helpers/paths';

export const ALOGS = ['cpilog', 'fpilog', 'pmandel', 'srtest'] as const;
export const SLOG1S = ['cpilog', 'fpilog', 'pmandel'] as const;
/** The old-CLOG inputs both converters were run on (pmandel's is gzip'd in the fixtures). */
export const CLOGS: Record<(typeof SLOG1S)[number], string> = { cpilog: 'cpilog.clog', fpilog: 'fpilog.clog', pmandel: 'pmandel.clog.gz' };

export function legacy(name: string): string {
  return fixture(`legacy/${name}`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export function facts(name: string): Json {
  return JSON.parse(fs.readFileSync(legacy(name), 'utf8'));
}

/** A fixture's text, gunzipped when its name ends in .gz. */
export function text(name: string): string {
  const bytes = fs.readFileSync(legacy(name));
  return (name.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('latin1');
}

export function javaDump(base: string): string {
  return fs.existsSync(legacy(`${base}.slog_print_java.txt`)) ? text(`${base}.slog_print_java.txt`) : text(`${base}.slog_print_java.txt.gz`);
}

export function bytes(name: string): Uint8Array {
  const b = fs.readFileSync(legacy(name));
  return new Uint8Array(name.endsWith('.gz') ? zlib.gunzipSync(b) : b);
}

export interface DumpLine {
  name: string;
  kind: string;
  vertices: [number, number][];
}

export function parseJsonLines(s: string): DumpLine[] {
  return s
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as DumpLine);
}

export function countBy<T>(items: Iterable<T>, key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of items) {
    const k = key(t);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
