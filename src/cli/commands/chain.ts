/**
 * `mpe-trace chain FILE --rank R --at T [--state NAME] [--forward] [--depth N] [--json]`: the
 * dependence chain of the state rank R is in at time T (innermost, or the one named NAME), as the
 * editor's "Show dependence chain" / "What did this delay?" compute it (core/analysis/dependence.ts)
 * after the wait-state analysis. CLOG2, CLOG, ALOG and SLOG-1 inputs are first converted to a
 * temporary SLOG-2 file (the editor converts them the same way), removed on exit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeTrace } from '../../core/analysis/analyze';
import { traceChainSource } from '../../core/analysis/chainSource';
import { dependenceChain, type ChainDirection, type ChainState } from '../../core/analysis/dependence';
import { lineRoles } from '../../core/analysis/lines';
import { slog2AnalysisInput } from '../../core/analysis/slog2Input';
import { chainEntryText } from '../../core/analysis/waitText';
import { Slog2File } from '../../core/formats/slog2/slog2File';
import { bundledConverterScript, convertFile } from '../../convert/convertJob';
import { intOption, numberOption, parseArgs, UsageError } from '../args';
import { openTraceInput } from '../../io/traceInput';
import { openByteSource } from '../openTrace';
import { registerCommand } from '../registry';

const USAGE =
  'usage: mpe-trace chain FILE --rank R --at T [--state NAME] [--forward] [--depth N] [--json]\n' +
  '  The dependence chain of the state rank R (process view label, e.g. 3 or 3.1) is in at time T (s):\n' +
  '  what it waited for, hop by hop (default), or what it delayed (--forward); N hops (default 8).\n' +
  '  --state: the state named NAME at T (default: the innermost). CLOG2/CLOG/ALOG/SLOG-1 inputs are\n' +
  '  converted to a temporary SLOG-2 first.\n' +
  '  --json: {selected, direction, maxDepth, truncated, nodes: [{rank, state, enter, exit, depth, parent, via,\n' +
  '  wait?, pattern?, causeTime?, effectTime?, text}], notes}.';

/** Waits kept as objects for the walk (about 200 bytes each). */
const MAX_WAITS = 2_000_000;

async function openAsSlog2(file: string): Promise<{ readonly slog2: Slog2File; readonly cleanup: () => Promise<void> }> {
  const input = await openTraceInput(file);
  const format = input.format;
  await input.file.close();
  if (format === 'slog2') {
    const slog2 = await Slog2File.open(await openByteSource(file));
    return { slog2, cleanup: () => slog2.close() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-trace-chain-'));
  const out = path.join(dir, `${path.basename(file)}.slog2`);
  try {
    await convertFile(file, out, { converterScript: bundledConverterScript(file) });
    const slog2 = await Slog2File.open(await openByteSource(out));
    return {
      slog2,
      cleanup: async () => {
        await slog2.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The state on `lineID` at `time`: the innermost one, or the innermost named `name`. */
async function stateAt(file: Slog2File, lineID: number, rank: string, time: number, name: string | undefined): Promise<ChainState | undefined> {
  let best: ChainState | undefined;
  for await (const slice of file.query(time, time)) {
    for (const d of slice.drawables) {
      for (const p of d.kind === 'primitive' ? [d] : d.primitives) {
        const cat = file.categories.get(p.category);
        if (cat?.topology !== 'state' || p.vertices.length !== 2 || p.vertices[0]!.lineID !== lineID) continue;
        if (p.earliest > time || p.latest < time || (name !== undefined && cat.name !== name)) continue;
        if (best === undefined || p.earliest > best.enter || (p.earliest === best.enter && p.latest < best.exit))
          best = { lineID, rank, category: p.category, name: cat.name, enter: p.earliest, exit: p.latest };
      }
    }
  }
  return best;
}

async function runChain(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--rank', '--at', '--state', '--depth'], ['--forward', '--json']);
  if (args.positionals.length !== 1) throw new UsageError(`chain needs exactly one FILE`, USAGE);
  const rank = args.values.get('--rank');
  const at = numberOption(args, '--at');
  if (rank === undefined || at === undefined) throw new UsageError(`chain needs --rank and --at`, USAGE);
  const depth = intOption(args, '--depth', 0, 256) ?? 8;
  const name = args.values.get('--state');
  const direction: ChainDirection = args.flags.has('--forward') ? 'forward' : 'backward';
  const { slog2: file, cleanup } = await openAsSlog2(args.positionals[0]!);
  try {
    const roles = lineRoles(file.lineIDMaps);
    const loc = roles.labels.indexOf(rank);
    if (loc < 0) throw new UsageError(`no rank ${rank} in this trace (ranks: ${roles.labels.slice(0, 8).join(', ')}${roles.labels.length > 8 ? ', …' : ''})`);
    const lineID = roles.lineOf(loc);
    const selected = await stateAt(file, lineID, rank, at, name);
    if (selected === undefined) throw new UsageError(`rank ${rank} is in no state${name !== undefined ? ` named ${name}` : ''} at ${at} s`);
    const result = await analyzeTrace(slog2AnalysisInput(file), { maxInstances: MAX_WAITS });
    const chain = await dependenceChain(traceChainSource(file, result.instances), selected, direction, { maxDepth: depth });
    const notes = result.instancesTruncated ? [`only the first ${MAX_WAITS} waits of the trace are followed`] : [];
    const texts = chain.nodes.map((n) => chainEntryText(n, chain.nodes[n.parent], direction));
    if (args.flags.has('--json')) {
      const nodes = chain.nodes.map((n, i) => ({
        rank: n.state.rank,
        state: n.state.name,
        enter: n.state.enter,
        exit: n.state.exit,
        depth: n.depth,
        parent: n.parent,
        via: n.via,
        ...(n.wait !== undefined ? { wait: n.wait.seconds, pattern: n.wait.pattern } : {}),
        ...(n.link !== undefined ? { causeTime: n.link.causeTime, effectTime: n.link.effectTime } : {}),
        text: texts[i],
      }));
      process.stdout.write(
        JSON.stringify({ selected: nodes[0], direction, maxDepth: chain.maxDepth, truncated: chain.truncated, nodes, notes }, null, 2) + '\n',
      );
      return 0;
    }
    const title = direction === 'backward' ? 'what it waited for' : 'what it delayed';
    const lines = [`${title} (${chain.nodes.length - 1} hops, depth ≤ ${chain.maxDepth}):`];
    chain.nodes.forEach((n, i) =>
      lines.push(`${'  '.repeat(direction === 'forward' ? Math.min(n.depth, 12) : 0)}${i === 0 ? '' : direction === 'backward' ? '← ' : '→ '}${texts[i]}`),
    );
    if (chain.truncated) lines.push(`(the list stops at ${chain.nodes.length} states)`);
    for (const n of notes) lines.push(`note: ${n}`);
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  } finally {
    await cleanup();
  }
}

registerCommand('chain', { summary: 'dependence chain of a state: what it waited for, or what it delayed', usage: USAGE, run: runChain });
