// The timeline editor's chrome (toolbar, status, overview, row labels, plot); drawing lives in TimelineController.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DetailsMessage, HostToWebview, InitMessage, SiteRef, StatusMessage } from '../src/protocol/webview';
import { TimelineController, type Pick, type ViewSummary } from './timeline/controller';
import { DetailsPopup, type PopupState } from './DetailsPopup';
import { Legend } from './Legend';
import { SearchBox, type SearchStatus } from './SearchBox';
import type { SearchRequestQuery } from '../src/protocol/webview';
import type { Rgb } from '../src/protocol/webview';
import { formatDuration, parseTime } from './timeline/timeScale';
import { onHostMessage, postToHost, saveView, savedView } from './host';

export function App() {
  const [init, setInit] = useState<InitMessage | undefined>(undefined);
  const [status, setStatus] = useState<StatusMessage | undefined>({ kind: 'status', phase: 'opening', message: 'Opening…' });
  const [summary, setSummary] = useState<ViewSummary | undefined>(undefined);
  const controller = useRef<TimelineController | undefined>(undefined);
  const [popups, setPopups] = useState<readonly PopupState[]>([]);
  const popupKey = useRef(1);
  /** detailsId → open beside, for Ctrl/Cmd+clicks that go straight to the source. */
  const toSource = useRef(new Map<number, boolean>());
  const [showLegend, setShowLegend] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const [searchFocus, setSearchFocus] = useState(0);
  const [searchStatus, setSearchStatus] = useState<SearchStatus>({ ordinal: undefined, matches: undefined, error: undefined, searching: false, notFound: false });
  /** The last query sent (a different one restarts from the current time) and the latest step's id. */
  const search = useRef<{ key: string; searchId: number }>({ key: '', searchId: 0 });
  const openSearch = (): void => {
    setSearchOpen(true);
    setSearchFocus((k) => k + 1);
  };
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  /** A category the statistics panel asked to highlight (the others fade). */
  const [highlight, setHighlight] = useState<number | undefined>(undefined);
  const [unsearchable, setUnsearchable] = useState<ReadonlySet<number>>(new Set());
  /** Colours the user picked, by category name (from the host: per workspace). */
  const [namedColours, setNamedColours] = useState<{ readonly [name: string]: Rgb }>({});
  const refs = {
    root: useRef<HTMLDivElement>(null),
    axis: useRef<HTMLCanvasElement>(null),
    labels: useRef<HTMLCanvasElement>(null),
    grid: useRef<HTMLCanvasElement>(null),
    data: useRef<HTMLCanvasElement>(null),
    overlay: useRef<HTMLCanvasElement>(null),
    plot: useRef<HTMLDivElement>(null),
    vscroll: useRef<HTMLDivElement>(null),
    vspacer: useRef<HTMLDivElement>(null),
    overview: useRef<HTMLCanvasElement>(null),
    overviewWindow: useRef<HTMLDivElement>(null),
    tooltip: useRef<HTMLDivElement>(null),
  };

  useEffect(() => {
    const c = new TimelineController(
      {
        root: refs.root.current!,
        axis: refs.axis.current!,
        labels: refs.labels.current!,
        grid: refs.grid.current!,
        data: refs.data.current!,
        overlay: refs.overlay.current!,
        plot: refs.plot.current!,
        vscroll: refs.vscroll.current!,
        vspacer: refs.vspacer.current!,
        overview: refs.overview.current!,
        overviewWindow: refs.overviewWindow.current!,
        tooltip: refs.tooltip.current!,
      },
      postToHost,
      saveView,
      savedView(),
      setSummary,
      (pick: Pick | undefined) => {
        if (pick?.toSource && pick.detailsId !== undefined) toSource.current.set(pick.detailsId, pick.beside);
        setPopups((ps) => {
          const kept = ps.filter((p) => p.pinned);
          return pick ? [...kept, { key: popupKey.current++, pick, details: undefined, message: undefined, pinned: false }] : kept;
        });
      },
    );
    controller.current = c;
    const off = onHostMessage((m: HostToWebview) => {
      switch (m.kind) {
        case 'init':
          setInit(m);
          setStatus(undefined);
          c.setInit(m);
          return;
        case 'status':
          setStatus(m);
          c.suspend();
          document.body.dataset.state = m.phase;
          return;
        case 'window':
          c.onWindow(m);
          return;
        case 'windowFailed':
          c.onWindowFailed(m);
          return;
        case 'command':
          if (m.command === 'find') openSearch();
          else if (m.command === 'findNext' || m.command === 'findPrevious') document.querySelector<HTMLButtonElement>(m.command === 'findNext' ? '.search-next' : '.search-prev')?.click();
          else c.command(m.command);
          return;
        case 'link':
          if (m.highlightCategory !== undefined) setHighlight((h) => (m.highlightCategory === null || h === m.highlightCategory ? undefined : m.highlightCategory!));
          if (m.revealRow !== undefined) c.revealRow(m.revealRow);
          if (m.reveal) c.showHit(m.reveal);
          return;
        case 'searchResult':
          if (m.searchId !== search.current.searchId) return;
          if (m.hit) c.showHit(m.hit);
          setSearchStatus((st) => ({ ...st, searching: false, error: m.error, notFound: !m.hit && !m.error, ordinal: m.ordinal }));
          return;
        case 'searchCount':
          if (m.searchId > search.current.searchId) return;
          c.setSearchMarks({ histogram: m.histogram, range: m.range });
          setSearchStatus((st) => ({ ...st, matches: m.matches }));
          return;
        case 'showView':
          c.showView(m.view);
          if (m.view.hidden) setHidden(new Set(m.view.hidden));
          return;
        case 'categoryColours':
          setNamedColours(m.colours);
          return;
        case 'details': {
          const beside = toSource.current.get(m.detailsId);
          toSource.current.delete(m.detailsId);
          const site = m.details?.sources.start ?? m.details?.sources.end;
          if (beside !== undefined && site) postToHost({ kind: 'openSource', siteId: site.siteId, beside });
          setPopups((ps) => ps.map((p) => (p.pick.detailsId === m.detailsId ? withDetails(p, m) : p)));
          return;
        }
      }
    });
    postToHost({ kind: 'ready' });
    refs.root.current?.focus();
    // Ctrl/Cmd+F inside the editor (the contributed keybinding sends the same as a command)
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'f' || e.key === 'F')) {
        e.preventDefault();
        openSearch();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      off();
      window.removeEventListener('keydown', onKey);
      c.dispose();
    };
  }, []);

  useEffect(() => {
    controller.current?.setMarkers(popups.filter((p) => p.pinned).flatMap((p) => (p.pick.selection.end > p.pick.selection.start ? [p.pick.selection.start, p.pick.selection.end] : [p.pick.selection.start])));
  }, [popups]);

  const colours = new Map<number, Rgb>();
  for (const cat of init?.categories ?? []) {
    const rgb = namedColours[cat.name];
    if (rgb) colours.set(cat.index, rgb);
  }
  const coloursKey = [...colours].map(([i, rgb]) => `${i}:${rgb.join(',')}`).join(';');
  useEffect(() => {
    controller.current?.setCategoryStyle({ hidden, colours, ...(highlight !== undefined ? { highlight } : {}) });
  }, [hidden, coloursKey, init, highlight]);
  useEffect(() => {
    if (init) postToHost({ kind: 'legendState', hidden: [...hidden] });
  }, [hidden, init]);

  const c = controller.current;
  const plotBox = refs.plot.current?.getBoundingClientRect();
  const mapIndex = summary?.mapIndex ?? init?.defaultMap ?? 0;
  const rowLabel = (row: number): string => {
    const m = init?.yMaps[mapIndex];
    return m ? `${m.columns.join(' / ')} ${m.rows[row] ?? row}` : String(row);
  };
  const stepSearch = (query: SearchRequestQuery, direction: 1 | -1): void => {
    if (!init || !c) return;
    const key = JSON.stringify(query);
    const fresh = key !== search.current.key;
    const searchId = search.current.searchId + 1;
    search.current = { key, searchId };
    if (fresh) {
      c.setSearchMarks(undefined);
      setSearchStatus({ ordinal: undefined, matches: undefined, error: undefined, searching: true, notFound: false });
    } else setSearchStatus((st) => ({ ...st, searching: true, notFound: false, error: undefined }));
    // A new query starts at the current time (the left edge of the view); later steps go on from the last match.
    postToHost({ kind: 'search', searchId, generation: init.generation, query, direction, ...(fresh ? { fromTime: summary?.view.t0 ?? init.timeRange[0] } : {}) });
  };
  const closeSearch = (): void => {
    setSearchOpen(false);
    search.current = { key: '', searchId: search.current.searchId + 1 };
    c?.setSearchMarks(undefined);
    postToHost({ kind: 'searchClosed' });
    refs.root.current?.focus();
  };
  const openSource = (site: SiteRef, beside: boolean): void => postToHost({ kind: 'openSource', siteId: site.siteId, beside });
  return (
    <div class="app">
      <Toolbar init={init} summary={summary} controller={c} legend={showLegend} toggleLegend={() => setShowLegend((v) => !v)} openSearch={openSearch} />
      {searchOpen && init && (
        <SearchBox
          mapIndex={mapIndex}
          rowCount={init.yMaps[mapIndex]?.rows.length ?? 0}
          unsearchable={unsearchable}
          status={searchStatus}
          focusKey={searchFocus}
          step={stepSearch}
          close={closeSearch}
        />
      )}
      {status && (
        <div class={`status status-${status.phase}`} role="status">
          {status.message}
          {status.progress !== undefined && <progress max={1} value={status.progress} />}
          {status.offerOtherEditor && (
            <span class="other-editor">
              {' '}
              <button type="button" onClick={() => postToHost({ kind: 'openOtherEditor', how: 'pick' })}>
                Open With…
              </button>{' '}
              <button type="button" onClick={() => postToHost({ kind: 'openOtherEditor', how: 'text' })}>
                Open as Text
              </button>
            </span>
          )}
        </div>
      )}
      <div class="main-row">
      <div class="timeline" ref={refs.root} tabIndex={0} aria-label="Trace timeline. W/S zoom, A/D pan, Home whole trace, Z undo zoom. Click selects (Ctrl/Cmd+click: go to source), Esc clears, F frames, period/comma next/previous on the row, Alt+Up/Down neighbouring row, E other end of an arrow, Ctrl/Cmd+drag selects a range">
        <div class="corner">{init?.yMaps[summary?.mapIndex ?? init.defaultMap]?.columns.join(' / ')}</div>
        <div class="overview-wrap">
          <canvas ref={refs.overview} class="overview" />
          <div ref={refs.overviewWindow} class="overview-window" />
        </div>
        <div class="corner2" />
        <div class="axis-wrap">
          <canvas ref={refs.axis} />
        </div>
        <div class="labels-wrap">
          <canvas ref={refs.labels} />
        </div>
        <div class="plot" ref={refs.plot}>
          <canvas ref={refs.grid} class="layer" />
          <canvas ref={refs.data} class="layer data" />
          <canvas ref={refs.overlay} class="layer overlay" />
          <div ref={refs.tooltip} class="tooltip" role="tooltip" hidden />
          {init &&
            popups.map((p) => (
              <DetailsPopup
                key={p.key}
                popup={p}
                categories={init.categories}
                rowLabel={rowLabel}
                width={plotBox?.width ?? 800}
                height={plotBox?.height ?? 400}
                openSource={openSource}
                onPin={() => setPopups((ps) => ps.map((q) => (q.key === p.key ? { ...q, pinned: !q.pinned } : q)))}
                onClose={() => {
                  setPopups((ps) => ps.filter((q) => q.key !== p.key));
                  if (!p.pinned) c?.clearSelection();
                }}
              />
            ))}
        </div>
        <div class="vscroll" ref={refs.vscroll}>
          <div ref={refs.vspacer} class="vspacer" />
        </div>
      </div>
      {showLegend && init && (
        <Legend
          categories={init.categories}
          hidden={hidden}
          unsearchable={unsearchable}
          colours={colours}
          setHidden={setHidden}
          setUnsearchable={setUnsearchable}
          setColour={(cat, rgb) => {
            setNamedColours((m) => {
              const next = { ...m };
              if (rgb) next[cat.name] = rgb;
              else delete next[cat.name];
              return next;
            });
            postToHost({ kind: 'setCategoryColour', name: cat.name, ...(rgb ? { rgb } : {}) });
          }}
        />
      )}
      </div>
    </div>
  );
}

