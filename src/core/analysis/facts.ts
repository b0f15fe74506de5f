/**
 * What the analysis looks up per drawable, once per category or call site instead: a category's
 * name, topology and MPI call kind, and a site's "file:line" name. Used by both passes and by the
 * decoder thread when it profiles part of the critical path (pathProfile.ts): the same names there.
 */
import type { Category, SourceLocation } from '../model/types';
import { callKind, type CallKind } from './calls';
import { NO_SITE, type StateNames } from './nestingSweep';

/**
 * "file:line" of a primitive's start, one string per site (not one per state: the GC cost was a
 * third of the run), and a dense id per site for the nesting sweeps (NO_SITE: none).
 */
export class SiteNames {
  private readonly byFile = new Map<string, Map<number, number>>();
  /** By index into the file's site table, when the batch has one (two Map lookups per state otherwise). */
  private readonly byIndex: number[] = [];
  readonly names: string[] = [];

  /** `index`: the site's index in the file's table (−1: none, or not from the table). */
  id(s: SourceLocation | undefined, index: number): number {
    // By index first: asked for every state, and the row's site object is a load from another column.
    if (index >= 0) {
      const hit = this.byIndex[index];
      if (hit !== undefined) return hit;
    }
    if (s === undefined) return NO_SITE;
    if (index >= 0) return (this.byIndex[index] = this.idOf(s));
    return this.idOf(s);
  }

  of(s: SourceLocation | undefined, index: number): string | undefined {
    const id = this.id(s, index);
    return id === NO_SITE ? undefined : this.names[id];
  }

  private idOf(s: SourceLocation): number {
    let lines = this.byFile.get(s.file);
    if (lines === undefined) this.byFile.set(s.file, (lines = new Map()));
    let id = lines.get(s.line);
    if (id === undefined) {
      id = this.names.length;
      lines.set(s.line, id);
      this.names.push(`${s.file}:${s.line}`);
    }
    return id;
  }
}

/** What the analysis needs of a category, looked up once per category instead of once per drawable. */
export interface CategoryFacts {
  readonly name: string;
  /** The name's id in the analysis's StateNames. */
  readonly nameId: number;
  readonly topology: Category['topology'];
  readonly kind: CallKind;
  readonly unknown: boolean;
}

/** Category indices below this are looked up in an array (a Map lookup per drawable was ~2 % of an analysis). */
const DENSE_CATEGORIES = 1 << 16;

export function categoryFacts(categories: ReadonlyMap<number, Category>, names: StateNames): (index: number) => CategoryFacts {
  const dense: CategoryFacts[] = [];
  const facts = new Map<number, CategoryFacts>();
  return (index) => {
    const near = index >= 0 && index < DENSE_CATEGORIES;
    let f = near ? dense[index] : facts.get(index);
    if (f === undefined) {
      const cat = categories.get(index);
      const name = cat?.name ?? `UnknownType-${index}`;
      f = { name, nameId: names.id(name), topology: cat?.topology ?? 'state', kind: callKind(name), unknown: name.startsWith('UnknownType') };
      if (near) dense[index] = f;
      else facts.set(index, f);
    }
    return f;
  };
}
