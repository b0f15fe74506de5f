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

/**
 * How a thread ended, told by the thread that started it to another that uses it (the CLI's main
 * thread to its job thread, for the converter thread it started and handed over:
 * src/convert/converterHandoff.ts); the thread's own protocol runs over a port between the two.
 */
export interface ThreadExit {
  readonly kind: 'exit';
  readonly code: number;
}

/** It failed outside its protocol: an uncaught error, or its heap cap. */
export interface ThreadCrash {
  readonly kind: 'crash';
  readonly outOfMemory: boolean;
  readonly error: SerializedError;
}

export type ThreadEvent = ThreadExit | ThreadCrash;

export function isThreadEvent(m: unknown): m is ThreadEvent {
  if (!isRecord(m)) return false;
  if (m.kind === 'exit') return typeof m.code === 'number';
  return m.kind === 'crash' && typeof m.outOfMemory === 'boolean' && isSerializedError(m.error);
}
