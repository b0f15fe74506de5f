// The trace editor as a person meets it: click a trace in the Explorer, the custom editor's webview appears
// and its timeline <canvas> gets painted. Runs once package.json contributes the customEditor
// mpeTrace.timeline; until then every step prints a SKIP line with the reason.
import fs from 'node:fs';
import path from 'node:path';
import { selectors, waitForPaintedCanvas } from '../lib/workbench.mjs';

export const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

/**
 * Waits until the timeline is painted: among the largest <canvas> elements of the visible webview (the plot
 * layers, not the overview strip or the labels), the most colourful one shows at least `minColours` distinct
 * colours. A background with grid lines has about 4; drawn states, arrows and events give hundreds.
 */
export async function waitForPaintedCanvas(page, timeout = 30_000, minColours = 8) {
  const frame = page.frameLocator(selectors.visibleWebview).frameLocator(selectors.webviewContent);
  const canvases = frame.locator('canvas');
  await canvases.first().waitFor({ state: 'attached', timeout });
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await canvases.evaluateAll((all, min) => {
      const area = (c) => c.width * c.height;
      const largest = Math.max(...all.map(area));
      if (!largest) return { painted: false, why: 'every canvas is 0x0' };
      let best = { colours: 0, what: '' };
      for (const c of all.filter((x) => area(x) === largest)) {
        const g = c.getContext('2d');
        if (!g) return { painted: true, why: `non-2D canvas ${c.width}x${c.height}` };
        const data = g.getImageData(0, 0, c.width, c.height).data;
        const colours = new Set();
        for (let i = 0; i < data.length && colours.size < 1000; i += 4) colours.add((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]);
        if (colours.size > best.colours) best = { colours: colours.size, what: `${c.width}x${c.height}` };
      }
      return { painted: best.colours >= min, why: `plot canvas ${best.what} shows ${best.colours}${best.colours >= 1000 ? '+' : ''} colours (need ${min})` };
    }, minColours).catch((e) => ({ painted: false, why: e.message }));
    if (last.painted) return last;
    await page.waitForTimeout(250);
  }
  throw new Error(`timeline canvas not painted: ${last?.why}`);
}

/** The canvas check needs a webview that draws on a canvas; until the bundle does, say so instead of failing. */
export function noCanvasRenderer(ctx) {
  const missing = noEditor(ctx);
  if (missing) return missing;
  const bundle = path.join(ctx.installedDir, 'dist', 'webview.js');
  if (!fs.existsSync(bundle)) return 'the installed extension has no dist/webview.js';
  return fs.readFileSync(bundle, 'utf8').includes('getContext(') ? undefined : 'the webview bundle draws no <canvas> yet (no getContext call)';
}

export function openTraceSteps(file, shot) {
  return [
    {
      name: `${file} opens from the Explorer in the trace editor (its webview shows content)`,
      skip: noEditor,
      timeout: 120_000,
      async run({ page, wb, log, timings }) {
        await wb.closeAllEditors();
        const started = Date.now();
        const attempts = await wb.openInCustomEditor(file);
        await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-resource-name'), selectors.activeTab);
        const active = await wb.activeTabName();
        if (active !== file) throw new Error(`active tab is ${active}, expected ${file}`);
        const text = await wb.webview().locator('body').innerText({ timeout: 30_000 });
        if (!text.trim() && !(await wb.webview().locator('canvas').count())) throw new Error('the webview is empty');
        timings[`webview:${file}`] = Date.now() - started;
        log(`   ${file}: webview after ${attempts} click(s), ${Date.now() - started} ms`);
      },
    },
    {
      name: `${file}: the timeline <canvas> in the webview is painted`,
      skip: noCanvasRenderer,
      timeout: 60_000,
      async run({ page, log, screenshot, timings }) {
        const started = Date.now();
        const paint = await waitForPaintedCanvas(page);
        timings[`paint:${file}`] = Date.now() - started;
        log(`   ${file}: painted (${paint.why})`);
        if (shot) await screenshot(shot);
      },
    },
  ];
}

export default [
  ...openTraceSteps('user_states_4.slog2', 'timeline-slog2'),
  ...openTraceSteps('user_states_4.clog2', 'timeline-clog2'),
  ...openTraceSteps('pi_bcast_4.slog2.gz'),
  {
    name: 'no error notification appeared while opening the traces',
    skip: noEditor,
    async run({ wb }) {
      const errors = await wb.errorNotifications();
      if (errors.length) throw new Error(`error notification(s): ${errors.map((t) => JSON.stringify(t)).join('; ')}`);
    },
  },
  {
    name: 'a damaged trace shows its error (file:offset: what) in the editor instead of hanging',
    skip: noEditor,
    timeout: 60_000,
    async run({ page, wb, workspace, screenshot }) {
      const name = 'damaged.slog2';
      fs.writeFileSync(path.join(workspace, name), Buffer.alloc(3000, 7)); // no SLOG-2 header at all
      try {
        await wb.explorerRow(name).waitFor({ timeout: 20_000 });
        await wb.closeAllEditors();
        await wb.openInCustomEditor(name);
        const pattern = new RegExp(`${name.replace('.', '\\.')}:\\d+: \\S`);
        const deadline = Date.now() + 20_000;
        let text = '';
        while (!pattern.test(text)) {
          if (Date.now() > deadline) throw new Error(`no "${name}:<offset>: ..." error in the webview; it shows ${JSON.stringify(text.slice(-200))}`);
          await page.waitForTimeout(250);
          text = await wb.webview().locator('body').innerText().catch(() => '');
        }
        await screenshot('damaged-trace');
      } finally {
        await wb.closeAllEditors().catch(() => {});
        fs.rmSync(path.join(workspace, name), { force: true });
      }
    },
  },
  {
    name: 'closing all editors removes the webviews',
    skip: noEditor,
    async run({ page, wb }) {
      await wb.closeAllEditors();
      if ((await wb.editorWebviewCount()) !== 0) throw new Error('a trace editor webview is still shown');
    },
  },
];
