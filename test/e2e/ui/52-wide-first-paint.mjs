// First paint of big wide traces in the editor (issue 16's "4096 ranks, ~1 GB SLOG-2: first paint
// ≤ 1 s"), a measurement run on demand: MPE_E2E_WIDE_TRACES=a.slog2:b.slog2 (e.g. the bench's
// bench-out/rows-4096.slog2, 1 GB). Each is linked into the workspace and opened (the editor builds
// its row index in the worker), reopened until the index serves, then reopened three times; each
// reopen logs when its first complete frame was drawn after the click (the webview's clock), and
// the median. Not part of CI (the inputs are GBs); the figures go to the closing note, not into an
// assertion.
import fs from 'node:fs';
import path from 'node:path';
import { firstComplete, waitForTimeline } from '../lib/timelineState.mjs';

const traces = (process.env.MPE_E2E_WIDE_TRACES ?? '').split(':').filter((p) => p !== '');

const viaIndex = (d) => d.complete === 'true' && d.viaRowIndex === 'true';

export default traces.map((trace) => ({
  name: `${path.basename(trace)}: first complete frame after reopening (row index cached)`,
  skip: () => (fs.existsSync(trace) ? undefined : `${trace} does not exist`),
  timeout: 600_000,
  async run(ctx) {
    const { page, wb, log, workspace } = ctx;
    const name = `wide-${path.basename(trace)}`;
    const link = path.join(workspace, name);
    if (!fs.existsSync(link)) fs.symlinkSync(path.resolve(trace), link);
    // The Explorer does not always notice a file made while it is open: refresh it when needed.
    await wb
      .explorerRow(name)
      .waitFor({ timeout: 5_000 })
      .catch(() => wb.runCommand('File: Refresh Explorer'));
    await wb.explorerRow(name).waitFor({ timeout: 30_000 });
    await wb.closeAllEditors();
    try {
      // A small trace first: the extension activates, as it has in a window where a trace was open.
      await wb.openInCustomEditor('ring_p2p_4.slog2');
      await waitForTimeline(page, wb.webview(), (d) => d.complete === 'true', 'the warm-up trace', 800);
      await wb.closeAllEditors();
      await page.waitForTimeout(1000);
      let opened = Date.now();
      const attempts = await wb.openInCustomEditor(name);
      if (attempts > 1) opened = wb.lastOpenClick;
      await waitForTimeline(page, wb.webview(), (d) => d.complete === 'true', 'the first open', 800);
      const first = await firstComplete(wb.webview());
      log(
        `   first open (no row index yet; it is built in the worker meanwhile): first complete frame drawn ${first.at === undefined ? '?' : Math.round(first.at - opened)} ms after the click${attempts > 1 ? ` (the click of attempt ${attempts}: the earlier ones opened the binary placeholder)` : ''} (webview ms: ${first.timings})`,
      );
      // Reopen until the windows come through the index (it is in the cache once built).
      for (let i = 0; ; i++) {
        await wb.closeAllEditors();
        await page.waitForTimeout(3000);
        await wb.openInCustomEditor(name);
        const d = await waitForTimeline(page, wb.webview(), (x) => x.complete === 'true', 'a reopen', 800);
        if (d.viaRowIndex === 'true') break;
        if (i === 20) throw new Error('the row index was not built within a minute');
      }
      const drawn = [];
      for (let i = 0; i < 3; i++) {
        await wb.closeAllEditors();
        await page.waitForTimeout(1000);
        opened = Date.now();
        await wb.openInCustomEditor(name);
        const frame = wb.webview();
        await waitForTimeline(page, frame, viaIndex, 'the reopened trace through the row index', 800);
        const { at, timings } = await firstComplete(frame);
        if (at !== undefined) drawn.push(at - opened);
        log(`   reopen ${i + 1}: first complete frame drawn ${at === undefined ? '?' : Math.round(at - opened)} ms after the click (webview ms: ${timings})`);
      }
      drawn.sort((a, b) => a - b);
      log(
        `   ${path.basename(trace)}: median first complete frame ${Math.round(drawn[Math.floor(drawn.length / 2)] ?? NaN)} ms after the click [${drawn.map(Math.round).join(', ')}]`,
      );
    } finally {
      await wb.closeAllEditors().catch(() => {});
    }
  },
}));
