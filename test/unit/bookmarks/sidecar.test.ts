import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  applyEdits,
  BookmarkStoreCore,
  bookmarksOf,
  EMPTY_SIDECAR,
  newBookmark,
  parseSidecar,
  serializeSidecar,
  sidecarPathFor,
  type Bookmark,
  type SidecarIo,
} from '../../../src/core/bookmarks';
import { writeAtomically } from '../../../src/io/atomicWrite';

/** The node side of the sidecar: the project's atomic writer (temp + rename), overwriting. */
function writeFileAtomic(file: string, text: string): Promise<void> {
  return writeAtomically(file, { force: true }, (sink) => sink.write(new TextEncoder().encode(text)));
}

async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

const HAND_WRITTEN = `{
  "version": 1,
  "owner": "team-hpc",
  "bookmarks": [
    { "name": "first barrier", "t0": 0.0241, "t1": 0.1052, "color": "red" },
    { "id": "b1", "name": "kernel", "t0": 0.2, "t1": 0.25, "note": "slow on rank 3", "rows": [3], "yMap": 0, "hidden": [6, 301] },
    { "name": "", "t0": 1, "t1": 2 },
    { "id": "b2", "name": "backwards", "t0": 2, "t1": 1 }
  ],
  "views": { "default": { "t0": 0 } }
}
`;

function parsed(text: string) {
  const r = parseSidecar(text, 'run.slog2.mpetrace.json');
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r;
}

test('sidecar path sits next to the trace', () => {
  assert.equal(sidecarPathFor('/w/traces/run.slog2'), '/w/traces/run.slog2.mpetrace.json');
});

test('parse validates entries, keeps invalid ones and unknown fields, and warns clearly', () => {
  const r = parsed(HAND_WRITTEN);
  const bms = bookmarksOf(r.doc);
  assert.deepEqual(
    bms.map((b) => b.name),
    ['first barrier', 'kernel'],
  );
  assert.equal(bms[0]!.derivedId, true);
  assert.deepEqual(bms[0]!.extra, { color: 'red' });
  assert.deepEqual(bms[1], { id: 'b1', name: 'kernel', t0: 0.2, t1: 0.25, note: 'slow on rank 3', rows: [3], yMap: 0, hidden: [6, 301] });
  assert.deepEqual(r.warnings, [
    'run.slog2.mpetrace.json: bookmark 3 ignored: "name" must be a non-empty string',
    'run.slog2.mpetrace.json: bookmark 4 ignored: "t1" (1) is before "t0" (2)',
  ]);
  assert.deepEqual(Object.keys(r.doc.extra), ['owner', 'views']);
});

test('derived ids are stable across reads', () => {
  const a = bookmarksOf(parsed(HAND_WRITTEN).doc)[0]!.id;
  const b = bookmarksOf(parsed(HAND_WRITTEN).doc)[0]!.id;
  assert.equal(a, b);
  assert.match(a, /^~/);
});

test('serialize: fixed key order, 2-space indent, inline number lists, trailing newline; nothing is lost', () => {
  const r = parsed(HAND_WRITTEN);
  const text = serializeSidecar(r.doc);
  assert.equal(
    text,
    `{
  "version": 1,
  "bookmarks": [
    {
      "name": "first barrier",
      "t0": 0.0241,
      "t1": 0.1052,
      "color": "red"
    },
    {
      "id": "b1",
      "name": "kernel",
      "t0": 0.2,
      "t1": 0.25,
      "note": "slow on rank 3",
      "rows": [3],
      "yMap": 0,
      "hidden": [6, 301]
    },
    {
      "name": "",
      "t0": 1,
      "t1": 2
    },
    {
      "id": "b2",
      "name": "backwards",
      "t0": 2,
      "t1": 1
    }
  ],
  "owner": "team-hpc",
  "views": {
    "default": {
      "t0": 0
    }
  }
}
`,
  );
  // Idempotent: reading what we wrote gives the same text.
  assert.equal(serializeSidecar(parsed(text).doc), text);
});

test('times keep full double precision', () => {
  const t0 = 0.024079676000042127;
  const b = newBookmark({ name: 'x', t0, t1: 0.1051865830000338 }, new Date(0), () => 0.5);
  const text = serializeSidecar(applyEdits(EMPTY_SIDECAR, [{ op: 'add', bookmark: b }]).doc);
  assert.equal(bookmarksOf(parsed(text).doc)[0]!.t0, t0);
});

