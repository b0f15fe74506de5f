/**
 * mpe-trace: the command-line tool over the format core, for batch use on clusters.
 * Each subcommand lives in src/cli/commands/<name>.ts and exports `run(argv): Promise<number>`.
 * Errors: exit code 2 and one line on stderr (`file:offset: what`), never a stack trace.
 */
import { bundledScript } from '../convert/threadScripts';
import { COMMANDS } from './registry';
import { reportFailure, stopQuietlyOnClosedStdout } from './programOutput';
import { finishJobThread, runsInJobThread } from './jobThread';
import { jobThreadInput, runConvertJob } from './convertLaunch';
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
    return reportFailure(e);
  }
}

/**
 * The CLI run as a program with `argv` (dist/cli.js hands every command line to this but a
 * two-thread `convert`, which it starts itself: launch.ts). Also the job thread's program where
 * dist/convertJob.js is missing (a bundle of this file alone, as the tests build it).
 */
export function runAsProgram(argv: string[]): void {
  if (isMainThread) stopQuietlyOnClosedStdout();
  const jobInput = runsInJobThread(argv) ? jobThreadInput(argv.slice(1)) : undefined;
  if (!isMainThread) {
    // a job thread (jobThread.ts) started from this bundle
    finishJobThread(main(argv).catch(reportFailure));
  } else if (jobInput !== undefined) runConvertJob(bundledScript('convertJob.js') ?? __filename, argv, jobInput);
  else
    main(argv).then(
      (code) => process.exit(code),
      (e) => process.exit(reportFailure(e)),
    );
}

if (require.main === module) runAsProgram(process.argv.slice(2));
