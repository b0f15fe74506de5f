// The WebGL2 painter in the real editor (issue 21). With the setting's default (auto) this GPU-less
// browser gets canvas2d, saying why, its event heads composed by the WebAssembly kernel, and the data
// layer's code is warmed while the view rests, the frame shown untouched. With `mpeTrace.editor.renderer` set to webgl2,
// user_states_4 opens drawn by WebGL2 (here SwiftShader: the e2e browser has no GPU), its first
// MPI_Barrier of rank 1 in its exact RGB, the same pixels canvas2d draws where the box is whole;
// then the context is lost (WEBGL_lose_context) and the timeline goes on in canvas2d, drawn again.
import fs from 'node:fs';
import { waitForTimeline } from '../lib/timelineState.mjs';

const trace = 'user_states_4.slog2';
// From the reference dump: 0.024080227 .. 0.100010583 s on line ID 1 (row 1 of the Process View).
const BARRIER = { start: 0.024080227, end: 0.100010583, row: 1 };

/**
 * Sets the renderer in the user settings as a user would: the file changed, then saved from the
 * settings editor (the workbench reloads its settings on its own saves; it misses writes by other
 * processes here).
 */
async function setRenderer(page, wb, file, value) {
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (value === undefined) delete settings['mpeTrace.editor.renderer'];
  else settings['mpeTrace.editor.renderer'] = value;
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  await wb.runCommand('Preferences: Open User Settings (JSON)');
  await page.waitForTimeout(800);
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n');
  await page.keyboard.press('Control+S');
  await page.waitForTimeout(800);
  await wb.closeAllEditors();
}

/** RGBA at CSS (x, y) of the shown data canvas, WebGL2 or 2D (copied through a 2D canvas). */
function pixelAt(frame, x, y) {
  return frame.locator('.plot').evaluate(
    (plot, [px, py]) => {
      const c = [...plot.querySelectorAll('canvas.data')].find((e) => e.style.display !== 'none');
      const k = c.width / c.getBoundingClientRect().width;
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const g = copy.getContext('2d');
      g.drawImage(c, 0, 0);
      return [...g.getImageData(Math.round(px * k), Math.round(py * k), 1, 1).data];
    },
    [x, y],
  );
}

async function barrierCentre(frame) {
  const d = await frame.locator('.timeline').evaluate((el) => ({ ...el.dataset }));
  const plot = await frame.locator('.plot').boundingBox();
  const x = (((BARRIER.start + BARRIER.end) / 2 - Number(d.t0)) / (Number(d.t1) - Number(d.t0))) * plot.width;
  const y = BARRIER.row * Number(d.rowHeight) - Number(d.scrollPx) + Number(d.rowHeight) / 2;
  return [x, y];
}