test('bad files give clear errors, never throw', () => {
  const cases: [string, RegExp][] = [
    ['{ "version": 1, "bookmarks": [ ', /not valid JSON/],
    ['[]', /expected a JSON object/],
    ['{ "bookmarks": [] }', /unknown format version undefined/],
    ['{ "version": 2, "bookmarks": [] }', /newer version .* \(format 2\)/],
    ['{ "version": 1, "bookmarks": {} }', /"bookmarks" must be an array/],
  ];
  for (const [text, why] of cases) {
    const r = parseSidecar(text, 'f.json');
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.match(r.error, why);
  }
  const r = parsed('{ "version": 1, "bookmarks": [ 1, { "name": "n", "t0": "0", "t1": 1 }, { "name": "n", "t0": 0, "t1": 1, "rows": [1.5] } ] }');
  assert.equal(bookmarksOf(r.doc).length, 0);
  assert.equal(r.warnings.length, 3);
});

test('"__proto__" in the file is data, not a prototype change', () => {
  const r = parsed('{ "version": 1, "bookmarks": [ { "id": "a", "name": "n", "t0": 0, "t1": 1, "__proto__": { "x": 1 } } ], "__proto__": 5 }');
  const b = bookmarksOf(r.doc)[0]!;
  assert.equal(Object.getPrototypeOf(b.extra), Object.prototype);
  assert.deepEqual(Object.keys(b.extra!), ['__proto__']);
  assert.match(serializeSidecar(r.doc), /"__proto__": 5/);
});

test('duplicate ids are kept apart', () => {
  const r = parsed('{ "version": 1, "bookmarks": [ { "id": "a", "name": "x", "t0": 0, "t1": 1 }, { "id": "a", "name": "y", "t0": 0, "t1": 1 } ] }');
  assert.deepEqual(
    bookmarksOf(r.doc).map((b) => b.id),
    ['a', 'a~1'],
  );
  assert.equal(r.warnings.length, 1);
});

test('edits: add, update, remove; updates of removed bookmarks are conflicts; invalid values refused', () => {
  const base = parsed(HAND_WRITTEN).doc;
  const added = newBookmark({ name: 'new', t0: 1, t1: 2, note: 'n' }, new Date(Date.UTC(2026, 10, 21)), () => 0);
  assert.equal(added.id, 'b' + Date.UTC(2026, 10, 21).toString(36) + '000000');
  assert.equal(added.created, '2026-11-21T00:00:00.000Z');
  const { doc, conflicts } = applyEdits(base, [
    { op: 'add', bookmark: added },
    { op: 'update', id: 'b1', changes: { name: 'kernel (rank 3)', note: undefined } },
    { op: 'remove', id: 'b2' }, // an invalid entry: ids of invalid entries are not bookmarks, nothing happens
    { op: 'update', id: 'gone', changes: { name: 'z' } },
    { op: 'update', id: 'b1', changes: { t1: -5 } },
    { op: 'add', bookmark: { ...added, id: 'bad', t0: Number.NaN } },
  ]);
  assert.deepEqual(conflicts, [
    'bookmark gone was removed elsewhere; the change was dropped',
    'bookmark "kernel (rank 3)" not changed: "t1" (-5) is before "t0" (0.2)',
    'bookmark "new" not added: "t0" must be a finite number (seconds)',
  ]);
  const bms = bookmarksOf(doc);
  assert.deepEqual(
    bms.map((b) => b.name),
    ['first barrier', 'kernel (rank 3)', 'new'],
  );
  assert.equal(bms[1]!.note, undefined);
  assert.equal(doc.entries.length, 5); // the two invalid entries are still there
  const removed = applyEdits(doc, [{ op: 'remove', id: bms[0]!.id }]);
  assert.deepEqual(
    bookmarksOf(removed.doc).map((b) => b.name),
    ['kernel (rank 3)', 'new'],
  );
});

test('editing a hand-written entry writes its id so later edits still find it', () => {
  const base = parsed(HAND_WRITTEN).doc;
  const id = bookmarksOf(base)[0]!.id;
  const text = serializeSidecar(applyEdits(base, [{ op: 'update', id, changes: { name: 'renamed' } }]).doc);
  const again = bookmarksOf(parsed(text).doc)[0]!;
  assert.equal(again.id, id);
  assert.equal(again.derivedId, undefined);
});

/** An in-memory file, optionally changed "by another editor" right before each read. */
function memoryIo(initial: string | undefined): SidecarIo & { text: string | undefined; writes: number; beforeRead?: () => void } {
  const io = {
    name: 'mem.json',
    text: initial,
    writes: 0,
    beforeRead: undefined as (() => void) | undefined,
    async read() {
      io.beforeRead?.();
      return io.text;
    },
    async write(t: string) {
      io.writes++;
      io.text = t;
    },
  };
  return io;
}

