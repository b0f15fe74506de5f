// Source → timeline in the browser: searching `user_states.c:80` (Phase's SRCLOC site) in the
// timeline of user_states_4.clog2 steps through its occurrences ("3 of 24" after three Next: 24
// Phase states in the facts) and greys out every drawable that did not come from that site — the
// whole-trace view has MPI_Barrier's exact yellow (255,255,0) before and none while the search is
// open; closing the search brings it back.
const trace = 'user_states_4.clog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

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
  for (let i = 0; i < 120; i++) {
    const g = await timeline.evaluate((el) => ({ ...el.dataset }));
    if (g.complete === 'true') return g;
    await page.waitForTimeout(250);
  }
  throw new Error('the timeline did not finish loading');
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
];
