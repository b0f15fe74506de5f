/** Errors across a thread boundary: a FormatError stays a FormatError naming the file and byte offset, an fs error keeps its code and path. */
import { FormatError } from '../core/bytes/formatError';
import { DrawableOutsideNode } from '../core/formats/slog2/columnStream';
import type { SerializedError } from '../protocol/threadMessages';

export function serializeError(e: unknown): SerializedError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const f = e as Error & { file?: unknown; offset?: unknown; detail?: unknown; code?: unknown; path?: unknown };
  return {
    name: e.name,
    message: e.message,
    file: typeof f.file === 'string' ? f.file : undefined,
    offset: typeof f.offset === 'number' ? f.offset : undefined,
    detail: typeof f.detail === 'string' ? f.detail : undefined,
    code: typeof f.code === 'string' ? f.code : undefined,
    path: typeof f.path === 'string' ? f.path : undefined,
  };
}

export function deserializeError(e: SerializedError): Error {
  if (e.name === 'FormatError' && e.file !== undefined && e.offset !== undefined && e.detail !== undefined) return new FormatError(e.file, e.offset, e.detail);
  // The column stream's refusal, which statistics answer through the object query instead.
  if (e.name === 'DrawableOutsideNode') return new DrawableOutsideNode(e.message);
  const error = e.name === 'RangeError' ? new RangeError(e.message) : new Error(e.message);
  if (e.code !== undefined) (error as NodeJS.ErrnoException).code = e.code;
  if (e.path !== undefined) (error as NodeJS.ErrnoException).path = e.path;
  return error;
}
