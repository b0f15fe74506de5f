// Number formatting for the panel: durations with SI units, counts with thousands separators.

export function formatSeconds(s: number | undefined): string {
  if (s === undefined || !Number.isFinite(s)) return '–';
  const a = Math.abs(s);
  if (a === 0) return '0';
  if (a >= 1) return `${s.toPrecision(4)} s`;
  if (a >= 1e-3) return `${(s * 1e3).toPrecision(4)} ms`;
  if (a >= 1e-6) return `${(s * 1e6).toPrecision(4)} µs`;
  return `${(s * 1e9).toPrecision(4)} ns`;
}

export function formatCount(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1);
}

export function formatPercent(ratio: number): string {
  if (ratio === 0) return '0 %';
  // Small shares keep two significant digits rather than showing as 0.00 %.
  return `${ratio >= 0.1 ? (ratio * 100).toFixed(1) : ratio >= 0.001 ? (ratio * 100).toFixed(2) : (ratio * 100).toPrecision(2)} %`;
}

export function formatBytes(b: number): string {
  if (b < 1024) return `${Math.round(b)} B`;
  if (b < 1024 ** 2) return `${(b / 1024).toFixed(1)} KiB`;
  if (b < 1024 ** 3) return `${(b / 1024 ** 2).toFixed(1)} MiB`;
  return `${(b / 1024 ** 3).toFixed(2)} GiB`;
}

export function rgbaCss(rgba: readonly [number, number, number, number]): string {
  return `rgba(${rgba[0]}, ${rgba[1]}, ${rgba[2]}, ${(rgba[3] / 255).toFixed(3)})`;
}
