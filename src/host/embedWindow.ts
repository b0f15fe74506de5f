// A timeline window in a form the page's HTML can carry (JSON: its buffers as base64 text).
import type { EmbeddedWindow } from '../protocol/webview';
import type { WireWindow } from '../protocol/wire';

interface AnyWireTable {
  readonly count: number;
  readonly buffers: { readonly [field: string]: ArrayBuffer };
}

function embedTable(t: AnyWireTable): EmbeddedWindow['states'] {
  const buffers: Record<string, string> = {};
  for (const [field, buffer] of Object.entries(t.buffers)) buffers[field] = Buffer.from(buffer).toString('base64');
  return { count: t.count, buffers };
}

export function embedWindow(w: WireWindow): EmbeddedWindow {
  return {
    header: w.header,
    states: embedTable(w.states),
    shadows: embedTable(w.shadows),
    shadowWeights: embedTable(w.shadowWeights),
    arrows: embedTable(w.arrows),
    events: embedTable(w.events),
  };
}
