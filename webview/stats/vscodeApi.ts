// The one acquireVsCodeApi() of the statistics view, typed with the panel protocol.
import type { HostToStats, StatsToHost } from '../../src/protocol/stats';

interface VsCodeApi {
  postMessage(message: StatsToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(message: StatsToHost): void {
  api.postMessage(message);
}

export function onHostMessage(handler: (m: HostToStats) => void): () => void {
  const listener = (e: MessageEvent<HostToStats>) => handler(e.data);
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

/** View settings kept across reloads of the view (sort column, toggles, chosen category). */
export interface PanelSettings {
  readonly sortKey: SortKey;
  readonly sortDescending: boolean;
  readonly barMode: 'inclusive' | 'exclusive';
  readonly matrixMode: 'count' | 'bytes';
  readonly histogramCategory?: number;
  readonly exportTable: string;
}

import type { SortKey } from './model';
export type { SortKey };

export const DEFAULT_SETTINGS: PanelSettings = {
  sortKey: 'share',
  sortDescending: true,
  barMode: 'exclusive',
  matrixMode: 'count',
  exportTable: 'categories',
};

export function loadSettings(): PanelSettings {
  const s = api.getState();
  return typeof s === 'object' && s !== null ? { ...DEFAULT_SETTINGS, ...(s as Partial<PanelSettings>) } : DEFAULT_SETTINGS;
}

export function saveSettings(s: PanelSettings): void {
  api.setState(s);
}
