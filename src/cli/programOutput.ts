/**
 * How the CLI program reports: a failed command as one line on stderr (`file:offset: what`), never a
 * stack trace; a reader that went away as the end of the output.
 */
import { isFormatError } from '../core/bytes/formatError';
import { escapeControlsOnly } from '../core/text/safeText';
import { TargetExistsError } from '../io/atomicWrite';
import { UsageError } from './args';

/** The error's one line, escaped (it may quote the file or the arguments), then any usage text. */
export function errorText(e: unknown): string {
  const usageText = e instanceof UsageError && e.usage ? `${e.usage}\n` : '';
  return `${escapeControlsOnly(describeError(e))}\n${usageText}`;
}

/** Reports a failed command (its line on stderr) and returns its exit code, 2. */
export function reportFailure(e: unknown): number {
  process.stderr.write(errorText(e));
  return 2;
}

export function describeError(e: unknown): string {
  if (isFormatError(e)) return e.message;
  if (e instanceof UsageError) return `mpe-trace: ${e.message}`;
  if (e instanceof TargetExistsError) return `${e.path}: already exists (use --force to overwrite it)`;
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === 'string' && typeof err.path === 'string') {
    if (err.message.startsWith(`${err.path}: `)) return err.message;
    return `${err.path}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EEXIST' ? 'already exists' : err.message}`;
  }
  return `mpe-trace: ${err instanceof Error ? err.message : String(e)}`;
}

/**
 * The reader went away (`mpe-trace dump big.slog2 | head`): stop quietly, as a pipe's writer does,
 * instead of an unhandled 'error' event's stack trace. (Main thread: a job thread's stdout is the
 * main thread's.)
 */
export function stopQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
}
