/**
 * Time ↔ pixel maths of the timeline (pure, no DOM). Absolute times are float64 seconds; payload
 * times are float32 offsets from a payload base. Converting an offset goes through the f64
 * difference (base − t0) computed once per payload, so precision holds at nanosecond zoom far
 * from t = 0. Views are clamped to the trace (with a margin) and to a minimum span.
 */
import { minSpanAt } from '../../src/core/query/windowKey';

export interface TimeWindow {
  readonly t0: number;
  readonly t1: number;
}

/** A payload offset's pixel as px = shift + offset·k (TimeScale.offsetLinear). */
export interface OffsetMap {
  readonly shift: number;
  readonly k: number;
}

export class TimeScale {
  readonly pxPerSec: number;

  constructor(
    readonly t0: number,
    readonly t1: number,
    readonly widthPx: number,
  ) {
    this.pxPerSec = widthPx / (t1 - t0);
  }

  timeToPx(t: number): number {
    return (t - this.t0) * this.pxPerSec;
  }

  pxToTime(px: number): number {
    return this.t0 + px / this.pxPerSec;
  }

  /** Pixel of `base + offset` computed as shift + offset·k, where shift = (base − t0)·k in float64. */
  offsetMapper(base: number): (offset: number) => number {
    const { shift, k } = this.offsetLinear(base);
    return (offset) => shift + offset * k;
  }

  /** offsetMapper's two numbers, for loops that map inline (px = shift + offset·k). */
  offsetLinear(base: number): OffsetMap {
    return { shift: (base - this.t0) * this.pxPerSec, k: this.pxPerSec };
  }
}

/** How far the view may go beyond the trace (fraction of the trace duration). */
const EDGE_MARGIN = 0.05;

export function clampWindow(w: TimeWindow, full: TimeWindow): TimeWindow {
  const fullSpan = Math.max(full.t1 - full.t0, minSpanAt(full.t0));
  const lo = full.t0 - fullSpan * EDGE_MARGIN;
  const hi = full.t1 + fullSpan * EDGE_MARGIN;
  let t0 = Number.isFinite(w.t0) ? w.t0 : full.t0;
  let span = w.t1 - w.t0;
  if (!Number.isFinite(span) || span <= 0) span = fullSpan;
  span = Math.min(Math.max(span, minSpanAt(Math.abs(t0) + span)), hi - lo);
  if (t0 < lo) t0 = lo;
  if (t0 + span > hi) t0 = hi - span;
  return { t0, t1: t0 + span };
}

/** Zoom by `factor` (> 1 zooms in) keeping the time under `anchor` in place. */
export function zoomAt(w: TimeWindow, factor: number, anchor: number, full: TimeWindow): TimeWindow {
  const span = (w.t1 - w.t0) / factor;
  const frac = (anchor - w.t0) / (w.t1 - w.t0);
  const t0 = anchor - frac * span;
  const z = clampWindow({ t0, t1: t0 + span }, full);
  return z;
}

/** Pan by `fraction` of the visible span (negative = earlier). */
export function panBy(w: TimeWindow, fraction: number, full: TimeWindow): TimeWindow {
  const d = (w.t1 - w.t0) * fraction;
  return clampWindow({ t0: w.t0 + d, t1: w.t1 + d }, full);
}

const UNITS: readonly [number, string][] = [
  [1, 's'],
  [1e-3, 'ms'],
  [1e-6, 'µs'],
  [1e-9, 'ns'],
];

/** The unit to label ticks `step` seconds apart with (at most one decimal for the step). */
export function unitFor(step: number): readonly [number, string] {
  for (const u of UNITS) if (step >= u[0] * 0.0999) return u;
  return UNITS[UNITS.length - 1]!;
}

/**
 * Formats `t` with the unit that suits `step`, with just enough decimals to tell apart times
 * `precision` apart (default: the step itself).
 */
export function formatTime(t: number, step: number, precision = step): string {
  const [scale, unit] = unitFor(step);
  const decimals = Math.max(0, Math.min(9, Math.ceil(-Math.log10(precision / scale) - 1e-9)));
  return `${(t / scale).toFixed(decimals)} ${unit}`;
}

/**
 * A time for the toolbar's from/to fields: in the unit that suits its size (like the axis labels:
 * "52.31 µs", "493.18 ms"), with two decimals at least and enough to resolve 1/1000 of the
 * window's `span` (about a pixel), so typing the text back moves the window by less than that. parseTime reads it.
 */
export function formatTimeField(t: number, span: number): string {
  if (t === 0) return '0 s';
  const a = Math.abs(t);
  const [scale, unit] = a >= 1 ? UNITS[0]! : a >= 1e-3 ? UNITS[1]! : a >= 1e-6 ? UNITS[2]! : UNITS[3]!;
  const precision = span > 0 ? span / 1e3 : a / 1e6;
  const decimals = Math.max(2, Math.min(12, Math.ceil(-Math.log10(precision / scale) - 1e-9)));
  return `${(t / scale).toFixed(decimals)} ${unit}`;
}

/** Formats a duration compactly (e.g. "1.25 ms"). */
export function formatDuration(d: number): string {
  const a = Math.abs(d);
  const [scale, unit] = a >= 1 ? UNITS[0]! : a >= 1e-3 ? UNITS[1]! : a >= 1e-6 ? UNITS[2]! : UNITS[3]!;
  return `${Number((d / scale).toPrecision(4))} ${unit}`;
}

export interface Ticks {
  readonly step: number;
  /** Absolute tick times. */
  readonly times: readonly number[];
}

/** Ticks at 1/2/5 × 10^k seconds, at least `minPx` apart. */
export function niceTicks(scale: TimeScale, minPx: number): Ticks {
  const raw = minPx / scale.pxPerSec;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const first = Math.ceil(scale.t0 / step);
  const last = Math.floor(scale.t1 / step);
  const times: number[] = [];
  for (let i = first; i <= last && times.length < 1000; i++) times.push(i * step);
  return { step, times };
}

/**
 * Parses a time typed by the user: a number with an optional unit (s, ms, us/µs, ns), e.g.
 * "1.5ms", "2.3 s", "120 µs", "0.004". Returns seconds, or undefined when it is not a time.
 */
export function parseTime(text: string): number | undefined {
  const m = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(s|ms|us|µs|ns)?\s*$/i.exec(text);
  if (!m) return undefined;
  const v = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const divisor = unit === 's' ? 1 : unit === 'ms' ? 1e3 : unit === 'ns' ? 1e9 : 1e6;
  return Number.isFinite(v) ? v / divisor : undefined;
}
