import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipToMemory } from '../../../src/io/gzip';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { LruCache } from '../../../src/core/query/windowKey';
import { WindowServer } from '../../../src/host/windowServer';
import type { TraceDocument } from '../../../src/host/traceDocument';
import type { RequestWindowMessage, WindowFailedMessage, WindowMessage } from '../../../src/protocol/webview';
import { decodeWindow, type WireWindow } from '../../../src/protocol/wire';
import { fixture } from '../../helpers/paths';

async function bigrun(): Promise<Slog2File> {
  const gz = await FileSource.open(fixture('bigrun_medium_4.slog2.gz'));
  try {
    return await Slog2File.open(await gunzipToMemory(gz, 64 << 20));
  } finally {
    await gz.close();
  }
}

function fakeDocument(file: Slog2File, generation = 3) {
  return {
    state: { phase: 'ready', file, layouts: file.lineIDMaps.map(rowLayoutOf), openMs: 0 },
    generation,
    windows: new LruCache<WireWindow>(8),
  } as unknown as TraceDocument;
}

const request = (file: Slog2File, id: number, channel: 'main' | 'overview' = 'main', zoom = 1): RequestWindowMessage => {
  const [a, b] = file.timeRange;
  const span = (b - a) / zoom;
  return {
    kind: 'requestWindow',
    channel,
    requestId: id,
    generation: 3,
    request: { t0: a, t1: a + span, rowStart: 0, rowEnd: 4, mapIndex: 0, pixelWidth: 1200, visibleSpan: span },
  };
};

test('whole trace: a coarse answer first, then the final one; the second ask is a cache hit', async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const doc = fakeDocument(file);
    const server = new WindowServer(doc, (m) => posted.push(m));
    await server.serve(request(file, 1));
    const windows = posted.filter((m): m is WindowMessage => m.kind === 'window');
    assert.deepEqual(
      windows.map((m) => m.final),
      [false, true],
    );
    const coarse = decodeWindow(windows[0]!.payload).header;
    const final = decodeWindow(windows[1]!.payload).header;
    assert.ok(coarse.lowestDepth > final.lowestDepth, `coarse depth ${coarse.lowestDepth} vs ${final.lowestDepth}`);
    assert.ok(coarse.nodesRead <= 4);
    assert.equal(server.lastPayload?.cached, false);
    posted.length = 0;
    await server.serve(request(file, 2));
    assert.deepEqual(
      posted.map((m) => m.kind === 'window' && m.final),
      [true],
      'cached: only the final answer',
    );
    assert.equal(server.lastPayload?.cached, true);
  } finally {
    await file.close();
  }
});

test('a newer request cancels the one in flight on its channel only; stale generations are refused', async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const server = new WindowServer(fakeDocument(file), (m) => posted.push(m));
    const first = server.serve(request(file, 10, 'main', 3));
    const overview = server.serve(request(file, 11, 'overview', 1));
    const second = server.serve(request(file, 12, 'main', 7));
    await Promise.all([first, overview, second]);
    const byId = (id: number) => posted.filter((m) => m.requestId === id);
    assert.deepEqual(
      byId(10).map((m) => m.kind + (m.kind === 'windowFailed' ? `:${m.cancelled}` : '')),
      ['windowFailed:true'],
    );
    assert.ok(
      byId(11).some((m) => m.kind === 'window' && m.final),
      'the overview request is not cancelled by main',
    );
    assert.ok(byId(12).some((m) => m.kind === 'window' && m.final));
    posted.length = 0;
    await server.serve({ ...request(file, 13), generation: 2 });
    assert.deepEqual(posted, [{ kind: 'windowFailed', requestId: 13, generation: 2, cancelled: true, message: 'stale generation' }]);
    posted.length = 0;
    await server.serve({ ...request(file, 14), request: { ...request(file, 14).request, mapIndex: 99 } });
    assert.equal(posted[0]?.kind, 'windowFailed');
    assert.equal((posted[0] as WindowFailedMessage).cancelled, false);
  } finally {
    await file.close();
  }
});

