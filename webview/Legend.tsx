// The legend: every category with its colour, kind, count and whole-trace times (from the file's
// category summaries), sortable; per-category visible (V) and searchable (S) toggles and colours.
// The colour and V/S come first so they always show; kind, excl and incl give way as it narrows.
import { useState } from 'preact/hooks';
import type { CategoryInfo, Rgb } from '../src/protocol/webview';
import { formatDuration } from './timeline/timeScale';
import { parseHex, toHex as hex } from './colourInput';

type SortKey = 'name' | 'kind' | 'count' | 'inclusive' | 'exclusive';

export interface LegendProps {
  readonly categories: readonly CategoryInfo[];
  readonly hidden: ReadonlySet<number>;
  readonly unsearchable: ReadonlySet<number>;
  readonly colours: ReadonlyMap<number, Rgb>;
  readonly setHidden: (next: ReadonlySet<number>) => void;
  readonly setUnsearchable: (next: ReadonlySet<number>) => void;
  readonly setColour: (category: CategoryInfo, rgb: Rgb | undefined) => void;
  /** Code colourings (TraceVis §2.5): drawables from these source lines are drawn in `rgb`. */
  readonly siteColourings?: readonly { readonly sites: string; readonly rgb: Rgb }[];
  readonly removeColourings?: () => void;
}

function sortValue(c: CategoryInfo, key: SortKey): number | string {
  switch (key) {
    case 'name':
      return c.name.toLowerCase();
    case 'kind':
      return c.topology;
    default:
      return c.summary?.[key] ?? -1;
  }
}

export function Legend(props: LegendProps) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'inclusive', descending: true });
  const real = props.categories.filter((c) => c.index >= 0);
  const rows = [...real].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const d = x < y ? -1 : x > y ? 1 : a.index - b.index;
    return sort.descending ? -d : d;
  });
  const header = (key: SortKey, label: string, cls: string) => (
    <th
      class={`sortable ${cls}`}
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
      onClick={() => setSort((s) => ({ key, descending: s.key === key ? !s.descending : key !== 'name' && key !== 'kind' }))}
    >
      {label}
      {sort.key === key ? (sort.descending ? ' ▾' : ' ▴') : ''}
    </th>
  );
  const toggle = (set: ReadonlySet<number>, index: number, apply: (n: ReadonlySet<number>) => void): void => {
    const next = new Set(set);
    if (next.has(index)) next.delete(index);
    else next.add(index);
    apply(next);
  };
  const all = new Set(real.map((c) => c.index));
  return (
    <aside class="legend" aria-label="Legend">
      <div class="legend-actions">
        <span>visible:</span>
        <button type="button" onClick={() => props.setHidden(new Set())}>
          all
        </button>
        <button type="button" onClick={() => props.setHidden(all)}>
          none
        </button>
        <span>searchable:</span>
        <button type="button" onClick={() => props.setUnsearchable(new Set())}>
          all
        </button>
        <button type="button" onClick={() => props.setUnsearchable(all)}>
          none
        </button>
      </div>
      <table>
        <thead>
          <tr>
            <th title="colour">■</th>
            <th title="visible">V</th>
            <th title="searchable">S</th>
            {header('name', 'category', 'name')}
            {header('count', 'count', 'num')}
            {header('inclusive', 'incl', 'num l-incl')}
            {header('exclusive', 'excl', 'num l-excl')}
            {header('kind', 'kind', 'l-kind')}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => {
            const chosen = props.colours.get(c.index);
            return (
              <tr key={c.index} data-category={c.name} class={props.hidden.has(c.index) ? 'off' : ''}>
                <td>
                  <input
                    type="color"
                    aria-label={`colour ${c.name}`}
                    value={hex(chosen ?? c.rgba)}
                    onInput={(e) => {
                      const rgb = parseHex((e.target as HTMLInputElement).value);
                      if (rgb) props.setColour(c, rgb);
                    }}
                  />
                  {chosen && (
                    <button
                      type="button"
                      class="reset"
                      title="Back to the file's colour"
                      aria-label={`reset colour ${c.name}`}
                      onClick={() => props.setColour(c, undefined)}
                    >
                      ↺
                    </button>
                  )}
                </td>
                <td class="toggle">
                  <input
                    type="checkbox"
                    aria-label={`visible ${c.name}`}
                    checked={!props.hidden.has(c.index)}
                    onChange={() => toggle(props.hidden, c.index, props.setHidden)}
                  />
                </td>
                <td class="toggle">
                  <input
                    type="checkbox"
                    aria-label={`searchable ${c.name}`}
                    checked={!props.unsearchable.has(c.index)}
                    onChange={() => toggle(props.unsearchable, c.index, props.setUnsearchable)}
                  />
                </td>
                <td class="name" title={c.name}>
                  {c.name}
                </td>
                <td class="num">{c.summary?.count ?? ''}</td>
                <td class="num l-incl">{c.summary && c.topology !== 'event' ? formatDuration(c.summary.inclusive) : ''}</td>
                <td class="num l-excl">{c.summary && c.topology === 'state' ? formatDuration(c.summary.exclusive) : ''}</td>
                <td class="l-kind">{c.topology}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {props.siteColourings && props.siteColourings.length > 0 ? (
        <div class="legend-colourings" aria-label="Code colourings">
          <div class="legend-actions">
            <span>code colours:</span>
            <button type="button" title="Remove code colourings…" onClick={() => props.removeColourings?.()}>
              remove…
            </button>
          </div>
          {props.siteColourings.map((c, i) => (
            <div key={i} class="colouring" data-sites={c.sites}>
              <span
                class="swatch"
                style={{ background: `rgb(${c.rgb[0]}, ${c.rgb[1]}, ${c.rgb[2]})`, display: 'inline-block', width: '12px', height: '12px', marginRight: '6px' }}
              />
              <span title={c.sites}>{c.sites}</span>
            </div>
          ))}
        </div>
      ) : undefined}
    </aside>
  );
}
