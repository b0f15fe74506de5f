// The click popups: full details of a drawable (from the host) or of a shadow (from the payload).
// One unpinned popup follows the clicks; pinned ones stay and mark their times on the timeline.
import type { CategoryInfo, DrawableDetails, SearchHit, SiteRef } from '../src/protocol/webview';
import type { Pick } from './timeline/controller';
import { formatDuration } from './timeline/timeScale';

export interface PopupState {
  readonly key: number;
  readonly pick: Pick;
  readonly details: DrawableDetails | undefined;
  readonly message: string | undefined;
  readonly pinned: boolean;
}

/** Height of the strip at the plot's top where the overlay draws the cursor's time label (draw.ts: y 2–18). */
export const CURSOR_LABEL_PX = 20;

const seconds = (t: number): string => `${Number(t.toPrecision(12))} s`;

function Swatch(props: { rgba: readonly number[] | undefined }) {
  const c = props.rgba;
  return <span class="swatch" style={{ background: c ? `rgb(${c[0]}, ${c[1]}, ${c[2]})` : 'transparent' }} />;
}

function SourceButton(props: { label: string; site: SiteRef; open: (site: SiteRef, beside: boolean) => void }) {
  const { site } = props;
  const name = site.file.slice(Math.max(site.file.lastIndexOf('/'), site.file.lastIndexOf('\\')) + 1);
  return (
    <button
      type="button"
      class="go-to-source"
      data-site={String(site.siteId)}
      data-line={String(site.line)}
      title={`${site.file}:${site.line} (Alt: open beside)`}
      onClick={(e) => props.open(site, e.altKey)}
    >
      Go to source{props.label} · {name}:{site.line}
    </button>
  );
}

export function DetailsPopup(props: {
  popup: PopupState;
  categories: readonly CategoryInfo[];
  rowLabel: (row: number) => string;
  onPin: () => void;
  onClose: () => void;
  openSource: (site: SiteRef, beside: boolean) => void;
  /** Frames a drawable (the rank a waiting state waited for). */
  goTo?: (hit: SearchHit) => void;
  /** Shows the state's dependence chain: what it waited for (backward) or what it delayed (forward). */
  showChain?: (direction: 'backward' | 'forward') => void;
  width: number;
  height: number;
}) {
  const { popup, categories } = props;
  const { pick, details } = popup;
  const sel = pick.selection;
  const category = (index: number) => categories.find((c) => c.index === index);
  const left = Math.max(0, Math.min(pick.x + 12, props.width - 340));
  // Below the cursor's time label (drawn in the plot's top CURSOR_LABEL_PX), however short the plot.
  const top = Math.max(CURSOR_LABEL_PX, Math.min(pick.y + 12, props.height - 220));
  const maxHeight = Math.max(60, props.height - top - 4);
  const title = details
    ? details.categoryName
    : pick.shadow
      ? `Summary of ${pick.shadow.count} drawables`
      : sel.summary
        ? `Summary (${sel.kind}s)`
        : (category(sel.category)?.name ?? '…');
  const rgba = details?.rgba ?? (pick.shadow ? undefined : category(sel.category)?.rgba);
  const start = details?.start ?? sel.start;
  const end = details?.end ?? sel.end;
  const { start: srcStart, end: srcEnd } = details?.sources ?? {};
  return (
    <div
      class={`details${popup.pinned ? ' pinned' : ''}`}
      data-testid="details"
      data-category={details?.categoryName ?? ''}
      style={{ transform: `translate(${left}px, ${top}px)`, maxHeight: `min(70%, ${maxHeight}px)` }}
      role="dialog"
      aria-label={`Details: ${title}`}
    >
      <div class="details-head">
        <Swatch rgba={rgba} />
        <strong class="details-title">{title}</strong>
        <span class="details-kind">{details?.topology ?? sel.kind}</span>
        <span class="grow" />
        <button
          type="button"
          class="icon"
          title={popup.pinned ? 'Unpin' : 'Pin (keeps the popup and marks its time)'}
          aria-pressed={popup.pinned}
          onClick={props.onPin}
        >
          {popup.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" class="icon" title="Close (Esc)" onClick={props.onClose}>
          ✕
        </button>
      </div>
      <table class="details-times">
        <tbody>
          {sel.kind === 'event' && !sel.summary ? (
            <tr>
              <th>time</th>
              <td>{seconds(start)}</td>
            </tr>
          ) : (
            <>
              <tr>
                <th>{sel.kind === 'arrow' ? 'send' : 'start'}</th>
                <td>{seconds(start)}</td>
              </tr>
              <tr>
                <th>{sel.kind === 'arrow' ? 'receive' : 'end'}</th>
                <td>{seconds(end)}</td>
              </tr>
              <tr>
                <th>duration</th>
                <td>{formatDuration(end - start)}</td>
              </tr>
            </>
          )}
          <tr>
            <th>{sel.kind === 'arrow' ? 'from → to' : 'row'}</th>
            <td>{sel.kind === 'arrow' ? `${props.rowLabel(sel.row)} → ${props.rowLabel(sel.toRow)}` : props.rowLabel(sel.row)}</td>
          </tr>
          {sel.kind === 'state' && (
            <tr>
              <th>nesting</th>
              <td>{sel.depth === 0 ? 'outermost' : `level ${sel.depth}`}</td>
            </tr>
          )}
        </tbody>
      </table>
      {details && (
        <div class="details-vertices">
          {details.vertices.map((v) => (
            <div key={v}>{v}</div>
          ))}
        </div>
      )}
      {details && details.info !== '' && <pre class="details-info">{details.info}</pre>}
      {details?.waiting && (
        <div class="details-waiting" data-testid="details-waiting">
          <span>{details.waiting.text}</span>
          {props.goTo && (
            <>
              {' — '}
              <button type="button" class="link" onClick={() => props.goTo?.(details.waiting!.goTo)}>
                {details.waiting.goToLabel}
              </button>
            </>
          )}
        </div>
      )}
      {props.showChain && details?.topology === 'state' && pick.ref && (
        <div class="details-chain">
          <button
            type="button"
            class="link"
            data-testid="chain-backward"
            title="Follow back what this state waited for"
            onClick={() => props.showChain?.('backward')}
          >
            Show dependence chain
          </button>
          {' · '}
          <button
            type="button"
            class="link"
            data-testid="chain-forward"
            title="Follow forward the states this one delayed"
            onClick={() => props.showChain?.('forward')}
          >
            What did this delay?
          </button>
        </div>
      )}
      {pick.shadow && (
        <table class="details-shares">
          <thead>
            <tr>
              <th>category</th>
              <th>incl</th>
              <th>excl</th>
              <th>count</th>
            </tr>
          </thead>
          <tbody>
            {pick.shadow.shares.map((s) => (
              <tr key={s.category}>
                <td>
                  <Swatch rgba={category(s.category)?.rgba} /> {category(s.category)?.name ?? `category ${s.category}`}
                </td>
                <td>{(s.inclusive * 100).toFixed(1)}%</td>
                <td>{(s.exclusive * 100).toFixed(1)}%</td>
                <td>{s.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(srcStart || srcEnd) && (
        <div class="details-sources">
          {srcStart && <SourceButton label={srcEnd ? ' (start)' : ''} site={srcStart} open={props.openSource} />}
          {srcEnd && <SourceButton label={srcStart ? ' (end)' : ''} site={srcEnd} open={props.openSource} />}
        </div>
      )}
      {!details && pick.detailsId !== undefined && <div class="details-note">{popup.message ?? 'loading…'}</div>}
    </div>
  );
}
