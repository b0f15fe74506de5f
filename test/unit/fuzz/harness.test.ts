/**
 * The fuzz harness catches what it promises to catch: a case that hangs (watchdog), throws a
 * non-FormatError, runs over its CPU time, exhausts the worker heap (resourceLimits) or grows the
 * process RSS past the cap is reported as a failure with a reproducible case id, and the run goes on
 * with a fresh worker. `--self-test KIND` makes case 1 misbehave on purpose.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../helpers/paths';

const expected: Readonly<Record<string, RegExp>> = {
  hang: /HANG after \d+ ms wall: did not finish within 2500 ms of wall time/,
  crash: /CRASH after .*TypeError: self-test crash/,
  slow: /SLOW after .*took \d+ ms of CPU time/,
  oom: /OOM after .*memory limit/,
  memory: /MEMORY after .*process RSS \d+ MB exceeded the 700 MB cap/,
  fatal: /PROCESS DIED \(SIGABRT\): a fatal error the worker limits did not catch/,
};

for (const [kind, pattern] of Object.entries(expected)) {
  test(`self-test ${kind}: reported as a failure of case 1 with its id (then, unless the process died, the run goes on)`, { timeout: 120_000 }, () => {
    const args = [
      path.join(repoRoot, 'test', 'fuzz', 'run.mjs'),
      '--cases',
      '3',
      '--seed',
      '7',
      '--target',
      'clog2',
      '--self-test',
      kind,
      '--time-limit-ms',
      '500',
      '--rss-mb',
      '700',
      '--heap-mb',
      '64',
      '--no-save',
      '--json',
    ];
    // Only the hang should meet the watchdog: the others need seconds of wall time on a busy machine
    // (750 ms of CPU; filling 700 MB; filling the heap).
    if (kind !== 'hang') args.push('--wall-slack', '60');
    const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.status, 1, out);
    assert.match(out, new RegExp(`FAIL case clog2:7:1 \\(reproduce: npm run fuzz -- --case clog2:7:1\\) ${pattern.source}`), out);
    // A fatal error takes the runner down: no summary, only the report of the case in flight.
    if (kind === 'fatal') return;
    const line = r.stdout.split('\n').find((l) => l.startsWith('FUZZ-SUMMARY '))!;
    const summary = JSON.parse(line.slice('FUZZ-SUMMARY '.length)) as { cases: number; failures: { id: string }[] };
    assert.equal(summary.cases, 3);
    assert.deepEqual(
      summary.failures.map((f) => f.id),
      ['clog2:7:1'],
    );
  });
}
