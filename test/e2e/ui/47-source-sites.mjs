// Source → timeline in the browser: searching `user_states.c:80` (Phase's SRCLOC site) in the
// timeline of user_states_4.clog2 steps through its occurrences ("3 of 24" after three Next: 24
// Phase states in the facts) and greys out every drawable that did not come from that site — the
// whole-trace view has MPI_Barrier's exact yellow (255,255,0) before and none while the search is
// open; closing the search brings it back. Zoomed out on a synthetic SRCLOC trace, the preview boxes
// (which carry no sites) fade while a site is shown and the view says to zoom in.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../lib/codeServer.mjs';

const trace = 'user_states_4.clog2';

/** A synthetic trace with SRCLOC (synth_program.c: Kernel at line 44), big enough to show preview boxes when zoomed out. */
function synthSitesTrace(workspace) {
  const name = 'synth_sites.slog2';
  const out = path.join(workspace, name);
  if (fs.existsSync(out)) return name;
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  const clog2 = path.join(workspace, '.synth_sites.clog2');
  for (const args of [
    ['synth', '--ranks', '16', '--bytes', '6M', '--srcloc', '--seed', '4', '-o', clog2],
    ['convert', clog2, '-o', out],
  ]) {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`mpe-trace ${args[0]} failed: ${r.stderr}`);
  }
  fs.rmSync(clog2, { force: true });
  return name;
}

/** Mean distance of the data canvas's drawn pixels from the editor background (how much ink the view shows). */
function ink(frame) {
  return frame.locator('.plot canvas.data').evaluate((data) => {
    // The background the timeline paints (theme.ts reads the same variable).
    const probe = document.createElement('div');
    probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim() || '#ffffff';
    document.body.appendChild(probe);
    const [br, bgc, bb] = getComputedStyle(probe).color.match(/\d+/g).map(Number);
    probe.remove();
    const d = data.getContext('2d').getImageData(0, 0, data.width, data.height).data;
    let sum = 0;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] === 0) continue;
      sum += Math.abs(d[i] - br) + Math.abs(d[i + 1] - bgc) + Math.abs(d[i + 2] - bb);
      n++;
    }
    return n === 0 ? 0 : sum / n;
  });
}

/**
 * The ink once two readings 250 ms apart agree: the step before may have left the page repainting
 * (a theme switched back; one CI run measured 593 there, then 246.5 for the same picture).
 */
async function steadyInk(page, frame) {
  let last = await ink(frame);
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(250);
    await settled(page, frame);
    const now = await ink(frame);
    if (Math.abs(now - last) < 0.5) return now;
    last = now;
  }
  return last;
}

async function yellowPixels(frame) {
  return frame.locator('.plot canvas.data').evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 255 && d[i + 2] === 0) n++;
    return n;
  });
}

async function settled(page, frame) {
  const timeline = frame.locator('.timeline');
  let g = {};
  for (let i = 0; i < 120; i++) {
    g = await timeline.evaluate((el) => ({ ...el.dataset }));
    // The final answer, not a coarse first one (its ink differs: the fade compares ink before and after).
    if (g.complete === 'true' && g.final === 'true') return g;
    await page.waitForTimeout(250);
  }
  // what the view said last (a run failed here once, passing on retry: this says where it stood)
  throw new Error(`the timeline did not finish loading in 30 s; its state: ${JSON.stringify(g)}`);
}

async function yellowUntil(page, frame, predicate) {
  let n = -1;
  for (let i = 0; i < 60; i++) {
    await settled(page, frame);
    n = await yellowPixels(frame);
    if (predicate(n)) return n;
    await page.waitForTimeout(250);
  }
  return n;
}

const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

