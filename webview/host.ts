// The timeline webview's channel to the host: typed post, typed messages, the persisted view.
import type { HostToWebview, WebviewToHost } from '../src/protocol/webview';
import type { PersistedView } from './timeline/controller';
import { vscodeChannel } from './vscodeChannel';

const channel = vscodeChannel<WebviewToHost, HostToWebview, PersistedView>();

export const postToHost = channel.send;
export const onHostMessage = channel.onHostMessage;

export function savedView(): PersistedView | undefined {
  const s = channel.savedState() as Partial<PersistedView> | undefined;
  if (!s || typeof s.fileName !== 'string' || ![s.t0, s.t1, s.mapIndex, s.scrollRow].every((v) => typeof v === 'number' && Number.isFinite(v)))
    return undefined;
  return s as PersistedView;
}

export function saveView(s: PersistedView): void {
  channel.saveState(s);
}
