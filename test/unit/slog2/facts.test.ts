// `info` against the reference facts of every SLOG-2 sample: the library for all, the built CLI for some.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { slog2TraceInfo } from '../../../src/core/info/slog2Info';
import type { TraceInfo } from '../../../src/core/info/traceInfo';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { repoRoot } from '../../helpers/paths';
import { samples, sampleSource, slog2Facts, type Sample } from './samples';
import { runCli } from '../cli/runCli';

function expectedInfo(s: Sample): TraceInfo {
  const f = slog2Facts(s);
  return {
    format: 'slog2',
    version: f.header.version,
    timeRange: f.time_range,
    lineIDs: f.timelines.lineids_used_by_drawables,
    drawables: { total: f.drawables.total, state: f.drawables.states, arrow: f.drawables.arrows, event: f.drawables.events, composite: f.drawables.composites },
    categories: f.categories
      .filter((c) => !c.preview)
      .sort((a, b) => a.index - b.index)
      .map((c) => ({
        index: c.index,
        name: c.name,
        kind: c.kind as 'state',
        rgba: c.color_rgba as unknown as [number, number, number, number],
        infoFormat: c.info_fmt,
        drawables: c.drawables,
      })),
    sourceLocations: { records: 0, sites: 0 },
  };
}

test('there are SLOG-2 samples with facts (fixtures at least)', () => {
  assert.ok(samples.length >= 7, `found ${samples.map((s) => s.name).join(', ')}`);
  assert.ok(samples.some((s) => s.name === 'bigrun_medium_4'));
});

for (const s of samples) {
  test(`info of ${s.name} equals its facts`, async () => {
    const file = await Slog2File.open(sampleSource(s));
    try {
      const info = await slog2TraceInfo(file);
      assert.deepEqual(JSON.parse(JSON.stringify(info)), JSON.parse(JSON.stringify(expectedInfo(s))));
      assert.equal(String(file.header.maxTreeDepth), slog2Facts(s).header.MaxTreeDepth);
      assert.deepEqual(file.warnings, []);
      // The reference's own per-category count (2.0.6 summary) is what we read from the CategoryMap.
      for (const c of slog2Facts(s).categories) assert.equal(file.categories.get(c.index)?.summary?.count, c.count_field, c.name);
    } finally {
      await file.close();
    }
  });
}

for (const name of ['user_states_4', 'bigrun_medium_4', 'data', 'fpilog']) {
  const s = samples.find((x) => x.name === name);
  if (!s) continue;
  test(`mpe-trace info --json ${path.basename(s.file)} prints exactly the facts`, () => {
    const r = runCli(['info', s.file, '--json']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 1, 'exactly one JSON line');
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(expectedInfo(s))));
  });
}

test('mpe-trace info without --json prints a table naming every category', () => {
  const s = samples.find((x) => x.name === 'user_states_4')!;
  const r = runCli(['info', s.file]);
  assert.equal(r.status, 0, r.stderr);
  for (const c of expectedInfo(s).categories) assert.match(r.stdout, new RegExp(`\\b${c.name}\\b`));
  assert.match(r.stdout, /drawables\s+290 \(states 228, arrows 0, events 62, composites 0\)/);
});

test('mpe-trace errors: exit 2 and one line file:offset: what', () => {
  const dir = fs.mkdtempSync(path.join(repoRoot, 'out', 'cli-err-'));
  try {
    const s = samples.find((x) => x.name === 'pi_bcast_4')!;
    const bytes = fs.readFileSync(s.file);
    const cut = path.join(dir, 'cut.slog2');
    fs.writeFileSync(cut, bytes.subarray(0, bytes.length - 100));
    const r = runCli(['info', cut, '--json']);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, new RegExp(`^${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: .*(past the end|truncated)`));
    const placeholder = path.join(dir, 'placeholder.slog2');
    const head = Buffer.alloc(200);
    head.writeInt16BE(10, 0);
    head.write('SLOG 2.0.6', 2, 'latin1');
    head.writeInt16BE(2, 12);
    head.writeInt32BE(65536, 14);
    fs.writeFileSync(placeholder, head);
    const p = runCli(['dump', placeholder]);
    assert.equal(p.status, 2);
    assert.match(p.stderr, /placeholder\.slog2:24: incomplete SLOG-2 file \(conversion did not finish\)/);
    const missing = runCli(['info', path.join(dir, 'nope.slog2')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nope\.slog2: no such file/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
