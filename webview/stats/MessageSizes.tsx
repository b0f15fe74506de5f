// Message-size distribution (log2 buckets) and messages per tag, as compact bar lists.
import type { MessageKeyStat, SizeBucket } from '../../src/core/stats/types';
import { formatBytes, formatCount } from './format';

export function sizeLabel(b: SizeBucket): string {
  return b.upper <= 1 ? '0 B' : `${formatBytes(b.lower)} – ${formatBytes(b.upper - 1)}`;
}

function Bars(p: { readonly rows: readonly { key: string; label: string; count: number; title: string }[]; readonly caption: string }) {
  const max = p.rows.reduce((m, r) => Math.max(m, r.count), 1);
  return (
    <table class="bars" aria-label={p.caption}>
      <caption class="muted">{p.caption}</caption>
      <tbody>
        {p.rows.map((r) => (
          <tr key={r.key} title={r.title}>
            <td class="bar-label">{r.label}</td>
            <td class="bar-cell">
              <span class="bar" style={{ width: `${(100 * r.count) / max}%` }} />
            </td>
            <td class="num">{formatCount(r.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function MessageSizes(p: { readonly sizes: readonly SizeBucket[]; readonly tags: readonly MessageKeyStat[] }) {
  return (
    <div class="message-breakdown">
      {p.sizes.length > 0 ? (
        <Bars
          caption="Sizes"
          rows={p.sizes.map((b) => ({
            key: String(b.lower),
            label: sizeLabel(b),
            count: b.count,
            title: `${formatCount(b.count)} messages of ${sizeLabel(b)}`,
          }))}
        />
      ) : undefined}
      {p.tags.length > 0 ? (
        <Bars
          caption="Tags"
          rows={p.tags.slice(0, 32).map((t) => ({
            key: String(t.key),
            label: `tag ${t.key}`,
            count: t.count,
            title: `tag ${t.key}: ${formatCount(t.count)} messages, ${formatBytes(t.bytes)}`,
          }))}
        />
      ) : undefined}
    </div>
  );
}
