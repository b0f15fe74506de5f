// The writer's NaNs are Java's: DataOutputStream writes floatToIntBits / doubleToLongBits, one
// bit pattern per NaN, whatever sign or payload the NaN had (x86's 0/0 sets the sign; V8 clears
// it when an array of doubles holds the value). Same output however the value was kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteWriter } from '../../../src/core/formats/slog2/writer/byteWriter';

/** A NaN with the given high 32 bits (sign, exponent, payload). */
function nanWithBits(high: number): number {
  const v = new DataView(new ArrayBuffer(8));
  v.setUint32(0, high);
  v.setUint32(4, 1);
  return v.getFloat64(0);
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

test('every NaN is written as 7fc00000 (f32) and 7ff8000000000000 (f64)', () => {
  const zero = Number('0'); // not folded: a NaN the machine's division makes
  const nans = [NaN, zero / zero, nanWithBits(0xfff80000), nanWithBits(0x7ff00001), -NaN];
  for (const nan of nans) {
    const w = new ByteWriter(12);
    w.f32(nan);
    w.f64(nan);
    assert.equal(hex(w.bytes), '7fc000007ff8000000000000');
  }
  const kept = [zero / zero];
  const w = new ByteWriter(4);
  w.f32(kept[0]!);
  assert.equal(hex(w.bytes), '7fc00000', 'a NaN kept in an array of doubles');
});

test('other values are written as they are, −0 and infinities included', () => {
  const w = new ByteWriter(28);
  w.f32(-0);
  w.f32(Infinity);
  w.f32(Math.fround(0.1));
  w.f64(-0);
  w.f64(-Infinity);
  assert.equal(hex(w.bytes), '80000000' + '7f800000' + '3dcccccd' + '8000000000000000' + 'fff0000000000000');
});
