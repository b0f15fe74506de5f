/**
 * `mpe-trace analyze FILE [--from T] [--to T] [--json]`: why the run is slow — wait states
 * (late sender/receiver, wait at barrier and N×N collectives, late broadcast, early reduce), the
 * critical path and trace problems (unmatched messages, receive-before-send, time order,
 * UnknownType categories, truncation, dropped records). SLOG-2 is read leaf by leaf twice (bounded
 * memory); CLOG2/CLOG inputs are converted once in memory through the same open path as `stats`.
 */
import { analysisJson, analyzeTrace, PATTERNS, type AnalysisInput, type AnalysisResult, type ConversionProblems } from '../../core/analysis';
import type { ConversionSummary } from '../../core/formats/convert/result';
import type { DrawableFilter } from '../../core/formats/slog2/columnStream';
import type { Drawable } from '../../core/model/types';
import { numberOption, parseArgs, UsageError } from '../args';
import { openTrace, type OpenedTrace } from '../openTrace';
import { registerCommand } from '../registry';

const USAGE =
  'usage: mpe-trace analyze FILE [--from T] [--to T] [--json]\n' +
  '  Wait states per pattern (seconds, per rank, per state name and call site), the critical path\n' +
  '  (length, composition, imbalance) and trace problems, for [from, to] (default the whole trace).\n' +
  '  --json: {waitStates: {lateSender, lateReceiver, waitAtBarrier, waitAtNxN, lateBroadcast,\n' +
  '  earlyReduce: {time, count, byRank, byCategory, bySite, byRankAndState, max}}, criticalPath: {length, byCategory, ...},\n' +
  '  problems: [{kind, count, message, instances}], messages, collectives, notes}.';

function conversionProblems(s: ConversionSummary): ConversionProblems {
  const u = s.unmatched;
  return {
    unmatchedSends: u.sends,
    unmatchedReceives: u.receives,
    openStates: u.openStates.reduce((a, o) => a + o.count, 0),
    truncated: s.truncated,
    droppedRecords: u.droppedRecords + u.droppedFinals,
    outOfOrder: s.outOfOrder,
  };
}

/** CLOG inputs can be read once per open: keep the (already in-memory) drawables for the second pass. */
async function clogInput(trace: OpenedTrace, from: number | undefined, to: number | undefined): Promise<AnalysisInput> {
  const all: Drawable[] = [];
  for await (const d of trace.drawables(-Infinity, Infinity)) all.push(d);
  const s = trace.conversion;
  const whole = s?.timeRange ?? [0, 0];
  const range = [from ?? whole[0], to ?? whole[1]] as const;
  return {
    categories: trace.categories,
    lineIDMaps: trace.lineIDMaps,
    range,
    ...(s !== undefined ? { conversion: conversionProblems(s) } : {}),
    async *batches(t0, t1) {
      const inRange = all.filter((d) => d.earliest <= t1 && t0 <= d.latest);
      for (let i = 0; i < inRange.length; i += 4096) yield inRange.slice(i, i + 4096);
    },
  };
}

function fmt(v: number): string {
  return v === 0 ? '0' : v.toPrecision(4);
}

function top(rec: Record<string, number>, n: number): string {
  return Object.entries(rec)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ');
}

export function formatAnalysis(r: AnalysisResult): string {
  const out: string[] = [];
  out.push(`range ${r.range[0]} .. ${r.range[1]} s; ${r.messages.matched} messages, ${r.collectives.instances} collective instances`);
  out.push('');
  out.push('wait state      time (s)   count  by rank (top 4) | by call (top 3)');
  for (const p of PATTERNS) {
    const t = r.waitStates[p];
    out.push(`${p.padEnd(14)}  ${fmt(t.time).padStart(8)}  ${String(t.count).padStart(6)}  ${top(t.byRank, 4) || '-'} | ${top(t.byCategory, 3) || '-'}`);
  }
  const cp = r.criticalPath;
  out.push('');
  out.push(`critical path   ${fmt(cp.length)} s (${cp.start} .. ${cp.end}), ${cp.segments.length} segments`);
  out.push(`  by state      ${top(cp.byCategory, 6) || '-'}`);
  out.push(`  by rank       ${top(cp.byRank, 6) || '-'}`);
  if (Object.keys(cp.imbalance).length > 0) out.push(`  imbalance     ${top(cp.imbalance, 6)}`);
  out.push('');
  if (r.problems.length === 0) out.push('problems        none');
  for (const p of r.problems) {
    out.push(`problem ${p.kind} (${p.count}): ${p.message}`);
    for (const i of p.instances.slice(0, 5)) out.push(`  ${i.text}`);
  }
  for (const n of r.notes) out.push(`note: ${n}`);
  return out.join('\n') + '\n';
}

export async function runAnalyze(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--from', '--to'], ['--json']);
  if (args.positionals.length !== 1) throw new UsageError(`analyze needs exactly one FILE`, USAGE);
  const from = numberOption(args, '--from');
  const to = numberOption(args, '--to');
  if (from !== undefined && to !== undefined && !(from <= to)) throw new UsageError(`--from ${from} is after --to ${to}`);
  const trace = await openTrace(args.positionals[0]!);
  try {
    let input: AnalysisInput;
    if (trace.format === 'slog2') {
      const whole = trace.timeRange ?? (await trace.info()).timeRange;
      input = {
        categories: trace.categories,
        lineIDMaps: trace.lineIDMaps,
        range: [from ?? whole[0], to ?? whole[1]],
        batches: (t0, t1) => trace.drawableBatches(t0, t1),
        ...(trace.primitiveBatches !== undefined
          ? { primitiveBatches: (t0: number, t1: number, keep?: DrawableFilter) => trace.primitiveBatches!(t0, t1, keep) }
          : {}),
        ...trace.analysis,
      };
    } else input = await clogInput(trace, from, to);
    const result = await analyzeTrace(input);
    // Waits for the write: main() exits the process when the command returns (a pipe takes 64 KiB at a time).
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(args.flags.has('--json') ? JSON.stringify(analysisJson(result)) + '\n' : formatAnalysis(result), (e) => (e ? reject(e) : resolve())),
    );
    for (const w of trace.warnings) process.stderr.write(`warning: ${w}\n`);
    return 0;
  } finally {
    await trace.close();
  }
}

registerCommand('analyze', { summary: 'wait states, critical path and trace problems (why the run is slow)', usage: USAGE, run: runAnalyze });
