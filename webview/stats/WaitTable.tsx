// Wait states of the range (per Scalasca pattern) and the critical path's composition.
import type { WaitsMessage } from '../../src/protocol/stats';
import { formatCount, formatSeconds } from './format';

const PATTERN_LABEL: Record<string, string> = {
  lateSender: 'Late sender',
  lateReceiver: 'Late receiver',
  waitAtBarrier: 'Wait at barrier',
  waitAtNxN: 'Wait at N×N',
  lateBroadcast: 'Late broadcast',
  earlyReduce: 'Early reduce',
};

export function WaitTable(p: { readonly waits: WaitsMessage }) {
  const w = p.waits;
  const path = Object.entries(w.criticalPath.byCategory)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  return (
    <div class="table-wrap">
      <table class="stats-table" aria-label="Wait states per pattern">
        <thead>
          <tr>
            <th class="text">Pattern</th>
            <th class="num">Waiting</th>
            <th class="num">Count</th>
            <th class="num">Longest</th>
          </tr>
        </thead>
        <tbody>
          {w.patterns.map((r) => (
            <tr key={r.pattern} data-pattern={r.pattern}>
              <td class="text">{PATTERN_LABEL[r.pattern] ?? r.pattern}</td>
              <td class="num">{r.count === 0 ? '–' : formatSeconds(r.time)}</td>
              <td class="num">{formatCount(r.count)}</td>
              <td class="num">{r.count === 0 ? '–' : formatSeconds(r.max)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {w.excludedReceiveBeforeSend > 0 && <p class="muted">{w.excludedReceiveBeforeSend} messages received before they were sent (clock skew) are left out.</p>}
      <p class="muted">
        Critical path {formatSeconds(w.criticalPath.length)}: {path.map(([name, t]) => `${name} ${formatSeconds(t)}`).join(', ')}
      </p>
    </div>
  );
}
