// Rows × time in the editor (issue 16): a 4096-rank CLOG2 is converted with its row index written
// by the converter (no second pass), so the timeline's windows come through the index from the
// first one; "Fit all rows" draws every rank aggregated per pixel row; taller rows down to 40 in
// view paint through the index; reopening (cached SLOG-2 + index) paints again. The times from
// the open command to the first complete frame are logged with the webview's stages (targets live
// in the bench, not here).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../lib/codeServer.mjs';
import { firstComplete, timelineData as dataset, waitForTimeline as waitFor } from '../lib/timelineState.mjs';

const RANKS = 4096;
const name = `wide_${RANKS}.clog2`;
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

/** Opaque pixels of the data canvas and how many distinct colours they have. */
function painted(frame) {
  return frame.locator('.plot canvas.data').evaluate((c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let opaque = 0;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] < 128) continue;
      opaque++;
      if (colours.size < 64) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    }
    return { opaque, share: opaque / (c.width * c.height), colours: colours.size };
  });
}

/** A synthetic 4096-rank CLOG2 in the workspace, made with the CLI of the package under test. */
function wideClog2(ctx) {
  const out = path.join(ctx.workspace, name);
  if (fs.existsSync(out)) return;
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'synth', '--ranks', String(RANKS), '--bytes', '12M', '--seed', '5', '-o', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mpe-trace synth failed: ${r.stderr}`);
}

const completeViaIndex = (d) => d.complete === 'true' && d.viaRowIndex === 'true';

export default [
  {
    name: `${name}: converted with its row index; fit all rows draws every rank; 40 rows paint through the index; reopening paints from the cache`,
    skip: noEditor,
    timeout: 300_000,
    async run(ctx) {
      const { page, wb, log, screenshot } = ctx;
      wideClog2(ctx);
      await wb.explorerRow(name).waitFor({ timeout: 30_000 });
      await wb.closeAllEditors();
      try {
        let opened = Date.now();
        await wb.openInCustomEditor(name);
        let frame = wb.webview();
        // The conversion writes the index: the first final window is served through it.
        let d = await waitFor(page, frame, completeViaIndex, 'the first window through the row index');
        log(
          `   first open (conversion + index): complete frame through the index ${Date.now() - opened} ms after the open command (webview ms: ${(await firstComplete(frame)).timings})`,
        );
        if (d.plotHeight / Number(d.rowHeight) >= RANKS) throw new Error(`all ${d.rowCount} rows in view at open; expected a scrolled view of fewer`);

        // Every rank in view, aggregated per pixel row.
        await frame.locator('button.rows-fit').click();
        d = await waitFor(page, frame, (x) => x.complete === 'true' && Number(x.rowHeight) * Number(x.rowCount) <= x.plotHeight + 1, 'fit all rows');
        if (Number(d.rowCount) !== RANKS) throw new Error(`fit shows ${d.rowCount} rows, expected ${RANKS}`);
        const fit = await painted(frame);
        if (!(fit.share > 0.2 && fit.colours >= 3)) throw new Error(`fit all rows drew ${JSON.stringify(fit)}: expected most of the plot in several colours`);
        await screenshot('wide-index-fit');
        log(
          `   fit: ${d.rowCount} rows of ${Number(d.rowHeight).toFixed(3)} px, arrows ${d.arrows}, ${(fit.share * 100).toFixed(0)} % of the plot painted in ${fit.colours} colours`,
        );

        // Back to scrolled rows, then taller rows until at most 40 are in view.
        await frame.locator('button.rows-fit').click();
        await waitFor(page, frame, (x) => x.complete === 'true' && x.plotHeight / Number(x.rowHeight) < RANKS, 'unfit');
        await frame.locator('.timeline').focus();
        for (let i = 0; i < 12; i++) {
          d = await dataset(frame);
          if (d.plotHeight / Number(d.rowHeight) <= 40) break;
          await page.keyboard.press('Shift+W');
          await page.waitForTimeout(200);
        }
        const zoomed = Date.now();
        d = await waitFor(page, frame, (x) => completeViaIndex(x) && x.plotHeight / Number(x.rowHeight) <= 40.5, '40 rows through the index');
        const rows40 = await painted(frame);
        if (!(rows40.opaque > 0 && rows40.colours >= 2)) throw new Error(`40 rows drew ${JSON.stringify(rows40)}`);
        log(
          `   ${(d.plotHeight / Number(d.rowHeight)).toFixed(1)} rows in view (${Number(d.rowHeight).toFixed(1)} px): painted through the index in ${Date.now() - zoomed} ms, ${d.drawables} drawables, ${rows40.colours} colours`,
        );
        await screenshot('wide-index-40-rows');

        // Reopen: the cached conversion and its index (its identity must have survived the reopen).
        await wb.closeAllEditors();
        opened = Date.now();
        await wb.openInCustomEditor(name);
        frame = wb.webview();
        d = await waitFor(page, frame, completeViaIndex, 'the reopened trace through the row index');
        const { at: drawnAt, timings } = await firstComplete(frame);
        log(
          `   reopen (cached SLOG-2 + index): first complete frame drawn ${drawnAt === undefined ? '?' : Math.round(drawnAt - opened)} ms after the click that opens it, seen by the test after ${Date.now() - opened} ms (webview ms: ${timings})`,
        );
      } finally {
        await wb.closeAllEditors().catch(() => {});
      }
    },
  },
];
