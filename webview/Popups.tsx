// The click popups over the plot: one unpinned popup follows the picks; pinned ones stay and mark
// their times on the timeline. A pick's details are a promise (the timeline's RPC call to the host);
// a Ctrl/Cmd+click goes straight to the source once its details are in.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DetailsMessage, InitMessage, SiteRef } from '../src/protocol/webview';
import type { Pick, TimelineController } from './timeline/controller';
import { DetailsPopup, type PopupState } from './DetailsPopup';
import type { Listeners } from './listeners';
import { postToHost } from './host';

export function Popups(props: {
  init: InitMessage | undefined;
  controller: TimelineController | undefined;
  picks: Listeners<Pick | undefined>;
  rowLabel: (row: number) => string;
  showChain: (pick: Pick, direction: 'backward' | 'forward') => void;
  width: number;
  height: number;
}) {
  const { init, controller: c } = props;
  const [popups, setPopups] = useState<readonly PopupState[]>([]);
  const popupKey = useRef(1);

  useEffect(
    () =>
      props.picks.on((pick) => {
        pick?.details?.then(
          (m) => {
            const site = m.details?.sources.start ?? m.details?.sources.end;
            if (pick.toSource && site) postToHost({ kind: 'openSource', siteId: site.siteId, beside: pick.beside });
            setPopups((ps) => ps.map((p) => (p.pick === pick ? withDetails(p, m) : p)));
          },
          () => undefined, // the document reloaded: the popup goes with it
        );
        setPopups((ps) => {
          const kept = ps.filter((p) => p.pinned);
          return pick ? [...kept, { key: popupKey.current++, pick, details: undefined, message: undefined, pinned: false }] : kept;
        });
      }),
    [props.picks],
  );

  useEffect(() => {
    c?.marks.setMarkers(
      popups
        .filter((p) => p.pinned)
        .flatMap((p) => (p.pick.selection.end > p.pick.selection.start ? [p.pick.selection.start, p.pick.selection.end] : [p.pick.selection.start])),
    );
  }, [popups, c]);

  if (!init) return null;
  const openSource = (site: SiteRef, beside: boolean): void => postToHost({ kind: 'openSource', siteId: site.siteId, beside });
  return (
    <>
      {popups.map((p) => (
        <DetailsPopup
          key={p.key}
          popup={p}
          categories={init.categories}
          rowLabel={props.rowLabel}
          width={props.width}
          height={props.height}
          openSource={openSource}
          goTo={(hit) => c?.showHit(hit)}
          showChain={(direction) => props.showChain(p.pick, direction)}
          onPin={() => setPopups((ps) => ps.map((q) => (q.key === p.key ? { ...q, pinned: !q.pinned } : q)))}
          onClose={() => {
            setPopups((ps) => ps.filter((q) => q.key !== p.key));
            if (!p.pinned) c?.clearSelection();
          }}
        />
      ))}
    </>
  );
}

function withDetails(p: PopupState, m: DetailsMessage): PopupState {
  return { ...p, details: m.details, message: m.message };
}
