/**
 * What an MPI state is for the wait-state analysis, from its category name (MPE names states after
 * the MPI call). Scalasca's pattern families (../shared/notes/analysis.md §1).
 */

export type CallKind =
  | 'recv' // blocking receive: the message arrives inside the call
  | 'sendrecv' // both halves in one blocking call
  | 'wait' // MPI_Wait* completing non-blocking requests
  | 'test' // MPI_Test*: never waits (skipped, as Scalasca does)
  | 'send' // blocking standard/buffered/ready send
  | 'ssend' // synchronous send
  | 'irecvWaited' // MPE's zero-length marker of a receive completed inside MPI_Wait*/Test*
  | 'barrier'
  | 'nxn' // Allreduce, Allgather(v), Alltoall(v/w), Reduce_scatter(_block)
  | 'oneToN' // Bcast, Scatter(v): root sends
  | 'nToOne' // Reduce, Gather(v): root receives
  | 'otherMpi'
  | 'user';

const KINDS: ReadonlyMap<string, CallKind> = new Map<string, CallKind>([
  ['MPI_Recv', 'recv'],
  ['MPI_Sendrecv', 'sendrecv'],
  ['MPI_Sendrecv_replace', 'sendrecv'],
  ['MPI_Wait', 'wait'],
  ['MPI_Waitall', 'wait'],
  ['MPI_Waitany', 'wait'],
  ['MPI_Waitsome', 'wait'],
  ['MPI_Test', 'test'],
  ['MPI_Testall', 'test'],
  ['MPI_Testany', 'test'],
  ['MPI_Testsome', 'test'],
  ['MPI_Send', 'send'],
  ['MPI_Bsend', 'send'],
  ['MPI_Rsend', 'send'],
  ['MPI_Ssend', 'ssend'],
  ['MPE_Irecv_waited', 'irecvWaited'],
  ['MPI_Barrier', 'barrier'],
  ['MPI_Allreduce', 'nxn'],
  ['MPI_Allgather', 'nxn'],
  ['MPI_Allgatherv', 'nxn'],
  ['MPI_Alltoall', 'nxn'],
  ['MPI_Alltoallv', 'nxn'],
  ['MPI_Alltoallw', 'nxn'],
  ['MPI_Reduce_scatter', 'nxn'],
  ['MPI_Reduce_scatter_block', 'nxn'],
  ['MPI_Bcast', 'oneToN'],
  ['MPI_Scatter', 'oneToN'],
  ['MPI_Scatterv', 'oneToN'],
  ['MPI_Reduce', 'nToOne'],
  ['MPI_Gather', 'nToOne'],
  ['MPI_Gatherv', 'nToOne'],
]);

export function callKind(name: string): CallKind {
  const k = KINDS.get(name);
  if (k !== undefined) return k;
  return name.startsWith('MPI_') || name.startsWith('PMPI_') ? 'otherMpi' : 'user';
}

/** States the message matcher looks at (the MPI layer plus MPE's receive marker). */
export function isMpiKind(k: CallKind): boolean {
  return k !== 'user';
}

/** Calls in which a received message makes the rank wait (late sender applies). */
export function completesReceive(k: CallKind): boolean {
  return k === 'recv' || k === 'sendrecv' || k === 'wait';
}

export function isBlockingSend(k: CallKind): boolean {
  return k === 'send' || k === 'ssend';
}

export function isCollective(k: CallKind): k is 'barrier' | 'nxn' | 'oneToN' | 'nToOne' {
  return k === 'barrier' || k === 'nxn' || k === 'oneToN' || k === 'nToOne';
}
