// Dependence chains (issue 18, TraceVis §2.8) in the real editor, on ring_p2p_4: clicking rank 0's
// late-sender MPI_Recv opens a popup that says whom it waited for and how long; "Show dependence
// chain" greys out everything else (the overlay veils a state off the chain and leaves the selected
// state clear), the chain's list starts with the send it waited for (the rank the popup names), and
// clicking an entry selects that state; "What did this delay?" lists the forward tree; closing the
// list lifts the veil.
const trace = 'ring_p2p_4.slog2';
/** Rank 0's MPI_Recv that waited 0.0937 s for rank 3's MPI_Send (wait-state analysis of test/fixtures/ring_p2p_4.slog2). */
const RECV = { row: 0, start: 0.04631994700002906, end: 0.17594602199994824 };
/** A time inside RECV (not where it is clicked) at which rank 2 is in a state off the chain (its MPI_Waitall 0.054–0.160 s). */
const OFF_CHAIN = { row: 2, time: 0.1 };

async function dataset(frame) {
  return frame
    .locator('.timeline')
    .evaluate((el) => ({ ...el.dataset }))
    .catch(() => ({}));
}

/** The overlay canvas's box in the webview's document (the chain's list narrows it when it opens). */
function plotBox(frame) {
  return frame.locator('.plot canvas.overlay').evaluate((c) => {
    const r = c.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  });
}

/** CSS position in the plot of time t on row `row` (geometry from the root's dataset, see layers.ts). */
function plotPoint(d, box, t, row, yShare = 0.5) {
  const slot = d.rows ? d.rows.split(',').map(Number).indexOf(row) : row;
  return {
    x: box.x + ((t - Number(d.t0)) / (Number(d.t1) - Number(d.t0))) * box.width,
    y: box.y + slot * Number(d.rowHeight) - Number(d.scrollPx) + Number(d.rowHeight) * yShare,
  };
}

/** RGBA of one canvas pixel at a CSS point of the page. */
function pixel(frame, selector, p) {
  return frame.locator(selector).evaluate((c, p) => {
    const r = c.getBoundingClientRect();
    const k = c.width / r.width;
    return [...c.getContext('2d').getImageData(Math.round((p.x - r.left) * k), Math.round((p.y - r.top) * k), 1, 1).data];
  }, p);
}

