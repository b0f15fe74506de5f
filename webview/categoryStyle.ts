// The categories' look, owned by the timeline app: hidden (legend or a link), highlighted (from the
// statistics panel), unsearchable, and colours the user picked (per workspace, from the host).
// Pushed to the timeline as one CategoryStyle; the hidden set is reported to the host.
import { useEffect, useState } from 'preact/hooks';
import type { HostToWebview, InitMessage, Rgb } from '../src/protocol/webview';
import type { TimelineController } from './timeline/controller';
import { onHostMessage, postToHost } from './host';

export interface CategoryState {
  readonly hidden: ReadonlySet<number>;
  readonly setHidden: (h: ReadonlySet<number>) => void;
  readonly unsearchable: ReadonlySet<number>;
  readonly setUnsearchable: (u: ReadonlySet<number>) => void;
  /** Picked colours by category index. */
  readonly colours: ReadonlyMap<number, Rgb>;
  /** Sets (or, without `rgb`, resets) a category's colour and tells the host. */
  readonly setColour: (name: string, rgb: Rgb | undefined) => void;
}

export function useCategoryState(init: InitMessage | undefined, controller: TimelineController | undefined): CategoryState {
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  /** A category the statistics panel asked to highlight (the others fade). */
  const [highlight, setHighlight] = useState<number | undefined>(undefined);
  const [unsearchable, setUnsearchable] = useState<ReadonlySet<number>>(new Set());
  /** Colours the user picked, by category name (from the host: per workspace). */
  const [namedColours, setNamedColours] = useState<{ readonly [name: string]: Rgb }>({});

  useEffect(
    () =>
      onHostMessage((m: HostToWebview) => {
        if (m.kind === 'categoryColours') setNamedColours(m.colours);
        else if (m.kind === 'link' && m.highlightCategory !== undefined)
          setHighlight((h) => (m.highlightCategory === null || h === m.highlightCategory ? undefined : m.highlightCategory!));
        else if (m.kind === 'showView' && m.view.hidden) setHidden(new Set(m.view.hidden));
      }),
    [],
  );

  const colours = new Map<number, Rgb>();
  for (const cat of init?.categories ?? []) {
    const rgb = namedColours[cat.name];
    if (rgb) colours.set(cat.index, rgb);
  }
  const coloursKey = [...colours].map(([i, rgb]) => `${i}:${rgb.join(',')}`).join(';');
  useEffect(() => {
    controller?.setCategoryStyle({ hidden, colours, ...(highlight !== undefined ? { highlight } : {}) });
  }, [hidden, coloursKey, init, highlight, controller]);
  useEffect(() => {
    if (init) postToHost({ kind: 'legendState', hidden: [...hidden] });
  }, [hidden, init]);

  const setColour = (name: string, rgb: Rgb | undefined): void => {
    setNamedColours((m) => {
      const next = { ...m };
      if (rgb) next[name] = rgb;
      else delete next[name];
      return next;
    });
    postToHost({ kind: 'setCategoryColour', name, ...(rgb ? { rgb } : {}) });
  };
  return { hidden, setHidden, unsearchable, setUnsearchable, colours, setColour };
}
