/**
 * The 8 info bytes of an arrow (i32 tag, i32 size, big-endian), one shared read-only array per
 * (tag, size) pair. A direct-mapped table answers the pairs a trace repeats (one slot compare); a
 * Map keyed by one number made of the pair holds the rest. The Map alone hashed a heap number per
 * message: ~50 ms of the converter thread's ~1.5 s on the 2-rank bench trace (2.2 M arrows).
 */

/** Direct-mapped slots (a power of two). */
const SLOTS = 1024;
/** Pairs the Map keeps before it starts again (a trace of ever new tags must not grow it). */
const MAP_LIMIT = 1 << 16;

const EMPTY = new Uint8Array(0);

export class MessageInfos {
  private readonly tags = new Int32Array(SLOTS);
  private readonly sizes = new Int32Array(SLOTS);
  private readonly infos: Uint8Array[] = Array.from({ length: SLOTS }, () => EMPTY);
  /** By (tag | 0) · 2^32 + (size >>> 0): the pair the bytes are made of, as one key. */
  private readonly byPair = new Map<number, Uint8Array>();

  /** The info bytes of a message of `tag` and `size` (only their low 32 bits count, as in the bytes). */
  of(tag: number, size: number): Uint8Array {
    const t = tag | 0;
    const s = size | 0;
    const slot = Math.imul(t ^ Math.imul(s, 0x9e3779b1), 0x85ebca6b) >>> 22;
    const hit = this.infos[slot]!;
    if (hit !== EMPTY && this.tags[slot] === t && this.sizes[slot] === s) return hit;
    const info = this.fromMap(t, s);
    this.tags[slot] = t;
    this.sizes[slot] = s;
    this.infos[slot] = info;
    return info;
  }

  private fromMap(t: number, s: number): Uint8Array {
    const key = t * 4294967296 + (s >>> 0);
    let info = this.byPair.get(key);
    if (info === undefined) {
      info = new Uint8Array([t >>> 24, (t >>> 16) & 255, (t >>> 8) & 255, t & 255, s >>> 24, (s >>> 16) & 255, (s >>> 8) & 255, s & 255]);
      if (this.byPair.size >= MAP_LIMIT) this.byPair.clear();
      this.byPair.set(key, info);
    }
    return info;
  }
}
