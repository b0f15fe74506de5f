/**
 * Which trace format a file's first bytes are (there is no common magic): SLOG-2 and CLOG2 by
 * their magic, SLOG-1 by its version 0.7 header, old CLOG by a plausible first record header,
 * ALOG by a first line of six integers with a header type. The order matters: each test is
 * stricter than the ones after it.
 */
import { looksLikeAlog } from './alog/lines';
import { detectClogFormat } from './clog/detect';
import { looksLikeClog2 } from './clog2/preamble';
import type { ConvertibleFormat } from './convert/result';
import { looksLikeSlog1 } from './slog1/header';
import { looksLikeSlog2 } from './slog2/header';

export type InputFormat = 'slog2' | ConvertibleFormat;

export function detectInputFormat(first: Uint8Array): InputFormat | undefined {
  if (looksLikeSlog2(first)) return 'slog2';
  if (looksLikeClog2(first)) return 'clog2';
  if (looksLikeSlog1(first)) return 'slog1';
  const clog = detectClogFormat(first);
  if (clog !== undefined) return clog;
  return looksLikeAlog(first) ? 'alog' : undefined;
}

/** What each format is called in messages. */
export const FORMAT_NAMES: Readonly<Record<InputFormat, string>> = { slog2: 'SLOG-2', clog2: 'CLOG2', clog: 'CLOG', alog: 'ALOG', slog1: 'SLOG-1' };
