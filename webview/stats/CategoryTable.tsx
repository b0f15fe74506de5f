// Per-category table: sortable columns, colour swatches; clicking a name highlights the category
// in the timeline, clicking min/max jumps to the shortest/longest instance.
import type { CategoryStat, InstanceRef } from '../../src/core/stats/types';
import { formatBytes, formatCount, formatPercent, formatSeconds, rgbaCss } from './format';
import { sortCategories } from './model';
import type { SortKey } from './vscodeApi';

interface Props {
  readonly categories: readonly CategoryStat[];
  /** Timelines in scope: the share's denominator is range length × timelines. */
  readonly timelines: number;
  readonly sortKey: SortKey;
  readonly descending: boolean;
  readonly onSort: (key: SortKey) => void;
  readonly onHighlight: (index: number) => void;
  readonly onReveal: (index: number, instance: InstanceRef) => void;
  /** Waiting seconds per state name (wait-state analysis of the same range), when known. */
  readonly waiting?: Readonly<Record<string, number>>;
}

/**
 * Columns in order of importance: `priority` 1 always shows (name, count, share, excl.); higher
 * ones appear as the panel widens (container queries in stats.css), so the essentials fit a
 * default sidebar without horizontal scrolling.
 */
export function columns(timelines: number): readonly { key: SortKey; label: string; title: string; priority: 1 | 2 | 3 | 4 }[] {
  return [
    { key: 'name', label: 'Category', title: 'Category (click a name to highlight it in the timeline)', priority: 1 },
    { key: 'count', label: 'Count', title: 'Drawables overlapping the range (states, messages, events)', priority: 1 },
    {
      key: 'share',
      label: 'Share',
      title:
        `Share = exclusive time ÷ (range length × ${timelines} timeline${timelines === 1 ? '' : 's'}): the part of all timelines' time ` +
        'spent in this state itself, not in a state nested inside it. States only; their shares add up to at most 100 %. ' +
        'Messages and events have a count (and messages bytes), not a time share.',
      priority: 1,
    },
    {
      key: 'exclusive',
      label: 'Excl.',
      title: 'Exclusive time: time in this state minus the states nested directly inside it, summed over timelines (states only)',
      priority: 1,
    },
    {
      key: 'inclusive',
      label: 'Incl.',
      title: 'Inclusive time: durations clipped to the range, summed over timelines; nested states count in each enclosing one too (messages: flight time)',
      priority: 2,
    },
    { key: 'bytes', label: 'Bytes', title: 'Messages: total size of the messages counted', priority: 2 },
    { key: 'mean', label: 'Mean', title: 'Mean full duration', priority: 3 },
    { key: 'min', label: 'Min', title: 'Shortest full duration (click to jump to it)', priority: 4 },
    { key: 'max', label: 'Max', title: 'Longest full duration (click to jump to it)', priority: 4 },
  ];
}

/** A duration that jumps to its instance in the timeline when there is one to jump to. */
function InstanceLink(p: { value: number | undefined; instance: InstanceRef | undefined; what: string; onReveal: (i: InstanceRef) => void }) {
  if (p.instance === undefined) return <>{p.value === undefined ? '–' : formatSeconds(p.value)}</>;
  const instance = p.instance;
  return (
    <button class="link" title={`Jump to the ${p.what} instance (line ${instance.lineID}, t = ${instance.earliest})`} onClick={() => p.onReveal(instance)}>
      {formatSeconds(p.value)}
    </button>
  );
}

export function CategoryTable(p: Props) {
  const rows = sortCategories(p.categories, p.sortKey, p.descending);
  const cols = columns(p.timelines);
  const cell = (c: CategoryStat, key: SortKey) => {
    switch (key) {
      case 'name':
        return (
          <div class="name-cell">
            <span class="swatch" style={{ background: rgbaCss(c.rgba) }} />
            <button class="link" title={`${c.name} (${c.kind} ${c.index}): highlight in the timeline`} onClick={() => p.onHighlight(c.index)}>
              {c.name}
            </button>
          </div>
        );
      case 'count':
        return formatCount(c.count);
      case 'share':
        return c.share === undefined ? '–' : formatPercent(c.share);
      case 'exclusive':
        return c.kind === 'state' ? formatSeconds(c.exclusive) : '–';
      case 'inclusive':
        return c.kind === 'event' ? '–' : formatSeconds(c.inclusive);
      case 'bytes':
        return c.bytes === undefined ? '–' : formatBytes(c.bytes);
      case 'mean':
        return c.kind === 'event' ? '–' : formatSeconds(c.mean);
      case 'min':
        return (
          <InstanceLink
            value={c.kind === 'event' ? undefined : c.min}
            instance={c.kind === 'event' ? undefined : c.shortest}
            what="shortest"
            onReveal={(i) => p.onReveal(c.index, i)}
          />
        );
      case 'max':
        return (
          <InstanceLink
            value={c.kind === 'event' ? undefined : c.max}
            instance={c.kind === 'event' ? undefined : c.longest}
            what="longest"
            onReveal={(i) => p.onReveal(c.index, i)}
          />
        );
    }
  };
  return (
    <div class="table-wrap">
      <table class="stats-table" aria-label="Statistics per category">
        <thead>
          <tr>
            {cols.map((c) => (
              <th
                key={c.key}
                title={c.title}
                data-col={c.key}
                class={`${c.key === 'name' ? 'text' : 'num'} p${c.priority}`}
                aria-sort={p.sortKey === c.key ? (p.descending ? 'descending' : 'ascending') : 'none'}
              >
                <button class="link" onClick={() => p.onSort(c.key)}>
                  {c.label}
                  {p.sortKey === c.key ? (p.descending ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            ))}
            {p.waiting !== undefined && (
              <th class="num p2" data-col="waiting" title="Time spent waiting for another process inside this state (late sender/receiver, collective waits)">
                Waiting
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.index}>
              {cols.map((col) => (
                <td key={col.key} data-col={col.key} class={`${col.key === 'name' ? 'text' : 'num'} p${col.priority}`}>
                  {cell(c, col.key)}
                </td>
              ))}
              {p.waiting !== undefined && (
                <td class="num p2" data-col="waiting">
                  {c.kind === 'state' && p.waiting[c.name] !== undefined ? formatSeconds(p.waiting[c.name]) : '–'}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
