/**
 * For a thread that will hand ArrayBuffers to another thread (postMessage with a transfer list),
 * which detaches them: V8's optimised code reads and writes typed arrays without checking for a
 * detached buffer for as long as no ArrayBuffer of its isolate has ever been detached, and the
 * first detach throws all of that code away (a protector cell). In a two-thread conversion that
 * was the first batch posted by the converter and the first sent back by the writer: 14–23
 * functions already optimised in the two threads were run slowly again and compiled a second time
 * (--trace-deopt: "marking dependent code"). One small buffer detached when the thread starts,
 * before anything is optimised, and the code is compiled once, with the check (a flag test).
 */
export function detachOneBufferNow(): void {
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
}
