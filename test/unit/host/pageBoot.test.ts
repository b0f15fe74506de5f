// The boot messages of a new timeline page: the first window embedded when it is built in time —
// the full one when it is quick, else (a wide trace before its row index) its coarse answer,
// marked not final so the page still asks for the full one. With no page's plot size known (the
// first page since VS Code started), the one kept from an earlier session, else a default guess.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootMessages, keepFirstViewIn, rememberFirstView, type BootParts } from '../../../src/host/pageBoot';
import { DEFAULT_FIRST_VIEW, type FirstViewHint } from '../../../src/core/query/windowKey';
import type { EmbeddedWindowMessage, InitMessage } from '../../../src/protocol/webview';
import {
  allocateTable,
  ARROW_SPEC,
  encodeWindow,
  EVENT_SPEC,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  STATE_SPEC,
  type WindowColumns,
  type WireWindow,
} from '../../../src/protocol/wire';
import type { WindowRequest } from '../../../src/core/query/windowRequest';

function emptyWire(lowestDepth: number): WireWindow {
  return encodeWindow({
    header: {
      ...({ baseTime: 0, t0: 0, t1: 1, rowStart: 0, rowEnd: 30, mapIndex: 0, maxNesting: 0, truncated: false } as WindowColumns['header']),
      lowestDepth,
    },
    states: allocateTable(STATE_SPEC, 0),
    shadows: allocateTable(SHADOW_SPEC, 0),
    shadowWeights: allocateTable(SHADOW_WEIGHT_SPEC, 0),
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  } as WindowColumns);
}

function parts(quick: boolean, asked: { full: WindowRequest[]; coarse: WindowRequest[] }, delayMs = 0): BootParts {
  const init = { kind: 'init', generation: 2, timeRange: [0, 10], defaultMap: 0, yMaps: [{ rows: new Array(4096).fill('r') }] } as unknown as InitMessage;
  const later = <T>(v: T) => new Promise<T>((resolve) => setTimeout(() => resolve(v), delayMs));
  return {
    init,
    colours: { kind: 'categoryColours', colours: {} } as unknown as BootParts['colours'],
    marks: { kind: 'siteMarks', colourings: [] },
    defaultView: true,
    quick,
    build: (r) => (asked.full.push(r), later(emptyWire(2))),
    buildCoarse: (r) => (asked.coarse.push(r), later(emptyWire(9))),
    generation: () => 2,
  };
}

const embedded = (boot: readonly { kind: string }[]) => boot.find((m): m is EmbeddedWindowMessage => m.kind === 'embeddedWindow');

test('quick first window: the full one is embedded, final', async () => {
  rememberFirstView({ pixelWidth: 1200, heightPx: 600, minFitRowPx: 3, rowPx: 20 });
  const asked = { full: [] as WindowRequest[], coarse: [] as WindowRequest[] };
  const e = embedded(await bootMessages(parts(true, asked)));
  assert.equal(asked.full.length, 1);
  assert.equal(asked.coarse.length, 0);
  assert.equal(e?.final, true);
  assert.equal(e?.payload.header.lowestDepth, 2);
});

test('not quick (wide, no row index yet): the coarse answer is embedded, not final; nothing embedded when it is late', async () => {
  rememberFirstView({ pixelWidth: 1200, heightPx: 600, minFitRowPx: 3, rowPx: 20 });
  const asked = { full: [] as WindowRequest[], coarse: [] as WindowRequest[] };
  const e = embedded(await bootMessages(parts(false, asked)));
  assert.equal(asked.full.length, 0, 'the full window is not built for the boot');
  assert.equal(asked.coarse.length, 1);
  const r = asked.coarse[0]!;
  assert.ok(r.rowStart === 0 && r.rowEnd >= 30 && r.rowEnd < 4096, `rows ${r.rowStart}-${r.rowEnd}: those a 600 px plot of 20 px rows shows`);
  assert.equal(e?.final, false);
  assert.equal(e?.payload.header.lowestDepth, 9);
  const slow = await bootMessages(parts(false, { full: [], coarse: [] }, 1000));
  assert.equal(embedded(slow), undefined, 'a coarse window later than the boot wait is not waited for');
});

/** A store like the extension's global state, counting its writes. */
function memoryStore(kept: unknown): { get: () => unknown; update: (h: FirstViewHint) => void; writes: FirstViewHint[] } {
  const writes: FirstViewHint[] = [];
  let value = kept;
  return { get: () => value, update: (h) => (writes.push(h), (value = h)), writes };
}

test('no plot size told yet: the window is built for the one kept from an earlier session, else for the default', async () => {
  const h = { pixelWidth: 1900, heightPx: 900, minFitRowPx: 14, rowPx: 20 };
  keepFirstViewIn(memoryStore(h));
  let asked = { full: [] as WindowRequest[], coarse: [] as WindowRequest[] };
  assert.ok(embedded(await bootMessages(parts(true, asked))));
  assert.equal(asked.full[0]?.pixelWidth, 1900, 'the kept plot size');

  for (const kept of [undefined, { pixelWidth: -1, heightPx: 1, minFitRowPx: 1, rowPx: 1 }, 'garbage']) {
    keepFirstViewIn(memoryStore(kept));
    asked = { full: [], coarse: [] };
    const e = embedded(await bootMessages(parts(true, asked)));
    assert.ok(e, `a window is embedded with nothing usable kept (${JSON.stringify(kept)})`);
    assert.equal(asked.full[0]?.pixelWidth, DEFAULT_FIRST_VIEW.pixelWidth);
  }
});

test("a page's plot size is kept for later sessions, written only when it changes", async () => {
  const store = memoryStore(undefined);
  keepFirstViewIn(store);
  const h = { pixelWidth: 1300, heightPx: 700, minFitRowPx: 14, rowPx: 20 };
  rememberFirstView(h);
  rememberFirstView({ ...h });
  assert.deepEqual(store.writes, [h]);
  rememberFirstView({ ...h, heightPx: 500 });
  assert.equal(store.writes.length, 2);
  const asked = { full: [] as WindowRequest[], coarse: [] as WindowRequest[] };
  await bootMessages(parts(true, asked));
  assert.equal(asked.full[0]?.pixelWidth, 1300, "the last page's size, not the default");
});
