/**
 * The parser hands each record's time to its sink in `sink.time` (set before event, message, comm
 * and srcloc; not an argument, so that V8 need not box a double per record): every call must see
 * its own record's time — a local file's shifted by its TIMESHIFT — whatever the chunking.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPreamble, MPE_EVENT_ID_LAYOUT } from '../../../src/core/formats/clog2/preamble';
import { Clog2Parser } from '../../../src/core/formats/clog2/reader';
import type { Clog2Sink } from '../../../src/core/formats/clog2/records';
import { Clog2BlockWriter } from '../../../src/core/synth/clog2Writer';
import { concat } from '../../fuzz/corpus';

async function build(finalized: boolean): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const w = new Clog2BlockWriter(
    async (c) => {
      parts.push(c.slice());
    },
    1024,
    !finalized,
  );
  await w.raw(
    formatPreamble({
      isBigEndian: finalized,
      isFinalized: finalized,
      blockSize: 1024,
      numBufferedBlocks: 1,
      maxCommWorldSize: 2,
      maxThreadCount: 1,
      ...MPE_EVENT_ID_LAYOUT,
      userStateIDCount: 10,
      userSoloEventIDCount: 0,
      commtableFptr: 0,
    }),
  );
  if (!finalized) await w.timeshift(0.25, 0, 100);
  await w.comm(1.5, 0, 0, 0, 0, 0, 0, 0, new Uint8Array(32));
  // Enough records to cross several 1 KiB blocks, each kind at a time of its own.
  for (let i = 0; i < 40; i++) {
    const t = 2 + i;
    await w.srcloc(t + 0.125, 0, 0, i, 10 + i, 'a.c');
    await w.bare(t + 0.25, 0, 0, 0, 600);
    await w.cargo(t + 0.375, 0, 1, 0, 601, new Uint8Array(32).fill(i));
    await w.msg(t + 0.5, 0, 0, 0, -101, 0, 1, 7, 64);
  }
  await w.endLog();
  return concat(parts);
}

/** "kind@time" per record call, parsing `bytes` in chunks of `size`. */
function timesSeen(bytes: Uint8Array, size: number): string[] {
  const seen: string[] = [];
  const sink: Clog2Sink = {
    time: Number.NaN,
    stateDef() {},
    eventDef() {},
    event(_c, _r, _th, _e, info) {
      seen.push(`${info ? 'cargo' : 'bare'}@${sink.time}`);
    },
    message() {
      seen.push(`msg@${sink.time}`);
    },
    comm() {
      seen.push(`comm@${sink.time}`);
    },
    srcloc() {
      seen.push(`srcloc@${sink.time}`);
    },
  };
  const parser = new Clog2Parser('times.clog2', sink, () => {});
  for (let i = 0; i < bytes.length; i += size) parser.push(bytes.slice(i, Math.min(bytes.length, i + size)));
  parser.end();
  return seen;
}

function expected(shift: number): string[] {
  const out = [`comm@${1.5 + shift}`];
  for (let i = 0; i < 40; i++) {
    const t = 2 + i + shift;
    out.push(`srcloc@${t + 0.125}`, `bare@${t + 0.25}`, `cargo@${t + 0.375}`, `msg@${t + 0.5}`);
  }
  return out;
}

test('every record call sees its own time in sink.time, in any chunking', async () => {
  const bytes = await build(true);
  for (const size of [bytes.length, 1000, 97]) assert.deepEqual(timesSeen(bytes, size), expected(0), `chunks of ${size}`);
});

test("a local file's record times arrive shifted by its TIMESHIFT", async () => {
  const bytes = await build(false);
  assert.deepEqual(timesSeen(bytes, 333), expected(100));
});
