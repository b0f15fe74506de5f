/**
 * Fuzz worker (a worker_thread with V8 heap limits): loads the corpus once, then runs the cases the
 * runner sends, one at a time, and reports each outcome. The runner's watchdog terminates this
 * thread when a case exceeds its time limit or the process exceeds its memory cap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isFormatError } from '../../src/format/bytes/formatError';
import { makeCase, targetRng, type CaseId } from './cases';
import { loadCorpus, type Seed } from './corpus';
import { runTarget } from './targets';
import type { CaseResult, ToWorker } from './protocol';

const port = parentPort!;
let corpus: Seed[] = [];

async function execute(id: CaseId, bytes: Uint8Array, truncatedAt: number | undefined, endLogEnd: number | undefined, meta: { seedName: string; steps: readonly string[] }): Promise<CaseResult> {
  const started = performance.now();
  // Process CPU time (this thread does nearly all of it while a case runs): the time limit is
  // checked on it, so a machine shared with other jobs does not turn slow wall time into failures.
  const cpu0 = process.cpuUsage();
  const cpuMs = (): number => {
    const d = process.cpuUsage(cpu0);
    return (d.user + d.system) / 1000;
  };
  try {
    await runTarget(id.target, bytes, targetRng(id), { truncatedAt, endLogEnd });
    return { id, outcome: 'ok', ms: performance.now() - started, cpuMs: cpuMs(), bytes: bytes.length, ...meta };
  } catch (e) {
    const ms = performance.now() - started;
    if (isFormatError(e)) return { id, outcome: 'rejected', ms, cpuMs: cpuMs(), bytes: bytes.length, message: e.message, ...meta };
    const err = e instanceof Error ? e : new Error(String(e));
    return { id, outcome: err.name === 'InvariantError' ? 'invariant' : 'crash', ms, cpuMs: cpuMs(), bytes: bytes.length, message: `${err.name}: ${err.message}`, stack: err.stack, ...meta };
  }
}

port.on('message', (msg: ToWorker) => {
  void (async () => {
    if (msg.type === 'run') {
      const c = makeCase(msg.id, corpus);
      port.postMessage(await execute(c.id, c.bytes, c.truncatedAt, c.endLogEnd, { seedName: c.seedName, steps: c.steps }));
    } else {
      port.postMessage(await execute(msg.id, msg.bytes, msg.truncatedAt, msg.endLogEnd, { seedName: 'replay', steps: [] }));
    }
  })();
});

void (async () => {
  corpus = await loadCorpus((workerData as { root: string }).root);
  port.postMessage({ ready: corpus.map((s) => `${s.name} (${s.format}, ${s.bytes.length} bytes)`) });
})();
