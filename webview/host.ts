// The webview's side of the host channel: one acquireVsCodeApi(), typed post, typed state.
import type { HostToWebview, WebviewToHost } from '../src/protocol/webview';
import type { PersistedView } from './timeline/controller';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: PersistedView): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function postToHost(m: WebviewToHost): void {
  api.postMessage(m);
}

export function savedView(): PersistedView | undefined {
  const s = api.getState() as Partial<PersistedView> | undefined;
  if (!s || typeof s.fileName !== 'string' || ![s.t0, s.t1, s.mapIndex, s.scrollRow].every((v) => typeof v === 'number' && Number.isFinite(v)))
    return undefined;
  return s as PersistedView;
}

export function saveView(s: PersistedView): void {
  api.setState(s);
}

export function onHostMessage(handler: (m: HostToWebview) => void): () => void {
  const listener = (e: MessageEvent<HostToWebview>): void => handler(e.data);
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}
