/**
 * The MPE 2.4.5 predefined states and events the synthesizer logs: MPE's state ids (start etype
 * 2·id, final 2·id+1), names and colours exactly as they appear in the STATEDEF/EVENTDEF records of
 * the corpus traces.
 */
export interface KnownState {
  readonly id: number;
  readonly name: string;
  readonly color: string;
}

export const MPI_STATES = {
  allreduce: { id: 2, name: 'MPI_Allreduce', color: 'purple' },
  barrier: { id: 5, name: 'MPI_Barrier', color: 'yellow' },
  bcast: { id: 6, name: 'MPI_Bcast', color: 'cyan' },
  reduce: { id: 12, name: 'MPI_Reduce', color: 'MediumPurple' },
  commRank: { id: 24, name: 'MPI_Comm_rank', color: 'white' },
  commSize: { id: 27, name: 'MPI_Comm_size', color: 'white' },
  commSplit: { id: 28, name: 'MPI_Comm_split', color: 'DarkOliveGreen2' },
  irecv: { id: 70, name: 'MPI_Irecv', color: 'PaleGreen' },
  isend: { id: 72, name: 'MPI_Isend', color: 'SkyBlue' },
  recv: { id: 77, name: 'MPI_Recv', color: 'green' },
  send: { id: 80, name: 'MPI_Send', color: 'blue' },
  sendrecv: { id: 81, name: 'MPI_Sendrecv', color: 'SeaGreen' },
  waitall: { id: 106, name: 'MPI_Waitall', color: 'OrangeRed' },
  irecvWaited: { id: 251, name: 'MPE_Irecv_waited', color: 'DarkOrange' },
} as const satisfies Record<string, KnownState>;

export const COMM_INIT = { etype: -10, name: 'MPE_Comm_init', color: 'red' } as const;
export const COMM_FINALIZE = { etype: -9, name: 'MPE_Comm_finalize', color: 'orange' } as const;
