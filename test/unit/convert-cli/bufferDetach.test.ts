// src/convert/bufferDetach.ts: a buffer detached when a thread starts keeps V8 from throwing away
// the typed-array code it optimised before the thread's first transfer (checked in a child Node
// with --trace-deopt; skipped where V8 does not do that at all, the control run showing no loss).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleNode } from '../../helpers/bundle';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-buffer-detach-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const probe = bundleNode('test/unit/convert-cli/bufferDetachProbe.ts', path.join(dir, 'probe.js'));

/** How many times V8 threw away the probe's optimised typed-array function. */
function thrownAway(mode: 'first' | 'none'): number {
  const r = spawnSync(process.execPath, ['--trace-deopt', probe, mode], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter((line) => line.includes('marking dependent code') && line.includes('typedArraySum')).length;
}

const control = thrownAway('none');
test(
  'optimised typed-array code survives the first transfer when a buffer was detached first',
  { skip: control === 0 && 'this V8 keeps optimised code on the first detach anyway' },
  () => {
    assert.ok(control > 0);
    assert.equal(thrownAway('first'), 0);
  },
);
