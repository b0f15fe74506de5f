/**
 * Site marks of node-column rows (buildWindow's column path): the marker's bits for a row's start
 * and end sites, as the object path asks them of a drawable's `source`. A marker is a function of
 * the two sites only, and a window holds up to millions of located drawables from a file's few
 * hundred sites: each pair of sites is asked once per window.
 */
import type { SiteMarker } from '../model/siteFlags';
import type { NodeColumns } from '../formats/slog2/nodeColumns';

export class ColumnSiteMarks {
  private readonly byPair = new Map<number, number>();

  constructor(private readonly marker: SiteMarker) {}

  /** The bits of row r (a located row: `sourced`), its sites indices into `c.sites`, −1 for none. */
  of(c: NodeColumns, r: number): number {
    const s = c.siteIndex[r]!;
    const e = c.siteEndIndex[r]!;
    const key = (s + 1) * (c.sites.length + 1) + (e + 1);
    let bits = this.byPair.get(key);
    if (bits === undefined) this.byPair.set(key, (bits = this.marker(s >= 0 ? c.sites[s] : undefined, e >= 0 ? c.sites[e] : undefined)));
    return bits;
  }
}
