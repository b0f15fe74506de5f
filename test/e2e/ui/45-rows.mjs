// Rows that use the space (issue 15): on user_states_4 the four ranks share the editor's height, nested
// states are inset boxes whose innermost level (MPI_Allreduce at depth 3) is a large area, an MPI_Barrier is
// drawn in its exact RGB, and a hidden rank stays hidden after the trace is closed and reopened. Then the
// screenshots for docs/images: nesting and arrows in the dark, light and high-contrast themes, and
// synthetic 64- and 4096-rank traces with "Fit rows" (every rank in view, aggregated per pixel row).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../lib/codeServer.mjs';
import { selectors } from '../lib/workbench.mjs';

const trace = 'user_states_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');
const PURPLE = [160, 32, 240]; // MPI_Allreduce
const YELLOW = [255, 255, 0]; // MPI_Barrier
/** From test/fixtures/user_states_4.facts.json (slog2 samples). */
const ALLREDUCE_RANK0 = [9.185700002944941e-5, 0.020490161999987322];
const BARRIER_RANK1 = [0.02408022700001311, 0.10001058300008481];
const THEMES = { dark: 'Dark Modern', light: 'Light Modern', hc: 'Dark High Contrast' };

async function geometry(frame) {
  return frame.locator('.timeline').evaluate((el) => ({ ...el.dataset, plotHeight: el.querySelector('.plot').clientHeight }));
}

async function waitComplete(page, frame, test = () => true, what = 'the timeline') {
  let g;
  for (let i = 0; i < 200; i++) {
    g = await geometry(frame).catch(() => undefined);
    if (g?.complete === 'true' && test(g)) return g;
    await page.waitForTimeout(150);
  }
  throw new Error(`${what}: not drawn as expected (${JSON.stringify(g)})`);
}

/** The column of the data canvas at time t over `row`'s slot: colours from the row's top to its bottom (device px). */
function rowColumn(frame, t, slot) {
  return frame.locator('.plot canvas.data').evaluate(
    (c, [t, slot]) => {
      const d = c.closest('.timeline').dataset;
      const k = c.width / c.clientWidth;
      const x = Math.round(((t - Number(d.t0)) / (Number(d.t1) - Number(d.t0))) * c.clientWidth * k);
      const h = Number(d.rowHeight);
      const top = Math.max(0, Math.round((slot * h - Number(d.scrollPx)) * k));
      const bottom = Math.min(c.height, Math.round(((slot + 1) * h - Number(d.scrollPx)) * k));
      const data = c.getContext('2d').getImageData(x, top, 1, Math.max(1, bottom - top)).data;
      const px = [];
      for (let i = 0; i < data.length; i += 4) px.push([data[i], data[i + 1], data[i + 2], data[i + 3]]);
      return { k, px };
    },
    [t, slot],
  );
}

const same = (p, rgb) => p[0] === rgb[0] && p[1] === rgb[1] && p[2] === rgb[2] && p[3] === 255;

