// The Compare view's difference table: tabs (categories, call sites, ranks), export, and the
// rows — A, B, Δ, ratio and, once analysed, the waiting time — largest |delta| first. A click
// highlights the row in both timelines; a call site's ↗ (or a double-click) opens its line.
import { useState } from 'preact/hooks';
import type { CategoryDiff, RankDiff, RunDiff, SiteDiff } from '../../src/core/compare/diff';
import { formatCount, formatSeconds } from '../stats/format';
import { send, type DiffTab } from './vscodeApi';

function ratioText(r: number | undefined): string {
  return r === undefined ? '–' : `${r.toFixed(r >= 10 ? 1 : 2)}×`;
}

function deltaClass(delta: number): string {
  return delta > 0 ? 'slower' : delta < 0 ? 'faster' : '';
}

export function signed(s: number): string {
  return `${s > 0 ? '+' : ''}${formatSeconds(s)}`;
}

const MAX_ROWS = 500;

/** Waiting seconds of a row in A and B (cells only when the comparison has them). */
function waitCells(on: boolean, r: { readonly waitA?: number; readonly waitB?: number }): preact.JSX.Element | null {
  if (!on) return null;
  const cell = (v: number | undefined) => <td class="wait">{v === undefined ? '–' : formatSeconds(v)}</td>;
  return (
    <>
      {cell(r.waitA)}
      {cell(r.waitB)}
    </>
  );
}

interface Row {
  readonly key: string;
  readonly cells: preact.JSX.Element;
  readonly onClick: () => void;
  readonly onOpen?: () => void;
}

function rowsOf(d: RunDiff | undefined, tab: DiffTab): Row[] {
  if (d === undefined) return [];
  if (tab === 'site') {
    return d.sites.slice(0, MAX_ROWS).map((s: SiteDiff, i) => ({
      key: `${s.file}:${s.line}`,
      onClick: () => send({ kind: 'highlight', site: i }),
      onOpen: () => send({ kind: 'openSite', index: i }),
      cells: (
        <>
          <td title={`${s.file} — click: show only this site's drawables in both timelines; double-click or ↗: open the line`}>
            {s.file.slice(s.file.lastIndexOf('/') + 1)}:{s.line}{' '}
            <a
              class="open-site"
              role="button"
              title="Open this line"
              onClick={(e) => {
                e.stopPropagation();
                send({ kind: 'openSite', index: i });
              }}
            >
              ↗
            </a>
          </td>
          <td class="wide">{formatCount(s.countA)}</td>
          <td class="wide">{formatCount(s.countB)}</td>
          <td class="wide">{formatSeconds(s.totalA)}</td>
          <td class="wide">{formatSeconds(s.totalB)}</td>
          <td class={deltaClass(s.delta)}>{signed(s.delta)}</td>
          <td>{ratioText(s.ratio)}</td>
          {waitCells(d.waiting, s)}
        </>
      ),
    }));
  }
  const rows: readonly (CategoryDiff | RankDiff)[] = tab === 'rank' ? d.ranks : d.categories;
  return rows.slice(0, MAX_ROWS).map((r) => {
    const rank = 'rank' in r ? r.rank : undefined;
    return {
      key: `${rank ?? ''}\u0000${r.name}`,
      onClick: () => send({ kind: 'highlight', category: r.name, ...(rank !== undefined ? { rank } : {}) }),
      cells: (
        <>
          <td>{rank !== undefined ? `${rank} · ${r.name}` : r.name}</td>
          <td class="wide">{formatCount(r.countA)}</td>
          <td class="wide">{formatCount(r.countB)}</td>
          <td class="wide">{formatSeconds(r.kind === 'state' ? r.exclA : r.inclA)}</td>
          <td class="wide">{formatSeconds(r.kind === 'state' ? r.exclB : r.inclB)}</td>
          <td class={deltaClass(r.delta)}>{r.kind === 'event' ? `${r.countB - r.countA >= 0 ? '+' : ''}${r.countB - r.countA}` : signed(r.delta)}</td>
          <td>{ratioText(r.ratio)}</td>
          {waitCells(d.waiting, r)}
        </>
      ),
    };
  });
}

export function DiffTable(props: { readonly diff: RunDiff | undefined; readonly tab: DiffTab; readonly chooseTab: (t: DiffTab) => void }) {
  const { diff: d, tab, chooseTab } = props;
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const rows = rowsOf(d, tab);
  const total = d === undefined ? 0 : tab === 'site' ? d.sites.length : tab === 'rank' ? d.ranks.length : d.categories.length;
  return (
    <>
      <div class="tabs" role="tablist">
        {(['category', 'site', 'rank'] as const).map((t) => (
          <button aria-pressed={tab === t} onClick={() => chooseTab(t)}>
            {t === 'category' ? 'Categories' : t === 'site' ? 'Call sites' : 'Ranks'}
          </button>
        ))}
        <button title="Export this table as CSV" onClick={() => send({ kind: 'export', by: tab, format: 'csv' })}>
          CSV
        </button>
        <button title="Export the whole comparison as JSON" onClick={() => send({ kind: 'export', by: tab, format: 'json' })}>
          JSON
        </button>
      </div>
      {d === undefined ? (
        <p class="muted">Computing…</p>
      ) : rows.length === 0 ? (
        <p class="muted">{tab === 'site' ? 'Neither run recorded source locations (SRCLOC).' : 'Nothing to compare.'}</p>
      ) : (
        <table class="diff" data-testid="compare-table">
          <thead>
            <tr>
              <th title={tab === 'site' ? 'Call site (file:line)' : tab === 'rank' ? 'Rank · category' : 'Category'}>
                {tab === 'site' ? 'Site' : tab === 'rank' ? 'Rank · category' : 'Category'}
              </th>
              <th class="wide">n A</th>
              <th class="wide">n B</th>
              <th class="wide" title="Exclusive time for states, inclusive for arrows">
                A
              </th>
              <th class="wide" title="Exclusive time for states, inclusive for arrows">
                B
              </th>
              <th title="B − A of the time that moved (exclusive for states); events: count">Δ</th>
              <th title="B ÷ A">ratio</th>
              {d.waiting ? (
                <>
                  <th class="wait" title="Waiting time in A (wait-state analysis: late sender, barrier, N×N collectives, …)">
                    Wait A
                  </th>
                  <th class="wait" title="Waiting time in B">
                    Wait B
                  </th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.key}
                class={selected === r.key ? 'selected' : ''}
                onClick={() => {
                  setSelected(r.key);
                  r.onClick();
                }}
                onDblClick={r.onOpen}
              >
                {r.cells}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {total > rows.length ? <p class="muted">{total - rows.length} more rows (export to see all).</p> : null}
    </>
  );
}
