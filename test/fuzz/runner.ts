/**
 * Fuzz runner (`npm run fuzz -- [--cases N] [--seed S] [--target T] [--time-limit-ms MS] [--case ID]`).
 * Runs seeded cases one at a time in a worker_thread with V8 heap limits; a watchdog terminates the
 * worker when a case exceeds the time limit (hang) or the process RSS exceeds its cap, and an
 * ERR_WORKER_OUT_OF_MEMORY is caught as a failure. Failing inputs are minimised (shortest failing
 * prefix) and saved under test/fixtures/regressions/ with a JSON note; the regression test replays them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { formatCaseId, idFromFileName, makeCase, parseCaseId, targetOf, type CaseId } from './cases';
import { loadCorpus, type Seed } from './corpus';
import type { CaseResult, ToWorker } from './protocol';
import { TARGETS, type Target } from './targets';

type FailureKind = 'crash' | 'invariant' | 'hang' | 'slow' | 'oom' | 'memory';

interface RunResult {
  readonly outcome: CaseResult['outcome'] | 'hang' | 'slow' | 'oom' | 'memory';
  readonly ms: number;
  readonly cpuMs?: number;
  readonly message?: string;
  readonly stack?: string;
  readonly steps?: readonly string[];
  readonly seedName?: string;
}

interface Options {
  readonly cases: number;
  readonly seed: number;
  readonly targets: readonly Target[];
  readonly timeLimitMs: number;
  /** The watchdog kills a case after timeLimitMs × wallSlack of wall time (a hang). */
  readonly wallSlack: number;
  readonly heapMb: number;
  readonly rssMb: number;
  readonly saveDir: string | undefined;
  readonly single: CaseId | undefined;
  readonly quiet: boolean;
  readonly json: boolean;
  readonly maxFailures: number;
  readonly jobs: number;
  /** Stop starting cases after this many seconds (0 = no budget): keeps the CI slice bounded on a slow machine. */
  readonly timeBudgetS: number;
  /** Harness self-test: case 1 hangs / crashes / exhausts the heap / grows RSS on purpose. */
  readonly selfTest: string | undefined;
  readonly dumpTo: string | undefined;
  readonly replay: string | undefined;
  readonly root: string;
}

function parseOptions(argv: readonly string[], root: string): Options {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${name} needs a value`);
    return v;
  };
  const int = (name: string, def: number): number => {
    const v = value(name);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${v}`);
    return n;
  };
  const known = new Set([
    '--cases',
    '--seed',
    '--target',
    '--time-limit-ms',
    '--wall-slack',
    '--heap-mb',
    '--rss-mb',
    '--save-dir',
    '--case',
    '--max-failures',
    '--jobs',
    '--time-budget-s',
    '--self-test',
    '--out',
    '--replay',
    '--no-save',
    '--quiet',
    '--json',
  ]);
  for (const a of argv) if (a.startsWith('--') && !known.has(a)) throw new Error(`unknown option ${a}`);
  const target = value('--target') ?? 'all';
  if (target !== 'all' && !(TARGETS as readonly string[]).includes(target)) throw new Error(`--target must be one of all, ${TARGETS.join(', ')}`);
  const caseText = value('--case');
  return {
    cases: int('--cases', 2000),
    seed: int('--seed', Math.floor(Math.random() * 2 ** 31)),
    targets: target === 'all' ? TARGETS : [target as Target],
    timeLimitMs: int('--time-limit-ms', 2000),
    wallSlack: Math.max(1, int('--wall-slack', 5)),
    heapMb: int('--heap-mb', 256),
    rssMb: int('--rss-mb', 1536),
    saveDir: argv.includes('--no-save') ? undefined : path.resolve(root, value('--save-dir') ?? 'test/fixtures/regressions'),
    single: caseText === undefined ? undefined : parseCaseId(caseText),
    quiet: argv.includes('--quiet'),
    json: argv.includes('--json'),
    maxFailures: int('--max-failures', 20),
    jobs: int('--jobs', 1),
    timeBudgetS: int('--time-budget-s', 0),
    selfTest: value('--self-test'),
    dumpTo: value('--out'),
    replay: value('--replay'),
    root,
  };
}

/** Cases running now, kept in a file (run.mjs reports them if a fatal error kills this process). */
const inFlight = new Set<string>();
function writeInFlight(): void {
  const file = process.env.FUZZ_IN_FLIGHT_FILE;
  if (file !== undefined) fs.writeFileSync(file, JSON.stringify([...inFlight]));
}

/** One worker thread plus its watchdog; respawned after a hang, an OOM or a death. */
class CaseWorker {
  private worker: Worker | undefined;
  private current: Worker | undefined;
  private onMessage: ((m: unknown) => void) | undefined;
  private onFailure: ((kind: 'oom' | 'died', message: string) => void) | undefined;
  seeds: string[] = [];

