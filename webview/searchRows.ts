// The search box's row filter text.

/** "0, 2-5" → [0, 2, 3, 4, 5] (undefined when empty; throws a message when malformed). */
export function parseRows(text: string, rowCount: number): number[] | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const out = new Set<number>();
  for (const part of t.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new Error(`rows: cannot read "${part.trim()}"`);
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    if (b < a || b >= rowCount) throw new Error(`rows: ${part.trim()} is outside 0–${rowCount - 1}`);
    for (let r = a; r <= b; r++) out.add(r);
  }
  return [...out];
}
