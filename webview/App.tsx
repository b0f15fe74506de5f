// The timeline editor's chrome: toolbar, search, status, the timeline's DOM (drawing lives in
// TimelineController), popups and legend. Each part owns its state; App routes the host's messages
// for the timeline itself and hands commands to the parts as messages.
import { markOpenStage } from './timeline/openTimings';
import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { HostToWebview, InitMessage, SiteMarksMessage, StatusMessage } from '../src/protocol/webview';
import { TimelineController, type Pick, type TimelineElements, type ViewSummary } from './timeline/controller';
import { Legend } from './Legend';
import { Toolbar } from './Toolbar';
import { Popups } from './Popups';
import { SearchPanel, type SearchCommand } from './SearchPanel';
import { useCategoryState } from './categoryStyle';
import { Listeners } from './listeners';
import { deliverBootMessages, onHostMessage, postToHost, saveView, savedView } from './host';
import { ReasonedError } from '../src/protocol/rpc';
import { TimeslicePanel } from './Timeslice';
import { ChainPanel, type ChainPanelState } from './ChainPanel';
import { ChainRequests } from './chainRequests';
import type { Timeslice } from './timeline/controller';
import { PreviewBanner } from './PreviewBanner';

const TIMELINE_LABEL =
  'Trace timeline. W/S zoom, A/D pan, Shift+W/S row height (Ctrl/Cmd+wheel), H hides the row under the pointer, Shift+H shows all rows, drag a row label (or [ and ]) to move it, T timeslice, Home whole trace, Z undo zoom. Click selects (Ctrl/Cmd+click: go to source), Esc clears, F frames, period/comma next/previous on the row, Alt+Up/Down neighbouring row, E other end of an arrow, Ctrl/Cmd+drag selects a range';