  constructor(private readonly options: Options) {}

  private async spawn(): Promise<Worker> {
    const w = new Worker(path.join(__dirname, 'worker.js'), {
      workerData: { root: this.options.root, selfTest: this.options.selfTest, slowMs: this.options.timeLimitMs * 1.5 },
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    // Events of a worker already terminated (a hang) must not reach the handlers of its successor.
    this.current = w;
    w.on('message', (m) => {
      if ((m as { selfTestAbort?: boolean }).selfTestAbort === true) process.abort();
      if (this.current === w) this.onMessage?.(m);
    });
    w.on('error', (e: Error & { code?: string }) => {
      if (this.current === w) this.onFailure?.(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'oom' : 'died', `${e.name}: ${e.message}`);
    });
    w.on('exit', (code) => {
      if (this.current === w) this.onFailure?.('died', `worker exited with code ${code}`);
    });
    const ready = await new Promise<{ ready: string[] }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the fuzz worker did not load the corpus within 120 s')), 120_000);
      this.onMessage = (m) => {
        clearTimeout(timer);
        resolve(m as { ready: string[] });
      };
      this.onFailure = (_k, message) => {
        clearTimeout(timer);
        reject(new Error(`the fuzz worker failed while loading the corpus: ${message}`));
      };
    });
    this.seeds = ready.ready;
    this.worker = w;
    return w;
  }

  async run(msg: ToWorker): Promise<RunResult> {
    inFlight.add(formatCaseId(msg.id));
    writeInFlight();
    try {
      return await this.runOnce(msg);
    } finally {
      inFlight.delete(formatCaseId(msg.id));
      writeInFlight();
    }
  }

  private async runOnce(msg: ToWorker): Promise<RunResult> {
    const w = this.worker ?? (await this.spawn());
    const started = performance.now();
    const result = await new Promise<RunResult>((resolve) => {
      const done = (r: RunResult): void => {
        clearTimeout(timer);
        clearInterval(memory);
        this.onMessage = undefined;
        this.onFailure = undefined;
        resolve(r);
      };
      const kill = (r: RunResult): void => {
        this.worker = undefined;
        this.current = undefined;
        this.onFailure = undefined;
        void w.terminate();
        done(r);
      };
      const wallLimit = this.options.timeLimitMs * this.options.wallSlack;
      const timer = setTimeout(
        () => kill({ outcome: 'hang', ms: performance.now() - started, message: `did not finish within ${wallLimit} ms of wall time` }),
        wallLimit,
      );
      const memory = setInterval(() => {
        const rss = process.memoryUsage.rss();
        if (rss > this.options.rssMb * 2 ** 20)
          kill({
            outcome: 'memory',
            ms: performance.now() - started,
            message: `process RSS ${Math.round(rss / 2 ** 20)} MB exceeded the ${this.options.rssMb} MB cap`,
          });
      }, 20);
      this.onMessage = (m) => {
        const r = m as CaseResult;
        const ms = performance.now() - started;
        // The time invariant: CPU time with one worker (exact), wall time with several (CPU is shared).
        const used = this.options.jobs === 1 ? r.cpuMs : ms;
        if (!isFailure(r) && used > this.options.timeLimitMs) {
          done({
            ...r,
            outcome: 'slow',
            ms,
            message: `took ${used.toFixed(0)} ms of ${this.options.jobs === 1 ? 'CPU' : 'wall'} time for ${r.bytes} bytes (limit ${this.options.timeLimitMs} ms); it ended: ${r.outcome}${r.message ? ` (${r.message})` : ''}`,
          });
        } else done({ ...r, ms });
      };
      this.onFailure = (kind, message) => {
        this.worker = undefined;
        this.current = undefined;
        void w.terminate();
        done({ outcome: kind === 'oom' ? 'oom' : 'crash', ms: performance.now() - started, message });
      };
      w.postMessage(msg);
    });
    return result;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.current = undefined;
    this.onFailure = undefined;
    if (w) await w.terminate();
  }
}

function isFailure(r: RunResult): r is RunResult & { outcome: FailureKind } {
  return r.outcome !== 'ok' && r.outcome !== 'rejected' && r.outcome !== 'known';
}

/** The failure's shape: kind plus message with numbers masked, so a minimised input must fail the same way. */
function shape(r: RunResult): string {
  return `${r.outcome}:${(r.message ?? '').replace(/\d+(\.\d+)?(e[+-]?\d+)?/g, '#').slice(0, 120)}`;
}

