/**
 * Fuzz worker (a worker_thread with V8 heap limits): loads the corpus once, then runs the cases the
 * runner sends, one at a time, and reports each outcome. The runner's watchdog terminates this
 * thread when a case exceeds its time limit or the process exceeds its memory cap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { makeCase, targetRng, type CaseId } from './cases';
import { loadCorpus, type Seed } from './corpus';
import { classify, runTarget } from './targets';
import type { CaseResult, ToWorker } from './protocol';
import { threadCpuMs } from '../helpers/threadCpu';

const port = parentPort!;
let corpus: Seed[] = [];

async function execute(
  id: CaseId,
  bytes: Uint8Array,
  truncatedAt: number | undefined,
  endLogEnd: number | undefined,
  meta: { seedName: string; steps: readonly string[] },
): Promise<CaseResult> {
  const started = performance.now();
  // This thread's CPU time (threadCpu.ts): the time limit is checked on it, so a machine shared
  // with other jobs does not turn slow wall time into failures.
  const cpu0 = threadCpuMs();
  const cpuMs = (): number => threadCpuMs() - cpu0;
  try {
    await runTarget(id.target, bytes, targetRng(id), { truncatedAt, endLogEnd });
    return { id, outcome: 'ok', ms: performance.now() - started, cpuMs: cpuMs(), bytes: bytes.length, ...meta };
  } catch (e) {
    const ms = performance.now() - started;
    const outcome = classify(e);
    if (outcome === 'rejected' || outcome === 'known') return { id, outcome, ms, cpuMs: cpuMs(), bytes: bytes.length, message: (e as Error).message, ...meta };
    const err = e instanceof Error ? e : new Error(String(e));
    return { id, outcome, ms, cpuMs: cpuMs(), bytes: bytes.length, message: `${err.name}: ${err.message}`, stack: err.stack, ...meta };
  }
}

const selfTest = (workerData as { selfTest?: string }).selfTest;

/** `--self-test KIND`: case 1 misbehaves on purpose, so a test can see the watchdog and caps catch it (hang, crash, slow, oom, memory, fatal). */
function misbehave(kind: string): void {
  if (kind === 'hang') for (;;);
  if (kind === 'crash') throw new TypeError('self-test crash');
  if (kind === 'slow') {
    // Spin on CPU time, not wall time: the limit is checked on CPU time.
    const cpu0 = threadCpuMs();
    const limit = (workerData as { slowMs: number }).slowMs;
    while (threadCpuMs() - cpu0 < limit);
    return;
  }
  // Stands for a fatal V8 error (seen: a heap limit hit while a huge Map grows aborts the whole
  // process): workers cannot abort, so the runner is asked to.
  if (kind === 'fatal') {
    port.postMessage({ selfTestAbort: true });
    for (;;);
  }
  const keep: unknown[] = [];
  // 'oom': V8 heap (caught by resourceLimits); 'memory': array buffers outside the heap (caught by the RSS cap).
  for (;;) keep.push(kind === 'oom' ? new Array(1 << 16).fill({ x: keep.length }) : new Uint8Array(64 << 20).fill(1));
}

port.on('message', (msg: ToWorker) => {
  void (async () => {
    if (selfTest !== undefined && msg.type === 'run' && msg.id.index === 1) {
      try {
        const started = performance.now();
        const cpu0 = threadCpuMs();
        misbehave(selfTest);
        port.postMessage({
          id: msg.id,
          outcome: 'ok',
          ms: performance.now() - started,
          cpuMs: threadCpuMs() - cpu0,
          bytes: 0,
          seedName: 'self-test',
          steps: [],
        });
      } catch (e) {
        port.postMessage({ id: msg.id, outcome: 'crash', ms: 0, cpuMs: 0, bytes: 0, seedName: 'self-test', steps: [], message: String(e) });
      }
      return;
    }
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
