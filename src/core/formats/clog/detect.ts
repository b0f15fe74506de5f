/**
 * Format detection for the CLOG family (CLOG.md §2): CLOG2 starts with "CLOG-"; old CLOG has no
 * magic, so its first 24 bytes must read as a plausible record header (big-endian, or little-endian
 * as a fallback the reference cannot read).
 */
import { looksLikeClog2 } from '../clog2/preamble';

/** Total record length in 8-byte units by old-CLOG rectype (−2 … 8; 0 = UNDEF). */
export const OLD_CLOG_LENGTH = new Map<number, number>([
  [-2, 3],
  [-1, 3],
  [1, 7],
  [2, 6],
  [3, 6],
  [4, 5],
  [5, 6],
  [6, 10],
  [7, 9],
  [8, 4],
]);

/** Byte order under which the first 24 bytes are a plausible old-CLOG header, or undefined. */
export function oldClogByteOrder(first: Uint8Array): 'big' | 'little' | undefined {
  if (first.length < 24) return undefined;
  const dv = new DataView(first.buffer, first.byteOffset, 24);
  for (const little of [false, true]) {
    const rectype = dv.getInt32(8, little);
    const length = dv.getInt32(12, little);
    const procid = dv.getInt32(16, little);
    if (OLD_CLOG_LENGTH.get(rectype) === length && procid >= 0 && procid < 1 << 20) return little ? 'little' : 'big';
  }
  return undefined;
}

export function detectClogFormat(first: Uint8Array): 'clog2' | 'clog' | undefined {
  if (looksLikeClog2(first)) return 'clog2';
  return oldClogByteOrder(first) !== undefined ? 'clog' : undefined;
}
