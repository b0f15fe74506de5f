/**
 * The SLOG-2 reader's WebAssembly modules (the TreeDir's passes at open, a shadow section's
 * decoding), compiled together when the first is needed, i.e. at the first open. Compiled at its
 * own first use, the shadow kernel took ~5 ms to compile in the middle of a first window (against
 * ~0.2 ms beside the other): the first window is what a fresh editor waits for.
 */
import { compileWasm } from '../../bytes/wasmModule';
import { SHADOW_KERNEL_WASM } from './shadowKernelWasm';
import { TREE_DIR_KERNEL_WASM } from './treeDirKernelWasm';

export type ReaderKernel = 'treeDir' | 'shadow';

let modules: Record<ReaderKernel, object | undefined> | undefined;

/** The compiled module, or undefined where WebAssembly is missing or refused. */
export function readerKernel(kernel: ReaderKernel): object | undefined {
  modules ??= { treeDir: compileWasm(TREE_DIR_KERNEL_WASM), shadow: compileWasm(SHADOW_KERNEL_WASM) };
  return modules[kernel];
}
