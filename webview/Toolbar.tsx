// The timeline's toolbar: whole/undo/redo/zoom, the window's from/to fields, the Y map, bookmarks,
// link, search and legend toggles, the selected range and the reader's warnings.
import { useEffect, useState } from 'preact/hooks';
import type { InitMessage, ToolbarCommand } from '../src/protocol/webview';
import type { TimelineController, ViewSummary } from './timeline/controller';
import { ZOOM_STEP } from './timeline/input';
import { formatDuration, formatTimeField, parseTime } from './timeline/timeScale';
import { postToHost } from './host';
import { RowControls } from './RowControls';
import type { ArrowMode } from './timeline/drawArrows';

export function Toolbar(props: {
  init: InitMessage | undefined;
  summary: ViewSummary | undefined;
  controller: TimelineController | undefined;
  legend: boolean;
  toggleLegend: () => void;
  openSearch: () => void;
  timeslice: boolean;
  toggleTimeslice: () => void;
}) {
  const { init, summary, controller: c } = props;
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [bad, setBad] = useState(false);
  useEffect(() => {
    if (summary) {
      const span = summary.view.t1 - summary.view.t0;
      setFrom(formatTimeField(summary.view.t0, span));
      setTo(formatTimeField(summary.view.t1, span));
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
      <button type="button" disabled={disabled} title="Whole trace (Home)" onClick={() => c?.showAll()}>
        ⤢
      </button>
      <button type="button" disabled={disabled || !summary?.canUndo} title="Undo zoom (Z)" onClick={() => c?.undo()}>
        ↶
      </button>
      <button type="button" disabled={disabled || !summary?.canRedo} title="Redo zoom (Shift+Z)" onClick={() => c?.redo()}>
        ↷
      </button>
      <button type="button" disabled={disabled} title="Zoom out (S, -)" onClick={() => c?.zoomCentre(1 / ZOOM_STEP)}>
        −
      </button>
      <button type="button" disabled={disabled} title="Zoom in (W, +)" onClick={() => c?.zoomCentre(ZOOM_STEP)}>
        +
      </button>
      <label class={bad ? 'bad' : ''}>
        from <input aria-label="window start" value={from} onInput={(e) => setFrom((e.target as HTMLInputElement).value)} size={14} />
      </label>
      <label class={bad ? 'bad' : ''}>
        to <input aria-label="window end" value={to} onInput={(e) => setTo((e.target as HTMLInputElement).value)} size={14} />
      </label>
      <button type="submit" disabled={disabled} title="Show this time window (units: s, ms, us or µs, ns; a bare number is seconds)">
        Go
      </button>
      <span class="span">{summary ? formatDuration(summary.view.t1 - summary.view.t0) : ''}</span>
      <label>
        rows{' '}
        <select
          aria-label="Y map"
          disabled={disabled}
          value={String(summary?.mapIndex ?? init?.defaultMap ?? 0)}
          onChange={(e) => c?.setMap(Number((e.target as HTMLSelectElement).value))}
        >
          {init?.yMaps.map((m, i) => (
            <option value={String(i)} key={i}>
              {m.title} ({m.rows.length})
            </option>
          ))}
        </select>
      </label>
      <RowControls rows={summary?.rows} api={c?.rowControls} />
      <label title="Arrows: lines while they can be told apart, else message density per row block and time bin (auto)">
        arrows{' '}
        <select
          aria-label="Arrows"
          disabled={disabled}
          value={summary?.arrowMode ?? 'auto'}
          onChange={(e) => c?.setArrowMode((e.target as HTMLSelectElement).value as ArrowMode)}
        >
          <option value="auto">auto</option>
          <option value="lines">lines</option>
          <option value="density">density</option>
          <option value="off">off</option>
        </select>
      </label>
      <span class="lod" title="Tree depth read: 0 = every drawable, higher = summarised (shadows)">
        {summary?.lowestDepth !== undefined ? (summary.lowestDepth === 0 ? 'exact' : `summary level ${summary.lowestDepth}`) : ''}
        {summary?.loading ? ' · loading…' : ''}
      </span>
      {HOST_COMMANDS.map((b) => (
        <ToolButton key={b.command} class={b.class} disabled={disabled} title={b.title} onClick={() => postToHost({ kind: 'runCommand', command: b.command })}>
          {b.label}
        </ToolButton>
      ))}
      <ToolButton class="search-toggle" disabled={disabled} title="Search (Ctrl/Cmd+F)" onClick={props.openSearch}>
        Search
      </ToolButton>
      <WaitToggles controller={c} disabled={disabled} />
      <ToolButton
        class="legend-toggle"
        disabled={disabled}
        pressed={props.legend}
        title="Legend: categories, colours, visible / searchable"
        onClick={props.toggleLegend}
      >
        Legend
      </ToolButton>
      <ToolButton
        class="timeslice-toggle"
        disabled={disabled}
        pressed={props.timeslice}
        title="Timeslice: what every row is doing at the cursor's time (T)"
        onClick={props.toggleTimeslice}
      >
        Timeslice
      </ToolButton>
      {summary?.range && (
        <span class="range" title="Selected range (Ctrl/Cmd+drag in the timeline; the Statistics view shows it)">
          range {formatDuration(summary.range[1] - summary.range[0])}
          <button type="button" class="range-clear" title="Clear the selected range (Esc)" onClick={() => c?.marks.setRange(undefined)}>
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

/** The toolbar buttons that run a host command (bookmarks, view link). */
const HOST_COMMANDS: readonly { readonly command: ToolbarCommand; readonly class: string; readonly label: string; readonly title: string }[] = [
  { command: 'addBookmark', class: 'bookmark-add', label: 'Bookmark', title: 'Add a bookmark for this window (Ctrl/Cmd+Alt+B)' },
  { command: 'goToBookmark', class: 'bookmark-go', label: 'Bookmarks…', title: 'Go to a bookmark…' },
  { command: 'copyViewLink', class: 'copy-link', label: 'Link', title: 'Copy a vscode:// link to this view' },
];

/** A toolbar button (a toggle when `pressed` is given). */
function ToolButton(props: { class: string; title: string; disabled: boolean; pressed?: boolean; onClick: () => void; children: preact.ComponentChildren }) {
  return (
    <button type="button" class={props.class} disabled={props.disabled} aria-pressed={props.pressed} title={props.title} onClick={props.onClick}>
      {props.children}
    </button>
  );
}

/** Toggles of the wait-state overlay: hatched waiting time, critical path. */
function WaitToggles(props: { controller: TimelineController | undefined; disabled: boolean }) {
  const [waits, setWaits] = useState(true);
  const [path, setPath] = useState(false);
  const c = props.controller;
  return (
    <>
      <ToolButton
        class="waits-toggle"
        disabled={props.disabled}
        pressed={waits}
        title="Hatch the time states spend waiting for another rank (wait-state analysis)"
        onClick={() => c && setWaits(c.marks.toggleAnalysis('waits'))}
      >
        Waits
      </ToolButton>
      <ToolButton
        class="path-toggle"
        disabled={props.disabled}
        pressed={path}
        title="Highlight the critical path (what determined the run's length)"
        onClick={() => c && setPath(c.marks.toggleAnalysis('path'))}
      >
        Critical path
      </ToolButton>
    </>
  );
}
