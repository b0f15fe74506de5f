/**
 * Time left of a conversion from its progress so far: the mean rate since the first report seen
 * (a conversion runs at a steady rate: its input is read at one pace). No estimate before a
 * second and 1 % of progress have passed.
 */
export class ProgressRate {
  private first: { readonly fraction: number; readonly at: number } | undefined;
  private last: { readonly fraction: number; readonly at: number } | undefined;

  note(fraction: number, at: number): void {
    if (!Number.isFinite(fraction) || !Number.isFinite(at)) return;
    this.first ??= { fraction, at };
    this.last = { fraction, at };
  }

  /** Milliseconds left, or undefined while too little has been seen. */
  remainingMs(): number | undefined {
    const a = this.first;
    const b = this.last;
    if (a === undefined || b === undefined) return undefined;
    const done = b.fraction - a.fraction;
    const elapsed = b.at - a.at;
    if (elapsed < 1000 || done < 0.01) return undefined;
    return (Math.max(0, 1 - b.fraction) * elapsed) / done;
  }
}

/** "about 14 s left", "about 3 min left". */
export function formatRemaining(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}
