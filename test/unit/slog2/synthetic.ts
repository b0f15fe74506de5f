// A tiny SLOG-2 writer for tests: builds files the reference converter never makes (2.0.5,
// unknown categories, NaN ratios, blocks beyond 4 GiB). Layout per SLOG2.md §2–§7.

export class ByteWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private grow(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): this {
    this.grow(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
    return this;
  }
  i16(v: number): this {
    this.grow(2);
    this.view.setInt16(this.length, v);
    this.length += 2;
    return this;
  }
  i32(v: number): this {
    this.grow(4);
    this.view.setInt32(this.length, v);
    this.length += 4;
    return this;
  }
  i64(v: number): this {
    this.grow(8);
    this.view.setBigInt64(this.length, BigInt(v));
    this.length += 8;
    return this;
  }
  f32(v: number): this {
    this.grow(4);
    this.view.setFloat32(this.length, v);
    this.length += 4;
    return this;
  }
  f64(v: number): this {
    this.grow(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
    return this;
  }
  str(s: string): this {
    const b = new TextEncoder().encode(s);
    this.i16(b.length);
    this.bytes(b);
    return this;
  }
  bytes(b: Uint8Array): this {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export type Version = 'SLOG 2.0.6' | 'SLOG 2.0.5';

export interface SynPrimitive {
  category: number;
  vertices: [number, number][];
  info?: Uint8Array;
}
export interface SynShadow {
  category: number;
  vertices: [number, number][];
  earliest: number;
  latest: number;
  n: number;
  weights: [number, number, number, number][];
}
export interface SynCategory {
  index: number;
  name: string;
  topology: number;
  argb: number;
  keys?: string[];
  types?: string;
}

function primitiveBody(w: ByteWriter, p: SynPrimitive): void {
  w.i32(p.category).i16(p.info?.length ?? 0);
  if (p.info) w.bytes(p.info);
  w.i16(p.vertices.length);
  for (const [t, l] of p.vertices) w.f64(t).i32(l);
}

function bounds(vs: [number, number][]): [number, number] {
  return [Math.min(...vs.map((v) => v[0])), Math.max(...vs.map((v) => v[0]))];
}

/**
 * Two-level tree: root (1,0) holding `rootDrawables` and one ShadowBuffer for the leaf (0,0) with
 * `shadows`; leaf (0,0) holding `leafDrawables` (primitives; kind byte may be overridden).
 * Returns header bytes (108) and the block bytes to be written at `base`.
 */
export function buildSynthetic(opts: {
  version?: Version;
  base?: number;
  categories: SynCategory[];
  leafDrawables: SynPrimitive[];
  rootDrawables?: SynPrimitive[];
  shadows?: SynShadow[];
  kindByte?: number;
}): { header: Uint8Array; blocks: Uint8Array; base: number } {
  const version = opts.version ?? 'SLOG 2.0.6';
  const base = opts.base ?? 108;
  const blocks = new ByteWriter();
  const all = [...opts.leafDrawables, ...(opts.rootDrawables ?? [])];
  const range = bounds(all.flatMap((d) => d.vertices));

  const nodeBlock = (depth: number, xpos: number, fptr: number, drawables: SynPrimitive[], child?: { fptr: number; size: number }, size = 0): Uint8Array => {
    const w = new ByteWriter();
    const b = drawables.length ? bounds(drawables.flatMap((d) => d.vertices)) : range;
    w.f64(depth === 1 ? range[0] : b[0])
      .f64(depth === 1 ? range[1] : b[1])
      .i16(depth)
      .i32(xpos)
      .i64(fptr)
      .i32(size);
    w.i32(0).i32(drawables.length);
    for (const d of drawables) {
      w.u8(opts.kindByte ?? 0);
      primitiveBody(w, d);
    }
    if (child) {
      w.i32(1);
      w.f64(range[0]).f64(range[1]).i16(0).i32(0).i64(child.fptr).i32(child.size);
      const shadows = opts.shadows ?? [];
      w.i32(0).i32(shadows.length);
      for (const s of shadows) {
        w.i32(s.category).i16(0).i16(s.vertices.length);
        for (const [t, l] of s.vertices) w.f64(t).i32(l);
        w.f64(s.earliest).f64(s.latest).i64(s.n).i32(s.weights.length);
        for (const [c, incl, excl, count] of s.weights) {
          w.i32(c).f32(incl).f32(excl);
          if (version === 'SLOG 2.0.6') w.i64(count);
        }
      }
    } else w.i32(0);
    return w.done();
  };
  // Sizes first (the node header stores its own size), then the real blocks.
  const leafFptr = base;
  const leafSize = nodeBlock(0, 0, leafFptr, opts.leafDrawables).length;
  const leaf = nodeBlock(0, 0, leafFptr, opts.leafDrawables, undefined, leafSize);
  blocks.bytes(leaf);
  const rootFptr = base + blocks.length;
  const rootSize = nodeBlock(1, 0, rootFptr, opts.rootDrawables ?? [], { fptr: leafFptr, size: leafSize }).length;
  blocks.bytes(nodeBlock(1, 0, rootFptr, opts.rootDrawables ?? [], { fptr: leafFptr, size: leafSize }, rootSize));

  const cat = new ByteWriter();
  cat.i32(opts.categories.length);
  for (const c of opts.categories) {
    cat.i32(c.index).str(c.name).i32(c.topology).i32(c.argb).u8(1).u8(1);
    cat.i16(c.keys?.length ?? 0);
    for (const k of c.keys ?? []) cat.str(k);
    cat.i16(c.types?.length ?? 0);
    for (const ch of c.types ?? '') cat.u8(ch.charCodeAt(0));
    cat.i16(0);
    if (version === 'SLOG 2.0.6') cat.f32(0).f32(0).i64(0);
  }
  const catFb = { fptr: base + blocks.length, size: cat.length };
  blocks.bytes(cat.done());

  const lines = [...new Set(all.flatMap((d) => d.vertices.map((v) => v[1])))].sort((a, b) => a - b);
  const maps = new ByteWriter();
  maps.i32(1).str('Identity Map').i32(1).str('LineID').i32(lines.length);
  for (const l of lines) maps.i32(l).i32(l);
  maps.i16(0);
  const mapFb = { fptr: base + blocks.length, size: maps.length };
  blocks.bytes(maps.done());

  const dir = new ByteWriter();
  dir.i32(2);
  dir.i16(1).i32(0).f64(range[0]).f64(range[1]).i64(rootFptr).i32(rootSize);
  const leafBounds = opts.leafDrawables.length ? bounds(opts.leafDrawables.flatMap((d) => d.vertices)) : range;
  dir.i16(0).i32(0).f64(leafBounds[0]).f64(leafBounds[1]).i64(leafFptr).i32(leafSize);
  const dirFb = { fptr: base + blocks.length, size: dir.length };
  blocks.bytes(dir.done());

  const maxBuf = Math.max(leafSize, rootSize, catFb.size, mapFb.size, dirFb.size);
  const h = new ByteWriter();
  h.str(version).i16(2).i32(65536).i16(1).i32(maxBuf);
  const fb = (x: { fptr: number; size: number } | undefined) => h.i64(x?.fptr ?? 0).i32(x?.size ?? 0);
  fb(catFb);
  fb(undefined);
  fb(mapFb);
  fb({ fptr: rootFptr, size: rootSize });
  fb(dirFb);
  fb(undefined);
  fb(undefined);
  return { header: h.done(), blocks: blocks.done(), base };
}

/** Header and blocks in one contiguous buffer (base must be 108). */
export function contiguous(f: { header: Uint8Array; blocks: Uint8Array; base: number }): Uint8Array {
  if (f.base !== 108) throw new Error('contiguous() needs base 108');
  const out = new Uint8Array(108 + f.blocks.length);
  out.set(f.header);
  out.set(f.blocks, 108);
  return out;
}
