// A shadow's exclusive durations do not depend on how its members were sorted: the same nested
// members given in drawing order (no sort), in arrival order (end time: insertion, nearly in order)
// and shuffled (buckets) get the same durations, member for member.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { exclusiveDurations, type Grouped } from '../../../src/core/formats/slog2/writer/shadowMembers';

interface Member {
  e: number;
  l: number;
  c: number;
}

/** One row's states, nested up to three deep, distinct bounds; in drawing order. */
function nested(n: number, prng: Prng): Member[] {
  const out: Member[] = [];
  let t = 0;
  const add = (e: number, span: number, depth: number): void => {
    out.push({ e, l: e + span, c: depth });
    let at = e + 1;
    while (depth < 3 && out.length < n && at + 4 < e + span && prng.next() < 0.7) {
      const child = 1 + Math.floor(prng.next() * Math.min(40, e + span - at - 2));
      add(at, child, depth + 1);
      at += child + 1 + Math.floor(prng.next() * 3);
    }
  };
  while (out.length < n) {
    const span = 5 + Math.floor(prng.next() * 200);
    add(t, span, 0);
    t += span + 1 + Math.floor(prng.next() * 5);
  }
  return out.slice(0, n);
}

const noCovers: Grouped = {
  earliest: new Float64Array(1),
  latest: new Float64Array(1),
  category: new Int32Array(1),
  starts: new Uint32Array(2),
  fill: new Uint32Array(1),
};

function durations(members: readonly Member[]): Map<string, number> {
  const e = Float64Array.from(members, (m) => m.e);
  const l = Float64Array.from(members, (m) => m.l);
  const c = Int32Array.from(members, (m) => m.c);
  const ex = exclusiveDurations(e, l, c, 0, members.length, noCovers, 0, 0);
  return new Map(members.map((m, i) => [`${m.e}:${m.l}:${m.c}`, ex[i]!]));
}

test('exclusive durations: drawing order, arrival order and shuffled members agree', () => {
  const prng = new Prng(5);
  for (const n of [3, 50, 255, 600, 3000]) {
    const drawing = nested(n, prng);
    const arrival = drawing
      .map((m, i) => ({ m, i }))
      .sort((a, b) => a.m.l - b.m.l || a.i - b.i)
      .map((a) => a.m);
    const shuffled = [...drawing];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(prng.next() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const want = durations(drawing);
    assert.ok(
      [...want.values()].some((v, i) => v !== drawing[i]!.l - drawing[i]!.e),
      `${n}: some states have nested ones`,
    );
    assert.deepEqual(durations(arrival), want, `${n} members in arrival order`);
    assert.deepEqual(durations(shuffled), want, `${n} members shuffled`);
  }
});
