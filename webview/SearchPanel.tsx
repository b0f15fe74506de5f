// Search in the timeline: the open/closed box, the step requests to the host (a new query starts at
// the left edge of the view; later steps go on from the last match), the answers (the match is
// framed; "n of m" from the count) and the search marks on the overview. Commands (find, find
// next/previous) arrive as messages, never as DOM clicks.
import { useEffect, useState } from 'preact/hooks';
import type { HostToWebview, InitMessage, SearchRequestQuery } from '../src/protocol/webview';
import type { TimelineController } from './timeline/controller';
import { SearchBox, type SearchStatus } from './SearchBox';
import { onHostMessage, postToHost } from './host';
import { SearchRequests } from './searchRequests';

export interface SearchCommand {
  readonly kind: 'open' | 'next' | 'previous';
  /** Increases with every command, so the same command twice is two messages. */
  readonly seq: number;
  /** With `open`: search for this text at once (e.g. `file:line` from a source line). */
  readonly text?: string;
}

const IDLE: SearchStatus = { ordinal: undefined, matches: undefined, error: undefined, searching: false, notFound: false };

export function SearchPanel(props: {
  init: InitMessage | undefined;
  controller: TimelineController | undefined;
  mapIndex: number;
  unsearchable: ReadonlySet<number>;
  /** The left edge of the view (where a new query starts). */
  viewStart: number | undefined;
  command: SearchCommand | undefined;
  close: () => void;
}) {
  const { init, controller: c } = props;
  const [open, setOpen] = useState(false);
  const [focusKey, setFocusKey] = useState(0);
  const [status, setStatus] = useState<SearchStatus>(IDLE);
  const [stepCommand, setStepCommand] = useState<{ readonly direction: 1 | -1; readonly seq: number } | undefined>(undefined);
  const [preset, setPreset] = useState<{ readonly text: string; readonly seq: number } | undefined>(undefined);
  /** The steps in flight and the query in force (a different one restarts from the current time). */
  const [requests] = useState(() => new SearchRequests((m) => postToHost(m)));

  useEffect(() => {
    const cmd = props.command;
    if (!cmd) return;
    if (cmd.kind === 'open') {
      setOpen(true);
      if (cmd.text !== undefined) setPreset({ text: cmd.text, seq: cmd.seq });
      else setFocusKey((k) => k + 1);
    } else if (open) setStepCommand({ direction: cmd.kind === 'next' ? 1 : -1, seq: cmd.seq });
  }, [props.command?.seq]);

  useEffect(
    () =>
      onHostMessage((m: HostToWebview) => {
        if (m.kind === 'searchResult') requests.result(m);
        else if (m.kind === 'searchCount') {
          if (!requests.acceptsCount(m)) return;
          c?.marks.setSearchMarks({ histogram: m.histogram, range: m.range });
          setStatus((st) => ({ ...st, matches: m.matches }));
        }
      }),
    [c],
  );

  const step = (query: SearchRequestQuery, direction: 1 | -1): void => {
    if (!init || !c) return;
    const { fresh, reply } = requests.step(query, direction, init.generation, props.viewStart ?? init.timeRange[0]);
    if (fresh) {
      c.marks.setSearchMarks(undefined);
      setStatus({ ...IDLE, searching: true });
    } else setStatus((st) => ({ ...st, searching: true, notFound: false, error: undefined }));
    reply.then(
      (m) => {
        if (m.hit) c.showHit(m.hit);
        setStatus((st) => ({ ...st, searching: false, error: m.error, notFound: !m.hit && !m.error, ordinal: m.ordinal }));
      },
      () => undefined, // superseded by a newer step, or the box closed
    );
  };
  const close = (): void => {
    setOpen(false);
    setStepCommand(undefined);
    requests.close();
    c?.marks.setSearchMarks(undefined);
    postToHost({ kind: 'searchClosed' });
    props.close();
  };
  if (!open || !init) return null;
  return (
    <SearchBox
      mapIndex={props.mapIndex}
      rowCount={init.yMaps[props.mapIndex]?.rows.length ?? 0}
      unsearchable={props.unsearchable}
      status={status}
      focusKey={focusKey}
      stepCommand={stepCommand}
      preset={preset}
      step={step}
      close={close}
    />
  );
}
