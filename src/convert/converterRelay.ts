/**
 * A converter thread started by one thread for a writer in another: the CLI's main thread starts
 * `mpe-trace convert`'s converter thread together with its job thread (cli/jobThread.ts), so the
 * two start in parallel and the converter reads its first batches while the job thread loads,
 * instead of starting only once the job thread is up and has started it (one thread's start after
 * the other's). The job thread's ConverterThread talks to the relay through a port exactly as to a
 * thread of its own (protocol/converter.ts): the relay passes the thread's messages on (batches
 * transferred, not copied), recycled batches and `stop` back, and turns every failure of the thread
 * (a crash, its heap cap, an early exit) into an `error` message. Nothing is passed on before the
 * job's `start`; a `start` other than the one the thread was started with stops it and starts
 * another with the job's.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { batchBuffers } from '../core/formats/slog2/writer/drawableBatch';
import { isWriterToConverter, type ConverterFailed, type ConverterStart, type ConverterToWriter, type WriterToConverter } from '../protocol/converter';
import { converterChannelOptions } from './converterThread';
import { ThreadChannel } from './threadChannel';
import { serializeError } from './threadErrors';

type Channel = ThreadChannel<WriterToConverter, ConverterToWriter>;

export class ConverterRelay {
  /** The writer's end of the channel: transfer it to the thread that writes (ConverterThreadOptions.relay). */
  readonly port: MessagePort;
  private readonly own: MessagePort;
  private channel: Channel;
  private accepted = false;
  private closing: Promise<void> | undefined;

  /** Starts the converter thread (`script`) on `start` at once. */
  constructor(
    private readonly script: string,
    private readonly started: ConverterStart,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.own = port1;
    this.port = port2;
    this.channel = this.open(started);
    port1.on('message', (m: unknown) => this.fromWriter(m));
    // the writer's thread ended or let go without `stop` (it failed before converting, or died)
    port1.on('close', () => void this.close());
  }

  /** Stops the converter thread (gently, as ThreadChannel.close does) and closes the relay; idempotent. */
  close(): Promise<void> {
    return (this.closing ??= this.channel.close({ kind: 'stop' }).finally(() => this.own.close()));
  }

  private open(start: ConverterStart): Channel {
    const channel = new ThreadChannel<WriterToConverter, ConverterToWriter>(converterChannelOptions(this.script, start.input));
    channel.send(start);
    return channel;
  }

  private fromWriter(m: unknown): void {
    // (as the converter thread itself does, a message of no kind it knows is ignored)
    if (this.closing !== undefined || !isWriterToConverter(m)) return;
    if (m.kind === 'start') {
      if (this.accepted) return;
      this.accepted = true;
      if (!sameStart(m, this.started)) {
        void this.channel.close({ kind: 'stop' });
        this.channel = this.open(m);
      }
      void this.pump(this.channel);
    } else if (m.kind === 'recycle') this.channel.send(m, batchBuffers(m.batch));
    else void this.close();
  }

  /** Passes the thread's messages on until its last one or its failure. */
  private async pump(channel: Channel): Promise<void> {
    try {
      for (;;) {
        const m = await channel.next();
        if (this.closing !== undefined) return;
        this.own.postMessage(m, m.kind === 'batch' ? batchBuffers(m.batch) : []);
        if (m.kind === 'done') {
          channel.ended();
          return;
        }
      }
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    if (this.closing === undefined) this.own.postMessage({ kind: 'error', error: serializeError(e) } satisfies ConverterFailed);
  }
}

function sameStart(a: ConverterStart, b: ConverterStart): boolean {
  return a.input === b.input && a.referenceQuirks === b.referenceQuirks && a.prefixBytes === b.prefixBytes && a.snapshotEveryMs === b.snapshotEveryMs;
}
