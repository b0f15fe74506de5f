/**
 * The steps of the source heat map: each recorded line's total time relative to the file's largest,
 * in `steps` equal bands (the largest line is in the top band; a file whose lines took no time has
 * them all in band 0).
 */
export function heatSteps(lines: readonly { readonly line: number; readonly total: number }[], steps: number): number[][] {
  const out: number[][] = Array.from({ length: steps }, () => []);
  let max = 0;
  for (const l of lines) if (l.total > max) max = l.total;
  for (const l of lines) {
    const step = max > 0 ? Math.min(steps - 1, Math.floor((l.total / max) * steps)) : 0;
    out[step]!.push(l.line);
  }
  return out;
}
