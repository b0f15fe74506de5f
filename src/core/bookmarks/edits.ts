/**
 * Bookmark changes as operations, so they can be re-applied to the file as it is on disk right
 * before each write: two editors (or a teammate's pull) changing the sidecar at the same time
 * merge instead of overwriting each other.
 */
import { validateBookmark, type Bookmark, type SidecarDoc, type SidecarEntry } from './sidecar';

export type BookmarkChanges = Partial<Pick<Bookmark, 'name' | 't0' | 't1' | 'note' | 'rows' | 'yMap' | 'hidden'>>;

export type BookmarkEdit =
  | { readonly op: 'add'; readonly bookmark: Bookmark }
  | { readonly op: 'update'; readonly id: string; readonly changes: BookmarkChanges }
  | { readonly op: 'remove'; readonly id: string };

export interface ApplyResult {
  readonly doc: SidecarDoc;
  /** Edits that could not apply (the bookmark was removed elsewhere, or invalid values). */
  readonly conflicts: readonly string[];
}

export function applyEdits(doc: SidecarDoc, edits: readonly BookmarkEdit[]): ApplyResult {
  let entries: SidecarEntry[] = [...doc.entries];
  const conflicts: string[] = [];
  const indexOf = (id: string): number => entries.findIndex((e) => 'bookmark' in e && e.bookmark.id === id);
  for (const edit of edits) {
    switch (edit.op) {
      case 'add': {
        const problem = problemOf(edit.bookmark);
        if (problem !== undefined) {
          conflicts.push(`bookmark "${edit.bookmark.name}" not added: ${problem}`);
          break;
        }
        const i = indexOf(edit.bookmark.id);
        if (i >= 0)
          entries[i] = { bookmark: edit.bookmark }; // the same add arriving twice
        else entries.push({ bookmark: edit.bookmark });
        break;
      }
      case 'update': {
        const i = indexOf(edit.id);
        if (i < 0) {
          conflicts.push(`bookmark ${edit.id} was removed elsewhere; the change was dropped`);
          break;
        }
        const old = (entries[i] as { bookmark: Bookmark }).bookmark;
        const next: Bookmark = withChanges(old, edit.changes);
        const problem = problemOf(next);
        if (problem !== undefined) {
          conflicts.push(`bookmark "${old.name}" not changed: ${problem}`);
          break;
        }
        entries[i] = { bookmark: next };
        break;
      }
      case 'remove':
        entries = entries.filter((e) => !('bookmark' in e && e.bookmark.id === edit.id));
        break;
    }
  }
  return { doc: { entries, extra: doc.extra }, conflicts };
}

function withChanges(b: Bookmark, changes: BookmarkChanges): Bookmark {
  const next: Record<string, unknown> = { ...b };
  // A hand-written entry's id is derived from its content: once edited, write the id so it stays.
  delete next['derivedId'];
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined)
      delete next[k]; // an explicit undefined clears an optional field
    else next[k] = v;
  }
  return next as unknown as Bookmark;
}

/** Runs the same validation as reading, so we never write what we could not read back. */
function problemOf(b: Bookmark): string | undefined {
  const r = validateBookmark({
    ...b.extra,
    id: b.id,
    name: b.name,
    t0: b.t0,
    t1: b.t1,
    note: b.note,
    rows: b.rows,
    yMap: b.yMap,
    hidden: b.hidden,
    created: b.created,
  });
  return typeof r === 'string' ? r : undefined;
}

/** A new bookmark with a fresh id. `now` and `random` are injectable for tests. */
export function newBookmark(
  fields: Omit<Bookmark, 'id' | 'created' | 'derivedId' | 'extra'>,
  now: Date = new Date(),
  random: () => number = Math.random,
): Bookmark {
  const id =
    'b' +
    now.getTime().toString(36) +
    Math.floor(random() * 36 ** 6)
      .toString(36)
      .padStart(6, '0');
  const b: Record<string, unknown> = { id, created: now.toISOString() };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) b[k] = v;
  return b as unknown as Bookmark;
}
