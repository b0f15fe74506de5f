// The statistics side panel: state from the host's messages, the sections, exports.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { RangeStats } from '../../src/core/stats/types';
import type { MessageItem, TraceMessage, WaitsMessage } from '../../src/protocol/stats';
import { CategoryTable } from './CategoryTable';
import { WaitTable } from './WaitTable';
import { DurationHistogram } from './DurationHistogram';
import { formatBytes, formatCount, formatSeconds, rgbaCss } from './format';
import { MessageList, MessageMatrix } from './MessageMatrix';
import { MessageSizes } from './MessageSizes';
import { RowChart } from './RowChart';
import { useTheme, type Theme } from './theme';
import { loadSettings, onHostMessage, saveSettings, send, type PanelSettings, type SortKey } from './vscodeApi';

type TableName = 'categories' | 'rows' | 'pairs' | 'tags' | 'comms' | 'sizes' | 'durations';
const TABLES: readonly TableName[] = ['categories', 'rows', 'pairs', 'tags', 'comms', 'sizes', 'durations'];

interface PanelState {
  readonly trace?: TraceMessage;
  readonly stats?: RangeStats;
  readonly progress?: { readonly drawables: number; readonly fraction?: number };
  readonly error?: string;
  readonly messages?: { readonly from: number; readonly to: number; readonly items: readonly MessageItem[]; readonly truncated: boolean };
  readonly waits?: WaitsMessage;
  readonly empty: boolean;
}

const KIND_TEXT: Record<RangeStats['kind'], string> = {
  exact: 'exact',
  approximate: 'approximate (from preview shadows; exact numbers follow)',
  summary: 'whole-file summary (exact numbers follow)',
};

/** The panel's state, from the host's messages (sends `ready` once mounted). */
function usePanelState(): PanelState {
  const [state, setState] = useState<PanelState>({ empty: true });
  useEffect(() => {
    const off = onHostMessage((m) => {
      switch (m.kind) {
        case 'empty':
          setState({ empty: true });
          return;
        case 'trace':
          setState({ empty: false, trace: m });
          return;
        case 'stats':
          setState((s) => {
            const { progress: _p, error: _e, ...rest } = s;
            return m.stats.kind === 'exact' ? { ...rest, stats: m.stats } : { ...s, stats: m.stats };
          });
          return;
        case 'progress':
          setState((s) => ({ ...s, progress: { drawables: m.drawables, ...(m.fraction !== undefined ? { fraction: m.fraction } : {}) } }));
          return;
        case 'error':
          setState((s) => {
            const { progress: _p, ...rest } = s;
            return { ...rest, error: m.message };
          });
          return;
        case 'messages':
          setState((s) => ({ ...s, messages: { from: m.from, to: m.to, items: m.items, truncated: m.truncated } }));
          return;
        case 'waits':
          setState((s) => ({ ...s, waits: m }));
          return;
      }
    });
    send({ kind: 'ready' });
    return off;
  }, []);

  return state;
}

/** The panel's settings (sort, modes, chosen histogram, export table), persisted. */
function usePanelSettings(): readonly [PanelSettings, (patch: Partial<PanelSettings>) => void] {
  const [settings, setSettingsState] = useState<PanelSettings>(loadSettings);
  const setSettings = (patch: Partial<PanelSettings>) =>
    setSettingsState((s) => {
      const next = { ...s, ...patch };
      saveSettings(next);
      return next;
    });
  return [settings, setSettings];
}

type SetSettings = (patch: Partial<PanelSettings>) => void;