test("store: re-reads and merges before writing, so concurrent editors keep each other's bookmarks", async () => {
  const io = memoryIo(undefined);
  const store = new BookmarkStoreCore(io);
  assert.equal((await store.reload()).bookmarks.length, 0);
  await store.edit({ op: 'add', bookmark: newBookmark({ name: 'mine', t0: 0, t1: 1 }) });
  // Another window adds a bookmark to the file behind our back…
  const other = applyEdits(parseSidecar(io.text!, 'x').ok ? (parseSidecar(io.text!, 'x') as { doc: typeof EMPTY_SIDECAR }).doc : EMPTY_SIDECAR, [
    { op: 'add', bookmark: { id: 'theirs', name: 'theirs', t0: 2, t1: 3 } as Bookmark },
  ]);
  io.text = serializeSidecar(other.doc);
  // …and our next edit must not lose it.
  const conflicts = await store.edit({ op: 'add', bookmark: newBookmark({ name: 'mine 2', t0: 4, t1: 5 }) });
  assert.deepEqual(conflicts, []);
  assert.deepEqual(
    bookmarksOf((parseSidecar(io.text!, 'x') as { doc: typeof EMPTY_SIDECAR }).doc).map((b) => b.name),
    ['mine', 'theirs', 'mine 2'],
  );
  assert.deepEqual(
    store.bookmarks.map((b) => b.name),
    ['mine', 'theirs', 'mine 2'],
  );
});

test('store: a broken file is reported, kept, and never overwritten', async () => {
  const broken = '{ "version": 1, "bookmarks": [ { "name": "x", ';
  const io = memoryIo(broken);
  const states: string[] = [];
  const store = new BookmarkStoreCore(io, (s) => states.push(s.status));
  const st = await store.reload();
  assert.equal(st.status, 'error');
  await assert.rejects(store.edit({ op: 'add', bookmark: newBookmark({ name: 'y', t0: 0, t1: 1 }) }), /not valid JSON.*Fix or move the file/);
  assert.equal(io.text, broken);
  assert.equal(io.writes, 0);
  // Fixed by hand: the watcher's reload picks it up.
  io.text = '{ "version": 1, "bookmarks": [] }';
  assert.equal((await store.reload()).status, 'ok');
  assert.deepEqual(states, ['error', 'error', 'ok']);
});

test('store: serialises concurrent edits from the same process', async () => {
  const io = memoryIo(undefined);
  const store = new BookmarkStoreCore(io);
  await Promise.all([1, 2, 3, 4, 5].map((i) => store.edit({ op: 'add', bookmark: { id: `id${i}`, name: `n${i}`, t0: i, t1: i } })));
  assert.equal(bookmarksOf((parseSidecar(io.text!, 'x') as { doc: typeof EMPTY_SIDECAR }).doc).length, 5);
  // A reload after our own write does not report a change (watcher echo).
  let changes = 0;
  const echo = new BookmarkStoreCore(io, () => changes++);
  await echo.reload();
  await echo.reload();
  assert.equal(changes, 1);
});

test('atomic write replaces the file, leaves no temp files; node store round trip', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-bookmarks-'));
  try {
    const file = path.join(dir, 'run.slog2.mpetrace.json');
    assert.equal(await readTextIfExists(file), undefined);
    await writeFileAtomic(file, 'one\n');
    await writeFileAtomic(file, 'two\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'two\n');
    const io: SidecarIo = { name: file, read: () => readTextIfExists(file), write: (t) => writeFileAtomic(file, t) };
    fs.writeFileSync(file, HAND_WRITTEN);
    const store = new BookmarkStoreCore(io);
    await store.reload();
    await store.edit({ op: 'update', id: 'b1', changes: { note: 'checked' } });
    const r = parsed(fs.readFileSync(file, 'utf8'));
    assert.equal(bookmarksOf(r.doc)[1]!.note, 'checked');
    assert.deepEqual(Object.keys(r.doc.extra), ['owner', 'views']);
    assert.deepEqual(fs.readdirSync(dir), ['run.slog2.mpetrace.json']);
    await assert.rejects(writeFileAtomic(path.join(dir, 'missing-dir', 'x.json'), 'x'));
    assert.deepEqual(fs.readdirSync(dir), ['run.slog2.mpetrace.json']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
