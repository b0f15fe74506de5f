/**
 * What the worker-thread protocols share (converter.ts, decoder.ts): an error carried across the
 * thread boundary, and the record check their guards start from.
 */

/** Enough of an Error to rebuild it on the other side (FormatError fields, errno code). */
export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly file?: string;
  readonly offset?: number;
  readonly detail?: string;
  readonly code?: string;
  /** The file an fs-style error is about (errors must name the file across the thread boundary). */
  readonly path?: string;
}

export function isRecord(m: unknown): m is Record<string, unknown> {
  return typeof m === 'object' && m !== null;
}

/** An `error` message's payload: at least a message to show. */
export function isSerializedError(e: unknown): e is SerializedError {
  return isRecord(e) && typeof e.message === 'string';
}
