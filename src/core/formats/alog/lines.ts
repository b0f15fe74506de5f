/**
 * ALOG text → lines (ALOG.md §1–§2): a push splitter on LF with a bounded line buffer, and the
 * parser of one line (six integers and an optional text). Errors name the byte offset of the
 * line plus its line and column number, since ALOG is a text format people open in an editor.
 */
import { FormatError } from '../../bytes/formatError';

/** Longest line we buffer; clog2alog's longest is well under 100 bytes. */
export const MAX_ALOG_LINE = 64 * 1024;

export interface AlogLine {
  readonly type: number;
  readonly process: number;
  readonly task: number;
  readonly data: number;
  readonly cycle: number;
  /** Integer microseconds (a '.' fraction is accepted, as nupshot reads it with %lf). */
  readonly time: number;
  /** Everything after the single separator following TIME; undefined when absent. */
  readonly text: string | undefined;
  /** 1-based line number and byte offset of the line's first byte. */
  readonly lineNo: number;
  readonly offset: number;
}

const LATIN1 = new TextDecoder('latin1');
const INT = /^[+-]?\d+$/;
const TIME = /^[+-]?\d+(?:\.\d*)?$/;

/** Quick sniff: the first line is a header line of six integers with TYPE in [-100, -1] (ALOG.md §3). */
export function looksLikeAlog(first: Uint8Array): boolean {
  let end = first.indexOf(10);
  if (end < 0) end = Math.min(first.length, 256);
  if (end === 0 || end > 256) return false;
  for (let i = 0; i < end; i++) {
    const b = first[i]!;
    if (b !== 9 && b !== 13 && (b < 32 || b > 126) && b < 160) return false;
  }
  const fields = LATIN1.decode(first.subarray(0, end))
    .trim()
    .split(/[ \t]+/);
  if (fields.length < 6 || !fields.slice(0, 5).every((f) => INT.test(f)) || !TIME.test(fields[5]!)) return false;
  const type = Number(fields[0]);
  return type >= -100 && type <= -1;
}

/** Parses one line (without its LF). Returns undefined for blank and '#' comment lines. */
export function parseAlogLine(file: string, raw: Uint8Array, lineNo: number, offset: number): AlogLine | undefined {
  let s = LATIN1.decode(raw);
  if (s.endsWith('\r')) s = s.slice(0, -1);
  if (s.trim() === '' || s.trimStart().startsWith('#')) return undefined;
  const values: number[] = [];
  let i = 0;
  for (let field = 0; field < 6; field++) {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    const start = i;
    while (i < s.length && s[i] !== ' ' && s[i] !== '\t') i++;
    const token = s.slice(start, i);
    if (token === '') throw at(file, offset, lineNo, start, `expected ${6 - field} more integer field(s) (type, process, task, data, cycle, time)`);
    const ok = field === 5 ? TIME.test(token) : INT.test(token);
    if (!ok) throw at(file, offset, lineNo, start, `field ${field + 1} "${token.slice(0, 40)}" is not ${field === 5 ? 'a time' : 'an integer'}`);
    const v = Number(token);
    if (!Number.isFinite(v) || (field < 5 && !Number.isSafeInteger(v)))
      throw at(file, offset, lineNo, start, `field ${field + 1} "${token.slice(0, 40)}" is out of range`);
    values.push(v);
  }
  // TEXT: the rest after exactly one separator (raw-event lines end with it even when empty).
  const text = i < s.length ? s.slice(i + 1) : undefined;
  return { type: values[0]!, process: values[1]!, task: values[2]!, data: values[3]!, cycle: values[4]!, time: values[5]!, text, lineNo, offset };
}

function at(file: string, offset: number, lineNo: number, column: number, what: string): FormatError {
  return new FormatError(file, offset + column, `line ${lineNo}, column ${column + 1}: ${what}`);
}

/** Splits pushed bytes into LF-terminated lines; the last line may lack its LF. */
export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private lineStart = 0;
  lineNo = 0;
  received = 0;
  /** Whether the input ended with a line that had no LF. */
  unterminated = false;

  constructor(
    private readonly file: string,
    private readonly onLine: (raw: Uint8Array, lineNo: number, offset: number) => void,
  ) {}

  push(chunk: Uint8Array): void {
    let from = 0;
    for (;;) {
      const lf = chunk.indexOf(10, from);
      if (lf < 0) break;
      this.emit(this.joined(chunk.subarray(from, lf)));
      this.received += lf + 1 - from;
      from = lf + 1;
    }
    if (from < chunk.length) {
      const rest = chunk.slice(from);
      this.pendingBytes += rest.length;
      this.received += rest.length;
      if (this.pendingBytes > MAX_ALOG_LINE) {
        throw new FormatError(this.file, this.lineStart, `line ${this.lineNo + 1} is longer than ${MAX_ALOG_LINE} bytes (not an ALOG file?)`);
      }
      this.pending.push(rest);
    }
  }

  end(): void {
    if (this.pendingBytes > 0) {
      this.unterminated = true;
      this.emit(this.joined(new Uint8Array(0)));
    }
  }

  private joined(tail: Uint8Array): Uint8Array {
    if (this.pendingBytes === 0) return tail;
    if (this.pendingBytes + tail.length > MAX_ALOG_LINE) {
      throw new FormatError(this.file, this.lineStart, `line ${this.lineNo + 1} is longer than ${MAX_ALOG_LINE} bytes (not an ALOG file?)`);
    }
    const out = new Uint8Array(this.pendingBytes + tail.length);
    let o = 0;
    for (const p of this.pending) {
      out.set(p, o);
      o += p.length;
    }
    out.set(tail, o);
    this.pending = [];
    this.pendingBytes = 0;
    return out;
  }

  private emit(raw: Uint8Array): void {
    const offset = this.lineStart;
    if (raw.length > MAX_ALOG_LINE)
      throw new FormatError(this.file, offset, `line ${this.lineNo + 1} is longer than ${MAX_ALOG_LINE} bytes (not an ALOG file?)`);
    this.lineNo++;
    this.lineStart += raw.length + 1;
    this.onLine(raw, this.lineNo, offset);
  }
}
