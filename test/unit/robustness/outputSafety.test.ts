// Issue 14 §10, §11: names from a trace file never reach the terminal raw (clear screen, window
// title, OSC 8 links, OSC 52 clipboard writes), and never become spreadsheet formulas in CSV/TSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hostileClog2Bytes } from '../../../src/core/synth/hostileClog2';
import { escapeControlsOnly, spreadsheetSafe } from '../../../src/core/text/safeText';
import { toCsv, toTsv } from '../../../src/core/stats/tables';
import { runCli } from '../cli/runCli';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-output-safety-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

const NAMES = ['\x1b[2J\x1b[H', '\x1b]0;owned\x07', '\x1b]52;c;aGk=\x07', '=HYPERLINK("x")', '+1+1', '-2+3', '@SUM(A1)', 'del\x7fx', 'ok'];

/** Any C0 (except newline / tab between fields), DEL or C1 character. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

test('escapeControlsOnly escapes C0, DEL and C1; spreadsheetSafe neutralises formulas', () => {
  assert.equal(escapeControlsOnly('a\x1b[31mb\x07\x7f\u009b2J\u0085'), 'a\\x1b[31mb\\x07\\x7f\\x9b2J\\x85');
  assert.equal(escapeControlsOnly('C:\\path\\ok é ✓'), 'C:\\path\\ok é ✓');
  for (const f of ['=1+1', '+1', '-1', '@A1', '\t=1', '\r=1']) assert.ok(spreadsheetSafe(f).startsWith("'"), f);
  assert.equal(spreadsheetSafe('MPI_Send'), 'MPI_Send');
  const table = {
    columns: ['category', 'count'],
    rows: [
      ['=cmd|"/c calc"!A1', -3],
      ['a\x1bb', 4],
    ],
  };
  const csv = toCsv(table);
  assert.match(csv, /^"'=cmd\|""\/c calc""!A1",-3\r$/m, 'formula neutralised, negative number kept');
  assert.ok(!RAW_CONTROL.test(csv.replace(/\r\n/g, '')), csv);
  assert.match(toTsv(table), /^'=cmd/m);
});

test('info, dump, stats (text and CSV) and warnings print no raw control characters from names', async () => {
  const file = path.join(dir, 'names.clog2');
  fs.writeFileSync(file, await hostileClog2Bytes({ events: NAMES.length * 3, times: 'descending', categories: NAMES.length, name: (i) => NAMES[i]! }));
  for (const args of [
    ['info', file],
    ['dump', file],
    ['stats', '--by', 'category', fixtureSlog2(file)],
    ['stats', '--csv', fixtureSlog2(file)],
  ]) {
    const r = runCli(args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(!RAW_CONTROL.test(r.stdout.replace(/\r\n/g, '\n')), `${args[0]}: raw control character in ${JSON.stringify(r.stdout.slice(0, 400))}`);
    assert.ok(!RAW_CONTROL.test(r.stderr), `${args[0]} stderr: ${JSON.stringify(r.stderr)}`);
  }
  const info = runCli(['info', file]).stdout;
  assert.match(info, /2J\\x1b\[H/, 'the name is shown, escaped');
  const csv = runCli(['stats', '--csv', fixtureSlog2(file)]).stdout;
  for (const f of ['=HYPERLINK', '+1+1', '-2+3', '@SUM']) assert.ok(csv.includes(`'${f}`), `${f} neutralised in ${csv}`);
});

let converted: string | undefined;
/** The same trace as SLOG-2 (stats of CLOG2 inputs is another issue's area; SLOG-2 is the main path). */
function fixtureSlog2(clog2: string): string {
  if (converted === undefined) {
    converted = clog2.replace(/\.clog2$/, '.slog2');
    const r = runCli(['convert', clog2, '-o', converted, '--force']);
    assert.equal(r.status, 0, r.stderr);
  }
  return converted;
}
