/**
 * Deterministic fuzz cases: case `target:seed:index` is fully determined by its id and the corpus
 * (seed input picked, mutations, the target's own choices), so a failure reproduces with `--case`.
 */
import { Prng } from '../../src/core/synth/prng';
import type { Seed } from './corpus';
import { mutate } from './mutate';
import { TARGETS, type Target } from './targets';

export interface CaseId {
  readonly target: Target;
  readonly seed: number;
  readonly index: number;
}

export interface FuzzCase {
  readonly id: CaseId;
  readonly seedName: string;
  readonly bytes: Uint8Array;
  readonly steps: readonly string[];
  readonly truncatedAt: number | undefined;
  readonly endLogEnd: number | undefined;
}

export function formatCaseId(id: CaseId): string {
  return `${id.target}:${id.seed}:${id.index}`;
}

export function parseCaseId(text: string): CaseId {
  const m = /^([a-z0-9]+):(\d+):(\d+)$/.exec(text);
  if (!m || !(TARGETS as readonly string[]).includes(m[1]!))
    throw new Error(`bad case id ${JSON.stringify(text)} (expected target:seed:index, e.g. slog2:1234:56)`);
  return { target: m[1] as Target, seed: Number(m[2]), index: Number(m[3]) };
}

/**
 * The case id of a saved input named `<target>-<seed>-<index>[-label].bin` (as the runner saves
 * them) or `<target>-<label>.bin` (hand-made: seed 0, index 0); undefined if the name has no target.
 */
export function idFromFileName(name: string): CaseId | undefined {
  const m = /^([a-z0-9]+)(?:-(\d+)-(\d+))?(?:[-.]|$)/.exec(name);
  if (!m || !(TARGETS as readonly string[]).includes(m[1]!)) return undefined;
  return { target: m[1] as Target, seed: Number(m[2] ?? 0), index: Number(m[3] ?? 0) };
}

/** A 32-bit mix of the case coordinates (murmur3 finaliser). */
export function mix(...values: number[]): number {
  let h = 0x811c9dc5;
  for (const v of values) {
    h = Math.imul(h ^ (v >>> 0), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** The Prng a target uses for its own choices (independent of the mutation draws, so a saved input replays). */
export function targetRng(id: CaseId): Prng {
  return new Prng(mix(id.seed, id.index, TARGETS.indexOf(id.target), 0x5bd1e995));
}

const TARGET_WEIGHTS: Readonly<Record<Target, number>> = {
  slog2: 0.25,
  views: 0.1,
  clog2: 0.22,
  clog: 0.08,
  convert: 0.15,
  writer: 0.2,
  alog: 0.06,
  slog1: 0.06,
  rowindex: 0.1,
  shapes: 0.03,
  directindex: 0.06,
};

/** Which target case `index` of a run over `targets` exercises. */
export function targetOf(seed: number, index: number, targets: readonly Target[]): Target {
  const rng = new Prng(mix(seed, index, 0x1234567));
  const total = targets.reduce((n, t) => n + TARGET_WEIGHTS[t], 0);
  let r = rng.next() * total;
  for (const t of targets) {
    r -= TARGET_WEIGHTS[t];
    if (r < 0) return t;
  }
  return targets[targets.length - 1]!;
}

export function seedsFor(target: Target, corpus: readonly Seed[]): Seed[] {
  switch (target) {
    case 'slog2':
      return corpus.filter((s) => s.format === 'slog2');
    case 'views':
    case 'rowindex':
      return corpus.filter((s) => s.format === 'slog2' && s.bytes.length < 1 << 20);
    case 'clog2':
      return corpus.filter((s) => s.format === 'clog2');
    case 'clog':
      return corpus.filter((s) => s.format === 'clog');
    case 'alog':
      return corpus.filter((s) => s.format === 'alog');
    case 'slog1':
      return corpus.filter((s) => s.format === 'slog1');
    case 'convert':
      return [...corpus];
    case 'shapes':
      // Generated inputs (test/fuzz/shapes.ts); a seed only anchors the case.
      return corpus.filter((s) => s.format === 'clog2').slice(0, 1);
    case 'directindex':
      // CLOG2 declares its ranks; old CLOG stands in the ranks drawn before the first node.
      return corpus.filter((s) => (s.format === 'clog2' || s.format === 'clog') && s.bytes.length < 200_000);
    case 'writer':
      // The writer round trip reads everything twice: small inputs only, to stay well inside 2 s.
      return corpus.filter((s) => s.format !== 'slog2' && s.bytes.length < 200_000);
  }
}

/** Targets that have seeds in this corpus (old CLOG needs ../shared/traces/upstream/fpilog.clog). */
export function availableTargets(corpus: readonly Seed[], wanted: readonly Target[]): Target[] {
  return wanted.filter((t) => seedsFor(t, corpus).length > 0);
}

function pickWeighted(rng: Prng, seeds: readonly Seed[]): Seed {
  const total = seeds.reduce((n, s) => n + s.weight, 0);
  let r = rng.next() * total;
  for (const s of seeds) {
    r -= s.weight;
    if (r < 0) return s;
  }
  return seeds[seeds.length - 1]!;
}

export function makeCase(id: CaseId, corpus: readonly Seed[]): FuzzCase {
  const seeds = seedsFor(id.target, corpus);
  if (seeds.length === 0) throw new Error(`no seed inputs for target ${id.target}`);
  const rng = new Prng(mix(id.seed, id.index, TARGETS.indexOf(id.target)));
  const seed = pickWeighted(rng, seeds);
  const sameFormat = corpus.filter((s) => s.format === seed.format && s !== seed && s.bytes.length < 1 << 20);
  const m = mutate(seed, rng, sameFormat);
  return { id, seedName: seed.name, bytes: m.bytes, steps: m.steps, truncatedAt: m.truncatedAt, endLogEnd: seed.structure.endLogEnd };
}
