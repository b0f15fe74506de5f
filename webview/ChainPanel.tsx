// The dependence chain's list beside the timeline: one entry per state of the chain (indented by
// its depth in a forward tree), each a button that selects and frames that state.
import type { CategoryInfo, ChainInfo, ChainNodeInfo, SearchHit } from '../src/protocol/webview';

export interface ChainPanelState {
  readonly direction: ChainInfo['direction'];
  /** Undefined while the host works on it (or when it failed: `message`). */
  readonly chain: ChainInfo | undefined;
  readonly message: string | undefined;
}

const TITLES = { backward: 'What it waited for', forward: 'What it delayed' } as const;

function swatch(c: CategoryInfo | undefined) {
  const [r, g, b] = c?.rgba ?? [128, 128, 128];
  return <span class="swatch" style={{ background: `rgb(${r},${g},${b})` }} />;
}

export function ChainPanel(props: {
  readonly state: ChainPanelState;
  readonly categories: readonly CategoryInfo[];
  readonly mapIndex: number;
  readonly show: (hit: SearchHit) => void;
  readonly close: () => void;
}) {
  const { chain, message, direction } = props.state;
  const byIndex = new Map(props.categories.map((c) => [c.index, c]));
  const hitOf = (n: ChainNodeInfo): SearchHit | undefined => {
    const row = n.rows[props.mapIndex] ?? -1;
    return row < 0 ? undefined : { drawable: 'state', category: n.category, start: n.start, end: n.end, row, toRow: row };
  };
  return (
    <div class="chain-panel" role="region" aria-label="Dependence chain" data-testid="chain-panel">
      <div class="timeslice-head">
        <span>
          {TITLES[direction]}
          {chain ? ` · ${chain.nodes.length - 1} hop${chain.nodes.length === 2 ? '' : 's'} (depth ≤ ${chain.maxDepth})` : ''}
        </span>
        <button type="button" class="timeslice-close" title="Close (shows the whole timeline again)" onClick={props.close}>
          ✕
        </button>
      </div>
      {!chain && <div class="chain-note">{message ?? 'following the waits… (the first chain of a trace waits for its wait-state analysis)'}</div>}
      {chain && (
        <ol class="chain-list">
          {chain.nodes.map((n, i) => {
            const hit = hitOf(n);
            return (
              <li key={i} style={{ paddingLeft: `${direction === 'forward' ? Math.min(n.depth, 12) * 8 : 0}px` }}>
                <button type="button" class="chain-entry" disabled={hit === undefined} data-via={n.via} onClick={() => hit && props.show(hit)} title={n.text}>
                  {swatch(byIndex.get(n.category))}
                  {n.text}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {chain?.nodes.length === 1 && (
        <div class="chain-note">
          Nothing to follow:{' '}
          {direction === 'backward' ? 'it did not wait and nothing ran before it on its rank' : 'no wait was caused by it and nothing ran after it on its rank'}
          .
        </div>
      )}
      {chain?.truncated && <div class="chain-note">More states than shown: the list stops at {chain.nodes.length}.</div>}
      {chain?.note && <div class="chain-note">Note: {chain.note}.</div>}
    </div>
  );
}