export default [
  {
    name: `${trace}: a late sender's popup, its dependence chain greys out the rest, the list frames states, forward tree, close`,
    skip: ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet'),
    timeout: 120_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      let d = {};
      for (let i = 0; i < 200 && d.complete !== 'true'; i++) {
        d = await dataset(frame);
        if (d.complete !== 'true') await page.waitForTimeout(150);
      }
      const plot = await frame.locator('.plot canvas.overlay').boundingBox();
      // The inner (frame-relative) geometry: points are taken inside the webview's document.
      let inner = await plotBox(frame);
      const mid = (RECV.start + RECV.end) / 2;
      const at = plotPoint(d, inner, mid, RECV.row, 0.7);
      const details = frame.locator('[data-testid="details"]');
      const waiting = frame.locator('[data-testid="details-waiting"]');
      // The popup of the state clicked (it may take the analysis a moment to finish).
      for (let k = 0; k < 20 && (await waiting.count()) === 0; k++) {
        await page.mouse.click(plot.x + (at.x - inner.x), plot.y + (at.y - inner.y));
        await details.first().waitFor({ timeout: 10_000 });
        await page.waitForTimeout(300);
      }
      const category = await details.first().getAttribute('data-category');
      const sentence = (await waiting.first().innerText()).trim();
      log(`   popup ${category}: ${JSON.stringify(sentence)}`);
      if (category !== 'MPI_Recv') throw new Error(`clicked ${category}, expected rank 0's MPI_Recv`);
      const who = /waiting for rank (\d+)'s (MPI_\w+)/.exec(sentence);
      if (!who || !/\(late sender\)/.test(sentence)) throw new Error(`the popup does not say whom it waited for: ${JSON.stringify(sentence)}`);

      const offBefore = await pixel(frame, '.plot canvas.overlay', plotPoint(d, inner, OFF_CHAIN.time, OFF_CHAIN.row));
      await frame.locator('[data-testid="chain-backward"]').first().click();
      const panel = frame.locator('[data-testid="chain-panel"]');
      await panel.locator('.chain-entry').nth(1).waitFor({ timeout: 30_000 });
      const entries = await panel.locator('.chain-entry').allInnerTexts();
      log(`   chain (${entries.length} states):\n${entries.map((e) => `     ${e}`).join('\n')}`);
      if (!entries[0].includes('rank 0 · MPI_Recv') || !entries[0].includes('(selected)')) throw new Error(`first entry ${JSON.stringify(entries[0])}`);
      if (!entries[1].startsWith(`rank ${who[1]} · ${who[2]}`))
        throw new Error(`the first hop ${JSON.stringify(entries[1])} is not rank ${who[1]}'s ${who[2]} the popup named`);
      for (let k = 0; k < 50 && (await dataset(frame)).chainNodes === undefined; k++) await page.waitForTimeout(100);
      await page.mouse.move(5, 5); // no crosshair over the points read below
      await page.waitForTimeout(300);
      d = await dataset(frame);
      inner = await plotBox(frame);
      const off = plotPoint(d, inner, OFF_CHAIN.time, OFF_CHAIN.row);
      const offData = await pixel(frame, '.plot canvas.data', off);
      if (Number(d.chainNodes) !== entries.length) throw new Error(`the timeline shows ${d.chainNodes} chain states, the list ${entries.length}`);
      // Greyed out: off the chain the overlay covers a drawn state with the background; the selected state shows through.
      const offAfter = await pixel(frame, '.plot canvas.overlay', off);
      const onAfter = await pixel(frame, '.plot canvas.overlay', plotPoint(d, inner, OFF_CHAIN.time, RECV.row));
      log(`   off-chain point: data ${offData}, overlay ${offBefore} → ${offAfter}; selected state overlay ${onAfter}`);
      if (offData[3] !== 255) throw new Error(`no drawn state at the off-chain point (data pixel ${offData})`);
      if (!(offAfter[3] >= 150 && offBefore[3] < 100))
        throw new Error(`the off-chain state is not greyed out (overlay alpha ${offBefore[3]} → ${offAfter[3]})`);
      if (onAfter[3] > 40) throw new Error(`the selected state is veiled too (overlay alpha ${onAfter[3]})`);
      await screenshot('dependence-chain');

      // An entry of the list selects and frames its state.
      await panel.locator('.chain-entry').nth(1).click();
      const hop = /(\d[\d.e-]*) s – (\d[\d.e-]*) s/.exec(entries[1]);
      for (let k = 0; k < 50; k++) {
        d = await dataset(frame);
        if (d.selStart !== undefined && Math.abs(Number(d.selStart) - Number(hop[1])) <= 1e-3 * Math.max(1, Number(hop[1]))) break;
        await page.waitForTimeout(100);
      }
      log(`   entry 1 selected [${d.selStart}, ${d.selEnd}] row ${d.selRow}; view [${d.t0}, ${d.t1}]`);
      if (Number(d.selRow) !== Number(who[1]) || Math.abs(Number(d.selStart) - Number(hop[1])) > 1e-3 * Math.max(1, Number(hop[1])))
        throw new Error(`the entry did not select rank ${who[1]}'s state at ${hop[1]} s (selected ${d.selStart} on row ${d.selRow})`);
      if (!(Number(d.t0) <= Number(d.selStart) && Number(d.selEnd) <= Number(d.t1))) throw new Error('the selected state is not in view');

      // Forward from the same state: its entry frames it again, then "What did this delay?".
      await panel.locator('.chain-entry').first().click();
      for (let k = 0; k < 50; k++) {
        d = await dataset(frame);
        if (d.complete === 'true' && Math.abs(Number(d.selStart) - RECV.start) < 1e-6) break;
        await page.waitForTimeout(100);
      }
      const again = plotPoint(d, inner, mid, RECV.row, 0.7);
      await page.mouse.click(plot.x + (again.x - inner.x), plot.y + (again.y - inner.y));
      await frame.locator('[data-testid="chain-forward"]').first().click();
      await panel.getByText('What it delayed').waitFor({ timeout: 30_000 });
      await panel.locator('.chain-entry').nth(1).waitFor({ timeout: 30_000 });
      const forward = await panel.locator('.chain-entry').allInnerTexts();
      log(`   forward (${forward.length} states): ${forward.slice(0, 4).join(' | ')}`);
      if (!forward.slice(1).some((e) => /waited .* for rank 0's MPI_Recv|the next call on rank 0 that others waited for/.test(e)))
        throw new Error('the forward tree has no state linked to the selected receive');

      // Closing the list lifts the veil.
      await panel.locator('.timeslice-close').click();
      for (let k = 0; k < 50 && (await dataset(frame)).chainNodes !== undefined; k++) await page.waitForTimeout(100);
      await page.mouse.move(5, 5);
      await page.waitForTimeout(300);
      d = await dataset(frame);
      inner = await plotBox(frame);
      const lifted = await pixel(frame, '.plot canvas.overlay', plotPoint(d, inner, OFF_CHAIN.time, OFF_CHAIN.row));
      if (d.chainNodes !== undefined || lifted[3] >= 100) throw new Error(`the veil stayed after closing (chainNodes ${d.chainNodes}, alpha ${lifted[3]})`);
      await wb.closeAllEditors();
    },
  },
];