export function App() {
  const [init, setInit] = useState<InitMessage | undefined>(undefined);
  /** The generation of the preview that started the conversion shown (its snapshots follow it): the banner's key. */
  const previewChain = useRef(0);
  const lastInit = useRef<InitMessage | undefined>(undefined);
  const [status, setStatus] = useState<StatusMessage | undefined>({ kind: 'status', phase: 'opening', message: 'Opening…' });
  /** The conversion behind a preview: how far it has got, for the generation it was told for. */
  const [previewProgress, setPreviewProgress] = useState<{ readonly generation: number; readonly progress: number } | undefined>(undefined);
  const [summary, setSummary] = useState<ViewSummary | undefined>(undefined);
  const [controller, setController] = useState<TimelineController | undefined>(undefined);
  const [showLegend, setShowLegend] = useState(false);
  const [showSlice, setShowSlice] = useState(false);
  const [slice, setSlice] = useState<Timeslice | undefined>(undefined);
  const [searchCommand, setSearchCommand] = useState<SearchCommand | undefined>(undefined);
  const [siteMarks, setSiteMarks] = useState<SiteMarksMessage | undefined>(undefined);
  const [picks] = useState(() => new Listeners<Pick | undefined>());
  const [chain, setChain] = useState<ChainPanelState | undefined>(undefined);
  const [chainRequests] = useState(() => new ChainRequests(postToHost));
  const categories = useCategoryState(init, controller);
  const searchSeq = useRef(0);
  const toSearch = (kind: SearchCommand['kind'], text?: string): void =>
    setSearchCommand({ kind, seq: ++searchSeq.current, ...(text !== undefined ? { text } : {}) });
  const refs = useTimelineRefs();

  useEffect(() => {
    const c = new TimelineController(
      elementsOf(refs),
      postToHost,
      saveView,
      savedView(),
      setSummary,
      (pick) => picks.emit(pick),
      () => setShowSlice((v) => !v),
    );
    setController(c);
    const off = onHostMessage((m: HostToWebview) => routeToTimeline(m, c));
    // The parts' own listeners are registered by now (their effects ran first).
    const booted = deliverBootMessages();
    const firstView = c.firstViewHint();
    postToHost({ kind: 'ready', ...(firstView ? { firstView } : {}), ...(booted !== undefined ? { booted } : {}) });
    refs.root.current?.focus();
    // Ctrl/Cmd+F inside the editor (the contributed keybinding sends the same as a command)
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'f' || e.key === 'F')) {
        e.preventDefault();
        toSearch('open');
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
    controller?.setTimesliceListener(showSlice ? (s) => s && setSlice(s) : undefined);
  }, [controller, showSlice]);

  /** The host's messages for the timeline and the app (the parts listen for their own). */
  function routeToTimeline(m: HostToWebview, c: TimelineController): void {
    switch (m.kind) {
      case 'init':
        markOpenStage(m.preview ? 'previewInit' : 'init', `${m.fileName}, host open ${m.openMs ?? '?'} ms`);
        // A preview's successor that is a preview too (the conversion's next snapshot) continues its conversion.
        if (!m.preview || !lastInit.current?.preview || lastInit.current.fileName !== m.fileName) previewChain.current = m.generation;
        lastInit.current = m;
        setInit(m);
        setPreviewProgress(m.preview ? { generation: m.generation, progress: m.preview.progress } : undefined);
        if (m.preview) document.body.dataset.preview = String(m.generation);
        else delete document.body.dataset.preview;
        setStatus(undefined);
        setChain(undefined);
        c.setInit(m);
        c.marks.setChain(undefined);
        return;
      case 'status':
        setStatus(m);
        c.suspend();
        document.body.dataset.state = m.phase;
        return;
      case 'previewProgress':
        setPreviewProgress((p) => (p?.generation === m.generation ? { generation: m.generation, progress: m.progress } : p));
        return;
      case 'window':
        return c.onWindow(m);
      case 'windowFailed':
        return c.onWindowFailed(m);
      case 'command':
        if (m.command === 'find') toSearch('open');
        else if (m.command === 'findNext') toSearch('next');
        else if (m.command === 'findPrevious') toSearch('previous');
        else c.command(m.command);
        return;
      case 'siteMarks':
        setSiteMarks(m);
        c.setSiteMarks(m);
        return;
      case 'searchFor':
        toSearch('open', m.text);
        return;
      case 'link':
        if (m.revealRow !== undefined) c.revealRow(m.revealRow);
        if (m.reveal) c.showHit(m.reveal);
        return;
      case 'showView':
        return c.showView(m.view, m.syncSeq);
      case 'analysisOverlay':
        return c.marks.setAnalysisOverlay(m);
      case 'peerCursor':
        return c.setPeerCursor(m);
      case 'details':
        return c.onDetails(m);
      case 'chain':
        chainRequests.answer(m);
        return;
    }
  }

  /** Asks the host for a state's dependence chain; the newest request wins. */
  const showChain = (pick: Pick, direction: ChainPanelState['direction']): void => {
    if (!pick.ref || !init || !controller) return;
    setChain({ direction, chain: undefined, message: undefined });
    chainRequests.request(pick.ref, init.generation, direction).then(
      (m) => {
        setChain({ direction, chain: m.chain, message: m.message });
        controller.marks.setChain(m.chain);
      },
      (e: unknown) => {
        if (e instanceof ReasonedError && e.reason === 'superseded') return;
        setChain({ direction, chain: undefined, message: e instanceof Error ? e.message : String(e) });
      },
    );
  };
  const closeChain = (): void => {
    setChain(undefined);
    controller?.marks.setChain(undefined);
    refs.root.current?.focus();
  };

  const plotBox = refs.plot.current?.getBoundingClientRect();
  const mapIndex = summary?.mapIndex ?? init?.defaultMap ?? 0;
  const rowLabel = (row: number): string => {
    const m = init?.yMaps[mapIndex];
    return m ? `${m.columns.join(' / ')} ${m.rows[row] ?? row}` : String(row);
  };
  return (
    <div class="app">
      <Toolbar
        init={init}
        summary={summary}
        controller={controller}
        legend={showLegend}
        toggleLegend={() => setShowLegend((v) => !v)}
        openSearch={() => toSearch('open')}
        timeslice={showSlice}
        toggleTimeslice={() => setShowSlice((v) => !v)}
      />
      <SearchPanel
        init={init}
        controller={controller}
        mapIndex={mapIndex}
        unsearchable={categories.unsearchable}
        viewStart={summary?.view.t0}
        command={searchCommand}
        close={() => refs.root.current?.focus()}
      />
      {!status && init?.preview && previewProgress?.generation === init.generation && (
        <PreviewBanner key={previewChain.current} preview={init.preview} timeRange={init.timeRange} progress={previewProgress.progress} />
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
        <TimelineFrame refs={refs} corner={init?.yMaps[summary?.mapIndex ?? init.defaultMap]?.columns.join(' / ')}>
          <Popups
            init={init}
            controller={controller}
            picks={picks}
            rowLabel={rowLabel}
            showChain={showChain}
            width={plotBox?.width ?? 800}
            height={plotBox?.height ?? 400}
          />
        </TimelineFrame>
        {chain && init && (
          <ChainPanel state={chain} categories={init.categories} mapIndex={mapIndex} show={(hit) => controller?.showHit(hit)} close={closeChain} />
        )}
        {showSlice && init && (
          <TimeslicePanel
            slice={slice}
            categories={init.categories}
            rowLabel={(row) => init.yMaps[mapIndex]?.rows[row] ?? String(row)}
            close={() => {
              setShowSlice(false);
              refs.root.current?.focus();
            }}
          />
        )}
        {showLegend && init && (
          <Legend
            categories={init.categories}
            hidden={categories.hidden}
            unsearchable={categories.unsearchable}
            colours={categories.colours}
            setHidden={categories.setHidden}
            setUnsearchable={categories.setUnsearchable}
            setColour={(cat, rgb) => categories.setColour(cat.name, rgb)}
            siteColourings={siteMarks?.colourings}
            removeColourings={() => postToHost({ kind: 'runCommand', command: 'removeTraceColourings' })}
          />
        )}
      </div>
    </div>
  );
}

/** One ref per element the timeline controller draws into or listens on. */
function useTimelineRefs() {
  return {
    root: useRef<HTMLDivElement>(null),
    axis: useRef<HTMLCanvasElement>(null),
    activity: useRef<HTMLCanvasElement>(null),
    activityLabel: useRef<HTMLButtonElement>(null),
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
  } satisfies Record<keyof TimelineElements, RefObject<HTMLElement>>;
}

type TimelineRefs = ReturnType<typeof useTimelineRefs>;

/** The mounted elements (called from an effect, when every ref is set). */
function elementsOf(refs: TimelineRefs): TimelineElements {
  return Object.fromEntries(Object.entries(refs).map(([name, ref]) => [name, (ref as RefObject<HTMLElement>).current!])) as unknown as TimelineElements;
}

/** The timeline's DOM: overview strip, axis, row labels, the plot's canvas layers (and popups), scroll box. */
function TimelineFrame(props: { refs: TimelineRefs; corner: string | undefined; children: ComponentChildren }) {
  return (
    <div class="timeline" ref={props.refs.root} tabIndex={0} aria-label={TIMELINE_LABEL}>
      <div class="corner">{props.corner}</div>
      <div class="overview-wrap">
        <canvas ref={props.refs.overview} class="overview" />
        <div ref={props.refs.overviewWindow} class="overview-window" />
      </div>
      <div class="corner2" />
      <div class="axis-wrap">
        <canvas ref={props.refs.axis} />
      </div>
      <button type="button" class="activity-label" ref={props.refs.activityLabel} />
      <div class="activity-wrap" title="Activity: per pixel column, the share of the shown rows in each state (innermost), in the trace's colours">
        <canvas ref={props.refs.activity} class="activity" />
      </div>
      <div class="labels-wrap">
        <canvas ref={props.refs.labels} />
      </div>
      <div class="plot" ref={props.refs.plot}>
        <canvas ref={props.refs.grid} class="layer" />
        <canvas ref={props.refs.data} class="layer data" />
        <canvas ref={props.refs.overlay} class="layer overlay" />
        <div ref={props.refs.tooltip} class="tooltip" role="tooltip" hidden />
        {props.children}
      </div>
      <div class="vscroll" ref={props.refs.vscroll}>
        <div ref={props.refs.vspacer} class="vspacer" />
      </div>
    </div>
  );
}
