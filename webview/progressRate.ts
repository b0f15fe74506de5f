/**
 * Time left of a conversion from its recent progress: the rate over the last few seconds of
 * reports. A fresh worker speeds up as its code warms, so the mean since the first report ran
 * high early on (an e2e run said "about 26 s left" early in a 4 s conversion). No estimate
 * before a second and 1 % of progress have passed.
 */
const WINDOW_MS = 3000;
/** Reports kept: the window's worth at the host's 10 per second, with room. */
const MAX_SAMPLES = 64;

interface Sample {
  readonly fraction: number;
  readonly at: number;
}

export class ProgressRate {
  private readonly samples: Sample[] = [];

  note(fraction: number, at: number): void {
    if (!Number.isFinite(fraction) || !Number.isFinite(at)) return;
    this.samples.push({ fraction, at });
    // Keep one sample older than the window (the rate's base) and nothing older than that.
    while (this.samples.length > 2 && (this.samples[1]!.at <= at - WINDOW_MS || this.samples.length > MAX_SAMPLES)) this.samples.shift();
  }

  /** Milliseconds left, or undefined while too little has been seen. */
  remainingMs(): number | undefined {
    const a = this.samples[0];
    const b = this.samples[this.samples.length - 1];
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
