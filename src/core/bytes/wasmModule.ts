/**
 * A WebAssembly kernel's start in the core: a module compiled from the base64 bytes a generated
 * module holds (scripts/build-wasm.mjs), and its instances. Both give undefined where WebAssembly
 * is missing or refused: the callers keep a JS path. (The webview's heads kernel has its own
 * copy of these few lines: the webview imports no values from the core.)
 */

/** What is used of WebAssembly (declared here: the code compiles without the DOM's lib). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => WasmInstance;
}

export const WASM_PAGE_BYTES = 65536;

/** Grows `memory` to hold at least `bytes`; false if it cannot (memory.grow refused). */
export function holdBytes(memory: WasmMemory, bytes: number): boolean {
  const pages = Math.ceil(bytes / WASM_PAGE_BYTES) - memory.buffer.byteLength / WASM_PAGE_BYTES;
  if (pages <= 0) return true;
  try {
    memory.grow(pages);
    return true;
  } catch {
    return false;
  }
}

const api = (): WasmApi | undefined => (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** The module of `base64` bytes (compiled synchronously: the kernels are under 4 KB), or undefined. */
export function compileWasm(base64: string): object | undefined {
  try {
    const wasm = api();
    if (wasm === undefined) return undefined;
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return new wasm.Module(bytes);
  } catch {
    return undefined;
  }
}

/** The module of `base64` bytes compiled at the first call and kept (undefined as for compileWasm). */
export function compiledOnce(base64: string): () => object | undefined {
  let module: object | undefined | null = null;
  return () => {
    if (module === null) module = compileWasm(base64);
    return module;
  };
}

/**
 * Where a kernel call's columns go in its memory: byte offsets handed out in order, each 8-byte
 * aligned, from `start`; `end` is what the memory must hold. A subclass names them as readonly
 * fields set one by one in its constructor (one shape: built as a dictionary, every read missed).
 */
export class MemoryLayout {
  private at: number;

  constructor(start = 0) {
    this.at = start;
  }

  /** Bytes of memory the columns laid out so far take. */
  get end(): number {
    return this.at;
  }

  /** The offset of the next `size` bytes. */
  protected next(size: number): number {
    const here = this.at;
    this.at += Math.ceil(size / 8) * 8;
    return here;
  }
}

/** A new instance of a compiled module, or undefined. */
export function instantiateWasm(module: object): WasmInstance | undefined {
  try {
    const wasm = api();
    return wasm === undefined ? undefined : new wasm.Instance(module);
  } catch {
    return undefined;
  }
}
