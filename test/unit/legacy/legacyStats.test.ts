// `mpe-trace stats` on ALOG / SLOG-1 (two passes over a converted input: info, then drawables) and
// `stats --preview`: SLOG-1's stored preview statistics as a table over time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { runCli } from '../cli/runCli';
import { fixture } from '../../helpers/paths';
import { facts, legacy, type Json } from './legacyUtil';

function cli(args: string[]): string {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

for (const [file, factsFile] of [
  ['cpilog.alog', 'cpilog.alog.facts.json'],
  ['pmandel.slog', 'pmandel.slog.facts.json'],
] as const) {
  test(`stats --json of ${file}: counts per category and messages equal the facts`, () => {
    const f = facts(factsFile);
    const stats = JSON.parse(cli(['stats', '--json', legacy(file)]));
    const counts = Object.fromEntries((stats.categories as Json[]).filter((c) => c.count > 0).map((c) => [c.name, c.count]));
    const expected = Object.fromEntries(Object.entries(f.categories as Record<string, Json>).map(([n, c]) => [n, c.count]));
    assert.deepEqual(counts, expected);
  });
}

test('stats of a CLOG2 file reads it twice (info, then drawables) without failing', () => {
  assert.match(cli(['stats', fixture('pi_bcast_4.clog2')]), /^range .* drawables/);
});

test('stats --preview: one row per bin, one column per type, the stored bins', () => {
  const f = facts('cpilog.slog.facts.json');
  const info = JSON.parse(cli(['info', '--json', legacy('cpilog.slog')]));
  const csv = cli(['stats', '--preview', '--csv', legacy('cpilog.slog')])
    .trim()
    .split('\r\n');
  const labels = f.preview_statistics.sets.map((s: Json) => s.label);
  assert.deepEqual(csv[0]!.split(','), ['start', 'end', ...labels]);
  assert.equal(csv.length, 1 + f.preview_statistics.n_bins);
  const rows = csv.slice(1).map((l) => l.split(',').map(Number));
  assert.equal(rows[0]![0], f.preview_statistics.starttime);
  assert.equal(rows[rows.length - 1]![1], f.preview_statistics.endtime);
  info.slog1.previewStatistics.sets.forEach((s: Json, k: number) =>
    assert.deepEqual(
      rows.map((r) => r[2 + k]),
      s.bins,
      s.label,
    ),
  );
  const r = runCli(['stats', '--preview', legacy('cpilog.alog')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--preview needs a SLOG-1 file/);
});

test("gzip'd ALOG and SLOG-1 read like the plain files (info, dump --records, convert)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-legacy-gz-'));
  try {
    for (const name of ['fpilog.slog', 'srtest.alog']) {
      const gz = path.join(dir, `${name}.gz`);
      fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(legacy(name))));
      const plain = JSON.parse(cli(['info', '--json', legacy(name)]));
      assert.deepEqual(JSON.parse(cli(['info', '--json', gz])), plain);
      cli(['convert', gz, '-o', path.join(dir, `${name}.slog2`)]);
      assert.equal(JSON.parse(cli(['info', '--json', path.join(dir, `${name}.slog2`)])).drawables.total, plain.drawables.total);
    }
    assert.equal(cli(['dump', '--records', path.join(dir, 'fpilog.slog.gz')]), cli(['dump', '--records', legacy('fpilog.slog')]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
