// Code colourings: stored in the sidecar next to the bookmarks (round trip, invalid entries kept,
// bookmarks untouched), and the marker's flag bits (shown sites, first matching colouring).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colouringsOf, withColourings } from '../../../src/core/search/colourings';
import { parseSidecar, serializeSidecar } from '../../../src/core/bookmarks/sidecar';
import { siteMarker } from '../../../src/core/search/siteMarks';
import { FLAG_SITE_MATCH, SITE_COLOUR_SHIFT } from '../../../src/core/query/windowColumns';

test('colourings round-trip through the sidecar; bookmarks and invalid entries kept', () => {
  const text = JSON.stringify({ version: 1, bookmarks: [{ id: 'a', name: 'x', t0: 0, t1: 1 }], colourings: [{ sites: 'nope', rgb: [1, 2, 3] }], other: 5 });
  const parsed = parseSidecar(text, 't.mpetrace.json');
  assert.ok(parsed.ok);
  assert.deepEqual(colouringsOf(parsed.doc.extra), []);
  const doc = { entries: parsed.doc.entries, extra: withColourings(parsed.doc.extra, [{ sites: 'user_states.c:80,user_states.c:83', rgb: [230, 25, 75] }]) };
  const out = serializeSidecar(doc);
  assert.match(out, /"rgb": \[230, 25, 75\]/, 'arrays on one line');
  const again = parseSidecar(out, 't.mpetrace.json');
  assert.ok(again.ok);
  assert.deepEqual(colouringsOf(again.doc.extra), [{ sites: 'user_states.c:80,user_states.c:83', rgb: [230, 25, 75] }]);
  assert.equal(again.doc.entries.length, 1, 'bookmark kept');
  assert.deepEqual((again.doc.extra['colourings'] as unknown[])[1], { sites: 'nope', rgb: [1, 2, 3] }, 'invalid entry kept');
  assert.equal(again.doc.extra['other'], 5);
  const cleared = parseSidecar(serializeSidecar({ entries: again.doc.entries, extra: withColourings(again.doc.extra, []) }), 't');
  assert.ok(cleared.ok);
  assert.deepEqual(colouringsOf(cleared.doc.extra), []);
});

test('site marker: FLAG_SITE_MATCH for shown sites, colouring index + 1 for the first matching colouring', () => {
  const at = (line: number) => ({ file: '/src/user_states.c', line });
  const mark = siteMarker({
    highlight: 'user_states.c:80',
    colourings: [
      { sites: 'user_states.c:83', rgb: [1, 2, 3] },
      { sites: 'user_states.c:80-86', rgb: [4, 5, 6] },
    ],
  })!;
  assert.equal(mark(at(80), undefined), FLAG_SITE_MATCH | (2 << SITE_COLOUR_SHIFT));
  assert.equal(mark(at(83), undefined), 1 << SITE_COLOUR_SHIFT);
  assert.equal(mark(at(90), undefined), 0);
  // either end of the drawable counts: an end site shown, a start site coloured
  assert.equal(mark(undefined, at(80)), FLAG_SITE_MATCH | (2 << SITE_COLOUR_SHIFT));
  assert.equal(mark(at(90), at(83)), 1 << SITE_COLOUR_SHIFT);
  assert.equal(mark(undefined, undefined), 0);
  assert.equal(siteMarker({ colourings: [] }), undefined);
});
