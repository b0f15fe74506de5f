// The timeline webview's channel to the host: typed post, typed messages, the persisted view, and
// the messages the host embedded in the page (its first init).
import type { BootMessage, HostToWebview, WebviewToHost } from '../src/protocol/webview';
import { windowOfEmbedded } from './embeddedWindow';
import type { PersistedView } from './timeline/controller';
import { vscodeChannel } from './vscodeChannel';

const channel = vscodeChannel<WebviewToHost, HostToWebview, PersistedView>();
const handlers = new Set<(m: HostToWebview) => void>();

export const postToHost = channel.send;

/** Listens for the host's messages (posted, or embedded in the page); returns the unsubscribe. */
export function onHostMessage(handler: (m: HostToWebview) => void): () => void {
  handlers.add(handler);
  const off = channel.onHostMessage(handler);
  return () => {
    handlers.delete(handler);
    off();
  };
}

/**
 * Hands the messages the host embedded in the page (`<script type="application/json" id="boot">`)
 * to the listeners, as if posted; once. Returns the generation of their `init` (for `ready`).
 */
export function deliverBootMessages(): number | undefined {
  const element = document.getElementById('boot');
  const text = element?.textContent;
  element?.remove();
  if (!text) return undefined;
  const messages = JSON.parse(text) as BootMessage[];
  let generation: number | undefined;
  for (const b of messages) {
    if (b.kind === 'init') generation = b.generation;
    const m: HostToWebview = b.kind === 'embeddedWindow' ? windowOfEmbedded(b) : b;
    try {
      for (const handler of [...handlers]) handler(m);
    } catch (e) {
      // Only the window is optional: without it the page asks for its first window as usual.
      if (b.kind !== 'embeddedWindow') throw e;
      console.error('the first window embedded in the page was dropped:', e);
    }
  }
  return generation;
}

export function savedView(): PersistedView | undefined {
  const s = channel.savedState() as Partial<PersistedView> | undefined;
  if (!s || typeof s.fileName !== 'string' || ![s.t0, s.t1, s.mapIndex, s.scrollRow].every((v) => typeof v === 'number' && Number.isFinite(v)))
    return undefined;
  return s as PersistedView;
}

export function saveView(s: PersistedView): void {
  channel.saveState(s);
}
