/**
 * The source locations of one opened trace that its editors have shown, by small integer id: the
 * webview gets ids (never paths) and can only send back an id this list handed out.
 */
import type { SourceLocation } from '../core/model/types';

export class SourceSites {
  private readonly ids = new Map<string, number>();
  private readonly locations: SourceLocation[] = [];

  /** The id of `loc` (a location read from the trace), registering it on first use. */
  idOf(loc: SourceLocation): number {
    const key = `${loc.line}\u0000${loc.file}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.locations.length;
      this.locations.push({ file: loc.file, line: loc.line });
      this.ids.set(key, id);
    }
    return id;
  }

  get(id: number): SourceLocation | undefined {
    return Number.isSafeInteger(id) && id >= 0 ? this.locations[id] : undefined;
  }

  clear(): void {
    this.ids.clear();
    this.locations.length = 0;
  }
}