function withDetails(p: PopupState, m: DetailsMessage): PopupState {
  return { ...p, details: m.details, message: m.message };
}

function Toolbar(props: {
  init: InitMessage | undefined;
  summary: ViewSummary | undefined;
  controller: TimelineController | undefined;
  legend: boolean;
  toggleLegend: () => void;
  openSearch: () => void;
}) {
  const { init, summary, controller: c } = props;
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [bad, setBad] = useState(false);
  useEffect(() => {
    if (summary) {
      setFrom(String(Number(summary.view.t0.toPrecision(12))));
      setTo(String(Number(summary.view.t1.toPrecision(12))));
      setBad(false);
    }
  }, [summary?.view.t0, summary?.view.t1]);
  const apply = (e: Event) => {
    e.preventDefault();
    const t0 = parseTime(from);
    const t1 = parseTime(to);
    if (t0 === undefined || t1 === undefined || !(t1 > t0)) return setBad(true);
    c?.setWindow({ t0, t1 });
  };
  const disabled = !init || !c;
  return (
    <form class="toolbar" onSubmit={apply}>
      <button type="button" disabled={disabled} title="Whole trace (Home)" onClick={() => c?.showAll()}>⤢</button>
      <button type="button" disabled={disabled || !summary?.canUndo} title="Undo zoom (Z)" onClick={() => c?.undo()}>↶</button>
      <button type="button" disabled={disabled || !summary?.canRedo} title="Redo zoom (Shift+Z)" onClick={() => c?.redo()}>↷</button>
      <button type="button" disabled={disabled} title="Zoom out (S, -)" onClick={() => c?.zoomCentre(1 / 1.6)}>−</button>
      <button type="button" disabled={disabled} title="Zoom in (W, +)" onClick={() => c?.zoomCentre(1.6)}>+</button>
      <label class={bad ? 'bad' : ''}>
        from <input aria-label="window start" value={from} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} size={14} />
      </label>
      <label class={bad ? 'bad' : ''}>
        to <input aria-label="window end" value={to} onInput={(e) => setTo((e.target as HTMLInputElement).value)} size={14} />
      </label>
      <button type="submit" disabled={disabled} title="Show this time window (units: s, ms, us, ns)">Go</button>
      <span class="span">{summary ? formatDuration(summary.view.t1 - summary.view.t0) : ''}</span>
      <label>
        rows{' '}
        <select aria-label="Y map" disabled={disabled} value={String(summary?.mapIndex ?? init?.defaultMap ?? 0)} onChange={(e) => c?.setMap(Number((e.target as HTMLSelectElement).value))}>
          {init?.yMaps.map((m, i) => (
            <option value={String(i)} key={i}>
              {m.title} ({m.rows.length})
            </option>
          ))}
        </select>
      </label>
      <span class="lod" title="Tree depth read: 0 = every drawable, higher = summarised (shadows)">
        {summary?.lowestDepth !== undefined ? (summary.lowestDepth === 0 ? 'exact' : `summary level ${summary.lowestDepth}`) : ''}
        {summary?.loading ? ' · loading…' : ''}
      </span>
      <button type="button" class="bookmark-add" disabled={disabled} title="Add a bookmark for this window (Ctrl/Cmd+Alt+B)" onClick={() => postToHost({ kind: 'runCommand', command: 'addBookmark' })}>
        Bookmark
      </button>
      <button type="button" class="bookmark-go" disabled={disabled} title="Go to a bookmark…" onClick={() => postToHost({ kind: 'runCommand', command: 'goToBookmark' })}>
        Bookmarks…
      </button>
      <button type="button" class="copy-link" disabled={disabled} title="Copy a vscode:// link to this view" onClick={() => postToHost({ kind: 'runCommand', command: 'copyViewLink' })}>
        Link
      </button>
      <button type="button" class="search-toggle" disabled={disabled} title="Search (Ctrl/Cmd+F)" onClick={props.openSearch}>
        Search
      </button>
      <button type="button" class="legend-toggle" disabled={disabled} aria-pressed={props.legend} title="Legend: categories, colours, visible / searchable" onClick={props.toggleLegend}>
        Legend
      </button>
      {summary?.range && (
        <span class="range" title="Selected range (Ctrl/Cmd+drag in the timeline; the Statistics view shows it)">
          range {formatDuration(summary.range[1] - summary.range[0])}
          <button type="button" class="range-clear" title="Clear the selected range (Esc)" onClick={() => c?.setRange(undefined)}>
            ✕
          </button>
        </span>
      )}
      {init && init.warnings.length > 0 && (
        <span class="warn" title={init.warnings.join('\n')}>
          ⚠ {init.warnings.length}
        </span>
      )}
    </form>
  );
}
