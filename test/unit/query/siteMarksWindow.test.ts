// Site marks in the window payload: over the SLOG-2 conversion of user_states_4.clog2, with
// user_states.c:80 shown and user_states.c:83 coloured, exactly the states from line 80 carry
// FLAG_SITE_MATCH (as many as `--by site` counts: the drawables there) and those from 83 colour 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { buildRequestedWindow } from '../../../src/core/query/windowService';
import { rowLayoutOf, defaultMapIndex } from '../../../src/core/query/rows';
import { decodeWindow, FLAG_SITE_MATCH, SITE_COLOUR_SHIFT } from '../../../src/core/query/windowColumns';
import { siteMarker } from '../../../src/core/search/siteMarks';
import { FileSource } from '../../../src/io/fileSource';
import { fixture } from '../../helpers/paths';
import { runCli } from '../cli/runCli';

test('window flags mark the shown site and the coloured one', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-site-window-'));
  const out = path.join(dir, 'u.slog2');
  assert.equal(runCli(['convert', fixture('user_states_4.clog2'), '-o', out, '--quiet']).status, 0);
  const sites = JSON.parse(runCli(['stats', out, '--by', 'site', '--json']).stdout) as { sites: { line: number; count: number }[] };
  const file = await Slog2File.open(await FileSource.open(out));
  try {
    const layout = rowLayoutOf(file.lineIDMaps[defaultMapIndex(file.lineIDMaps)]!);
    const [t0, t1] = file.timeRange;
    const marker = siteMarker({ highlight: 'user_states.c:80', colourings: [{ sites: 'user_states.c:83', rgb: [1, 2, 3] }] });
    const req = { t0, t1, rowStart: 0, rowEnd: layout.labels.length, mapIndex: defaultMapIndex(file.lineIDMaps), pixelWidth: 1000, visibleSpan: t1 - t0 };
    const w = decodeWindow(await buildRequestedWindow(file, layout, req, 0, undefined, undefined, marker));
    const flags = [...w.states.flags, ...w.events.flags, ...w.arrows.flags];
    const matched = flags.filter((f) => (f & FLAG_SITE_MATCH) !== 0).length;
    const coloured = flags.filter((f) => f >>> SITE_COLOUR_SHIFT === 1).length;
    assert.equal(matched, sites.sites.find((s) => s.line === 80)!.count);
    assert.equal(coloured, sites.sites.find((s) => s.line === 83)!.count);
    const plain = decodeWindow(await buildRequestedWindow(file, layout, req, 0));
    assert.ok(
      [...plain.states.flags].every((f) => (f & ~3) === 0),
      'no marks without a marker',
    );
  } finally {
    await file.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
