// `mpe-trace stats` on CLOG2 / old CLOG inputs equals `mpe-trace stats` on the SLOG-2 file that
// `mpe-trace convert` writes from them, in every output form: text, --json, --csv, --by
// category|row|pair, --quick, --approximate, with and without --from/--to. Every CLOG2 fixture
// (the .gz too); the old CLOG traces of ../shared when present.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, repoRoot, sharedTracesDir } from '../../helpers/paths';
import { runCli } from './runCli';

const CLOG2 = fs
  .readdirSync(path.join(repoRoot, 'test', 'fixtures'))
  .filter((f) => /\.clog2(\.gz)?$/.test(f))
  .sort();
const LEGACY = sharedTracesDir === undefined ? undefined : path.join(sharedTracesDir, 'legacy');
const OLD_CLOG =
  LEGACY !== undefined && fs.existsSync(LEGACY)
    ? fs
        .readdirSync(LEGACY)
        .filter((f) => f.endsWith('.clog'))
        .map((f) => path.join(LEGACY, f))
    : [];

function converted(input: string, dir: string): string {
  const out = path.join(
    dir,
    path
      .basename(input)
      .replace(/\.gz$/, '')
      .replace(/\.clog2?$/, '') + '.slog2',
  );
  const r = runCli(['convert', input, '-o', out, '--quiet']);
  assert.equal(r.status, 0, r.stderr);
  return out;
}

function stats(file: string, args: string[]): string {
  const r = runCli(['stats', file, ...args]);
  assert.equal(r.status, 0, `stats ${path.basename(file)} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function check(input: string, forms: string[][]): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stats-clog-'));
  try {
    const slog2 = converted(input, dir);
    const doc = JSON.parse(stats(slog2, ['--json'])) as { range: [number, number]; categories: { name: string; kind: string }[]; messages: unknown[] };
    // Real names (UnknownType-N only where the trace leaves a state undescribed).
    if (!path.basename(input).startsWith('undescribed_'))
      assert.ok(
        doc.categories.every((c) => !c.name.startsWith('UnknownType-')),
        path.basename(input),
      );
    const [t0, t1] = doc.range;
    const sub = ['--from', String(t0 + (t1 - t0) * 0.25), '--to', String(t0 + (t1 - t0) * 0.6)];
    for (const form of forms) {
      for (const args of [form, [...form, ...sub]]) {
        if (args.includes('--quick') && args.includes('--from')) continue;
        assert.equal(stats(input, args), stats(slog2, args), `${path.basename(input)} ${args.join(' ')}`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ALL_FORMS = [
  [],
  ['--json'],
  ['--csv'],
  ['--by', 'row'],
  ['--by', 'pair'],
  ['--csv', '--by', 'row'],
  ['--csv', '--by', 'pair'],
  ['--quick'],
  ['--quick', '--json'],
  ['--approximate', '--json'],
  ['--approximate', '--csv', '--by', 'row'],
];
const SOME_FORMS = [['--json'], ['--quick', '--json'], ['--approximate', '--json']];

test('stats of ring_p2p_4.clog2 = stats of its conversion, every output form; 60 messages', () => {
  const input = fixture('ring_p2p_4.clog2');
  check(input, ALL_FORMS);
  const doc = JSON.parse(stats(input, ['--from', '0', '--to', '1', '--json']));
  assert.equal(
    doc.messages.reduce((n: number, m: { count: number }) => n + m.count, 0),
    60,
  );
  assert.equal(doc.categories.find((c: { name: string }) => c.name === 'message').kind, 'arrow');
  assert.equal(doc.categories.filter((c: { kind: string }) => c.kind === 'event').length > 0, true);
});

for (const name of CLOG2.filter((f) => f !== 'ring_p2p_4.clog2')) {
  test(`stats of ${name} = stats of its conversion (json, quick, approximate; whole and sub-range)`, () => {
    // bigrun_medium_4 (12 000 messages) is converted once per form: the JSON and the tree-dependent approximate one.
    check(fixture(name), name.startsWith('user_states') ? ALL_FORMS : name.startsWith('bigrun') ? [['--json'], ['--approximate', '--json']] : SOME_FORMS);
  });
}

test('stats of old CLOG traces = stats of their conversion', { skip: OLD_CLOG.length === 0 ? 'no ../shared/traces/legacy/*.clog' : false }, () => {
  for (const input of OLD_CLOG) check(input, SOME_FORMS);
});
