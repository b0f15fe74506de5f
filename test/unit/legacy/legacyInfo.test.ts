// `mpe-trace info --json` and `dump --json` on every legacy file equal its facts (timelines, state
// counts per name and per process, arrows, time range, header and table values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../cli/runCli';
import { ALOGS, countBy, facts, legacy, parseJsonLines, SLOG1S, type Json } from './legacyUtil';

function cli(args: string[]): string {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

for (const name of ALOGS) {
  test(`${name}.alog: info --json and dump equal the facts`, () => {
    const f = facts(`${name}.alog.facts.json`);
    const info = JSON.parse(cli(['info', '--json', legacy(`${name}.alog`)]));
    assert.equal(info.format, 'alog');
    assert.equal(info.lineIDs, f.process_count);
    // Times are integer microseconds in the file, seconds in the model.
    assert.deepEqual(
      info.timeRange.map((t: number) => Math.round(t * 1e6)),
      f.time_range,
    );
    const states = Object.entries(f.categories as Record<string, Json>).filter(([, c]) => c.kind === 'state');
    const perName = Object.fromEntries(info.categories.filter((c: Json) => c.kind === 'state').map((c: Json) => [c.name, c.drawables]));
    assert.deepEqual(perName, Object.fromEntries(states.map(([n, c]) => [n, c.count])));
    assert.equal(info.drawables.arrow, f.categories.message.count);
    assert.equal(
      info.drawables.state,
      states.reduce((n, [, c]) => n + c.count, 0),
    );
    assert.equal(info.drawables.event, 0);
    assert.equal(info.unmatchedEvents, 0);
    const h = f.header;
    assert.deepEqual(info.alog.header, {
      creator: h.creator,
      eventCount: h.event_count,
      processCount: h.process_count,
      eventTypeCount: h.event_type_count,
      startTime: h.start_time,
      endTime: h.end_time,
    });
    assert.deepEqual(info.alog.eventTypeCounts, f.event_type_counts);
    assert.deepEqual(info.alog.processes, f.processes);
    assert.equal(info.alog.eventLines, f.event_lines);
    assert.deepEqual(info.alog.inconsistencies, []);
    // Per process, from the drawables themselves.
    const dump = parseJsonLines(cli(['dump', '--json', legacy(`${name}.alog`)]));
    for (const [n, c] of states) {
      assert.deepEqual(
        countBy(
          dump.filter((d) => d.name === n),
          (d) => String(d.vertices[0]![1]),
        ),
        c.count_per_process,
        n,
      );
    }
  });
}

for (const name of SLOG1S) {
  test(`${name}.slog: info --json and dump equal the facts`, () => {
    const f = facts(`${name}.slog.facts.json`);
    const info = JSON.parse(cli(['info', '--json', legacy(`${name}.slog`)]));
    assert.equal(info.format, 'slog1');
    assert.equal(info.version, `SLOG ${f.version}`);
    assert.equal(info.lineIDs, f.process_count);
    assert.deepEqual(info.timeRange, f.time_range_records);
    const cats = Object.entries(f.categories as Record<string, Json>);
    assert.deepEqual(
      info.categories.map((c: Json) => [c.name, c.kind, c.drawables]),
      cats.map(([n, c]) => [n, c.kind, c.count]),
    );
    assert.equal(info.drawables.total, f.real_interval_records);
    // The file's own tables.
    const s = info.slog1;
    const h = f.header;
    assert.deepEqual(
      [
        s.header.frameBytes,
        s.header.frameReservedBytes,
        s.header.maxFramesPerDir,
        +s.header.increasingStarttime,
        +s.header.increasingEndtime,
        +s.header.reserveSpaceUsed,
      ],
      [h.frame_bytesize, h.frame_reserved_size, h.max_frames_per_dir, h.increasing_starttime, h.increasing_endtime, h.reserve_space_used],
    );
    assert.deepEqual(s.header.fptr, {
      statistics: h.fptr_statistics,
      preview: h.fptr_preview,
      profile: h.fptr_profile,
      threadTable: h.fptr_threadtable,
      recordDefinitions: h.fptr_recdefs,
      frameData: h.fptr_framedata,
    });
    assert.deepEqual(
      s.threads,
      f.thread_table.map((t: Json) => ({ node: t.node, thread: t.thread, osProcess: t.os_process, osThread: t.os_thread, app: t.app })),
    );
    assert.deepEqual(s.profile, f.display_profile);
    assert.deepEqual(
      s.recordDefinitions,
      f.record_definitions.map((d: Json) => ({ intvltype: d.intvltype, bebit0: d.bebit0, bebit1: d.bebit1, nAssocs: d.n_assocs, nArgs: d.n_args })),
    );
    assert.deepEqual(
      s.frames,
      f.frames.map((fr: Json) => ({ offset: fr.fptr, start: fr.starttime, end: fr.endtime })),
    );
    const sum = (k: string) => f.frames.reduce((n: number, fr: Json) => n + fr[`nrec_${k}`], 0);
    assert.deepEqual(s.sectorRecords, { CUR: sum('CUR'), INC: sum('INC'), PAS: sum('PAS'), OUT: sum('OUT') });
    assert.equal(s.recordsHaveWhere, f.records_have_where_field);
    const ps = f.preview_statistics;
    assert.deepEqual(
      [s.previewStatistics.sets.length, s.previewStatistics.bins, s.previewStatistics.start, s.previewStatistics.end],
      [ps.n_sets, ps.n_bins, ps.starttime, ps.endtime],
    );
    s.previewStatistics.sets.forEach((set: Json, i: number) => {
      const e = ps.sets[i];
      assert.deepEqual([set.rectype, set.intvltype, set.label, set.bins.length], [e.rectype, e.intvltype, e.label, ps.n_bins]);
      const total = set.bins.reduce((a: number, b: number) => a + b, 0);
      assert.ok(Math.abs(total - e.bin_sum) <= 1e-9 * Math.max(1, Math.abs(e.bin_sum)), `${e.label}: bin sum ${total} vs ${e.bin_sum}`);
    });
    // Per process (arrows: by origin = sender), from the drawables.
    const dump = parseJsonLines(cli(['dump', '--json', legacy(`${name}.slog`)]));
    for (const [n, c] of cats) {
      assert.deepEqual(
        countBy(
          dump.filter((d) => d.name === n),
          (d) => String(d.vertices[0]![1]),
        ),
        c.count_per_process,
        n,
      );
    }
  });
}
