/**
 * Short byte spans (a drawable's info bytes: 32 cargo bytes for most states of a CLOG2 trace)
 * copied four bytes at a time: the writer encodes one or more per drawable, and for 32 bytes a
 * byte loop costs about three times as much, `set` on a fresh `subarray` about twice (its allocation).
 */

/** Copies `length` bytes from `src` at `from` to `dst` at `to` (DataView offsets, bounds-checked by the views); returns `to + length`. */
export function copyBytes(src: DataView, from: number, dst: DataView, to: number, length: number): number {
  const end = to + length;
  for (; to + 4 <= end; from += 4, to += 4) dst.setInt32(to, src.getInt32(from));
  for (; to < end; from++, to++) dst.setUint8(to, src.getUint8(from));
  return end;
}
