// Which conversions get the converter thread: only inputs big enough for it to pay (its start
// costs more than the overlap saves on small ones; convertJob.ts TWO_THREADS_MIN_BYTES).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TWO_THREADS_MIN_BYTES, worthTwoThreads } from '../../../src/convert/convertJob';
import { fixture } from '../../helpers/paths';

test('two threads for inputs of TWO_THREADS_MIN_BYTES or more (a gzip’d one counts 4×), one below', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-threads-'));
  try {
    const sized = (name: string, bytes: number): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, '');
      fs.truncateSync(file, bytes); // sparse: no disk used
      return file;
    };
    assert.equal(worthTwoThreads(fixture('pi_bcast_4.clog2')), false);
    assert.equal(worthTwoThreads(sized('small.clog2', TWO_THREADS_MIN_BYTES - 1)), false);
    assert.equal(worthTwoThreads(sized('big.clog2', TWO_THREADS_MIN_BYTES)), true);
    assert.equal(worthTwoThreads(sized('packed.clog2.gz', TWO_THREADS_MIN_BYTES / 4)), true);
    assert.equal(worthTwoThreads(sized('packed-small.clog2.gz', TWO_THREADS_MIN_BYTES / 4 - 1)), false);
    // A missing input: the conversion itself says what is wrong.
    assert.equal(worthTwoThreads(path.join(dir, 'missing.clog2')), true);
    assert.equal(worthTwoThreads(path.join(dir, 'missing.clog2'), false), false, 'unless the caller asks otherwise');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
