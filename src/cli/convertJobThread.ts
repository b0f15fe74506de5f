/**
 * dist/convertJob.js: the job thread of a two-thread `mpe-trace convert` (jobThread.ts), started by
 * dist/cli.js (launch.ts) with the command line. It holds the convert command alone, not the whole
 * CLI: ~450 KB for the thread to load instead of ~780 KB.
 */
import { isMainThread } from 'node:worker_threads';
import { runConvert } from './commands/convert';
import { finishJobThread } from './jobThread';
import { reportFailure } from './programOutput';

if (isMainThread) {
  process.stderr.write('mpe-trace: convertJob.js is the job thread of dist/cli.js convert; run dist/cli.js\n');
  process.exitCode = 2;
} else {
  // [execPath, this script, 'convert', ...the command's arguments] (runsInJobThread: never --help)
  const args = process.argv.slice(3);
  finishJobThread(runConvert(args).catch(reportFailure));
}