function longestRun(px, rgb) {
  let best = 0;
  let run = 0;
  for (const p of px) {
    run = same(p, rgb) ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

/** Picks a colour theme in "Preferences: Color Theme" (Ctrl+K Ctrl+T) and waits for the webview to follow. */
async function setTheme(ctx, frame, theme) {
  const { page } = ctx;
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+T');
  const input = page.locator(selectors.quickInput);
  await input.waitFor({ timeout: 10_000 });
  await input.fill(THEMES[theme]);
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
  const cls = { dark: 'vscode-dark', light: 'vscode-light', hc: 'vscode-high-contrast' }[theme];
  for (let i = 0; i < 100; i++) {
    const has = await frame
      .locator('body')
      .evaluate((b, c) => b.classList.contains(c), cls)
      .catch(() => false);
    if (has) return page.waitForTimeout(600);
    await page.waitForTimeout(150);
  }
  throw new Error(`the webview did not switch to ${theme}`);
}

/** A synthetic trace of `ranks` ranks, converted to SLOG-2 with the CLI of the package under test. */
function synthTrace(ctx, ranks, bytes) {
  const name = `synth_${ranks}.slog2`;
  const out = path.join(ctx.workspace, name);
  if (fs.existsSync(out)) return name;
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  const clog2 = path.join(ctx.workspace, `.synth_${ranks}.clog2`);
  for (const args of [
    ['synth', '--ranks', String(ranks), '--bytes', bytes, '--seed', '3', '-o', clog2],
    ['convert', clog2, '-o', out],
  ]) {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`mpe-trace ${args[0]} failed: ${r.stderr}`);
  }
  fs.rmSync(clog2, { force: true });
  return name;
}

export default [
  {
    name: `${trace}: the 4 rows share the editor, the depth-3 state is a large box, MPI_Barrier is its exact RGB (light and dark theme)`,
    skip: noEditor,
    timeout: 90_000,
    async run(ctx) {
      const { page, wb, log } = ctx;
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      const g = await waitComplete(page, frame);
      const rowHeight = Number(g.rowHeight);
      if (g.plotHeight >= 4 * 40) {
        if (!(rowHeight >= 0.8 * (g.plotHeight / 4))) throw new Error(`row height ${rowHeight} px < 80 % of ${g.plotHeight} / 4`);
      } else log(`   plot only ${g.plotHeight} px tall: row-height check not applicable`);
      if (g.maxNesting !== '3') throw new Error(`max nesting ${g.maxNesting}, expected 3 (Phase > Solve > Kernel > MPI_Allreduce)`);
      const inner = await rowColumn(frame, (ALLREDUCE_RANK0[0] + ALLREDUCE_RANK0[1]) / 2, 0);
      const innerPx = longestRun(inner.px, PURPLE) / inner.k;
      if (!(innerPx >= 8)) throw new Error(`MPI_Allreduce at depth 3 is ${innerPx} px tall (< 8)`);
      // the exact fill on the editor's theme (light: yellow on white) and on a dark one
      const barrierCentre = async () => {
        const bar = await rowColumn(frame, (BARRIER_RANK1[0] + BARRIER_RANK1[1]) / 2, 1);
        return bar.px[Math.floor(bar.px.length / 2)];
      };
      const centre = await barrierCentre();
      if (!same(centre, YELLOW)) throw new Error(`centre of MPI_Barrier is ${centre}, expected ${YELLOW}`);
      await setTheme(ctx, frame, 'dark');
      await waitComplete(page, frame);
      const dark = await barrierCentre();
      await setTheme(ctx, frame, 'light');
      if (!same(dark, YELLOW)) throw new Error(`centre of MPI_Barrier on the dark theme is ${dark}, expected ${YELLOW}`);
      log(
        `   rows ${rowHeight.toFixed(1)} px in a ${g.plotHeight} px plot; MPI_Allreduce (depth 3) ${innerPx.toFixed(0)} px tall; MPI_Barrier centre ${centre.slice(0, 3)} (light), ${dark.slice(0, 3)} (dark)`,
      );
    },
  },
  {
    name: `${trace}: hiding rank 2 removes its row, and it stays hidden after close and reopen`,
    skip: noEditor,
    timeout: 120_000,
    async run({ page, wb, log }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      let frame = wb.webview();
      let g = await waitComplete(page, frame);
      const overlay = frame.locator('.plot canvas.overlay');
      const rh = Number(g.rowHeight);
      await overlay.hover({ position: { x: 20, y: 2 * rh + rh / 2 - Number(g.scrollPx) } });
      await page.keyboard.press('h');
      g = await waitComplete(page, frame, (x) => x.rows === '0,1,3', 'after H over rank 2');
      if (g.rowCount !== '3') throw new Error(`${g.rowCount} rows after hiding rank 2`);
      const after = await rowColumn(frame, (BARRIER_RANK1[0] + BARRIER_RANK1[1]) / 2, 1);
      if (!after.px.some((p) => p[3] > 0)) throw new Error('rank 1 is no longer drawn after hiding rank 2');
      // wait for the view state to reach the host (persisted after a short delay), then reopen
      await page.waitForTimeout(800);
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      frame = wb.webview();
      g = await waitComplete(page, frame, (x) => x.rows === '0,1,3', 'after reopening');
      log(`   rows after reopen: ${g.rows} (${g.rowCount} rows of ${Number(g.rowHeight).toFixed(1)} px)`);
      // all rows again (Shift+H), so later steps see the trace as it was
      await frame.locator('.timeline').focus();
      await page.keyboard.press('Shift+H');
      await waitComplete(page, frame, (x) => x.rows === '' && x.rowCount === '4', 'after Shift+H');
      await page.waitForTimeout(800);
      await wb.closeAllEditors();
    },
  },
  {
    name: 'screenshots: nesting, arrows and fit-all-rows of 64 and 4096 ranks, in dark, light and high-contrast themes',
    skip: noEditor,
    timeout: 300_000,
    async run(ctx) {
      const { page, wb, log, screenshot } = ctx;
      const files = [
        ['user_states_4.slog2', 'rows-nesting-user_states_4', false],
        ['ring_p2p_4.slog2', 'rows-arrows-ring_p2p_4', false],
        [synthTrace(ctx, 64, '8M'), 'rows-fit-64-ranks', true],
        [synthTrace(ctx, 4096, '12M'), 'rows-fit-4096-ranks', true],
      ];
      try {
        for (const [file, shot, fit] of files) {
          await wb.explorerRow(file).waitFor({ timeout: 30_000 });
          await wb.closeAllEditors();
          const opened = Date.now();
          await wb.openInCustomEditor(file);
          const frame = wb.webview();
          await waitComplete(page, frame, () => true, file);
          const stages = await frame.locator('body').evaluate((b) => b.dataset.openTimings ?? '');
          log(`   ${file}: first complete frame ${Date.now() - opened} ms after the open command (webview ms: ${stages})`);
          if (fit) {
            await frame.locator('button.rows-fit').click();
            const g = await waitComplete(page, frame, (g) => Number(g.rowHeight) * Number(g.rowCount) <= g.plotHeight + 1, `${file} fitted`);
            // The overview strip summarises every row (it once stopped at 256).
            let overview;
            for (let k = 0; k < 100 && overview !== `0-${g.rowCount}`; k++) {
              if (k > 0) await page.waitForTimeout(150);
              overview = await frame.locator('.timeline').evaluate((el) => el.dataset.overviewRows);
            }
            if (overview !== `0-${g.rowCount}`) throw new Error(`the overview strip summarises rows ${overview}, not all ${g.rowCount}`);
          }
          for (const theme of ['light', 'dark', 'hc']) {
            await setTheme(ctx, frame, theme);
            const g = await waitComplete(page, frame);
            await screenshot(`${shot}-${theme}`);
            log(`   ${shot}-${theme}: ${g.rowCount} rows of ${Number(g.rowHeight).toFixed(2)} px, arrows ${g.arrows}, ${g.drawables} drawables`);
          }
          if (fit) await frame.locator('button.rows-fit').click();
          await setTheme(ctx, frame, 'light');
        }
      } finally {
        await wb.closeAllEditors().catch(() => {});
      }
    },
  },
];
