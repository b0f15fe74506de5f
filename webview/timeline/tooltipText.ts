/**
 * The one-line text of the hover tooltip for a hit (pure): category, duration or time, row label,
 * and for shadows the largest category shares.
 */
import type { InitMessage } from '../../src/protocol/webview';
import { FLAG_SHADOW, type WindowColumns } from '../../src/protocol/wire';
import type { Hit } from './hitTest';
import { formatDuration, formatTime } from './timeScale';

/** How many category shares a shadow's tooltip lists. */
const TOOLTIP_SHARES = 3;

export function tooltipText(hit: Hit, c: WindowColumns, init: InitMessage, mapIndex: number, viewSpan: number): string {
  const name = (cat: number): string => init.categories.find((k) => k.index === cat)?.name ?? `category ${cat}`;
  const label = (row: number): string => `${init.yMaps[mapIndex]?.columns.join('/') ?? 'row'} ${init.yMaps[mapIndex]?.rows[row] ?? row}`;
  const base = c.header.baseTime;
  switch (hit.kind) {
    case 'state': {
      const st = c.states;
      const d = st.end[hit.index]! - st.start[hit.index]!;
      return `${name(st.category[hit.index]!)} · ${formatDuration(d)} · ${label(st.row[hit.index]!)}${st.depth[hit.index]! > 0 ? ` · nesting ${st.depth[hit.index]}` : ''}`;
    }
    case 'shadow': {
      const sh = c.shadows;
      const w = c.shadowWeights;
      const from = sh.weightStart[hit.index]!;
      const parts: string[] = [];
      for (let k = from; k < from + Math.min(TOOLTIP_SHARES, sh.weightCount[hit.index]!); k++)
        parts.push(`${name(w.category[k]!)} ${(w.excl[k]! * 100).toFixed(0)}%`);
      return `summary of ${sh.count[hit.index]} drawables · ${label(sh.row[hit.index]!)} · ${parts.join(', ')}`;
    }
    case 'arrow': {
      const ar = c.arrows;
      const shadow = (ar.flags[hit.index]! & FLAG_SHADOW) !== 0;
      const what = shadow ? `summary of ${ar.count[hit.index]} arrows` : name(ar.category[hit.index]!);
      return `${what} · ${formatDuration(ar.end[hit.index]! - ar.start[hit.index]!)} · ${label(ar.fromRow[hit.index]!)} → ${label(ar.toRow[hit.index]!)}`;
    }
    case 'event': {
      const ev = c.events;
      const shadow = (ev.flags[hit.index]! & FLAG_SHADOW) !== 0;
      const what = shadow ? `summary of ${ev.count[hit.index]} events` : name(ev.category[hit.index]!);
      return `${what} · ${formatTime(base + ev.time[hit.index]!, viewSpan / 10, viewSpan / 1000)} · ${label(ev.row[hit.index]!)}`;
    }
  }
}
