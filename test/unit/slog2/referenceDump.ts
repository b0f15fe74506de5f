// Parses the reference printers' text (slog2printserial / slog2printrecur) into comparable records.
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface RefPrimitive {
  readonly category: number;
  /** Vertex times exactly as printed ((float) casts, Java formatting), with lineIDs. */
  readonly vertices: string;
  readonly info: string;
}

export interface RefDrawable extends RefPrimitive {
  readonly composite: boolean;
  readonly members: readonly RefPrimitive[];
  /** TimeBBox as printed (full double precision). */
  readonly earliest: number;
  readonly latest: number;
}

export interface RefShadow {
  readonly category: number;
  readonly vertices: string;
  readonly earliest: number;
  readonly latest: number;
  readonly numRealObjs: number;
  /** "index:incl,excl:count" with ratios as printed (Java float formatting). */
  readonly weights: readonly string[];
}

export interface RefNode {
  readonly depth: number;
  readonly xpos: number;
  readonly drawables: RefDrawable[];
  readonly shadows: RefShadow[];
  readonly complete: boolean;
}

export function readDumpLines(path: string): string[] {
  const raw = fs.readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  return text.split('\n');
}

export function isTruncated(lines: readonly string[]): boolean {
  return lines.some((l) => l.startsWith('### TRUNCATED'));
}

const PRIM =
  /^Primitive\[ infobox\[ TimeBBox\(([^,]+),([^)]+)\) Category=Category\[ index=(-?\d+), .*? count=-?\d+ \]: (.*)\] ((?:\([^()]+, -?\d+\) )+)\] bsize=\d+(?: Nrobjs=(\d+))?$/;
const COMP_HEAD = /^Composite\[ infobox\[ TimeBBox\(([^,]+),([^)]+)\) Category=Category\[ index=(-?\d+), .*? count=-?\d+ \]: (.*?)\] (Primitive\[ .*) \]$/;
const WEIGHT = /^\(type=(-?\d+):.*ratios=([^,]+),([^,]+), count=(-?\d+)\)$/;

function vertexText(v: string): string {
  return v.trim();
}

function parsePrimitive(text: string): (RefPrimitive & { earliest: number; latest: number; nrobjs?: number }) | undefined {
  const m = PRIM.exec(text);
  if (!m) return undefined;
  const r: RefPrimitive & { earliest: number; latest: number; nrobjs?: number } = {
    category: Number(m[3]),
    vertices: vertexText(m[5]!),
    info: m[4]!,
    earliest: Number(m[1]),
    latest: Number(m[2]),
  };
  if (m[6] !== undefined) r.nrobjs = Number(m[6]);
  return r;
}

/** A top-level drawable line "N: Primitive[...]" or "N: Composite[...]" (previews included). */
export function parseDrawableLine(line: string): RefDrawable | undefined {
  const body = line.replace(/^\d+: /, '');
  if (body === line) return undefined;
  if (body.startsWith('Primitive[')) {
    const p = parsePrimitive(body);
    if (!p) throw new Error(`unparsed reference line: ${line}`);
    return { ...p, composite: false, members: [] };
  }
  if (body.startsWith('Composite[')) {
    const m = COMP_HEAD.exec(body);
    if (!m) throw new Error(`unparsed reference composite: ${line}`);
    const members = m[5]!.split(/ (?=Primitive\[ infobox)/).map((s) => {
      const p = parsePrimitive(s);
      if (!p) throw new Error(`unparsed composite member: ${s}`);
      return { category: p.category, vertices: p.vertices, info: p.info };
    });
    return {
      category: Number(m[3]),
      vertices: members.map((x) => x.vertices).join(' '),
      info: m[4]!,
      composite: true,
      members,
      earliest: Number(m[1]),
      latest: Number(m[2]),
    };
  }
  return undefined;
}

/** Real (index >= 0) top-level drawables of a dump, in printed order. */
export function realDrawables(lines: readonly string[]): RefDrawable[] {
  const out: RefDrawable[] = [];
  for (const l of lines) {
    const d = parseDrawableLine(l);
    if (d && d.category >= 0) out.push(d);
  }
  return out;
}

/** The tree-node sections of a slog2printrecur dump with their real drawables and shadows. */
export function recurNodes(lines: readonly string[]): RefNode[] {
  const nodes: RefNode[] = [];
  let cur: { depth: number; xpos: number; drawables: RefDrawable[]; shadows: RefShadow[]; complete: boolean } | undefined;
  let lastShadow: { weights: string[] } | undefined;
  for (const l of lines) {
    const start = /^ {4}BufForDrawables\{ ID\((\d+),(\d+)\)/.exec(l);
    if (start) {
      cur = { depth: Number(start[1]), xpos: Number(start[2]), drawables: [], shadows: [], complete: false };
      nodes.push(cur);
      continue;
    }
    if (!cur) continue;
    if (l.startsWith('\t*** End of TreeNode')) {
      cur.complete = true;
      cur = undefined;
      continue;
    }
    const w = WEIGHT.exec(l);
    if (w && lastShadow) {
      lastShadow.weights.push(`${w[1]}:${w[2]},${w[3]}:${w[4]}`);
      continue;
    }
    const body = l.replace(/^\d+: /, '');
    if (body === l) continue;
    if (body.startsWith('Primitive[')) {
      const p = parsePrimitive(body);
      if (!p) throw new Error(`unparsed recur line: ${l}`);
      if (p.category < 0) {
        const s = { category: p.category, vertices: p.vertices, earliest: p.earliest, latest: p.latest, numRealObjs: p.nrobjs ?? -1, weights: [] as string[] };
        cur.shadows.push(s);
        lastShadow = s;
        continue;
      }
    }
    const d = parseDrawableLine(l);
    if (d) cur.drawables.push(d);
    lastShadow = undefined;
  }
  return nodes;
}
