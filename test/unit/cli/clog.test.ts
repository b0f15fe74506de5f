// `mpe-trace info` / `dump` on CLOG2 and old CLOG inputs, run as the built CLI: the numbers are
// those of the drawables the conversion makes, so they must equal the facts of the reference .slog2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fixture, sharedTracesDir } from '../../helpers/paths';
import { runCli } from './runCli';

interface FactsCategory {
  index: number;
  name: string;
  kind: string;
  color_rgba: number[];
  info_fmt: string | null;
  drawables: number;
  preview?: boolean;
}

function expectedFromFacts(factsFile: string, format: string, version: string) {
  // The facts files write NaN ratios as bare NaN (not JSON).
  const facts = JSON.parse(fs.readFileSync(factsFile, 'utf8').replace(/\bNaN\b/g, 'null'));
  const s = facts.slog2;
  return {
    format,
    version,
    timeRange: s.drawable_time_range,
    lineIDs: s.timelines.lineids_used_by_drawables,
    drawables: { total: s.drawables.total, state: s.drawables.states, arrow: s.drawables.arrows, event: s.drawables.events, composite: 0 },
    categories: (s.categories as FactsCategory[])
      .filter((c) => !c.preview)
      .sort((a, b) => a.index - b.index)
      .map((c) => ({ index: c.index, name: c.name, kind: c.kind, rgba: c.color_rgba, infoFormat: c.info_fmt, drawables: c.drawables })),
    sourceLocations: facts.clog2?.srcloc
      ? {
          records: facts.clog2.srcloc.count,
          sites: new Set(facts.clog2.srcloc.sites.map((x: { lineno: number; filename: string }) => `${x.filename}:${x.lineno}`)).size,
        }
      : { records: 0, sites: 0 },
    // fpilog.slog2 was shipped, not converted here, so its facts have no converter log; CLOG.md §9
    // records the reference converter's unmatched count for fpilog.clog as 0.
    unmatchedEvents: s.converter.unmatched_events ?? 0,
    // Nothing dropped in these traces (the reference facts have no such section; issue 14 §12).
    dropped: { badTimes: 0, records: 0, finals: 0 },
  };
}

const cases: { file: string; facts: string; format: string; version: string }[] = [
  { file: fixture('user_states_4.clog2'), facts: fixture('user_states_4.facts.json'), format: 'clog2', version: 'CLOG-02.44' },
  { file: fixture('ring_p2p_4.clog2'), facts: fixture('ring_p2p_4.facts.json'), format: 'clog2', version: 'CLOG-02.44' },
  { file: fixture('bigrun_medium_4.clog2.gz'), facts: fixture('bigrun_medium_4.facts.json'), format: 'clog2', version: 'CLOG-02.44' },
];
if (sharedTracesDir && fs.existsSync(path.join(sharedTracesDir, 'upstream', 'fpilog.clog'))) {
  cases.push({
    file: path.join(sharedTracesDir, 'upstream', 'fpilog.clog'),
    facts: path.join(sharedTracesDir, 'upstream', 'fpilog.facts.json'),
    format: 'clog',
    version: 'CLOG',
  });
}

for (const c of cases) {
  test(`mpe-trace info --json ${path.basename(c.file)} equals the reference .slog2 facts`, () => {
    const r = runCli(['info', c.file, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout);
    const want = expectedFromFacts(c.facts, c.format, c.version);
    if (c.format === 'clog') {
      // Old CLOG has no SRCLOC statistics in the facts' clog2 section; its srcloc table is MPE-internal.
      delete got.sourceLocations;
      delete (want as Partial<typeof want>).sourceLocations;
    }
    assert.deepEqual(got, want);
  });
}

test('mpe-trace dump on a CLOG2 prints drawables in start order with their source locations', () => {
  const r = runCli(['dump', fixture('user_states_4.clog2'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 290);
  for (let i = 1; i < lines.length; i++) assert.ok(lines[i - 1].earliest <= lines[i].earliest, `line ${i} out of order`);
  // user_states.c: SRCLOC(1) at line 80 precedes MPE_Log_event(phaseA): every Phase state starts there.
  const phases = lines.filter((l) => l.name === 'Phase');
  assert.equal(phases.length, 24);
  for (const p of phases) assert.deepEqual(p.source.start, { file: 'user_states.c', line: 80 });
  // The Region state's end event follows SRCLOC(4) at line 113; its info names line 108.
  const regions = lines.filter((l) => l.name === 'Region');
  for (const g of regions) {
    assert.equal(g.info, 'file user_states.c line 108');
    assert.deepEqual(g.source.end, { file: 'user_states.c', line: 113 });
  }
});

test('mpe-trace info on a file that is not a trace fails with one line and exit code 2', () => {
  const r = runCli(['info', fixture('README.md')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr.trim(), /README\.md:0: .*unrecognised trace format/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});

test('source locations survive conversion: dump of the converted SLOG-2 equals dump of the CLOG2, locations included', () => {
  const os = require('node:os') as typeof import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cli-'));
  try {
    const out = path.join(dir, 'us4.slog2');
    const conv = runCli(['convert', fixture('user_states_4.clog2'), '-o', out, '--quiet']);
    assert.equal(conv.status, 0, conv.stderr);
    const fromClog = runCli(['dump', fixture('user_states_4.clog2'), '--json']);
    const fromSlog = runCli(['dump', out, '--json']);
    assert.equal(fromSlog.status, 0, fromSlog.stderr);
    const parse = (s: string) =>
      s
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const a = parse(fromClog.stdout);
    const b = parse(fromSlog.stdout);
    assert.equal(b.filter((d) => d.source !== undefined).length, 150, 'every located drawable of user_states_4');
    assert.deepEqual(b, a);
    const info = JSON.parse(runCli(['info', out, '--json']).stdout);
    assert.deepEqual(info.sourceLocations, { records: 150, sites: 6 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
