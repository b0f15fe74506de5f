// Where the row index of a trace is cached (global storage), shared by the indexer and the cache trim.
import { createHash } from 'node:crypto';
import * as path from 'node:path';

/** Timelines of the index map below which no index is built (few-row traces gain nothing). */
export const ROW_INDEX_MIN_ROWS = 256;

export function rowIndexPathFor(storageDir: string, trace: string): string {
  const key = createHash('sha256').update(trace).digest('hex').slice(0, 32);
  return path.join(storageDir, 'row-index', `${key}.mperowidx`);
}
