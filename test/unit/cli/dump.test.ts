// `mpe-trace dump` as a process: JSON lines equal to the library's drawables for a window, the text
// form one line per drawable, and usage errors with exit code 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { dumpRecord, formatDumpLine } from '../../../src/core/info/dumpLines';
import { samples, sampleSource } from '../slog2/samples';
import { spawn } from 'node:child_process';
import { cliPath, runCli } from './runCli';

test('dump --json --from --to: one JSON line per drawable intersecting the window, in start-time order', async () => {
  for (const name of ['ring_p2p_4', 'bigrun_medium_4']) {
    const s = samples.find((x) => x.name === name)!;
    const file = await Slog2File.open(sampleSource(s));
    const [a, b] = file.timeRange;
    const t0 = a + (b - a) * 0.3;
    const t1 = a + (b - a) * 0.32;
    const want = [];
    for await (const d of file.drawablesInTimeOrder(t0, t1)) want.push(JSON.parse(JSON.stringify(dumpRecord(d, file.categories))));
    assert.ok(want.length > 3);
    const r = runCli(['dump', s.file, '--from', String(t0), '--to', String(t1), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const got = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(got, want);
    for (const g of got) assert.ok(g.earliest <= t1 && t0 <= g.latest);
    await file.close();
  }
});

test('dump text: one line per drawable with category, kind, vertices and popup text', async () => {
  const s = samples.find((x) => x.name === 'ring_p2p_4')!;
  const r = runCli(['dump', s.file]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 266);
  assert.ok(lines.some((l) => /^message\[0\] arrow \([-0-9.E]+, \d+\) \([-0-9.E]+, \d+\) : msg_tag=\d+, msg_size=\d+$/.test(l)));
  assert.ok(lines.every((l) => /^\S+\[\d+\] (state|arrow|event|composite) /.test(l)));
  const file = await Slog2File.open(sampleSource(s));
  const first = (await file.drawablesInTimeOrder().next()).value!;
  assert.equal(lines[0], formatDumpLine(dumpRecord(first, file.categories)));
  await file.close();
});

test('dump of composites lists their members', () => {
  const s = samples.find((x) => x.name === 'data');
  if (!s) return;
  const r = runCli(['dump', s.file]);
  assert.equal(r.status, 0, r.stderr);
  const composites = r.stdout.split('\n').filter((l) => l.includes(' composite '));
  assert.equal(composites.length, 3);
  assert.match(
    composites[0]!,
    /^User_Compute\[183\] composite \[0\.001, 0\.004\] : AA=-10 BB=10 \{ message\[0\] arrow \(0\.001, 0\) \(0\.004, 1\) : msg_tag=10, msg_size=1024 ; SEND\[81\] state/,
  );
});

test('usage errors exit 2 with one line', () => {
  const s = samples.find((x) => x.name === 'pi_bcast_4')!;
  for (const args of [['dump'], ['dump', s.file, '--from', 'x'], ['dump', s.file, '--from', '2', '--to', '1'], ['info', s.file, '--bogus']]) {
    const r = runCli(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length >= 1, true);
    assert.match(r.stderr, /^mpe-trace: /);
  }
});

test('a dump whose reader goes away (| head) stops quietly with status 0', async () => {
  const s = samples.find((x) => x.name === 'bigrun_medium_4')!;
  const child = spawn(process.execPath, [cliPath(), 'dump', s.file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // The first chunk read, the pipe is closed, as `head` does.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