export function StatsPanel() {
  const theme = useTheme();
  const state = usePanelState();
  const [settings, setSettings] = usePanelSettings();
  const stats = state.stats;
  const labels = useMemo(() => new Map((stats?.rows ?? []).map((r) => [r.lineID, r.label])), [stats]);
  const labelOf = (lineID: number) => labels.get(lineID) ?? String(lineID);

  if (state.empty) {
    return (
      <div class="empty">
        <p>Open an MPE trace (.slog2, .clog2, .clog) to see its statistics.</p>
        <p class="muted">Select a time range in the timeline to see the numbers for that range.</p>
      </div>
    );
  }
  return (
    <div class="panel">
      <StatusHeader state={state} settings={settings} setSettings={setSettings} />
      {stats === undefined ? (
        <p class="muted">Computing…</p>
      ) : (
        <>
          <section>
            <h3>Categories</h3>
            <CategoryTable
              categories={stats.categories}
              timelines={stats.timelines}
              sortKey={settings.sortKey}
              descending={settings.sortDescending}
              onSort={(key: SortKey) =>
                setSettings(key === settings.sortKey ? { sortDescending: !settings.sortDescending } : { sortKey: key, sortDescending: key !== 'name' })
              }
              onHighlight={(index) => send({ kind: 'highlightCategory', index })}
              onReveal={(category, instance) => send({ kind: 'revealInstance', category, instance })}
              {...(state.waits !== undefined &&
              state.trace !== undefined &&
              state.waits.range[0] === state.trace.range[0] &&
              state.waits.range[1] === state.trace.range[1]
                ? { waiting: state.waits.byCategory }
                : {})}
            />
          </section>

          {state.waits !== undefined && (
            <section>
              <h3>Wait states</h3>
              <WaitTable waits={state.waits} />
            </section>
          )}

          {stats.rows.length > 0 ? <RowsSection stats={stats} theme={theme} settings={settings} setSettings={setSettings} /> : undefined}
          {stats.messages.pairs.length > 0 ? (
            <MessagesSection stats={stats} state={state} theme={theme} labelOf={labelOf} settings={settings} setSettings={setSettings} />
          ) : undefined}
          <DurationsSection stats={stats} theme={theme} settings={settings} setSettings={setSettings} />
        </>
      )}
    </div>
  );
}

