/**
 * Writes a synthetic CLOG2 file (src/core/synth) atomically: streamed through a temporary file
 * next to the target (the preamble is patched at the end, when the comm-table offset is known),
 * then renamed — an interrupted run never leaves a half-written trace under the target name.
 */
import { synthesizeClog2, type SynthOptions, type SynthReport } from '../core/synth/synthClog2';
import { writeAtomically } from './atomicWrite';

export type SynthFileOptions = Omit<SynthOptions, 'sink' | 'rewritePreamble'>;

export function synthesizeClog2File(path: string, options: SynthFileOptions): Promise<SynthReport> {
  return writeAtomically(path, { force: true }, (sink) =>
    synthesizeClog2({
      ...options,
      sink: (chunk) => sink.write(chunk),
      rewritePreamble: (preamble) => sink.writeAt(0, preamble),
    }),
  );
}
