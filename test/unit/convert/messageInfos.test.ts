// Arrows' info bytes (convert/messageInfos.ts): the big-endian (tag, size) of every message,
// whatever pairs share a direct-mapped slot or fall back to the Map, and one shared array per pair
// while it stays in the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { MessageInfos } from '../../../src/core/formats/convert/messageInfos';

function bytesOf(tag: number, size: number): number[] {
  const b = new Uint8Array(8);
  const dv = new DataView(b.buffer);
  dv.setInt32(0, tag, false);
  dv.setInt32(4, size, false);
  return [...b];
}

test('every message gets the bytes of its own tag and size, through slot collisions and the Map', () => {
  const infos = new MessageInfos();
  const prng = new Prng(21);
  // few tags, many sizes: far more pairs than slots, so pairs keep evicting each other
  const pairs: [number, number][] = [];
  for (let i = 0; i < 5000; i++) pairs.push([prng.int(-2, 5), prng.int(0, (1 << 20) - 1)]);
  pairs.push([0, 0], [-1, -1], [0x7fffffff, -0x80000000], [-0x80000000, 0x7fffffff], [1, 0], [0, 1]);
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 20_000; i++) {
      const [tag, size] = prng.pick(pairs);
      assert.deepEqual([...infos.of(tag, size)], bytesOf(tag, size), `tag ${tag}, size ${size}`);
    }
  }
});

test('only the low 32 bits of tag and size count, as in the bytes', () => {
  const infos = new MessageInfos();
  assert.deepEqual([...infos.of(2 ** 32 + 5, 2 ** 32 + 7)], bytesOf(5, 7));
  assert.deepEqual([...infos.of(0xffffffff, 0x80000000)], bytesOf(-1, -0x80000000));
  assert.equal(infos.of(5, 7), infos.of(2 ** 32 + 5, 2 ** 32 + 7), 'the same pair, the same array');
});

test('a repeated pair shares one array', () => {
  const infos = new MessageInfos();
  const first = infos.of(3, 4096);
  for (let i = 0; i < 100; i++) infos.of(i, i * 3);
  assert.equal(infos.of(3, 4096), first);
  assert.notEqual(infos.of(4, 4096), first);
});
