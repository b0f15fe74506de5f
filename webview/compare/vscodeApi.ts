// The one acquireVsCodeApi() of the Compare view, typed with the compare protocol.
import type { CompareToHost, HostToCompare } from '../../src/protocol/compare';

interface VsCodeApi {
  postMessage(message: CompareToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(message: CompareToHost): void {
  api.postMessage(message);
}

export function onHostMessage(handler: (m: HostToCompare) => void): () => void {
  const listener = (e: MessageEvent<HostToCompare>) => handler(e.data);
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

export type DiffTab = 'category' | 'site' | 'rank';

export function loadTab(): DiffTab {
  const s = api.getState() as { tab?: unknown } | undefined;
  return s?.tab === 'site' || s?.tab === 'rank' ? s.tab : 'category';
}

export function saveTab(tab: DiffTab): void {
  api.setState({ tab });
}
