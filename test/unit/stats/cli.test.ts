// `mpe-trace stats` through the built CLI: JSON equals the library's numbers; CSV/text shapes;
// usage errors are one line with exit code 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { computeRangeStats, nodeBatches, statsJson } from '../../../src/core/stats';
import { FileSource } from '../../../src/io/fileSource';
import { fixture, repoRoot } from '../../helpers/paths';
import { bundleNode } from '../../helpers/bundle';

function buildCli(): string {
  const out = path.join(repoRoot, 'out', 'test-cli-stats', 'cli.js');
  bundleNode('src/cli/main.ts', out);
  return out;
}

let cli: string | undefined;
function runCli(args: string[]) {
  cli ??= buildCli();
  return spawnSync(process.execPath, [cli, 'stats', ...args], { encoding: 'utf8' });
}

const RING = fixture('ring_p2p_4.slog2');

test('stats --json for a range equals the library result', async () => {
  const r = runCli([RING, '--from', '0.01', '--to', '0.05', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  const file = await Slog2File.open(await FileSource.open(RING));
  try {
    const s = await computeRangeStats(file, nodeBatches(file.query(0.01, 0.05)), [0.01, 0.05]);
    assert.deepEqual(doc, JSON.parse(JSON.stringify(statsJson(s))));
  } finally {
    await file.close();
  }
  assert.deepEqual(doc.range, [0.01, 0.05]);
  assert.deepEqual(Object.keys(doc.categories[0]).sort(), ['bytes', 'count', 'exclusive', 'inclusive', 'kind', 'max', 'mean', 'min', 'name', 'share']);
  assert.deepEqual(Object.keys(doc.rows[0]).sort(), ['categories', 'label', 'lineID']);
  assert.deepEqual(Object.keys(doc.messages[0]).sort(), ['bytes', 'count', 'from', 'to']);
});

test('stats --csv --by pair / row, and the text table', () => {
  const pairs = runCli([RING, '--by', 'pair', '--csv']);
  assert.equal(pairs.status, 0, pairs.stderr);
  const lines = pairs.stdout.trimEnd().split('\r\n');
  assert.equal(lines[0], 'from,to,count,bytes');
  assert.equal(
    lines.slice(1).reduce((n, l) => n + Number(l.split(',')[2]), 0),
    60,
  );
  const rows = runCli([RING, '--by', 'row', '--csv']);
  assert.match(rows.stdout, /^lineID,label,category,count,inclusive,exclusive\r\n0,0,message,14,/);
  const text = runCli([RING]);
  assert.match(text.stdout, /^range .* 266 drawables, 60 messages\n/);
  assert.match(text.stdout, /\nMPI_Waitall\s+state\s+16\s/);
  const quick = runCli([RING, '--quick', '--json']);
  assert.equal(JSON.parse(quick.stdout).kind, 'summary');
  const approx = runCli([fixture('bigrun_medium_4.slog2.gz'), '--approximate', '--json']);
  assert.equal(approx.status, 0, approx.stderr);
  const doc = JSON.parse(approx.stdout);
  assert.equal(doc.kind, 'approximate');
  assert.equal(doc.categories.find((c: { name: string }) => c.name === 'message').count, 12000);
});

test('stats usage errors: one line, exit code 2', () => {
  for (const args of [
    [RING, '--by', 'rank'],
    [RING, '--from', '1', '--to', '0'],
    [RING, '--json', '--csv'],
    [],
    [RING, '--quick', '--from', '0'],
    [RING, '--quick', '--approximate'],
  ]) {
    const r = runCli(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^mpe-trace: /);
    // The missing-FILE error adds the usage text; every other one is a single line.
    if (args.length > 0) assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  }
  const missing = runCli([path.join(repoRoot, 'out', 'no-such.slog2')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no such file/);
  assert.ok(fs.existsSync(cli!));
});
