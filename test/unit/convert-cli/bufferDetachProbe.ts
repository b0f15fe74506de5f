// Run by bufferDetach.test.ts in a child Node with --trace-deopt: a function over a typed array is
// optimised, then a buffer is detached; with `first`, detachOneBufferNow() ran before all that.
import { detachOneBufferNow } from '../../../src/convert/bufferDetach';

if (process.argv[2] === 'first') detachOneBufferNow();
const bytes = new Uint8Array(1 << 16);
function typedArraySum(x: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s = (s + x[i]! + i) | 0;
  return s;
}
let total = 0;
for (let r = 0; r < 3000; r++) total += typedArraySum(bytes);
const posted = new ArrayBuffer(16);
structuredClone(posted, { transfer: [posted] });
for (let r = 0; r < 10; r++) total += typedArraySum(bytes);
process.stdout.write(`${total}\n`);