test('the main timeline is answered before the overview asked at the same time; an overview superseded while waiting is cancelled', async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const server = new WindowServer(fakeDocument(file), (m) => posted.push(m));
    // As the webview asks at open: overview first, main right after, then a newer overview.
    await Promise.all([server.serve(request(file, 1, 'overview')), server.serve(request(file, 2, 'main', 3)), server.serve(request(file, 3, 'overview', 2))]);
    const order = posted.map((m) => `${m.requestId}:${m.kind === 'window' ? (m.final ? 'final' : 'coarse') : 'failed'}`);
    const mainFinal = order.indexOf('2:final');
    assert.ok(mainFinal >= 0, order.join(' '));
    assert.ok(
      posted.slice(0, mainFinal).every((m) => m.requestId === 2),
      `only main answers before its final one: ${order.join(' ')}`,
    );
    assert.ok(order.includes('1:failed'), `the superseded overview is cancelled: ${order.join(' ')}`);
    assert.ok(order.includes('3:final'), `the latest overview is answered: ${order.join(' ')}`);
  } finally {
    await file.close();
  }
});

test('a pushed first window is answered with its key; the same request asked meanwhile waits for it and is a cache hit', async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const server = new WindowServer(fakeDocument(file), (m) => posted.push(m));
    const asked = request(file, 7);
    // The webview's request arrives while the push is still being built: it must not cancel it.
    await Promise.all([server.push(3, asked.request, 'key-1'), server.serve(asked)]);
    const order = posted.map(
      (m) => `${m.requestId}:${m.kind === 'window' ? `${m.final ? 'final' : 'coarse'}${m.pushedKey ? `@${m.pushedKey}` : ''}` : 'failed'}`,
    );
    assert.deepEqual(order, ['0:coarse@key-1', '0:final@key-1', '7:final'], order.join(' '));
    assert.equal(server.lastPayload?.cached, true, 'the request was answered from the pushed window');
    // A different request in flight is cancelled by a new one as before (the push is not special then).
    posted.length = 0;
    await Promise.all([server.push(3, request(file, 0, 'main', 4).request, 'key-2'), server.serve(request(file, 8, 'main', 8))]);
    assert.ok(
      posted.some((m) => m.requestId === 0 && m.kind === 'windowFailed' && m.cancelled),
      posted.map((m) => m.kind).join(' '),
    );
    assert.ok(posted.some((m) => m.requestId === 8 && m.kind === 'window' && m.final));
  } finally {
    await file.close();
  }
});

test('a request that waited for the push is dropped when a newer one came meanwhile: it does not cancel the newer one', async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const server = new WindowServer(fakeDocument(file), (m) => posted.push(m));
    const first = request(file, 7, 'main', 2);
    // The page asks for the pushed window (7 waits for the push), then moves on (9) before the push
    // is done: 9 is the one the page waits for. 7, resuming after the push, once cancelled 9 (the
    // newest request in flight) and the page, which had dropped 7, never heard of 9 again.
    await Promise.all([server.push(3, first.request, 'key-1'), server.serve(first), server.serve(request(file, 9, 'main', 5))]);
    const order = posted.map((m) => `${m.requestId}:${m.kind === 'window' ? (m.final ? 'final' : 'coarse') : m.cancelled ? 'cancelled' : 'failed'}`);
    assert.ok(order.includes('9:final'), order.join(' '));
    assert.ok(!order.includes('9:cancelled'), order.join(' '));
    assert.ok(!order.includes('7:final'), `7 was superseded: ${order.join(' ')}`);
  } finally {
    await file.close();
  }
});

