/**
 * `mpe-trace convert` runs in a worker thread of its own (dist/convertJob.js: the convert command
 * alone, convertJobThread.ts; the whole CLI bundle again where that file is missing), so that
 * its V8 heap limits can be set: a process cannot change its own V8 flags once running, and on the
 * main thread the writer's young generation grows to ~32 MB. Capped at JOB_YOUNG_MB, a 2048-rank
 * conversion peaked at ≤ 250 MB against up to 282 MB, in the same time (7 alternating runs of
 * `ref-2048r-158MB.clog2`: median 3.40 s against 3.24 s, within the spread; 2 ranks 1.61 s against
 * 1.77 s). The main thread relays interruptions (signals reach the main thread only) and passes
 * the exit code on; the job prints and fails exactly as it would on the main thread. A conversion
 * small enough for one thread runs on the main thread (convertLaunch.ts convertNeedsJobThread).
 * The job's converter thread is started by the main thread beside the job thread and handed over
 * to it (convert/converterHandoff.ts), so the two threads' starts overlap instead of following each other.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { ConverterHandoff, ConverterHandoffData, HandedOverConverter } from '../convert/converterHandoff';

/**
 * The job thread's young generation (MB), as the converter thread's (converterThread.ts). 4, not 8:
 * peak RSS 8 MB lower at 16, 2 and 2048 ranks (125, 124, 184 MB against 133, 131, 191) and at
 * 16 384 ranks (263 against 271), in the same time (bench inputs, 5–7 alternating runs, medians,
 * both threads at 4); at 2 MB another 4 MB less, but 2048 ranks ~6 % slower.
 */
const JOB_YOUNG_MB = 4;
/** Its old generation: the main thread's own limit on a 64-bit machine with enough memory. */
const JOB_OLD_MB = 4096;
/** What the main thread posts to a job thread when the run is interrupted. */
const INTERRUPT = 'interrupt';
/** A closed terminal (SIGHUP) is an interruption too. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Commands that run in a job thread (from the main thread of the CLI run as a program). */
export function runsInJobThread(argv: readonly string[]): boolean {
  return isMainThread && argv[0] === 'convert' && !argv.includes('--help') && !argv.includes('-h');
}

/**
 * Runs the CLI with `argv` in a job thread started from `script` (this bundle); resolves with its
 * exit code once it has ended and `converter`'s thread too. A job thread that dies (out of its
 * heap, a crash) is exit code 2 with one line saying so.
 */
export function runInJobThread(script: string, argv: string[], converter?: ConverterHandoff): Promise<number> {
  const data: ConverterHandoffData = converter !== undefined ? { converter: converter.handedOver } : {};
  const worker = new Worker(script, {
    argv,
    workerData: data,
    transferList: converter?.transferList ?? [],
    resourceLimits: { maxYoungGenerationSizeMb: JOB_YOUNG_MB, maxOldGenerationSizeMb: JOB_OLD_MB },
  });
  const interrupt = (): void => worker.postMessage(INTERRUPT);
  for (const s of SIGNALS) process.on(s, interrupt);
  let failure: Error | undefined;
  worker.once('error', (e) => (failure = e));
  return new Promise((resolve) => {
    worker.once('exit', (code) => {
      for (const s of SIGNALS) process.off(s, interrupt);
      if (failure !== undefined) process.stderr.write(`mpe-trace: the ${argv[0]} thread failed: ${failure.message}\n`);
      const exitCode = failure !== undefined ? 2 : code;
      // (ended already when the job was done with it; else stopped now, the job having failed first)
      if (converter === undefined) resolve(exitCode);
      else void converter.close().finally(() => resolve(exitCode));
    });
  });
}

/**
 * In a job thread: ends the thread with the command's exit code, which is the process's. Nothing
 * may keep the thread alive after the command (a second at most), and its output reaches the main
 * thread's streams before the thread ends (process.exit only after the event loop had its turn).
 */
export function finishJobThread(command: Promise<number>): void {
  void command.then((code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), 1000).unref();
  });
}

/** In a job thread: the converter thread started for it (runInJobThread), once; undefined elsewhere and after. */
export function takeConverterHandoff(): HandedOverConverter | undefined {
  if (isMainThread || taken) return undefined;
  taken = true;
  return (workerData as ConverterHandoffData | null)?.converter;
}
let taken = false;

/**
 * Calls `onInterrupt` once when the run is interrupted: a signal on the main thread, the main
 * thread's word in a job thread. Returns what stops listening.
 */
export function onInterruption(onInterrupt: () => void): () => void {
  if (isMainThread) {
    for (const s of SIGNALS) process.once(s, onInterrupt);
    return () => {
      for (const s of SIGNALS) process.off(s, onInterrupt);
    };
  }
  const port = parentPort;
  if (port === null) return () => undefined;
  const onMessage = (m: unknown): void => {
    if (m === INTERRUPT) onInterrupt();
  };
  port.on('message', onMessage);
  return () => {
    port.off('message', onMessage);
    // no listener left: the port does not keep the thread alive
    port.unref();
  };
}