/** Shortest failing prefix by bisection (the formats are read front to back, so prefixes usually keep the bug). */
async function minimise(
  worker: CaseWorker,
  id: CaseId,
  bytes: Uint8Array,
  failure: RunResult,
  extra: { truncatedAt?: number; endLogEnd?: number },
): Promise<Uint8Array> {
  const want = shape(failure);
  const budget = failure.outcome === 'hang' ? 4 : 24;
  let lo = 0;
  let hi = bytes.length;
  for (let tries = 0; tries < budget && hi - lo > 1; tries++) {
    const mid = Math.floor((lo + hi) / 2);
    const r = await worker.run({ type: 'replay', id, bytes: bytes.slice(0, mid), ...extra });
    if (isFailure(r) && shape(r) === want) hi = mid;
    else lo = mid;
  }
  return bytes.slice(0, hi);
}

function describe(r: RunResult): string {
  return `${r.outcome.toUpperCase()} after ${timing(r)}: ${r.message ?? ''}`;
}

function timing(r: RunResult): string {
  return `${r.ms.toFixed(0)} ms wall${r.cpuMs === undefined ? '' : `, ${r.cpuMs.toFixed(0)} ms CPU`}`;
}

export async function main(argv: readonly string[], root: string): Promise<number> {
  const options = parseOptions(argv, root);
  const workers = Array.from({ length: Math.max(1, options.jobs) }, () => new CaseWorker(options));
  const worker = workers[0]!;
  const log = (s: string): void => {
    if (!options.quiet) console.log(s);
  };
  let corpus: Seed[] | undefined;
  const getCorpus = async (): Promise<Seed[]> => (corpus ??= await loadCorpus(root));
  const started = performance.now();
  try {
    if (options.dumpTo !== undefined) {
      if (options.single === undefined) throw new Error('--out needs --case ID');
      const c = makeCase(options.single, await getCorpus());
      fs.writeFileSync(options.dumpTo, c.bytes);
      console.log(
        `case ${formatCaseId(options.single)}: ${c.bytes.length} bytes written to ${options.dumpTo} (seed input ${c.seedName}; mutations: ${c.steps.join('; ')})`,
      );
      return 0;
    }
    if (options.replay !== undefined) {
      // A saved input (e.g. test/fixtures/regressions/clog2-1-266.bin): its target and case id come from the name.
      const id = idFromFileName(path.basename(options.replay)) ?? { target: options.targets[0]!, seed: 0, index: 0 };
      const r = await worker.run({ type: 'replay', id, bytes: new Uint8Array(fs.readFileSync(options.replay)) });
      console.log(`${options.replay} through ${id.target}: ${isFailure(r) ? describe(r) : `${r.outcome} in ${timing(r)}${r.message ? `: ${r.message}` : ''}`}`);
      if (r.stack) console.log(r.stack);
      return isFailure(r) ? 1 : 0;
    }
    if (options.single !== undefined) {
      const r = await worker.run({ type: 'run', id: options.single });
      console.log(`case ${formatCaseId(options.single)}: seed input ${r.seedName ?? '?'}; mutations: ${(r.steps ?? []).join('; ') || '(see below)'}`);
      console.log(!isFailure(r) ? `${r.outcome} in ${timing(r)}${r.message ? `: ${r.message}` : ''}` : describe(r));
      if (r.stack) console.log(r.stack);
      if (isFailure(r) && (r.outcome === 'hang' || r.outcome === 'oom' || r.outcome === 'memory')) {
        const c = makeCase(options.single, await getCorpus());
        console.log(`seed input ${c.seedName}; mutations: ${c.steps.join('; ')}`);
      }
      return isFailure(r) ? 1 : 0;
    }
    // Targets without seeds (old CLOG needs ../shared/traces) are left out, and said so.
    await worker.run({ type: 'replay', id: { target: 'convert', seed: 0, index: 0 }, bytes: new Uint8Array(0) });
    const seedFormats = new Set(worker.seeds.map((s) => /\((\w+),/.exec(s)?.[1]));
    const targets = options.targets.filter(
      (t) =>
        t === 'convert' || t === 'writer' || seedFormats.has(t === 'views' || t === 'rowindex' ? 'slog2' : t === 'shapes' || t === 'directindex' ? 'clog2' : t),
    );
    for (const t of options.targets)
      if (!targets.includes(t)) log(`fuzz: target ${t} skipped: no seed inputs of that format (../shared/traces/upstream/fpilog.clog missing?)`);
    if (targets.length === 0) throw new Error('no target has seed inputs');
    log(
      `fuzz: seed ${options.seed}, ${options.cases} cases, ${workers.length} worker(s), targets ${targets.join(', ')}, ${worker.seeds.length} seed inputs, limit ${options.timeLimitMs} ms ${options.jobs === 1 ? 'CPU' : 'wall'} (watchdog ${options.timeLimitMs * options.wallSlack} ms wall) / heap ${options.heapMb} MB / RSS ${options.rssMb} MB`,
    );

    const perTarget = new Map<Target, { cases: number; ok: number; rejected: number; known: number; slowestMs: number; slowestId: string }>();
    const failures: { id: string; result: RunResult; saved?: string }[] = [];
    let next = 0;
    let done = 0;
    let stoppedByBudget = false;
    // One lane per worker thread (--jobs); case ids do not depend on which lane runs them.
    const lane = async (w: CaseWorker): Promise<void> => {
      for (;;) {
        const index = next++;
        if (index >= options.cases || failures.length >= options.maxFailures) return;
        if (options.timeBudgetS > 0 && performance.now() - started > options.timeBudgetS * 1000) {
          stoppedByBudget = true;
          return;
        }
        const id: CaseId = { target: targetOf(options.seed, index, targets), seed: options.seed, index };
        const r = await w.run({ type: 'run', id });
        const stats = perTarget.get(id.target) ?? { cases: 0, ok: 0, rejected: 0, known: 0, slowestMs: 0, slowestId: '' };
        perTarget.set(id.target, stats);
        stats.cases++;
        const used = r.cpuMs ?? r.ms;
        if (used > stats.slowestMs) {
          stats.slowestMs = used;
          stats.slowestId = formatCaseId(id);
        }
        if (r.outcome === 'ok') stats.ok++;
        else if (r.outcome === 'rejected') stats.rejected++;
        else if (r.outcome === 'known') stats.known++;
        if (isFailure(r)) await report(w, id, r);
        if (++done % 1000 === 0) log(`fuzz: ${done} cases, ${failures.length} failures, ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    };
    const report = async (w: CaseWorker, id: CaseId, r: RunResult): Promise<void> => {
      const text = formatCaseId(id);
      console.log(`FAIL case ${text} (reproduce: npm run fuzz -- --case ${text}) ${describe(r)}`);
      const c = options.saveDir !== undefined || r.seedName === undefined ? makeCase(id, await getCorpus()) : undefined;
      console.log(`  seed input ${c?.seedName ?? r.seedName}; mutations: ${(c?.steps ?? r.steps ?? []).join('; ')}`);
      if (r.stack)
        console.log(
          r.stack
            .split('\n')
            .slice(0, 8)
            .map((l) => `  ${l}`)
            .join('\n'),
        );
      const failure: { id: string; result: RunResult; saved?: string } = { id: text, result: r };
      failures.push(failure);
      if (options.saveDir === undefined || c === undefined) return;
      const extra = { truncatedAt: c.truncatedAt, endLogEnd: c.endLogEnd };
      const small = await minimise(w, id, c.bytes, r, extra);
      fs.mkdirSync(options.saveDir, { recursive: true });
      const base = path.join(options.saveDir, `${id.target}-${id.seed}-${id.index}`);
      fs.writeFileSync(`${base}.bin`, small);
      const note = { case: text, kind: r.outcome, message: r.message, seedInput: c.seedName, mutations: c.steps, originalBytes: c.bytes.length, ...extra };
      fs.writeFileSync(`${base}.json`, `${JSON.stringify(note, null, 2)}\n`);
      failure.saved = `${base}.bin (${small.length} of ${c.bytes.length} bytes)`;
      console.log(`  saved ${failure.saved}`);
    };
    await Promise.all(workers.map(lane));
    const seconds = (performance.now() - started) / 1000;
    const total = [...perTarget.values()].reduce((n, s) => n + s.cases, 0);
    console.log(
      `fuzz: seed ${options.seed}: ${total} cases in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)}/s), ${failures.length} failures${stoppedByBudget ? ` (stopped by the ${options.timeBudgetS} s time budget; ${options.cases} were asked)` : ''}`,
    );
    for (const [t, s] of perTarget)
      console.log(
        `  ${t}: ${s.cases} cases (${s.ok} read, ${s.rejected} refused with a FormatError${s.known > 0 ? `, ${s.known} known refusals` : ''}), slowest ${s.slowestMs.toFixed(0)} ms CPU (${s.slowestId})`,
      );
    if (options.json) {
      const summary = {
        seed: options.seed,
        cases: total,
        asked: options.cases,
        stoppedByBudget,
        seconds,
        failures: failures.map((f) => ({ id: f.id, outcome: f.result.outcome, message: f.result.message })),
        targets: Object.fromEntries(perTarget),
      };
      console.log(`FUZZ-SUMMARY ${JSON.stringify(summary)}`);
    }
    return failures.length > 0 ? 1 : 0;
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}
