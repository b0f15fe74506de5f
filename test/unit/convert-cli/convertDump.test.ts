// Converted CLOG2 traces list the drawables of the reference printer's dump (slog2printrecur):
// same categories, vertices as the reference prints them, and popup text — with the reference's
// quirks; in the default mode only the msg_size of receive-before-send arrows may differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dumpRecord, type DumpRecord } from '../../../src/core/info/dumpLines';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { javaFloat } from '../../../src/core/model/javaNumber';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { convertFile } from '../../../src/convert/convertJob';
import { fixture, fixturesDir } from '../../helpers/paths';
import { isTruncated, readDumpLines, realDrawables, type RefDrawable } from '../slog2/referenceDump';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-convert-dump-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

function keyOfRecord(r: DumpRecord): string {
  return `P ${r.category} ${r.vertices.map(([t, l]) => `(${javaFloat(t)}, ${l})`).join(' ')} | ${r.info}`;
}
const keyOfRef = (d: RefDrawable) => `P ${d.category} ${d.vertices} | ${d.info}`;

/** Keys in a but missing (by multiplicity) from b. */
function missing(a: readonly string[], b: readonly string[]): string[] {
  const mb = new Map<string, number>();
  for (const k of b) mb.set(k, (mb.get(k) ?? 0) + 1);
  return a.filter((k) => {
    const n = mb.get(k) ?? 0;
    if (n > 0) mb.set(k, n - 1);
    return n === 0;
  });
}

const names = fs
  .readdirSync(fixturesDir)
  .map((f) => /^(.*)\.slog2recur\.txt(\.gz)?$/.exec(f)?.[1])
  .filter((n): n is string => n !== undefined);

for (const name of names) {
  const input = [`${name}.clog2`, `${name}.clog2.gz`].map(fixture).find((p) => fs.existsSync(p));
  if (!input) continue;
  test(`converted ${name} lists the reference dump's drawables and popups`, async () => {
    const dumpFile = [`${name}.slog2recur.txt`, `${name}.slog2recur.txt.gz`].map(fixture).find((p) => fs.existsSync(p))!;
    const lines = readDumpLines(dumpFile);
    const reference = realDrawables(lines).map(keyOfRef);
    for (const quirks of [true, false]) {
      const out = path.join(tmp, `${name}.${quirks}.slog2`);
      await convertFile(input, out, { referenceQuirks: quirks });
      const file = await Slog2File.open(new MemorySource(out, new Uint8Array(fs.readFileSync(out))));
      const mine: string[] = [];
      for await (const d of file.allDrawables()) mine.push(keyOfRecord(dumpRecord(d, file.categories)));
      await file.close();
      const notOurs = missing(reference, mine);
      const notTheirs = isTruncated(lines) ? [] : missing(mine, reference);
      if (quirks) {
        assert.deepEqual(notOurs, [], 'reference drawables we did not write');
        assert.deepEqual(notTheirs, [], 'drawables the reference does not have');
      } else {
        // Default mode repairs msg_size of arrows received before they were sent.
        for (const k of [...notOurs, ...notTheirs]) assert.match(k, /^P 0 .*\| msg_tag=-?\d+, msg_size=\d+$/, k);
        assert.equal(notOurs.length, isTruncated(lines) ? notOurs.length : notTheirs.length);
      }
    }
  });
}
