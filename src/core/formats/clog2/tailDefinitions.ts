/**
 * The category definitions of a CLOG2 file, read on their own. MPE writes the definitions of the
 * MPI states at `MPI_Finalize`, at the very end of the merged file (CLOG2.md §9), so a conversion
 * of the file's first bytes only (the editor's preview) would name them all `UnknownType-…`: it
 * reads them first from the preamble followed by the file's last blocks, and applies them before
 * any record (definitions apply to drawables made before them too, §11.2).
 */
import type { ByteChunks } from '../../bytes/byteSource';
import type { Clog2Preamble } from './preamble';
import { Clog2Parser } from './reader';
import type { Clog2Sink } from './records';
import type { Definition } from '../convert/categories';

export interface Clog2StateDefinition {
  readonly start: number;
  readonly final: number;
  readonly look: Definition;
}

export interface Clog2EventDefinition {
  readonly etype: number;
  readonly look: Definition;
}

export interface Clog2Definitions {
  readonly states: readonly Clog2StateDefinition[];
  readonly events: readonly Clog2EventDefinition[];
  /** The latest time of an event or message record read: the run's end, for a merged file's tail. */
  readonly lastTime?: number;
}

/** At most this many definitions are kept (a crafted tail of definitions only must not grow without bound). */
const MAX_DEFINITIONS = 100_000;

/** Keeps the definition records and the latest event time; every other record is ignored. */
class DefinitionSink implements Clog2Sink {
  readonly states: Clog2StateDefinition[] = [];
  readonly events: Clog2EventDefinition[] = [];
  lastTime = -Infinity;
  time = Number.NaN;

  private room(): boolean {
    return this.states.length + this.events.length < MAX_DEFINITIONS;
  }
  stateDef(_stateID: number, start: number, final: number, color: string | undefined, name: string | undefined, format: string | undefined): void {
    if (this.room()) this.states.push({ start, final, look: { color, name, format } });
  }
  eventDef(etype: number, color: string | undefined, name: string | undefined, format: string | undefined): void {
    if (this.room()) this.events.push({ etype, look: { color, name, format } });
  }
  // Definitions' and markers' times are not event times (ENDLOG's is 1e8): only these count.
  event(): void {
    const time = this.time;
    if (Number.isFinite(time) && time > this.lastTime) this.lastTime = time;
  }
  message(): void {
    this.event();
  }
  comm(): void {}
  srcloc(): void {}
}

/**
 * The definitions in a CLOG2 byte stream: its preamble followed by whole blocks (the caller
 * starts the tail at a block boundary). A damaged tail yields the definitions before the damage.
 */
export async function readClog2Definitions(chunks: ByteChunks, name: string, signal?: AbortSignal): Promise<Clog2Definitions> {
  const sink = new DefinitionSink();
  const parser = new Clog2Parser(name, sink, (_p: Clog2Preamble) => undefined);
  try {
    for await (const chunk of chunks) {
      signal?.throwIfAborted();
      parser.push(chunk);
      if (parser.done) break;
    }
    parser.end();
  } catch (e) {
    if (signal?.aborted) throw e;
    // What came before the damage is kept: the definitions are a preview's names, not its data.
  }
  return { states: sink.states, events: sink.events, ...(Number.isFinite(sink.lastTime) ? { lastTime: sink.lastTime } : {}) };
}
