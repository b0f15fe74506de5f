// Communication matrix heat map (sender rows × receiver columns, count or bytes) on a canvas.
// Colour intensity is logarithmic; a click on a cell asks the host for that pair's messages.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MessagePairStat } from '../../src/core/stats/types';
import type { MessageItem } from '../../src/protocol/stats';
import { formatBytes, formatCount, formatSeconds } from './format';
import type { Theme } from './theme';

interface Props {
  readonly pairs: readonly MessagePairStat[];
  readonly labelOf: (lineID: number) => string;
  readonly mode: 'count' | 'bytes';
  readonly theme: Theme;
  readonly selected?: { readonly from: number; readonly to: number };
  readonly onSelect: (from: number, to: number) => void;
}

const MAX_SIDE_PX = 320;
const LABEL_PX = 34;

export function MessageMatrix(p: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<MessagePairStat | undefined>(undefined);
  const axis = useMemo(() => [...new Set(p.pairs.flatMap((x) => [x.from, x.to]))].sort((a, b) => a - b), [p.pairs]);
  const position = useMemo(() => new Map(axis.map((l, i) => [l, i])), [axis]);
  const cell = Math.max(2, Math.min(40, Math.floor((MAX_SIDE_PX - LABEL_PX) / Math.max(1, axis.length))));
  const side = LABEL_PX + cell * axis.length;

  useEffect(() => {
    const c = canvas.current;
    if (c === null) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(side * dpr);
    c.height = Math.round(side * dpr);
    c.style.width = `${side}px`;
    c.style.height = `${side}px`;
    const g = c.getContext('2d');
    if (g === null) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, side, side);
    const value = (x: MessagePairStat) => (p.mode === 'count' ? x.count : x.bytes);
    const max = p.pairs.reduce((m, x) => Math.max(m, value(x)), 1); // ranks² pairs: no spread
    g.fillStyle = p.theme.accent;
    for (const x of p.pairs) {
      const v = value(x);
      if (v <= 0) continue;
      g.globalAlpha = 0.15 + 0.85 * (Math.log1p(v) / Math.log1p(max));
      g.fillRect(LABEL_PX + position.get(x.to)! * cell, LABEL_PX + position.get(x.from)! * cell, Math.max(1, cell - 1), Math.max(1, cell - 1));
    }
    g.globalAlpha = 1;
    if (p.selected !== undefined && position.has(p.selected.from) && position.has(p.selected.to)) {
      g.strokeStyle = p.theme.foreground;
      g.lineWidth = 2;
      g.strokeRect(LABEL_PX + position.get(p.selected.to)! * cell, LABEL_PX + position.get(p.selected.from)! * cell, cell - 1, cell - 1);
    }
    g.fillStyle = p.theme.muted;
    g.font = p.theme.font.replace(/^\S+/, '10px');
    g.textBaseline = 'middle';
    const step = Math.max(1, Math.ceil(12 / cell));
    axis.forEach((l, i) => {
      if (i % step !== 0) return;
      const label = p.labelOf(l);
      g.textAlign = 'right';
      g.fillText(label, LABEL_PX - 3, LABEL_PX + i * cell + cell / 2);
      g.save();
      g.translate(LABEL_PX + i * cell + cell / 2, LABEL_PX - 3);
      g.rotate(-Math.PI / 2);
      g.textAlign = 'left';
      g.fillText(label, 0, 0);
      g.restore();
    });
  }, [p.pairs, p.mode, p.theme, p.selected, axis, position, cell, side]);

  const pairAt = (e: MouseEvent): MessagePairStat | undefined => {
    const c = canvas.current;
    if (c === null) return undefined;
    const r = c.getBoundingClientRect();
    const col = Math.floor((e.clientX - r.left - LABEL_PX) / cell);
    const row = Math.floor((e.clientY - r.top - LABEL_PX) / cell);
    if (col < 0 || row < 0 || col >= axis.length || row >= axis.length) return undefined;
    return p.pairs.find((x) => x.from === axis[row] && x.to === axis[col]);
  };

  if (p.pairs.length === 0) return <p class="muted">No messages in this range.</p>;
  return (
    <div>
      <canvas
        ref={canvas}
        class="matrix"
        role="img"
        aria-label={`Communication matrix: ${p.pairs.length} sender/receiver pairs`}
        onMouseMove={(e) => setHover(pairAt(e))}
        onMouseLeave={() => setHover(undefined)}
        onClick={(e) => {
          const x = pairAt(e);
          if (x !== undefined) p.onSelect(x.from, x.to);
        }}
      />
      <p class="muted hover-line">
        {hover === undefined
          ? 'Rows: sender, columns: receiver. Click a cell to list its messages.'
          : `${p.labelOf(hover.from)} → ${p.labelOf(hover.to)}: ${formatCount(hover.count)} messages, ${formatBytes(hover.bytes)}`}
      </p>
    </div>
  );
}

export function MessageList(p: { readonly items: readonly MessageItem[]; readonly truncated: boolean; readonly title: string }) {
  return (
    <div class="message-list">
      <h4>{p.title}</h4>
      <table class="stats-table">
        <thead>
          <tr>
            <th class="num">Send</th>
            <th class="num">Receive</th>
            <th class="num">Latency</th>
            <th class="num">Tag</th>
            <th class="num">Size</th>
          </tr>
        </thead>
        <tbody>
          {p.items.map((m, i) => (
            <tr key={i}>
              <td class="num">{m.send.toFixed(6)}</td>
              <td class="num">{m.recv.toFixed(6)}</td>
              <td class="num">{formatSeconds(m.recv - m.send)}</td>
              <td class="num">{m.tag ?? '–'}</td>
              <td class="num">{m.size === undefined ? '–' : formatBytes(m.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.truncated ? <p class="muted">Only the first {p.items.length} messages are listed.</p> : undefined}
    </div>
  );
}
