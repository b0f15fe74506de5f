// A big CLOG2 on screen before its conversion ends (issue 21): opening a 384 MB CLOG2 (MPE_E2E_PREVIEW_SIZE) that has no
// cached conversion shows the preview (its first 2 MiB converted on their own, the MPI states
// named from the definitions at the file's end) with a banner and the conversion's progress, and
// draws it before the whole file is converted; snapshots of the conversion's output then fill the
// view in (its conversion takes 2-4 s here: long enough for a snapshot every 1.5 s), the whole
// trace replaces the last, seen whole, and that view equals the one of reopening the finished
// SLOG-2 from the cache. Times are logged (the targets live in `npm run bench preview`).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../lib/codeServer.mjs';
import { timelineData as dataset, waitForTimeline as waitFor } from '../lib/timelineState.mjs';

// MPE_E2E_PREVIEW_SIZE=3G: the issue's 3 GB case (a minute to synthesize, half a minute to convert).
const size = process.env.MPE_E2E_PREVIEW_SIZE ?? '384M';
const name = `preview_${size}.clog2`;
/** How the banner names the preview's prefix (conversionPreview.ts PREVIEW_PREFIX_BYTES). */
const PREFIX = String.raw`in the first 2\.0 MiB`;
const inPrefix = new RegExp(PREFIX);
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

/** A fresh synthetic CLOG2 (a new mtime: never a cached conversion from an earlier run). */
function bigClog2(ctx) {
  const out = path.join(ctx.workspace, name);
  fs.rmSync(out, { force: true });
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'synth', '--ranks', '16', '--bytes', size, '--seconds', '100000', '--srcloc', '--seed', '9', '-o', out], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`mpe-trace synth failed: ${r.stderr}`);
}

/** The webview's open stages (ms since it started) by name, and its time origin on the wall clock. */
async function stages(frame) {
  const { timings, origin, preview } = await frame
    .locator('body')
    .evaluate((b) => ({ timings: b.dataset.openTimings ?? '', origin: Number(b.dataset.openOrigin), preview: b.dataset.preview }));
  const at = {};
  for (const m of timings.matchAll(/(?:^| )([a-zA-Z ]+)=(\d+)/g)) at[m[1]] = Number(m[2]);
  return { at, origin, timings, preview };
}

const whole = (d) => d.complete === 'true' && d.final === 'true';

