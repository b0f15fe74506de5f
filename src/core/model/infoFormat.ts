import { javaDouble, javaFloat } from './javaNumber';

/** The eight info value types of SLOG-2 / MPE_Log_pack (SLOG2.md §4.2). */
export const INFO_TYPE_CHARS = 'shdlxXeE';

export interface InfoLayout {
  readonly keys: string[];
  readonly types: string;
}

/**
 * Splits a printf-like info format ("msg_tag=%d, msg_size=%d") into keys and type characters
 * exactly as the reference converter does (SLOG2.md §4.2, CLOG2.md §11.4), quirks included:
 * a trailing empty key is kept, and a format starting with `%` shifts the keys by one.
 */
export function parseInfoFormat(format: string | undefined): InfoLayout {
  if (format === undefined || format === '') return { keys: [], types: '' };
  // Tokens: split at every '%', keeping '%' as its own token (like Java's StringTokenizer(fmt, "%", true)).
  const tokens: string[] = [];
  let cur = '';
  for (const ch of format) {
    if (ch === '%') {
      if (cur !== '') tokens.push(cur);
      tokens.push('%');
      cur = '';
    } else cur += ch;
  }
  if (cur !== '') tokens.push(cur);
  const keys: string[] = [];
  let types = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '%') {
      const next = tokens[++i];
      if (next === undefined) break; // trailing lone '%': the reference fails; we drop it
      types += next[0];
      keys.push(next.slice(1));
    } else {
      keys.push(t);
    }
  }
  return { keys, types };
}

/** Rebuilds a readable format string from keys and types (for display: "iter=%d residual=%E"). */
export function formatFromLayout(keys: readonly string[], types: string): string | undefined {
  if (keys.length === 0 && types.length === 0) return undefined;
  let s = '';
  const n = Math.max(keys.length, types.length);
  for (let i = 0; i < n; i++) {
    if (i < keys.length) s += keys[i];
    if (i < types.length) s += '%' + types[i];
  }
  return s;
}

export type InfoValue = string | number | bigint;

export interface DecodedInfo {
  /** Values decoded in type order (bigint for l/X). */
  readonly values: InfoValue[];
  /** The value strings as the reference prints them. */
  readonly texts: string[];
  /** Set when the bytes could not all be decoded: the reason, and the undecoded rest as hex. */
  readonly problem?: string;
}

const LATIN1 = new TextDecoder('latin1');

/** Decodes big-endian info bytes by type characters; never throws (robust where the reference dies). */
export function decodeInfo(bytes: Uint8Array, types: string): DecodedInfo {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values: InfoValue[] = [];
  const texts: string[] = [];
  let pos = 0;
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!;
    const size = t === 's' ? 2 : t === 'h' ? 2 : t === 'd' || t === 'x' || t === 'e' ? 4 : t === 'l' || t === 'X' || t === 'E' ? 8 : -1;
    if (size < 0) return { values, texts, problem: `unknown info type '${t}'; rest: ${hex(bytes.subarray(pos))}` };
    if (pos + size > bytes.length) return { values, texts, problem: `info bytes too short for '${t}'; rest: ${hex(bytes.subarray(pos))}` };
    switch (t) {
      case 's': {
        const n = dv.getInt16(pos);
        pos += 2;
        const len = Math.max(0, n);
        if (pos + len > bytes.length) return { values, texts, problem: `string of ${n} bytes runs past the info bytes; rest: ${hex(bytes.subarray(pos - 2))}` };
        const s = LATIN1.decode(bytes.subarray(pos, pos + len));
        pos += len;
        values.push(s);
        texts.push(s);
        break;
      }
      case 'h': {
        const v = dv.getInt16(pos);
        pos += 2;
        values.push(v);
        texts.push(String(v));
        break;
      }
      case 'd': {
        const v = dv.getInt32(pos);
        pos += 4;
        values.push(v);
        texts.push(String(v));
        break;
      }
      case 'x': {
        const v = dv.getInt32(pos);
        pos += 4;
        values.push(v);
        texts.push((v >>> 0).toString(16));
        break;
      }
      case 'l': {
        const v = dv.getBigInt64(pos);
        pos += 8;
        values.push(v);
        texts.push(v.toString());
        break;
      }
      case 'X': {
        const v = dv.getBigUint64(pos);
        pos += 8;
        values.push(v);
        texts.push(v.toString(16));
        break;
      }
      case 'e': {
        const v = dv.getFloat32(pos);
        pos += 4;
        values.push(v);
        texts.push(javaFloat(v));
        break;
      }
      case 'E': {
        const v = dv.getFloat64(pos);
        pos += 8;
        values.push(v);
        texts.push(javaDouble(v));
        break;
      }
    }
  }
  return { values, texts };
}

/**
 * The popup text of a drawable, as the reference prints it after `]:` in slog2printserial:
 * keys and values interleaved (key i, then value i), plus the reference's notes when bytes or
 * types are missing. Undecodable bytes are shown as hex instead of failing.
 */
export function infoText(keys: readonly string[], types: string, info: Uint8Array | undefined): string {
  const hasBytes = info !== undefined && info.length > 0;
  if (!hasBytes && types.length === 0) return keys.join('');
  if (hasBytes && types.length === 0) {
    return keys.join('') + "\nCan't decode user byte[] with Missing format chars!";
  }
  if (!hasBytes) {
    let s = '';
    const n = Math.max(keys.length, types.length);
    for (let i = 0; i < n; i++) {
      if (i < keys.length) s += keys[i];
      if (i < types.length) s += 'null';
    }
    return s + '\nMissing user byte[] but Non-empty format chars!';
  }
  const d = decodeInfo(info, types);
  let s = '';
  const n = Math.max(keys.length, d.texts.length);
  for (let i = 0; i < n; i++) {
    if (i < keys.length) s += keys[i];
    if (i < d.texts.length) s += d.texts[i];
  }
  if (d.problem !== undefined) s += ` [${d.problem}]`;
  return s;
}

function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}
