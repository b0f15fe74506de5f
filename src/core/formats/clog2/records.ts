/**
 * The CLOG2 record kinds and sizes (CLOG2.md §6, §13), what the parser hands its sink per record,
 * and a communicator table entry: shared by the parser, the converter and the synthetic writer.
 */

export const REC = {
  ENDLOG: 0,
  ENDBLOCK: 1,
  STATEDEF: 2,
  EVENTDEF: 3,
  CONSTDEF: 4,
  BAREEVT: 5,
  CARGOEVT: 6,
  MSGEVT: 7,
  COLLEVT: 8,
  COMMEVT: 9,
  SRCLOC: 10,
  TIMESHIFT: 11,
} as const;

export const REC_NAMES = [
  'ENDLOG',
  'ENDBLOCK',
  'STATEDEF',
  'EVENTDEF',
  'CONSTDEF',
  'BAREEVT',
  'CARGOEVT',
  'MSGEVT',
  'COLLEVT',
  'COMMEVT',
  'SRCLOC',
  'TIMESHIFT',
] as const;

/** Total record sizes (header 24 + body) by rectype (§6, §13). */
export const REC_SIZE = [24, 24, 136, 128, 64, 32, 64, 48, 40, 72, 72, 32] as const;

/**
 * Receives the decoded records in file order. Text fields are undefined when absent (§1). A
 * record's time is not an argument: the parser sets `time` before event, message, comm and
 * srcloc, and they read it there. A double passed to a call V8 does not inline is boxed (a heap
 * number per record: ~120 MB of garbage converting the bench's 300 MB input, the converter
 * thread's largest source).
 */
export interface Clog2Sink {
  /** The time of the record being delivered (event, message, comm, srcloc). */
  time: number;
  stateDef(stateID: number, start: number, final: number, color: string | undefined, name: string | undefined, format: string | undefined): void;
  eventDef(etype: number, color: string | undefined, name: string | undefined, format: string | undefined): void;
  /** BAREEVT (info undefined) or CARGOEVT (a private copy of the 32 info bytes). */
  event(icomm: number, rank: number, thread: number, etype: number, info: Uint8Array | undefined): void;
  message(icomm: number, rank: number, thread: number, etype: number, partnerComm: number, partnerRank: number, tag: number, size: number): void;
  comm(icomm: number, rank: number, thread: number, commEtype: number, lid: number, commRank: number, worldRank: number): void;
  srcloc(icomm: number, rank: number, thread: number, id: number, line: number, file: string | undefined): void;
}

export interface CommTableEntry {
  readonly lid: number;
  /** −1 unknown, 0 inter, 1 intra, 2 local group, 3 remote group. */
  readonly kind: number;
  /** GID host name part, if any. */
  readonly host: string | undefined;
}
