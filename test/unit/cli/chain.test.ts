// `mpe-trace chain`: the dependence chain from the CLI, on SLOG-2 (ring_p2p_4's late-sender receive:
// the first hop is the send the analysis names as its cause) and through the conversion of a CLOG2
// (user_states_4, forward); usage errors name what is wrong.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture } from '../../helpers/paths';
import { runCli } from './runCli';

test('chain on SLOG-2: backward from rank 0 MPI_Recv at 0.1 s starts with rank 3 MPI_Send (late sender, 0.09367 s)', () => {
  const r = runCli(['chain', fixture('ring_p2p_4.slog2'), '--rank', '0', '--at', '0.1', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.direction, 'backward');
  assert.equal(j.selected.state, 'MPI_Recv');
  assert.equal(j.selected.rank, '0');
  const hop = j.nodes[1];
  assert.equal(hop.rank, '3');
  assert.equal(hop.state, 'MPI_Send');
  assert.equal(hop.via, 'message');
  assert.equal(hop.pattern, 'lateSender');
  assert.ok(Math.abs(hop.wait - 0.09366638999983934) < 1e-9, String(hop.wait));
  // A chain: each node's parent is the one before it, depths 0..n.
  j.nodes.forEach((n: { parent: number; depth: number }, i: number) => {
    assert.equal(n.parent, i - 1);
    assert.equal(n.depth, i);
  });
  assert.ok(j.nodes.length <= 9);
  const text = runCli(['chain', fixture('ring_p2p_4.slog2'), '--rank', '0', '--at', '0.1', '--depth', '2']);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^what it waited for \(2 hops, depth ≤ 2\):\nrank 0 · MPI_Recv .* \(selected\)\n← rank 3 · MPI_Send /);
});

test('chain through a CLOG2 conversion, forward: rank 1 MPI_Barrier at 0.06 s', () => {
  const r = runCli(['chain', fixture('user_states_4.clog2'), '--rank', '1', '--at', '0.06', '--forward', '--depth', '2', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.direction, 'forward');
  assert.equal(j.selected.state, 'MPI_Barrier');
  assert.ok(j.nodes.length > 1);
  for (const n of j.nodes.slice(1)) assert.ok(n.depth >= 1 && n.depth <= 2 && n.parent >= 0 && n.parent < j.nodes.length);
});

test('chain usage errors: unknown rank, no state at that time, missing options', () => {
  const noRank = runCli(['chain', fixture('ring_p2p_4.slog2'), '--rank', '9', '--at', '0.1']);
  assert.notEqual(noRank.status, 0);
  assert.match(noRank.stderr, /no rank 9 in this trace/);
  const noState = runCli(['chain', fixture('ring_p2p_4.slog2'), '--rank', '0', '--at', '100']);
  assert.notEqual(noState.status, 0);
  assert.match(noState.stderr, /rank 0 is in no state at 100 s/);
  const missing = runCli(['chain', fixture('ring_p2p_4.slog2')]);
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /needs --rank and --at/);
});