test('a window built ahead (push without a key) sends nothing; the page asking for it later is a cache hit', async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const server = new WindowServer(fakeDocument(file), (m) => posted.push(m));
    const asked = request(file, 5);
    await server.push(3, asked.request);
    assert.equal(posted.length, 0, 'nothing sent: the page is still loading');
    const reported = server.lastPayload;
    assert.equal(reported, undefined, 'not reported as served');
    await server.serve(asked);
    assert.deepEqual(
      posted.map((m) => `${m.requestId}:${m.kind === 'window' ? (m.final ? 'final' : 'coarse') : 'failed'}`),
      ['5:final'],
      'straight from the cache (no coarse step)',
    );
    assert.equal(server.lastPayload?.cached, true);
    // Asked while it is still being built: the request waits for it instead of cancelling it.
    posted.length = 0;
    const other = request(file, 6, 'main', 4);
    await Promise.all([server.push(3, other.request), server.serve(other)]);
    assert.deepEqual(
      posted.map((m) => `${m.requestId}:${m.kind}`),
      ['6:window'],
    );
    assert.equal(server.lastPayload?.cached, true);
  } finally {
    await file.close();
  }
});

test("a webview's request is served with its own fields only: extra `silent` / `pushedKey` fields are dropped", async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const server = new WindowServer(fakeDocument(file), (m) => posted.push(m));
    const forged = { ...request(file, 5, 'main', 2), silent: true, pushedKey: 'k', request: { ...request(file, 5, 'main', 2).request, extra: 1 } };
    await server.serveRequest(forged);
    const finals = posted.filter((m): m is WindowMessage => m.kind === 'window' && m.final);
    assert.equal(finals.length, 1, 'answered, not silent');
    assert.equal(finals[0]!.requestId, 5);
    assert.equal('pushedKey' in finals[0]!, false);
  } finally {
    await file.close();
  }
});

test('a coarse answer built ahead (prebuildCoarse) sends nothing; the page asking for the window gets that coarse one, then the full one', async () => {
  const file = await bigrun();
  try {
    const posted: (WindowMessage | WindowFailedMessage)[] = [];
    const server = new WindowServer(fakeDocument(file), (m) => posted.push(m));
    const asked = request(file, 7);
    const coarse = await server.prebuildCoarse(3, asked.request);
    assert.ok(coarse !== undefined, 'the whole trace has a coarse answer');
    assert.equal(posted.length, 0, 'nothing sent: the page is still loading');
    await server.serve(asked);
    const windows = posted.filter((m): m is WindowMessage => m.kind === 'window');
    assert.deepEqual(
      windows.map((m) => `${m.requestId}:${m.final ? 'final' : 'coarse'}`),
      ['7:coarse', '7:final'],
    );
    assert.equal(windows[0]!.payload, coarse, 'the coarse answer is the one built ahead (not built again)');
    const full = decodeWindow(windows[1]!.payload).header;
    assert.ok(decodeWindow(coarse).header.lowestDepth > full.lowestDepth);
    // Asked while it is still being built: the request waits for it instead of building it again.
    posted.length = 0;
    const other = request(file, 8, 'main', 1.5);
    const [ahead] = await Promise.all([server.prebuildCoarse(3, other.request), server.serve(other)]);
    const answers = posted.filter((m): m is WindowMessage => m.kind === 'window');
    assert.deepEqual(
      answers.map((m) => `${m.requestId}:${m.final ? 'final' : 'coarse'}`),
      ['8:coarse', '8:final'],
    );
    assert.equal(answers[0]!.payload, ahead);
    // Nothing to build ahead: a stale generation, or a window whose full answer is as quick.
    assert.equal(await server.prebuildCoarse(2, asked.request), undefined, 'stale generation');
    const rootOnly = new WindowServer(fakeDocument(file), (m) => posted.push(m), { forcedDepth: file.maxDepth });
    assert.equal(await rootOnly.prebuildCoarse(3, asked.request), undefined, 'the full window reads the root only: no coarse level');
    assert.equal(posted.length, 2, 'still nothing sent by the prebuilds');
  } finally {
    await file.close();
  }
});