/** File, range, exactness, progress, error, and the export toolbar. */
function StatusHeader(props: { state: PanelState; settings: PanelSettings; setSettings: SetSettings }) {
  const { state, settings, setSettings } = props;
  const stats = state.stats;
  const trace = state.trace;
  const isSelection = trace !== undefined && (trace.range[0] !== trace.timeRange[0] || trace.range[1] !== trace.timeRange[1]);
  const exportTable = (TABLES as readonly string[]).includes(settings.exportTable) ? (settings.exportTable as TableName) : 'categories';
  return (
    <header class="status">
      <div>
        <strong>{trace?.fileName}</strong>
        {trace !== undefined ? (
          <span class="muted">
            {' '}
            {isSelection ? 'selection' : trace.preview ? 'preview' : 'whole trace'} {formatSeconds(trace.range[0])} – {formatSeconds(trace.range[1])} (
            {formatSeconds(trace.range[1] - trace.range[0])})
          </span>
        ) : undefined}
        {trace?.preview ? (
          <div class="preview-note">
            Of the preview only: the trace in the first {formatBytes(trace.preview.shownBytes)} of {formatBytes(trace.preview.totalBytes)}. The whole trace's
            statistics follow when its conversion is done.
          </div>
        ) : undefined}
        {isSelection ? (
          <button class="link" onClick={() => send({ kind: 'wholeTrace' })}>
            whole trace
          </button>
        ) : undefined}
      </div>
      {stats !== undefined ? (
        <div class={stats.kind === 'exact' ? 'muted' : 'warning'} data-kind={stats.kind}>
          {KIND_TEXT[stats.kind]} · {formatCount(stats.drawables)} drawables · {formatCount(stats.messages.count)} messages · {formatCount(stats.timelines)}{' '}
          timelines
          {stats.clampedStates > 0 ? (
            <span class="warning" title="States whose end is recorded before their start (e.g. after a clock re-sync) count with duration 0 (CLOG2.md)">
              {' '}
              · {formatCount(stats.clampedStates)} states end before they start (counted as 0 s)
            </span>
          ) : undefined}
        </div>
      ) : undefined}
      {state.progress !== undefined ? (
        <div class="progress">
          <progress max={1} value={state.progress.fraction ?? 0} />
          <span class="muted"> {formatCount(state.progress.drawables)} read </span>
          <button class="link" onClick={() => send({ kind: 'cancel' })}>
            cancel
          </button>
        </div>
      ) : undefined}
      {state.error !== undefined ? <div class="error">{state.error}</div> : undefined}
      <div class="toolbar">
        <select aria-label="Table to export" value={exportTable} onChange={(e) => setSettings({ exportTable: (e.target as HTMLSelectElement).value })}>
          {TABLES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button disabled={stats === undefined} onClick={() => send({ kind: 'export', format: 'csv', table: exportTable })}>
          CSV…
        </button>
        <button disabled={stats === undefined} onClick={() => send({ kind: 'export', format: 'json', table: exportTable })}>
          JSON…
        </button>
        <button disabled={stats === undefined} onClick={() => send({ kind: 'copy', table: exportTable })}>
          Copy TSV
        </button>
      </div>
    </header>
  );
}

/** Time per timeline (inclusive or exclusive bars). */
function RowsSection(props: { stats: RangeStats; theme: Theme; settings: PanelSettings; setSettings: SetSettings }) {
  const { stats, theme, settings, setSettings } = props;
  return (
    <section>
      <h3
        title={
          'exclusive: per timeline, the time in each state itself, stacked (a bar is at most the range length). ' +
          'inclusive: per timeline, the time in each state including the states nested in it, one bar per category, not stacked.'
        }
      >
        Time per timeline
        <span class="toggle">
          {(['exclusive', 'inclusive'] as const).map((m) => (
            <button key={m} class={settings.barMode === m ? 'on' : ''} aria-pressed={settings.barMode === m} onClick={() => setSettings({ barMode: m })}>
              {m}
            </button>
          ))}
        </span>
      </h3>
      <RowChart
        rows={stats.rows}
        categories={stats.categories}
        mode={settings.barMode}
        range={stats.range[1] - stats.range[0]}
        theme={theme}
        onRow={(lineID) => send({ kind: 'revealRow', lineID })}
      />
    </section>
  );
}

/** The message matrix, sizes and tags, and the list of the chosen pair's messages. */
function MessagesSection(props: {
  stats: RangeStats;
  state: PanelState;
  theme: Theme;
  labelOf: (lineID: number) => string;
  settings: PanelSettings;
  setSettings: SetSettings;
}) {
  const { stats, state, theme, labelOf, settings, setSettings } = props;
  return (
    <section>
      <h3>
        Messages <span class="muted">{formatBytes(stats.messages.bytes)}</span>
        <span class="toggle">
          {(['count', 'bytes'] as const).map((m) => (
            <button
              key={m}
              class={settings.matrixMode === m ? 'on' : ''}
              aria-pressed={settings.matrixMode === m}
              onClick={() => setSettings({ matrixMode: m })}
            >
              {m}
            </button>
          ))}
        </span>
      </h3>
      <MessageMatrix
        pairs={stats.messages.pairs}
        labelOf={labelOf}
        mode={settings.matrixMode}
        theme={theme}
        {...(state.messages !== undefined ? { selected: { from: state.messages.from, to: state.messages.to } } : {})}
        onSelect={(from, to) => send({ kind: 'listMessages', from, to })}
      />
      <MessageSizes sizes={stats.messages.sizes} tags={stats.messages.tags} />
      {state.messages !== undefined ? (
        <MessageList
          title={`${labelOf(state.messages.from)} → ${labelOf(state.messages.to)}`}
          items={state.messages.items}
          truncated={state.messages.truncated}
        />
      ) : undefined}
    </section>
  );
}

/** The duration histogram of the chosen category (a state category by default). */
function DurationsSection(props: { stats: RangeStats; theme: Theme; settings: PanelSettings; setSettings: SetSettings }) {
  const { stats, theme, settings, setSettings } = props;
  const histograms = stats.durations;
  const chosen =
    histograms.find((h) => h.index === settings.histogramCategory) ??
    histograms.find((h) => h.index === stats.categories.find((c) => c.kind === 'state')?.index) ??
    histograms[0];
  const chosenCategory = stats.categories.find((c) => c.index === chosen?.index);
  if (chosen === undefined) return null;
  return (
    <section>
      <h3>
        Durations of{' '}
        <select
          aria-label="Category of the duration histogram"
          value={String(chosen.index)}
          onChange={(e) => setSettings({ histogramCategory: Number((e.target as HTMLSelectElement).value) })}
        >
          {histograms.map((h) => (
            <option key={h.index} value={String(h.index)}>
              {stats.categories.find((c) => c.index === h.index)?.name ?? h.index}
            </option>
          ))}
        </select>
      </h3>
      <DurationHistogram histogram={chosen} colour={chosenCategory !== undefined ? rgbaCss(chosenCategory.rgba) : theme.accent} theme={theme} />
    </section>
  );
}
