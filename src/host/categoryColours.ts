/**
 * Category colours the user picked in the legend, by category name, kept per workspace
 * (workspaceState) so every trace of the workspace shows them; at most MAX_ENTRIES names.
 */
import type * as vscode from 'vscode';
import { isRgb, type Rgb } from '../protocol/webview';

const KEY = 'mpeTrace.categoryColours';
const MAX_ENTRIES = 2000;

export type ColourTable = { readonly [name: string]: Rgb };

export class CategoryColours {
  constructor(private readonly state: vscode.Memento) {}

  all(): ColourTable {
    const raw = this.state.get<unknown>(KEY);
    if (typeof raw !== 'object' || raw === null) return {};
    const out: Record<string, Rgb> = {};
    for (const [name, rgb] of Object.entries(raw)) if (isRgb(rgb)) out[name] = rgb;
    return out;
  }

  async set(name: string, rgb: Rgb | undefined): Promise<ColourTable> {
    const next: Record<string, Rgb> = { ...this.all() };
    if (rgb === undefined) delete next[name];
    else if (name in next || Object.keys(next).length < MAX_ENTRIES) next[name] = [rgb[0], rgb[1], rgb[2]];
    await this.state.update(KEY, next);
    return next;
  }
}
