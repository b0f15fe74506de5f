// The Compare view: the two runs, how B is aligned on A, the difference table (per category, call
// site or rank; largest |delta| first; a click highlights it in both timelines) and the iterations.
import { useEffect, useState } from 'preact/hooks';
import type { CategoryDiff, RankDiff, RunDiff, SiteDiff } from '../../src/core/compare/diff';
import type { Alignment, HostToCompare, PairMessage, RunIterations } from '../../src/protocol/compare';
import { formatCount, formatSeconds } from '../stats/format';
import { useTheme } from '../stats/theme';
import { IterationChart } from './IterationChart';
import { loadTab, onHostMessage, saveTab, send, type DiffTab } from './vscodeApi';

interface Result {
  readonly diff: RunDiff;
  readonly iterations: { readonly a: RunIterations; readonly b: RunIterations };
}

function ratioText(r: number | undefined): string {
  return r === undefined ? '–' : `${r.toFixed(r >= 10 ? 1 : 2)}×`;
}

function deltaClass(delta: number): string {
  return delta > 0 ? 'slower' : delta < 0 ? 'faster' : '';
}

function signed(s: number): string {
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

export function ComparePanel() {
  const [pair, setPair] = useState<PairMessage | undefined>(undefined);
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [none, setNone] = useState(false);
  const [tab, setTab] = useState<DiffTab>(loadTab());
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const theme = useTheme();

  useEffect(() => {
    const off = onHostMessage((m: HostToCompare) => {
      switch (m.kind) {
        case 'none':
          setNone(true);
          setPair(undefined);
          setResult(undefined);
          setStatus(undefined);
          setError(undefined);
          return;
        case 'pair':
          setNone(false);
          setPair(m);
          setStatus(undefined);
          setError(undefined);
          return;
        case 'diff':
          setResult({ diff: m.diff, iterations: m.iterations });
          return;
        case 'progress':
          setStatus(m.text);
          return;
        case 'error':
          setError(m.message);
          return;
      }
    });
    send({ kind: 'ready' });
    return off;
  }, []);

  const chooseTab = (t: DiffTab) => {
    setTab(t);
    saveTab(t);
  };
  const align = (alignment: Alignment) => send({ kind: 'align', alignment });

  if (none || pair === undefined) {
    return (
      <div class="empty muted">
        <p>No comparison open.</p>
        <p>
          Open a trace, then run <b>MPE Trace: Compare with…</b> (editor toolbar, command palette, or right-click a second trace in the Explorer): both
          timelines move together and the difference appears here.
        </p>
      </div>
    );
  }

  const d = result?.diff;
  const rowsOf = (): { key: string; cells: preact.JSX.Element; onClick: () => void; onOpen?: () => void }[] => {
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
  };
  const rows = rowsOf();
  const total = d === undefined ? 0 : tab === 'site' ? d.sites.length : tab === 'rank' ? d.ranks.length : d.categories.length;
  const k = pair.alignment.mode === 'iteration' ? pair.alignment.iteration : undefined;

  return (
    <div>
      <div class="status">
        <div class="pair">
          <span class="tag">A</span>
          <span>{pair.a}</span>
          <span class="tag">B</span>
          <span>{pair.b}</span>
        </div>
        <div class="align">
          <span class="muted">Align B on A:</span>
          <select
            aria-label="Alignment"
            value={pair.alignment.mode === 'category' ? `category:${pair.alignment.name}` : pair.alignment.mode}
            onChange={(e) => {
              const v = (e.currentTarget as HTMLSelectElement).value;
              if (v === 'start') align({ mode: 'start' });
              else if (v === 'iteration') align({ mode: 'iteration', iteration: k ?? 0 });
              else if (v.startsWith('category:')) align({ mode: 'category', name: v.slice('category:'.length) });
            }}
          >
            <option value="start">by start</option>
            <option value="iteration">by iteration</option>
            {pair.categories.map((c) => (
              <option value={`category:${c}`}>first {c}</option>
            ))}
          </select>
          {pair.alignment.mode === 'iteration' ? (
            <input
              aria-label="Iteration"
              type="number"
              min={1}
              value={(k ?? 0) + 1}
              onChange={(e) => align({ mode: 'iteration', iteration: Math.max(0, Number((e.currentTarget as HTMLInputElement).value) - 1) })}
              style={{ width: '5em' }}
            />
          ) : null}
          <span class="muted">shift {signed(pair.shift)}</span>
        </div>
        {status !== undefined ? <div class="muted">{status}</div> : null}
        {error !== undefined ? <div class="error">{error}</div> : null}
      </div>
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
      {result !== undefined ? (
        <>
          <h3>Iterations</h3>
          <IterationChart a={result.iterations.a} b={result.iterations.b} theme={theme} onPick={(i) => align({ mode: 'iteration', iteration: i })} />
        </>
      ) : null}
    </div>
  );
}
