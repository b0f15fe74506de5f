/**
 * For the two threads of a conversion, which hand each other their batches' ArrayBuffers
 * (postMessage with a transfer list), detaching them: V8's optimised code reads and writes typed
 * arrays without checking for a detached buffer for as long as no ArrayBuffer of its isolate has
 * ever been detached, and the first detach throws all of that code away (a protector cell). That
 * was the converter's first batch posted and the writer's first batch sent back: 14–23 functions
 * already optimised in the two threads (the converter's record loop among them) were run slowly
 * again and compiled a second time (--trace-deopt: "marking dependent code"). One small buffer
 * detached when the thread starts, before anything is optimised, and the code is compiled once,
 * with the check. Only where buffers will be detached anyway: a thread that never detaches (the
 * statistics' two halves, each summed in its own thread) keeps the faster code without the check.
 */
export function detachOneBufferNow(): void {
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
}
