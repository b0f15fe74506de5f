/** Runs the synthesizer into memory (test helper). */
import { synthesizeClog2, type SynthOptions, type SynthReport } from '../../../src/core/synth/synthClog2';

/** The whole synthesized file; with `rewrite` the final preamble (comm table offset) is patched in. */
export async function synthToMemory(o: Omit<SynthOptions, 'sink' | 'rewritePreamble'>, rewrite = true): Promise<{ bytes: Uint8Array; report: SynthReport }> {
  const parts: Uint8Array[] = [];
  let preamble: Uint8Array | undefined;
  const report = await synthesizeClog2({
    ...o,
    sink: async (c) => {
      parts.push(c.slice());
    },
    rewritePreamble: rewrite
      ? async (p) => {
          preamble = p.slice();
        }
      : undefined,
  });
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    bytes.set(p, off);
    off += p.length;
  }
  if (preamble) bytes.set(preamble, 0);
  return { bytes, report };
}