export default [
  {
    name: 'WebGL2 renderer: MPI_Barrier in its exact RGB, then a lost context falls back to canvas2d and draws again',
    skip: ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet'),
    timeout: 120_000,
    async run({ page, wb, log, settingsFile }) {
      await wb.closeAllEditors();
      const done = (d) => d.final === 'true' && d.complete === 'true';
      // the setting's default, auto, on this GPU-less browser: canvas2d, saying why
      await wb.openInCustomEditor(trace);
      const auto = await waitForTimeline(page, wb.webview(), done, 'the first complete frame (auto)');
      log(`   auto: renderer ${auto.renderer} (${auto.rendererReason})`);
      if (auto.renderer !== 'canvas2d' || !/^(software GL|no WebGL2)/.test(auto.rendererReason))
        throw new Error(`auto chose ${auto.renderer} (${auto.rendererReason})`);
      // canvas2d on the CPU composes event heads as pixels, in the WebAssembly kernel: the page's CSP lets it compile
      log(`   event heads: ${auto.heads}`);
      if (auto.heads !== 'webassembly') throw new Error(`event heads composed by ${auto.heads}, not the WebAssembly kernel`);
      // while the view rests, the data layer's code is warmed (warmUp.ts): its 23 frames (WARM_UP_FRAMES)
      // drawn into a canvas never shown, the one shown left as it was
      const before = await pixelAt(wb.webview(), ...(await barrierCentre(wb.webview())));
      const warmed = await waitForTimeline(page, wb.webview(), (d) => d.warmUpFrames === '23', 'the warm-up, all its frames');
      const after = await pixelAt(wb.webview(), ...(await barrierCentre(wb.webview())));
      const canvases = await wb.webview().locator('canvas').count();
      log(
        `   warm-up: ${warmed.warmUpFrames} frames drawn while the view rested; MPI_Barrier centre ${before.join(',')} → ${after.join(',')}; ${canvases} canvases in the page`,
      );
      if (before.join(',') !== '255,255,0,255' || after.join(',') !== before.join(','))
        throw new Error(`the shown frame changed with the warm-up: MPI_Barrier centre ${before.join(',')} → ${after.join(',')}`);
      if (warmed.drawables !== auto.drawables || warmed.t0 !== auto.t0 || warmed.t1 !== auto.t1)
        throw new Error(`the warm-up moved the view: ${JSON.stringify({ before: auto, after: warmed })}`);
      await wb.closeAllEditors();
      await setRenderer(page, wb, settingsFile, 'webgl2');
      try {
        let d;
        // the workbench reads the settings file when it notices the change: open again until it has
        for (let i = 0; i < 8 && d?.renderer !== 'webgl2'; i++) {
          await page.waitForTimeout(1000);
          await wb.openInCustomEditor(trace);
          d = await waitForTimeline(page, wb.webview(), done, 'the first complete frame');
          if (d.renderer !== 'webgl2') await wb.closeAllEditors();
        }
        const frame = wb.webview();
        log(`   renderer ${d.renderer} (${d.rendererReason})`);
        if (d.renderer !== 'webgl2') throw new Error(`renderer setting webgl2 gave ${d.renderer} (${d.rendererReason})`);
        const [x, y] = await barrierCentre(frame);
        const gl = await pixelAt(frame, x, y);
        log(`   WebGL2: MPI_Barrier centre (${x.toFixed(0)}, ${y.toFixed(0)}) rgba ${gl.join(',')}`);
        if (gl.join(',') !== '255,255,0,255') throw new Error(`WebGL2 drew the MPI_Barrier centre as ${gl.join(',')}, not its 255,255,0`);
        // the context is lost: a canvas2d canvas takes its place and the frame is drawn again
        const drawnBefore = d.drawables;
        await frame
          .locator('.plot canvas.data')
          .first()
          .evaluate((c) => c.getContext('webgl2').getExtension('WEBGL_lose_context').loseContext());
        const after = await waitForTimeline(page, frame, (e) => e.renderer === 'canvas2d' && done(e), 'canvas2d after the lost context');
        log(`   after loseContext: renderer ${after.renderer} (${after.rendererReason}), ${after.drawables} drawables (before ${drawnBefore})`);
        if (after.rendererReason !== 'WebGL2 context lost') throw new Error(`fallback reason ${after.rendererReason}`);
        let c2d;
        for (let i = 0; i < 40; i++) {
          c2d = await pixelAt(frame, x, y);
          if (c2d.join(',') === '255,255,0,255') break;
          await page.waitForTimeout(150);
        }
        log(`   canvas2d: MPI_Barrier centre rgba ${c2d.join(',')}`);
        if (c2d.join(',') !== '255,255,0,255') throw new Error(`after the lost context the MPI_Barrier centre is ${c2d.join(',')}`);
        const shown = await frame.locator('.plot canvas.data').evaluateAll((all) => all.filter((c) => c.style.display !== 'none').length);
        if (shown !== 1) throw new Error(`${shown} data canvases shown after the fallback`);
      } finally {
        await setRenderer(page, wb, settingsFile, undefined);
        await wb.closeAllEditors();
      }
    },
  },
];