export default [
  {
    name: `${name}: the preview is drawn before the conversion ends, with its banner; the whole trace replaces it as reopening shows it`,
    skip: noEditor,
    timeout: 300_000,
    async run(ctx) {
      const { page, wb, log, screenshot } = ctx;
      bigClog2(ctx);
      await wb.explorerRow(name).waitFor({ timeout: 30_000 });
      await wb.closeAllEditors();
      try {
        await wb.openInCustomEditor(name);
        const opened = wb.lastOpenClick;
        const frame = wb.webview();
        // The preview: its banner, and a complete frame of it.
        let banner;
        let s;
        for (let i = 0; i < 600 && banner === undefined; i++) {
          s = await stages(frame).catch(() => undefined);
          if (s?.preview !== undefined && s.at['first complete'] !== undefined) {
            banner = await frame
              .locator('.status-preview')
              .textContent({ timeout: 1000 })
              .catch(() => undefined);
            if (banner !== undefined) await screenshot('clog2-preview');
          } else if (s?.at.init !== undefined) break;
          else await page.waitForTimeout(50);
        }
        if (banner === undefined) throw new Error(`no preview banner seen before the whole trace (${s?.timings})`);
        if (
          !new RegExp(String.raw`Preview: the first [\d.]+ [mµ]?s of a [\d.]+ s run, ${PREFIX} of [\d.]+ [MG]iB\. Converting the whole file: \d+ %`).test(
            banner,
          )
        )
          throw new Error(`banner: ${banner}`);
        const preview = await dataset(frame);
        // Every view end the page takes from here on, recorded in the page: a snapshot may be up for
        // less than one turn of the polling loop below (it waits for a first snapshot's frame and
        // screenshots it), so polling alone can miss it.
        await frame.locator('body').evaluate((body) => {
          const seen = [];
          window.mpeE2eViewEnds = seen;
          new MutationObserver((changes) => {
            for (const c of changes) {
              const t1 = c.target.dataset?.t1;
              if (t1 !== undefined && seen.at(-1) !== t1) seen.push(t1);
            }
          }).observe(body, { attributes: true, subtree: true, attributeFilter: ['data-t1'] });
        });
        const shown = await frame.locator('.plot canvas.data').evaluate((c) => {
          const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let opaque = 0;
          for (let i = 3; i < px.length; i += 4) if (px[i] >= 128) opaque++;
          return opaque / (c.width * c.height);
        });
        if (!(shown > 0.05)) throw new Error(`the preview painted ${(shown * 100).toFixed(1)} % of the plot`);
        // MPI states are named from the definitions at the file's end, not UnknownType-….
        await frame.locator('button.legend-toggle').click();
        const names = await frame.locator('.legend tr[data-category]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-category')));
        await frame.locator('button.legend-toggle').click();
        if (!names.includes('MPI_Send') || names.some((n) => /^UnknownType/.test(n ?? ''))) throw new Error(`preview legend: ${names.join(', ')}`);

        // The banner follows the whole conversion (with the time left once it can tell) until it is
        // done, while snapshots of the conversion's output fill the view in (seen whole, it follows them).
        const banners = [];
        const views = [];
        let unanswered = 0;
        for (let i = 0; i < 1800; i++) {
          const text = await frame
            .locator('.status-preview')
            .textContent({ timeout: 200 })
            .catch(() => undefined);
          if (text === undefined || text === null) {
            // Gone once the whole trace came (no preview mark); a busy frame just did not answer in time.
            const now = await stages(frame).catch(() => undefined);
            if (now !== undefined && now.preview === undefined) break;
            unanswered++;
            await page.waitForTimeout(100);
            continue;
          }
          if (banners.at(-1) !== text) {
            if (!inPrefix.test(text) && !banners.some((b) => !inPrefix.test(b))) {
              // The first snapshot, once drawn (the last picture stays up until then).
              for (let j = 0; j < 30 && (await dataset(frame).catch(() => undefined))?.complete !== 'true'; j++) await page.waitForTimeout(50);
              await screenshot('clog2-snapshot');
            }
            banners.push(text);
          }
          const v = await dataset(frame).catch(() => undefined);
          if (v?.t1 !== undefined && views.at(-1)?.t1 !== v.t1) views.push({ t1: v.t1 });
          await page.waitForTimeout(100);
        }
        const shownMiB = banners.map((t) => /in the first ([\d.]+) ([MG])iB/.exec(t)).map((m) => (m ? Number(m[1]) * (m[2] === 'G' ? 1024 : 1) : NaN));
        if (!shownMiB.some((m) => m > 4)) throw new Error(`no snapshot of the conversion filled the preview in: ${banners.join(' | ')}`);
        const percents = banners.map((t) => Number(/whole file: (\d+) %/.exec(t)?.[1] ?? NaN));
        if (!percents.some((p) => p > 0)) throw new Error(`the banner's progress never moved: ${banners.join(' | ')}`);
        const withEta = banners.find((t) => / left\)/.test(t));

        // The whole trace replaces it, seen whole.
        const d = await waitFor(page, frame, (x) => whole(x) && Number(x.t1) > Number(preview.t1) * 2, 'the whole trace after the preview', 600);
        const recorded = await frame.locator('body').evaluate(() => window.mpeE2eViewEnds ?? []);
        const polled = views.length;
        for (const t1 of recorded) if (!views.some((v) => v.t1 === t1)) views.push({ t1 });
        log(`view ends: ${polled} seen by polling, ${recorded.length} recorded in the page (${recorded.join(', ')})`);
        const between = views.filter((v) => Number(v.t1) > Number(preview.t1) && Number(v.t1) < Number(d.t1));
        if (between.length === 0)
          throw new Error(`the view never showed a snapshot between the preview (to ${preview.t1}) and the whole trace (to ${d.t1}): ${JSON.stringify(views)}`);
        s = await stages(frame);
        if (s.preview !== undefined) throw new Error('the preview mark stayed after the whole trace came');
        if ((await frame.locator('.status-preview').count()) !== 0) throw new Error('the preview banner stayed after the whole trace came');
        const { previewInit, init } = s.at;
        const firstComplete = s.at['first complete'];
        if (!(previewInit < firstComplete && firstComplete < init)) throw new Error(`expected previewInit < first complete < init: ${s.timings}`);
        const snapshotMiB = [...new Set(shownMiB.filter((m) => m > 4))].map((m) => `${m} MiB`).join(', ');
        log(
          `   preview drawn ${Math.round(s.origin + firstComplete - opened)} ms after the click that opens it (${(shown * 100).toFixed(0)} % of the plot, view to ${Number(preview.t1).toFixed(3)} s); ` +
            `${unanswered} banner reads without an answer; snapshots shown to ${between.map((v) => `${Number(v.t1).toFixed(3)} s`).join(', ')} (${snapshotMiB}); ` +
            `whole trace ${Math.round(s.origin + init - opened)} ms after it (view to ${Number(d.t1).toFixed(3)} s); banner "${banner.trim()}", progress seen ${percents.filter((p) => p >= 0).join(', ')} %${withEta ? `, "${/\(about [^)]*\)/.exec(withEta)?.[0]}"` : ''}; webview ms: ${s.timings}`,
        );

        // Reopened from the cache: the same view and drawables.
        await wb.closeAllEditors();
        await wb.openInCustomEditor(name);
        const again = await waitFor(page, wb.webview(), whole, 'the reopened trace');
        for (const k of ['t0', 't1', 'drawables', 'rowCount']) {
          if (again[k] !== d[k]) throw new Error(`after the preview ${k} = ${d[k]}, reopened ${again[k]}`);
        }
      } finally {
        await wb.closeAllEditors().catch(() => {});
        fs.rmSync(path.join(ctx.workspace, name), { force: true });
      }
    },
  },
];
