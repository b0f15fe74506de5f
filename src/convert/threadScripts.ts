/**
 * What the caller side of the converter and decoder threads shares: finding a thread's script
 * next to the running bundle, and stopping a thread gently.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';

/** How long a thread asked to stop may take before it is terminated. */
const STOP_GRACE_MS = 3000;

/** `dist/<name>` next to the running bundle (dist/cli.js, dist/cliMain.js, dist/worker.js, dist/analysis.js), if it is there. */
export function bundledScript(name: 'converter.js' | 'decoder.js' | 'worker.js' | 'convertJob.js'): string | undefined {
  const script = path.join(__dirname, name);
  return fs.existsSync(script) ? script : undefined;
}

/**
 * Asks a thread to end by itself (`stop`: it closes its port and its event loop runs dry), and
 * terminates it only if it has not within a grace period. (terminate() while V8 compiles the
 * thread's code in the background can abort the whole process: a Node platform assertion seen in CI.)
 */
export async function stopThread(worker: Worker, stop: () => void): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  stop();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
  const outcome = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') await worker.terminate();
}
