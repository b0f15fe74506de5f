/**
 * Hidden classes kept alive for the life of the thread. A class whose instances are made per call
 * and dropped at once (a block's ByteWriter, a kernel call's memory layout) often has no instance
 * alive at a full collection; the hidden class its constructor's fields lead to is then held only
 * by V8's transition tree, which holds it weakly, so the collector frees it, and V8 throws away
 * every optimised function that checks for it (`--trace-deopt`: "weak objects", ten of the
 * writer's functions at once in a 16-rank conversion, each compiled again). One instance of each
 * such class, made here at load and never released, keeps its hidden class, and that code, alive.
 */
const kept: object[] = [];

/** The instances kept so far (for tests: what is kept must have the hidden class new instances get). */
export function keptShapes(): readonly object[] {
  return kept;
}

/** Keeps `instance` (a small one: its class's shape is what matters) alive; returns it. */
export function keepShapeAlive<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
