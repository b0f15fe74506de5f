// The trace editor as a person meets it: click a trace in the Explorer, the custom editor's webview appears
// and its timeline <canvas> gets painted. Runs once package.json contributes the customEditor
// mpeTrace.timeline; until then every step prints a SKIP line with the reason.
import fs from 'node:fs';
import path from 'node:path';
import { selectors, waitForPaintedCanvas } from '../lib/workbench.mjs';
import { firstComplete, waitForTimeline } from '../lib/timelineState.mjs';

export const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

export { waitForPaintedCanvas };

/** The canvas check needs a webview that draws on a canvas; until the bundle does, say so instead of failing. */
export function noCanvasRenderer(ctx) {
  const missing = noEditor(ctx);
  if (missing) return missing;
  const bundle = path.join(ctx.installedDir, 'dist', 'webview.js');
  if (!fs.existsSync(bundle)) return 'the installed extension has no dist/webview.js';
  return fs.readFileSync(bundle, 'utf8').includes('getContext(') ? undefined : 'the webview bundle draws no <canvas> yet (no getContext call)';
}

/** The wall clock of the click that opened the session's first page (for the paint step's check). */
let firstPageClick;

export function openTraceSteps(file, shot, firstPage = false) {
  return [
    {
      name: `${file} opens from the Explorer in the trace editor (its webview shows content)`,
      skip: noEditor,
      timeout: 120_000,
      async run({ page, wb, log, timings }) {
        await wb.closeAllEditors();
        let started = Date.now();
        const attempts = await wb.openInCustomEditor(file);
        if (attempts > 1) started = wb.lastOpenClick;
        if (firstPage) firstPageClick = started;
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
      async run({ page, wb, log, screenshot, timings }) {
        const started = Date.now();
        const paint = await waitForPaintedCanvas(page);
        timings[`paint:${file}`] = Date.now() - started;
        log(`   ${file}: painted (${paint.why})`);
        if (shot) await screenshot(shot);
        if (firstPage) await checkFirstPage(page, wb, log);
      },
    },
  ];
}

/**
 * The first page of a session gets its first window from the host unasked — embedded in its HTML
 * or pushed behind its init — even with no earlier page's plot size (pageBoot.ts: a default
 * guess): a request of its own is a message round through code-server before the first paint.
 */
async function checkFirstPage(page, wb, log) {
  const frame = wb.webview();
  await waitForTimeline(page, frame, (d) => d.complete === 'true', 'the first page, complete', 200);
  const { at, timings } = await firstComplete(frame);
  log(
    `   first page of the session: first complete frame ${at === undefined ? '?' : Math.round(at - firstPageClick)} ms after the click (webview ms: ${timings})`,
  );
  const main = /main (coarse|final) rows [^=]*=\d+\(([^)]*)\)/.exec(timings);
  if (main === null) throw new Error(`no main window in the open stages: ${timings}`);
  if (!/pushed/.test(main[2])) throw new Error(`the first page asked for its first window (not pushed by the host): ${timings}`);
}

export default [
  ...openTraceSteps('user_states_4.slog2', 'timeline-slog2', true),
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
          text = await wb
            .webview()
            .locator('body')
            .innerText()
            .catch(() => '');
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
