/**
 * `mpe-trace synth --ranks R [--seconds S] [--bytes N] [--threads T] [--srcloc] [--comms] [--seed N]
 * [--block-size B] -o FILE.clog2`: writes a realistic synthetic MPE trace (CLOG2, big-endian merged
 * file) of any size, streaming, for benchmarks and fuzzing (src/core/synth).
 */
import { MAX_RANKS, type SynthStretch } from '../../core/synth/synthClog2';
import { synthesizeClog2File } from '../../io/synthFile';
import { intOption, numberOption, parseArgs, UsageError } from '../args';
import { registerCommand } from '../registry';

const USAGE =
  'usage: mpe-trace synth --ranks R [--seconds S] [--bytes N[K|M|G]] [--iterations K] [--threads T] [--srcloc] [--comms] [--seed N]\n' +
  '                       [--stretch Kernel|Compute[@RANK]:FACTOR] [--start-delay S] [--block-size B] -o FILE.clog2\n' +
  '  Writes a synthetic CLOG2 trace as MPE would: MPI states, nested user states, ring messages,\n' +
  '  collectives, solo and info events, optional SRCLOC records (--srcloc) and two sub-communicators\n' +
  '  (--comms). Stops after S simulated seconds\n' +
  '  (default 1), about N bytes or K iterations, whichever comes first. Same seed, same file.\n' +
  '  --stretch: one user state made FACTOR times longer (on one rank, or all), with the same random\n' +
  '  draws, so two runs differ by exactly that; --start-delay: idle time before the first iteration.';

/** `Kernel@3:1.5` → Kernel on rank 3 made 1.5 times longer; `Compute:2` → on every rank. */
function stretchOption(v: string | undefined): SynthStretch | undefined {
  if (v === undefined) return undefined;
  const m = /^(Kernel|Compute)(?:@(\d+))?:(\d+(?:\.\d+)?)$/.exec(v);
  if (!m) throw new UsageError(`--stretch needs Kernel|Compute[@RANK]:FACTOR, got ${JSON.stringify(v)}`);
  const factor = Number(m[3]);
  if (!(factor > 0)) throw new UsageError('--stretch factor must be positive');
  return { category: m[1] as SynthStretch['category'], factor, ...(m[2] !== undefined ? { rank: Number(m[2]) } : {}) };
}

function bytesOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)([KMG]?)$/i.exec(v);
  if (!m) throw new UsageError(`--bytes needs a size like 300M, got ${JSON.stringify(v)}`);
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2]!.toUpperCase() as '' | 'K' | 'M' | 'G'];
  return Math.round(Number(m[1]) * unit);
}

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv,
    ['--ranks', '--seconds', '--bytes', '--iterations', '--threads', '--seed', '--block-size', '--stretch', '--start-delay', '-o'],
    ['--srcloc', '--comms'],
  );
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`, USAGE);
  const ranks = intOption(args, '--ranks', 1, MAX_RANKS);
  const out = args.values.get('-o');
  if (ranks === undefined || out === undefined) throw new UsageError(USAGE);
  const bytes = bytesOption(args.values.get('--bytes'));
  const iterations = intOption(args, '--iterations', 1, 2 ** 31 - 1);
  const seconds = numberOption(args, '--seconds') ?? (bytes === undefined && iterations === undefined ? 1 : undefined);
  const stretch = stretchOption(args.values.get('--stretch'));
  if (stretch?.rank !== undefined && stretch.rank >= ranks) throw new UsageError(`--stretch rank ${stretch.rank} is not below --ranks ${ranks}`);
  const startDelay = numberOption(args, '--start-delay');
  if (startDelay !== undefined && !(startDelay >= 0)) throw new UsageError('--start-delay must be ≥ 0');
  if (seconds !== undefined && !(seconds > 0)) throw new UsageError('--seconds must be positive');
  const report = await synthesizeClog2File(out, {
    ranks,
    seconds,
    bytes,
    threads: intOption(args, '--threads', 1, 64),
    srcloc: args.flags.has('--srcloc'),
    subComms: args.flags.has('--comms'),
    seed: intOption(args, '--seed', 0, 2 ** 32 - 1),
    blockSize: intOption(args, '--block-size', 1024, 2 ** 30),
    iterations,
    stretch,
    startDelay,
  });
  const drawables = [...report.drawables.values()].reduce((n, e) => n + e.count, 0);
  process.stdout.write(
    `${out}: ${report.bytes} bytes, ${report.blocks} blocks, ${report.iterations} iterations, ${drawables} drawables, ${report.srclocRecords} SRCLOC records\n`,
  );
  return 0;
}

registerCommand('synth', { summary: 'write a synthetic CLOG2 trace (benchmarks, fuzzing)', usage: USAGE, run });
