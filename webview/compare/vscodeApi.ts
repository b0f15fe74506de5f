// The Compare view's channel to the host, typed with the compare protocol, and its saved tab.
import type { CompareToHost, HostToCompare } from '../../src/protocol/compare';
import { vscodeChannel } from '../vscodeChannel';

export type DiffTab = 'category' | 'site' | 'rank';

const channel = vscodeChannel<CompareToHost, HostToCompare, { readonly tab: DiffTab }>();

export const send = channel.send;
export const onHostMessage = channel.onHostMessage;

export function loadTab(): DiffTab {
  const s = channel.savedState() as { tab?: unknown } | undefined;
  return s?.tab === 'site' || s?.tab === 'rank' ? s.tab : 'category';
}

export function saveTab(tab: DiffTab): void {
  channel.saveState({ tab });
}
