/**
 * Old CLOG semantics on a hand-built file (CLOG.md §6, §9's synthetic checks): FIFO re-entry of a
 * state, receive before send (the reference's msg_size=0 quirk vs our send size), an empty message
 * string inheriting the previous tag/size, a STATEDEF creating category 211, a colour with a
 * pattern suffix, an undefined etype (skipped with a warning), and the srcloc table by (procid, id).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertClog } from '../../../src/core/formats/clog/convertClog';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { infoText } from '../../../src/core/model/infoFormat';
import { bytesChunks } from '../clog2/clogTestUtil';

class OldClogBuilder {
  readonly bytes = new Uint8Array(65536);
  private readonly dv = new DataView(this.bytes.buffer);
  private pos = 0;

  private header(time: number, rectype: number, length: number, procid: number): number {
    this.dv.setFloat64(this.pos, time);
    this.dv.setInt32(this.pos + 8, rectype);
    this.dv.setInt32(this.pos + 12, length);
    this.dv.setInt32(this.pos + 16, procid);
    const body = this.pos + 24;
    this.pos += length * 8;
    return body;
  }

  private text(at: number, s: string): void {
    for (let i = 0; i < s.length; i++) this.bytes[at + i] = s.charCodeAt(i);
  }

  raw(time: number, procid: number, etype: number, data = 0, text = '', srcloc = 0): this {
    const b = this.header(time, 1, 7, procid);
    this.dv.setInt32(b, etype);
    this.dv.setInt32(b + 4, data);
    this.dv.setInt32(b + 8, srcloc);
    this.text(b + 16, text);
    return this;
  }

  stateDef(start: number, end: number, color: string, name: string): this {
    const b = this.header(0, 6, 10, 0);
    this.dv.setInt32(b + 4, start);
    this.dv.setInt32(b + 8, end);
    this.text(b + 16, color);
    this.text(b + 40, name);
    return this;
  }

  srcloc(procid: number, id: number, line: number, file: string): this {
    const b = this.header(0, 7, 9, procid);
    this.dv.setInt32(b, id);
    this.dv.setInt32(b + 4, line);
    this.text(b + 8, file);
    return this;
  }

  end(): Uint8Array {
    this.header(1e6, -2, 3, 0);
    return this.bytes;
  }
}

function build(): Uint8Array {
  return new OldClogBuilder()
    .srcloc(0, 900, 10, 'a.c')
    .srcloc(1, 900, 20, 'b.c')
    .raw(1.0, 0, 500, 0, '', 900) // User state slot 0 (index 181): A(1)
    .raw(2.0, 0, 500) // A(2)
    .raw(3.0, 0, 501) // /A(3) closes A(1)
    .raw(4.0, 0, 501) // /A(4) closes A(2)
    .raw(4.5, 1, -102, 0, '7 64', 900) // receive on 1 from 0, before its send
    .raw(5.0, 0, -101, 1, '7 64') // send 0 -> 1, tag 7, 64 bytes
    .raw(6.0, 0, -101, 1, '') // empty string: inherits tag 7, size 64
    .raw(6.5, 1, -102, 0, '')
    .raw(7.0, 0, 600) // no handler: skipped
    .stateDef(700, 701, 'seagreen:gray', 'Extra') // no placeholder: new category 211
    .raw(8.0, 1, 700)
    .raw(9.0, 1, 701)
    .raw(9.5, 1, 702) // still no handler: skipped
    .stateDef(500, 501, 'red:dimple3', 'Work') // renames placeholder 181 after its events
    .end();
}

test('old CLOG semantics on a hand-built file', async () => {
  for (const quirks of [true, false]) {
    const { drawables, summary } = await collectConversion(convertClog(bytesChunks(build(), 1000), { name: 'hand.clog', referenceQuirks: quirks }));
    const cats = new Map(summary.categories.map((c) => [c.index, c]));
    assert.deepEqual(
      summary.categories.map((c) => [c.index, c.name, [...c.rgba]]),
      [
        [0, 'message', [255, 255, 255, 255]],
        [181, 'Work', [255, 0, 0, 255]],
        [211, 'Extra', [46, 139, 87, 255]],
      ],
    );
    const states = drawables.filter((p) => p.category === 181).map((p) => p.vertices.map((v) => v.time));
    assert.deepEqual(states.sort(), [
      [1, 3],
      [2, 4],
    ]);
    const arrows = drawables
      .filter((p) => p.category === 0)
      .map((p) => [p.vertices.map((v) => v.time), infoText(cats.get(0)!.infoKeys, cats.get(0)!.infoTypes, p.info)]);
    assert.deepEqual(arrows, [
      [[5, 4.5], `msg_tag=7, msg_size=${quirks ? 0 : 64}`],
      [[6, 6.5], 'msg_tag=7, msg_size=64'],
    ]);
    assert.equal(summary.unmatched.droppedRecords, 2);
    assert.ok(summary.warnings.some((w) => w.includes('etype 600')));
    assert.deepEqual(
      drawables.filter((p) => p.category === 211).map((p) => [p.earliest, p.latest, p.vertices[0]!.lineID]),
      [[8, 9, 1]],
    );
    // Srcloc ids are per process: id 900 is a.c:10 on rank 0 and b.c:20 on rank 1.
    const first = drawables.find((p) => p.category === 181 && p.earliest === 1)!;
    assert.deepEqual(first.source?.start, { file: 'a.c', line: 10 });
    const recvFirst = drawables.find((p) => p.category === 0 && p.latest === 5)!;
    assert.deepEqual(recvFirst.source?.end, { file: 'b.c', line: 20 });
    assert.deepEqual(summary.sourceLocations, { records: 2, sites: 2 });
    assert.equal(summary.unmatched.reference, 0);
  }
});
