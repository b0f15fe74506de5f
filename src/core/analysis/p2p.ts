/**
 * Point-to-point wait states from the trace's arrows (SLOG-2 arrows already pair a send with its
 * receive). Drawables arrive in increasing start time; an arrow's endpoint (line, time) is
 * resolved to the innermost MPI state containing it once the stream has passed that time (every
 * state starting at or before it has been seen). States are kept per line only while they can
 * still contain a pending endpoint, so memory follows the number of open states, not the file.
 *
 * Late sender (receiver waits): w = min(enter(send state), exit(recv call)) − enter(recv call),
 * where the recv call is MPI_Recv/Sendrecv, or the MPI_Wait* enclosing MPE's `MPE_Irecv_waited`
 * marker. Late receiver (sender waits, blocking MPI_Send/Ssend against a blocking MPI_Recv or
 * MPI_Sendrecv):
 * w = enter(recv) − enter(send) when the send left after the receive was posted.
 * Messages received before they were sent are reported and left out.
 */
import { completesReceive, isBlockingSend } from './calls';
import { MinHeap } from './heap';
import type { LineRoles } from './lines';
import type { ProblemList } from './problems';
import type { WaitRecorder } from './recorder';
import type { StateRec } from './stateRecord';

interface Message {
  readonly sendTime: number;
  readonly sendLine: number;
  readonly recvTime: number;
  readonly recvLine: number;
  send: StateRec | undefined;
  recv: StateRec | undefined;
  /** Endpoints not resolved yet: SEND_PENDING | RECV_PENDING. */
  pending: number;
}

const SEND_PENDING = 1;
const RECV_PENDING = 2;

/** Lines below this keep their recent states in an array (a Map lookup per MPI state otherwise). */
const DENSE_LINES = 1 << 16;

export class MessageMatcher {
  private readonly denseRecent: (StateRec[] | undefined)[] = [];
  private readonly recent = new Map<number, StateRec[]>();
  private readonly compactAt = new Map<number, number>();
  /** compactAt of the dense lines (a Map lookup per MPI state once a line keeps 64). */
  private readonly denseCompactAt: number[] = [];
  /** Each message twice, keyed by its send and by its receive time (no object per endpoint). */
  private readonly endpoints = new MinHeap<Message>();
  matched = 0;
  receiveBeforeSend = 0;

  constructor(
    private readonly roles: LineRoles,
    private readonly recorder: WaitRecorder,
    private readonly problems: ProblemList,
  ) {}

  addState(s: StateRec): void {
    const line = s.line;
    const dense = line >= 0 && line < DENSE_LINES;
    let list = dense ? this.denseRecent[line] : this.recent.get(line);
    if (list === undefined) {
      list = [];
      if (dense) this.denseRecent[line] = list;
      else this.recent.set(line, list);
    }
    list.push(s);
    if (list.length > 64 && list.length > ((dense ? this.denseCompactAt[line] : this.compactAt.get(line)) ?? 64)) this.compact(line, list, s.enter);
  }

  addArrow(sendTime: number, sendLine: number, recvTime: number, recvLine: number): void {
    const m: Message = { sendTime, sendLine, recvTime, recvLine, send: undefined, recv: undefined, pending: SEND_PENDING | RECV_PENDING };
    this.endpoints.push(sendTime, m);
    this.endpoints.push(recvTime, m);
  }

  /** The stream has reached `t`: every endpoint before it can be resolved. */
  advance(t: number): void {
    while (this.endpoints.peekKey() < t) this.resolveNext();
  }

  finish(): void {
    while (this.endpoints.size > 0) this.resolveNext();
  }

  /** Drops states that ended before `now` (no endpoint before `now` is pending any more). */
  private compact(line: number, list: StateRec[], now: number): void {
    const low = Math.min(now, this.endpoints.peekKey());
    let j = 0;
    for (let i = 0; i < list.length; i++) if (list[i]!.exit >= low) list[j++] = list[i]!;
    list.length = j;
    if (line >= 0 && line < DENSE_LINES) this.denseCompactAt[line] = Math.max(64, 2 * j);
    else this.compactAt.set(line, Math.max(64, 2 * j));
  }

  /** Innermost state on `line` containing `t`; `skip` passes over MPE's receive markers. */
  private containing(line: number, t: number, skipMarker: boolean): StateRec | undefined {
    const list = line >= 0 && line < DENSE_LINES ? this.denseRecent[line] : this.recent.get(line);
    if (list === undefined) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const s = list[i]!;
      if (s.enter > t || s.exit < t) continue;
      if (skipMarker && s.kind === 'irecvWaited') continue;
      return s;
    }
    return undefined;
  }

  /**
   * The earliest endpoint: its message's send when that is pending and due at this time, else its
   * receive (equal times resolve both now, in either order: nothing is added in between).
   */
  private resolveNext(): void {
    const t = this.endpoints.peekKey();
    const m = this.endpoints.pop()!;
    if ((m.pending & SEND_PENDING) !== 0 && t === m.sendTime) {
      m.send = this.containing(m.sendLine, m.sendTime, false);
      m.pending &= ~SEND_PENDING;
    } else {
      m.recv = this.containing(m.recvLine, m.recvTime, true);
      m.pending &= ~RECV_PENDING;
    }
    if (m.pending === 0) this.evaluate(m);
  }

  private evaluate(m: Message): void {
    this.matched++;
    const roles = this.roles;
    if (m.recvTime < m.sendTime) {
      this.receiveBeforeSend++;
      const from = roles.labels[roles.location(m.sendLine)]!;
      const to = roles.labels[roles.location(m.recvLine)]!;
      const skew = m.sendTime - m.recvTime;
      const p = this.problems.add('receive-before-send', 1, {
        time: m.recvTime,
        endTime: m.sendTime,
        lineIDs: [m.sendLine, m.recvLine],
        text: `message from rank ${from} to rank ${to} received at ${m.recvTime} s, ${skew.toPrecision(3)} s before it was sent (${m.sendTime} s)`,
      });
      const pair = `${from}->${to}`;
      const skews = (p.skewByPair ??= {});
      skews[pair] = Math.max(skews[pair] ?? 0, skew);
      return;
    }
    const { send, recv } = m;
    if (recv !== undefined && completesReceive(recv.kind)) {
      const sendEnter = send?.enter ?? m.sendTime;
      const causerTime = Math.min(sendEnter, recv.exit);
      this.recorder.record('lateSender', recv, causerTime - recv.enter, {
        loc: roles.location(m.sendLine),
        line: m.sendLine,
        name: send?.name ?? 'send',
        time: causerTime,
      });
    }
    // The receive is posted when a blocking MPI_Recv or MPI_Sendrecv begins; a receive completed by
    // MPI_Wait* was posted by an MPI_Irecv the trace does not pair with the message, so it is left out.
    if (send !== undefined && recv !== undefined && isBlockingSend(send.kind) && (recv.kind === 'recv' || recv.kind === 'sendrecv') && send.exit > recv.enter) {
      this.recorder.record('lateReceiver', send, recv.enter - send.enter, { loc: recv.loc, line: m.recvLine, name: recv.name, time: recv.enter });
    }
  }
}
