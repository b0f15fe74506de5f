// A stand-in conversion worker for tests of the host side: it starts the atomic output like the
// real one (so a temporary file exists), then dies without cleaning up — by an uncaught error
// (input "crash", or a file whose name ends in ".crash.clog2") or by allocating past its heap cap
// (input "oom"). It never takes a converter thread the host started beside it.
import { parentPort } from 'node:worker_threads';
import { AtomicFile } from '../../../src/io/atomicWrite';

parentPort?.on('message', async (m: { kind: string; input: string; output: string }) => {
  if (m.kind !== 'convert') return;
  await AtomicFile.create(m.output, { force: false });
  if (m.input === 'crash' || m.input.endsWith('.crash.clog2')) throw new Error('simulated crash in the middle of a conversion');
  const hog: number[][] = [];
  for (;;) hog.push(new Array(1 << 16).fill(Math.random()));
});
