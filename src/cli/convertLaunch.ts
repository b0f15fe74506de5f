/**
 * What the CLI's main thread needs to start a `convert` in two threads: whether the command line is
 * worth the job thread, and the converter thread started beside it. Kept apart from the convert
 * command itself so that dist/cli.js (launch.ts) can start both threads without loading the rest of
 * the CLI.
 */
import { bundledConverterScript, worthTwoThreads } from '../convert/convertJob';
import { ConverterHandoff } from '../convert/converterHandoff';
import { converterStart } from '../convert/converterThread';
import { parseArgs, type ParsedArgs } from './args';
import { runInJobThread } from './jobThread';

/** `convert`'s options that take a value, and its flags (commands/convert.ts parses the same). */
export const CONVERT_VALUE_OPTIONS = ['-o', '--output', '--children', '--leaf-bytes'];
export const CONVERT_FLAG_OPTIONS = ['--force', '--quiet', '--index'];

/**
 * Whether a `convert` command line (after the command's name) is worth the CLI's job thread
 * (jobThread.ts: V8 heap limits a process cannot set for itself, which bound a big or wide
 * conversion's peak). Not for an input that converts in one thread anyway (convertJob.ts
 * TWO_THREADS_MIN_BYTES): its heap stays small, and a job thread was a third of a small
 * conversion's time. A command line that does not parse runs where it is, to say so; an input that
 * cannot be read goes to the job thread, which says so.
 */
export function convertNeedsJobThread(argv: readonly string[]): boolean {
  return jobThreadInput(argv) !== undefined;
}

/** The input of a `convert` command line worth the job thread (convertNeedsJobThread), else undefined. */
export function jobThreadInput(argv: readonly string[]): string | undefined {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv, CONVERT_VALUE_OPTIONS, CONVERT_FLAG_OPTIONS);
  } catch {
    return undefined;
  }
  const input = args.positionals[0];
  return args.positionals.length === 1 && input !== undefined && worthTwoThreads(input) ? input : undefined;
}

/**
 * Runs a `convert` command line (`argv`, from its name on) of `input` (from jobThreadInput: worth
 * two threads) in a job thread started from `script`, its converter thread started now beside it,
 * not once the job thread is up; the job's exit code becomes the process's.
 */
export function runConvertJob(script: string, argv: string[], input: string): void {
  void runInJobThread(script, argv, startConverterFor(input)).then((code) => {
    process.exitCode = code;
  });
}

/**
 * The converter thread for a job thread's `convert` of `input`, started now (converterHandoff.ts):
 * on the start runConvert's conversion will ask for, when dist/converter.js is there.
 */
function startConverterFor(input: string): ConverterHandoff | undefined {
  const script = bundledConverterScript();
  return script !== undefined ? new ConverterHandoff(script, converterStart(input)) : undefined;
}
