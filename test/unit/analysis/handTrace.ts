/**
 * Hand-built CLOG2 traces for the analysis tests, written record by record with the synthesizer's
 * block writer as MPE would log them: a state is a start and an end event (etypes 2·id, 2·id+1 of
 * MPE's state id), a send MSGEVT right after its call begins, a receive MSGEVT just before its call
 * ends, definitions at the end of the file. The expected answers of the tests are worked out by
 * hand from these times, not by the analysis code.
 */
import { formatPreamble, MPE_EVENT_ID_LAYOUT } from '../../../src/core/formats/clog2/preamble';
import { Clog2BlockWriter } from '../../../src/core/synth/clog2Writer';

/** MPE state ids (CLOG2 etypes 2·id and 2·id+1); user states from 300. */
const STATE_IDS: Record<string, number> = {
  MPI_Allreduce: 2,
  MPI_Alltoall: 3,
  MPI_Barrier: 5,
  MPI_Bcast: 6,
  MPI_Reduce: 12,
  MPI_Irecv: 70,
  MPI_Isend: 72,
  MPI_Recv: 77,
  MPI_Send: 80,
  MPI_Sendrecv: 81,
  MPI_Ssend: 83,
  MPI_Wait: 105,
  MPI_Waitall: 106,
  MPE_Irecv_waited: 251,
  Compute: 300,
};

interface Rec {
  readonly t: number;
  readonly seq: number;
  readonly write: (w: Clog2BlockWriter) => Promise<void>;
}

export class HandTrace {
  private readonly recs: Rec[] = [];
  private seq = 0;
  private readonly used = new Set<string>();

  constructor(readonly ranks: number) {}

  private push(t: number, write: (w: Clog2BlockWriter) => Promise<void>): void {
    this.recs.push({ t, seq: this.seq++, write });
  }

  /** A state [enter, exit] on `rank`. */
  state(rank: number, name: string, enter: number, exit: number): this {
    const id = STATE_IDS[name];
    if (id === undefined) throw new Error(`no state id for ${name}`);
    this.used.add(name);
    const etype = id < 300 ? 2 * id : 600 + 2 * (id - 300);
    this.push(enter, (w) => w.bare(enter, 0, rank, 0, etype));
    this.push(exit, (w) => w.bare(exit, 0, rank, 0, etype + 1));
    return this;
  }

  /** The send half of a message (MSGEVT −101 on the sender). */
  send(rank: number, t: number, to: number, tag = 0, size = 8): this {
    this.push(t, (w) => w.msg(t, 0, rank, 0, -101, 0, to, tag, size));
    return this;
  }

  /** The receive half (MSGEVT −102 on the receiver). */
  recv(rank: number, t: number, from: number, tag = 0, size = 8): this {
    this.push(t, (w) => w.msg(t, 0, rank, 0, -102, 0, from, tag, size));
    return this;
  }

  async bytes(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    const w = new Clog2BlockWriter(async (c) => {
      parts.push(c.slice());
    }, 4096);
    await w.raw(
      formatPreamble({
        isBigEndian: true,
        isFinalized: true,
        blockSize: 4096,
        numBufferedBlocks: 1,
        maxCommWorldSize: this.ranks,
        maxThreadCount: 1,
        ...MPE_EVENT_ID_LAYOUT,
        userStateIDCount: 1,
        userSoloEventIDCount: 0,
        commtableFptr: 0,
      }),
    );
    const gid = new Uint8Array(32);
    for (let r = 0; r < this.ranks; r++) await w.comm(0, 0, r, 0, 0, 0, r, r, gid);
    // A merged file is sorted by time; records at the same time keep the order they were added.
    const sorted = [...this.recs].sort((a, b) => a.t - b.t || a.seq - b.seq);
    for (const r of sorted) await r.write(w);
    const tEnd = sorted.length > 0 ? sorted[sorted.length - 1]!.t : 0;
    for (const name of this.used) {
      const id = STATE_IDS[name]!;
      const etype = id < 300 ? 2 * id : 600 + 2 * (id - 300);
      await w.stateDef(tEnd, 0, id, etype, etype + 1, 'red', name);
    }
    await w.endLog();
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }
}