export default [
  {
    name: 'search user_states.c:80: "3 of 24", other sites greyed out, back when closed',
    skip: noEditor,
    timeout: 150_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      const before = await yellowUntil(page, frame, (n) => n > 0);
      log(`   MPI_Barrier yellow pixels, whole trace: ${before}`);
      if (before <= 0) throw new Error('no MPI_Barrier yellow in the whole-trace view before the search');
      await frame.locator('button.search-toggle').click();
      await frame.locator('input.search-text').fill('user_states.c:80');
      const status = frame.locator('.search-status');
      for (let i = 1; i <= 3; i++) {
        await frame.locator('button.search-next').click();
        let text = '';
        for (let k = 0; k < 150 && !new RegExp(`^${i} of `).test(text); k++) {
          text = (await status.innerText()).trim();
          if (!new RegExp(`^${i} of `).test(text)) await page.waitForTimeout(100);
        }
        log(`   next #${i}: ${text}`);
        if (!new RegExp(`^${i} of `).test(text)) throw new Error(`after ${i} × Next the search says ${JSON.stringify(text)}`);
      }
      let text = '';
      for (let k = 0; k < 100 && text !== '3 of 24'; k++) {
        text = (await status.innerText()).trim();
        if (text !== '3 of 24') await page.waitForTimeout(100);
      }
      if (text !== '3 of 24') throw new Error(`status ${JSON.stringify(text)}, expected "3 of 24"`);
      await frame.locator('button[title^="Whole trace"]').click();
      const during = await yellowUntil(page, frame, (n) => n === 0);
      await screenshot('source-sites-greyed');
      log(`   MPI_Barrier yellow pixels while user_states.c:80 is shown: ${during}`);
      if (during !== 0) throw new Error(`${during} pixels still in MPI_Barrier's yellow: other sites are not greyed out`);
      await frame.locator('button.search-close').click();
      const after = await yellowUntil(page, frame, (n) => n > 0);
      log(`   after closing the search: ${after}`);
      if (after <= 0) throw new Error('MPI_Barrier stays greyed after the search closed');
    },
  },
  {
    name: 'zoomed out (preview boxes), showing synth_program.c:44 fades the previews and the view says to zoom in; closing brings them back',
    skip: noEditor,
    timeout: 150_000,
    async run({ page, wb, log, screenshot, workspace }) {
      const file = synthSitesTrace(workspace);
      await wb.closeAllEditors();
      await wb.openInCustomEditor(file);
      const frame = wb.webview();
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      const g = await settled(page, frame);
      if (!(Number(g.lowestDepth) > 0)) throw new Error(`the whole-trace view is exact (depth ${g.lowestDepth}): no preview boxes to test`);
      const before = await steadyInk(page, frame);
      await frame.locator('button.search-toggle').click();
      await frame.locator('input.search-text').fill('synth_program.c:44');
      await frame.locator('button.search-next').click();
      const status = frame.locator('.search-status');
      for (let k = 0; k < 150 && !/^1 of /.test((await status.innerText()).trim()); k++) await page.waitForTimeout(100);
      // The first match is framed (zoomed in, exact); back to the whole trace, where previews stand for the rest.
      await frame.locator('button[title^="Whole trace"]').click();
      for (let k = 0; k < 120; k++) {
        const z = await frame.locator('.timeline').evaluate((el) => ({ ...el.dataset }));
        if (z.complete === 'true' && Number(z.lowestDepth) > 0) break;
        await page.waitForTimeout(250);
      }
      let d = {};
      for (let k = 0; k < 120 && !/previews carry no source sites/.test(d.note ?? ''); k++) {
        await page.waitForTimeout(250);
        d = await frame.locator('.timeline').evaluate((el) => ({ ...el.dataset }));
      }
      await settled(page, frame);
      const during = await ink(frame);
      await screenshot('source-sites-previews');
      log(`   ink (mean distance from the background) ${before.toFixed(1)} → ${during.toFixed(1)} while the site is shown; note: ${JSON.stringify(d.note)}`);
      if (!/previews carry no source sites/.test(d.note ?? '')) throw new Error(`no note about the previews: ${JSON.stringify(d.note)}`);
      if (!(during < before * 0.5)) throw new Error(`the preview boxes are not faded (ink ${before.toFixed(1)} → ${during.toFixed(1)})`);
      await frame.locator('button.search-close').click();
      let after = 0;
      for (let k = 0; k < 60 && !(after > before * 0.8); k++) {
        await page.waitForTimeout(250);
        await settled(page, frame);
        after = await ink(frame);
      }
      log(`   after closing the search: ink ${after.toFixed(1)}`);
      if (!(after > before * 0.8)) throw new Error(`the previews stay faded after the search closed (ink ${after.toFixed(1)})`);
      await wb.closeAllEditors();
    },
  },
];
