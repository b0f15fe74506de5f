// The statistics strip above the timeline (issue 17, TraceVis §2.7): on user_states_4 it says it is
// exact, and at the middle of rank 1's MPI_Barrier its column holds MPI_Barrier's exact RGB; every
// colour in a strip column is a colour the plot shows in the same column (the strip summarises the
// rows, it invents nothing).
import fs from 'node:fs';
import path from 'node:path';

const trace = 'user_states_4.slog2';
const RED = [230, 25, 75];

/** Opaque colours of the whole strip canvas. */
function stripColours(frame) {
  return frame.locator('.activity-wrap canvas').evaluate((c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const out = new Set();
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) out.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return [...out];
  });
}
const YELLOW = [255, 255, 0]; // MPI_Barrier
/** From test/fixtures/user_states_4.facts.json (slog2 samples). */
const BARRIER_RANK1 = [0.02408022700001311, 0.10001058300008481];

/** Opaque colours of one device-pixel column of a canvas, at time t of the view. */
function columnColours(frame, selector, t) {
  return frame.locator(selector).evaluate((c, t) => {
    const d = c.closest('.timeline').dataset;
    const k = c.width / c.clientWidth;
    const x = Math.round(((t - Number(d.t0)) / (Number(d.t1) - Number(d.t0))) * c.clientWidth * k);
    const data = c.getContext('2d').getImageData(x, 0, 1, c.height).data;
    const out = new Set();
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] === 255) out.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return [...out];
  }, t);
}

export default [
  {
    name: `${trace}: the statistics strip is exact, shows MPI_Barrier where rank 1 waits in it, and only colours of the plot's column`,
    skip: ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet'),
    timeout: 90_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      let d;
      for (let i = 0; i < 200; i++) {
        d = await frame
          .locator('.timeline')
          .evaluate((el) => ({ ...el.dataset }))
          .catch(() => undefined);
        if (d?.complete === 'true' && d.activitySource) break;
        await page.waitForTimeout(150);
      }
      if (d?.activitySource !== 'exact') throw new Error(`the strip says ${JSON.stringify(d?.activitySource)}, expected exact (${JSON.stringify(d)})`);
      const label = await frame.locator('.activity-label').innerText();
      if (!/exact/.test(label)) throw new Error(`strip label ${JSON.stringify(label)}`);
      const t = (BARRIER_RANK1[0] + BARRIER_RANK1[1]) / 2;
      const strip = await columnColours(frame, '.activity-wrap canvas', t);
      const plot = new Set(await columnColours(frame, '.plot canvas.data', t));
      log(`   strip column at ${t.toFixed(4)} s: ${strip.join(' | ')}; plot column has ${plot.size} colours`);
      if (!strip.includes(YELLOW.join(','))) throw new Error(`no MPI_Barrier (${YELLOW}) in the strip's column: ${strip.join(' | ')}`);
      const foreign = strip.filter((c) => !plot.has(c));
      if (foreign.length > 0) throw new Error(`strip colours not in the plot's column: ${foreign.join(' | ')}`);
      await screenshot('activity-strip');
    },
  },
  {
    name: 'user_states_4.clog2 with a code colouring (sidecar): a click on the strip label counts by code colouring, another by state',
    skip: ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet'),
    timeout: 120_000,
    async run({ page, wb, log, screenshot, workspace }) {
      // The Kernel states (user_states.c:86) coloured red, as "Colour in Trace" would store it.
      const sidecar = path.join(workspace, 'user_states_4.clog2.mpetrace.json');
      fs.writeFileSync(sidecar, JSON.stringify({ version: 1, bookmarks: [], colourings: [{ sites: 'user_states.c:86', rgb: RED }] }) + '\n');
      try {
        await wb.closeAllEditors();
        await wb.openInCustomEditor('user_states_4.clog2');
        const frame = wb.webview();
        const root = frame.locator('.timeline');
        const waitFor = async (test, what) => {
          let d;
          for (let i = 0; i < 300; i++) {
            d = await root.evaluate((el) => ({ ...el.dataset })).catch(() => undefined);
            if (d && test(d)) return d;
            await page.waitForTimeout(150);
          }
          throw new Error(`${what}: ${JSON.stringify(d)}`);
        };
        await waitFor(
          (d) => d.complete === 'true' && d.activitySource === 'exact' && d.activityMode === 'states' && d.siteColourings === '1',
          'the strip by state, with the colouring loaded',
        );
        const before = await stripColours(frame);
        if (before.includes(RED.join(','))) throw new Error('the strip shows the colouring before it counts by code colouring');
        await frame.locator('.activity-label').click();
        await waitFor((d) => d.activityMode === 'codes', 'the strip by code colouring');
        let codes = [];
        for (let k = 0; k < 20 && !codes.includes(RED.join(',')); k++) {
          await page.waitForTimeout(200);
          codes = await stripColours(frame);
        }
        const label = await frame.locator('.activity-label').innerText();
        log(`   strip by code colour (${label}): ${codes.length} colours, red ${codes.includes(RED.join(',')) ? 'present' : 'missing'}`);
        if (!/code colours/.test(label)) throw new Error(`strip label ${JSON.stringify(label)}`);
        if (!codes.includes(RED.join(','))) throw new Error(`the Kernel colouring ${RED} is not in the strip: ${codes.join(' | ')}`);
        await screenshot('activity-code-colours');
        await frame.locator('.activity-label').click();
        await waitFor((d) => d.activityMode === 'states', 'the strip back to states');
      } finally {
        fs.rmSync(sidecar, { force: true });
        await wb.closeAllEditors();
      }
    },
  },
];
