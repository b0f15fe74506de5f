/**
 * The CI slice of the fuzzer (docs/ROBUSTNESS.md): 20 000 seeded cases over every target, in the
 * fuzzer's own worker thread with its watchdog and memory caps, stopped early by a time budget on a
 * slow or shared machine (the cases are the same ids either way, so any failure reproduces with
 * `npm run fuzz -- --case ID`). FUZZ_CASES / FUZZ_SEED / FUZZ_BUDGET_S override the defaults. The number of
 * cases run is a figure, not a bound.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../helpers/paths';

const cases = Number(process.env.FUZZ_CASES ?? 20000);
const seed = Number(process.env.FUZZ_SEED ?? 20261121);
const budgetS = Number(process.env.FUZZ_BUDGET_S ?? 150);

interface Summary {
  readonly cases: number;
  readonly stoppedByBudget: boolean;
  readonly seconds: number;
  readonly failures: readonly { id: string; outcome: string; message?: string }[];
  readonly targets: Readonly<Record<string, { cases: number; ok: number; rejected: number }>>;
}

test(
  `fuzz slice: up to ${cases} cases (seed ${seed}, budget ${budgetS} s), no crash, hang, slow case or memory blow-up`,
  { timeout: (budgetS + 120) * 1000 },
  () => {
    // --wall-slack 30: the watchdog (a hang) fires after 60 s of wall time per case, not 10 s: on a loaded
    // shared machine wall time says little. The fuzzer's own limit, 2 s of CPU per case, stays.
    const args = [
      path.join(repoRoot, 'test', 'fuzz', 'run.mjs'),
      '--cases',
      String(cases),
      '--seed',
      String(seed),
      '--time-budget-s',
      String(budgetS),
      '--wall-slack',
      '30',
      '--no-save',
      '--quiet',
      '--json',
    ];
    const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 });
    const out = `${r.stdout}\n${r.stderr}`;
    const line = r.stdout.split('\n').find((l) => l.startsWith('FUZZ-SUMMARY '));
    assert.ok(line !== undefined, `no summary from the fuzzer (exit ${r.status}):\n${out.slice(-4000)}`);
    const summary = JSON.parse(line.slice('FUZZ-SUMMARY '.length)) as Summary;
    console.log(`fuzz slice: ${summary.cases} cases in ${summary.seconds.toFixed(1)} s${summary.stoppedByBudget ? ' (time budget reached)' : ''}`);
    assert.deepEqual(summary.failures, [], out.slice(-4000));
    assert.equal(r.status, 0, out.slice(-4000));
    // How many cases fit in the budget depends on the machine's load (a figure, printed above). Every target ran, and both outcomes occur: readable inputs and proper refusals.
    for (const t of ['slog2', 'clog2', 'convert', 'writer', 'shapes']) {
      const s = summary.targets[t];
      assert.ok(s !== undefined && s.cases > 0, `target ${t} did not run`);
      assert.ok(s.ok > 0, `target ${t}: no input was read`);
    }
    assert.ok(summary.targets.slog2!.rejected > 0 && summary.targets.clog2!.rejected > 0);
  },
);
