/**
 * dist/cli.js, the `mpe-trace` program: a small first bundle. A `convert` worth two threads
 * (convertLaunch.ts) starts its converter thread and its job thread (dist/convertJob.js) from here,
 * without loading the rest of the CLI; every other command line runs in the whole CLI
 * (dist/cliMain.js, main.ts), loaded now. The main thread loaded all of the CLI (~780 KB) before
 * it started either thread: 25-40 ms, then the job thread loaded it again.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { bundledScript } from '../convert/threadScripts';
import { runsInJobThread } from './jobThread';
import { jobThreadInput, runConvertJob } from './convertLaunch';
import { stopQuietlyOnClosedStdout } from './programOutput';

/** The whole CLI's entry (main.ts), as this launcher uses it. */
interface WholeCli {
  readonly runAsProgram: (argv: string[]) => void;
}

function runWholeCli(argv: string[]): void {
  const cli = createRequire(__filename)(path.join(__dirname, 'cliMain.js')) as WholeCli;
  cli.runAsProgram(argv);
}

const argv = process.argv.slice(2);
const jobInput = isMainThread && runsInJobThread(argv) ? jobThreadInput(argv.slice(1)) : undefined;
const jobScript = jobInput !== undefined ? bundledScript('convertJob.js') : undefined;
if (jobInput !== undefined && jobScript !== undefined) {
  stopQuietlyOnClosedStdout();
  runConvertJob(jobScript, argv, jobInput);
} else runWholeCli(argv);
