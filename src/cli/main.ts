/**
 * mpe-trace: the command-line tool over the format core, for batch use on clusters.
 * Each subcommand lives in src/cli/commands/<name>.ts and exports `run(argv): Promise<number>`.
 * Errors: exit code 2 and one line on stderr (`file:offset: what`), never a stack trace.
 */
import { isFormatError } from '../core/bytes/formatError';
import { escapeControlsOnly } from '../core/text/safeText';
import { TargetExistsError } from '../io/atomicWrite';
import { UsageError } from './args';
import { COMMANDS } from './registry';
import { runInJobThread, runsInJobThread } from './jobThread';
import { jobThreadInput, startConverterFor } from './commands/convert';
import { isMainThread } from 'node:worker_threads';
// Subcommand registrations: one import per command in commands/index.ts.
import './commands/index';

function usage(): string {
  const lines = [...COMMANDS].map(([n, c]) => `  ${n.padEnd(8)} ${c.summary}`);
  return `usage: mpe-trace <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.get(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    if (command) {
      process.stdout.write(`${command.usage}\n`);
      return 0;
    }
  }
  if (!command) {
    process.stderr.write(`mpe-trace: unknown command '${name}'\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    process.stderr.write(errorText(e));
    return 2;
  }
}

/** The error's one line, escaped (it may quote the file or the arguments), then any usage text. */
function errorText(e: unknown): string {
  const usageText = e instanceof UsageError && e.usage ? `${e.usage}\n` : '';
  return `${escapeControlsOnly(describeError(e))}\n${usageText}`;
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

if (require.main === module) {
  const argv = process.argv.slice(2);
  const failed = (e: unknown): number => {
    process.stderr.write(errorText(e));
    return 2;
  };
  if (isMainThread)
    // The reader went away (`mpe-trace dump big.slog2 | head`): stop quietly, as a pipe's writer
    // does, instead of an unhandled 'error' event's stack trace.
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      process.exit(0);
    });
  const jobInput = runsInJobThread(argv) ? jobThreadInput(argv.slice(1)) : undefined;
  if (!isMainThread) {
    // a job thread (jobThread.ts): its exit code is the process's; nothing may keep it alive after
    // the command, and its output reaches the main thread's streams before the thread ends
    void main(argv)
      .catch(failed)
      .then((code) => {
        process.exitCode = code;
        setTimeout(() => process.exit(code), 1000).unref();
      });
  } else if (jobInput !== undefined) {
    // its converter thread starts now, beside the job thread, not once the job thread is up
    void runInJobThread(__filename, argv, startConverterFor(jobInput)).then((code) => {
      process.exitCode = code;
    });
  } else
    main(argv).then(
      (code) => process.exit(code),
      (e) => process.exit(failed(e)),
    );
}
