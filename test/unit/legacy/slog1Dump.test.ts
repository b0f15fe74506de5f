// SLOG-1 against Jumpshot-3's own reader (`*.slog_print_java.txt`): `dump --records` prints the
// same text byte for byte (tables, statistics, every frame and record), and the drawables of
// `dump --json` are exactly the real records (CUR + INC sectors), with end = start + duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../cli/runCli';
import { facts, javaDump, legacy, parseJsonLines, SLOG1S, type Json } from './legacyUtil';

interface JavaRecord {
  sector: string;
  intvltype: number;
  start: number;
  duration: number;
  origin: number;
  dest: number | undefined;
}

/** Every record line of the Java dump, with the sector it is listed under. */
function javaRecords(dump: string): JavaRecord[] {
  const out: JavaRecord[] = [];
  let sector = '';
  for (const line of dump.split('\n')) {
    const s = /^---- (Incoming|Passing Through|Current|Outgoing) Records : $/.exec(line);
    if (s) sector = { Incoming: 'INC', 'Passing Through': 'PAS', Current: 'CUR', Outgoing: 'OUT' }[s[1]!]!;
    const m = /^\[ \d+ (\d+) (\d+) \( 1, 1 \) (\S+) (\S+) \( (\d+) 0 0 \)(?: \( (\d+) 0 0 \))? \]/.exec(line);
    if (m)
      out.push({
        sector,
        intvltype: Number(m[2]),
        start: Number(m[3]),
        duration: Number(m[4]),
        origin: Number(m[5]),
        dest: m[6] === undefined ? undefined : Number(m[6]),
      });
  }
  return out;
}

for (const name of SLOG1S) {
  test(`${name}.slog: dump --records equals the Java SLOG-1 printer's output`, () => {
    const r = runCli(['dump', '--records', legacy(`${name}.slog`)]);
    assert.equal(r.status, 0, r.stderr);
    const expected = javaDump(name);
    if (r.stdout !== expected) {
      const a = r.stdout.split('\n');
      const b = expected.split('\n');
      const i = a.findIndex((l, k) => l !== b[k]);
      assert.fail(`first difference at line ${i + 1}:\n ours: ${JSON.stringify(a[i])}\n java: ${JSON.stringify(b[i])}`);
    }
  });

  test(`${name}.slog: dump --json drawables are the Java dump's real records`, () => {
    const r = runCli(['dump', '--json', legacy(`${name}.slog`)]);
    assert.equal(r.status, 0, r.stderr);
    const labels = new Map((facts(`${name}.slog.facts.json`).display_profile as Json[]).map((e) => [e.intvltype, e.label]));
    const key = (n: string, v: [number, number][]) => `${n} ${v.map(([t, l]) => `${t}@${l}`).join(' ')}`;
    const ours = parseJsonLines(r.stdout)
      .map((d) => key(d.name, d.vertices))
      .sort();
    const java = javaRecords(javaDump(name));
    const real = java.filter((j) => j.sector === 'CUR' || j.sector === 'INC');
    assert.ok(java.length >= real.length && real.length > 0);
    const theirs = real
      .map((j) =>
        key(labels.get(j.intvltype)!, [
          [j.start, j.origin],
          [j.start + j.duration, j.dest ?? j.origin],
        ]),
      )
      .sort();
    assert.equal(ours.length, theirs.length);
    assert.deepEqual(ours, theirs);
  });
}
