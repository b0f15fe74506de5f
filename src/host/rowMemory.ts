/**
 * The rows chosen per trace (hidden and moved rows, row height), kept in the workspace state so
 * they survive closing and reopening the trace. Bounded: the least recently used entries go.
 */
import type * as vscode from 'vscode';
import { isRowFields, type RowChoice } from '../protocol/webview';

const KEY = 'mpeTrace.rowChoices';
const MAX_TRACES = 200;

type Stored = Record<string, RowChoice & { readonly at: number }>;

export class RowMemory {
  constructor(private readonly memento: vscode.Memento) {}

  get(uri: string): RowChoice | undefined {
    const e = this.all()[uri];
    if (!e || typeof e.mapIndex !== 'number' || !isRowFields(e as unknown as Record<string, unknown>)) return undefined;
    return { mapIndex: e.mapIndex, ...(e.rows ? { rows: e.rows } : {}), ...(e.rowSizing !== undefined ? { rowSizing: e.rowSizing } : {}) };
  }

  /** Remembers `choice` (or forgets the trace when it is the default: all rows, auto height). */
  set(uri: string, choice: RowChoice): void {
    const all = { ...this.all() };
    const isDefault = choice.rows === undefined && (choice.rowSizing === undefined || choice.rowSizing === 'auto');
    const before = JSON.stringify(all[uri] ? { ...all[uri], at: 0 } : undefined);
    if (isDefault) delete all[uri];
    else
      all[uri] = {
        mapIndex: choice.mapIndex,
        ...(choice.rows ? { rows: [...choice.rows] } : {}),
        ...(choice.rowSizing !== undefined ? { rowSizing: choice.rowSizing } : {}),
        at: Date.now(),
      };
    if (JSON.stringify(all[uri] ? { ...all[uri], at: 0 } : undefined) === before) return;
    const when = (k: string): number => (typeof all[k]?.at === 'number' ? all[k]!.at : 0);
    const keys = Object.keys(all).sort((a, b) => when(b) - when(a));
    for (const k of keys.slice(MAX_TRACES)) delete all[k];
    void this.memento.update(KEY, all);
  }

  private all(): Stored {
    const v = this.memento.get<unknown>(KEY);
    return typeof v === 'object' && v !== null ? (v as Stored) : {};
  }
}
