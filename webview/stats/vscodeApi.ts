// The statistics view's channel to the host, typed with the panel protocol, and its saved settings.
import type { HostToStats, StatsToHost } from '../../src/protocol/stats';
import { vscodeChannel } from '../vscodeChannel';
import type { SortKey } from './model';

export type { SortKey };

/** View settings kept across reloads of the view (sort column, toggles, chosen category). */
export interface PanelSettings {
  readonly sortKey: SortKey;
  readonly sortDescending: boolean;
  readonly barMode: 'inclusive' | 'exclusive';
  readonly matrixMode: 'count' | 'bytes';
  readonly histogramCategory?: number;
  readonly exportTable: string;
}

export const DEFAULT_SETTINGS: PanelSettings = {
  sortKey: 'share',
  sortDescending: true,
  barMode: 'exclusive',
  matrixMode: 'count',
  exportTable: 'categories',
};

const channel = vscodeChannel<StatsToHost, HostToStats, PanelSettings>();

export const send = channel.send;
export const onHostMessage = channel.onHostMessage;

export function loadSettings(): PanelSettings {
  const s = channel.savedState();
  return typeof s === 'object' && s !== null ? { ...DEFAULT_SETTINGS, ...(s as Partial<PanelSettings>) } : DEFAULT_SETTINGS;
}

export function saveSettings(s: PanelSettings): void {
  channel.saveState(s);
}
