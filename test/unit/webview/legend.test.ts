// Legend data: the init message carries each category's whole-trace summary (count, inclusive and
// exclusive seconds from the file's category records); colours typed in the legend parse as RGB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { describeTrace } from '../../../src/core/query/describe';
import { initMessage, isRgb, isWebviewToHost } from '../../../src/protocol/webview';
import { parseHex } from '../../../webview/colourInput';
import { fixture } from '../../helpers/paths';

test('init categories carry the reference category summaries (user_states_4: Phase count 24)', async () => {
  const file = await Slog2File.open(new MemorySource('user_states_4.slog2', new Uint8Array(fs.readFileSync(fixture('user_states_4.slog2')))));
  const init = initMessage(describeTrace(file, file.lineIDMaps.map(rowLayoutOf)), 1, 'user_states_4.slog2');
  const facts = JSON.parse(fs.readFileSync(fixture('user_states_4.facts.json'), 'utf8').replace(/\bNaN\b/g, 'null'));
  const duration = file.timeRange[1] - file.timeRange[0];
  const phase = init.categories.find((c) => c.name === 'Phase');
  assert.equal(phase?.summary?.count, 24);
  // reference: ratios=1.961772,1.4241744E-5 (inclusive, exclusive ratio of the trace duration)
  assert.ok(Math.abs(phase!.summary!.inclusive / duration - 1.961772) < 1e-6);
  assert.ok(Math.abs(phase!.summary!.exclusive / duration - 1.4241744e-5) < 1e-9);
  for (const c of facts.slog2.categories as { index: number; drawables: number }[]) {
    const info = init.categories.find((k) => k.index === c.index);
    if (c.drawables > 0) assert.equal(info?.summary?.count, c.drawables, `category ${c.index}`);
  }
  await file.close();
});

test('legend colours: #rrggbb parses, anything else is refused; the host validates setCategoryColour', () => {
  assert.deepEqual(parseHex('#12ab34'), [0x12, 0xab, 0x34]);
  assert.equal(parseHex('12ab34'), undefined);
  assert.equal(parseHex('#12ab3'), undefined);
  assert.ok(isRgb([0, 128, 255]));
  assert.equal(isRgb([0, 128, 256]), false);
  assert.equal(isRgb([0, 1.5, 2]), false);
  assert.ok(isWebviewToHost({ kind: 'setCategoryColour', name: 'Phase', rgb: [1, 2, 3] }));
  assert.ok(isWebviewToHost({ kind: 'setCategoryColour', name: 'Phase' }));
  assert.equal(isWebviewToHost({ kind: 'setCategoryColour', name: '', rgb: [1, 2, 3] }), false);
  assert.equal(isWebviewToHost({ kind: 'setCategoryColour', name: 'x'.repeat(5000) }), false);
  assert.equal(isWebviewToHost({ kind: 'setCategoryColour', name: 'Phase', rgb: '#fff' }), false);
});
