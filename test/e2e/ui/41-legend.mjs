// Legend: a colour picked for a category is drawn at once (exact pixels of that colour on the data canvas),
// and switching the category's "visible" toggle off removes every one of them. The colour goes back to the
// file's at the end (it persists per workspace).
const trace = 'user_states_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');
const PICKED = '#12ab34';

/** Pixels of exactly rgb on the timeline's data canvas. */
function countPixels(frame, rgb) {
  return frame.locator('.plot canvas.data').evaluate((c, [r, g, b]) => {
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255) n++;
    return n;
  }, rgb);
}

async function waitForCount(page, frame, rgb, test, what) {
  let n;
  for (let i = 0; i < 60; i++) {
    n = await countPixels(frame, rgb);
    if (test(n)) return n;
    await page.waitForTimeout(150);
  }
  throw new Error(`${what}: ${n} pixels of ${rgb}`);
}

export default [
  {
    name: 'legend: a picked colour is drawn at once, and V off hides the category',
    skip: noEditor,
    timeout: 90_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      await frame.locator('button.legend-toggle').click();
      const row = frame.locator('.legend tr[data-category="Phase"]');
      await row.waitFor({ timeout: 10_000 });
      const count = await row.locator('td.num').first().innerText();
      if (count !== '24') throw new Error(`legend count of Phase ${count}, expected 24`);
      const rgb = [0x12, 0xab, 0x34];
      await row.locator('input[type="color"]').fill(PICKED);
      const shown = await waitForCount(page, frame, rgb, (n) => n > 50, 'the picked colour is not drawn');
      log(`   Phase in ${PICKED}: ${shown} pixels`);
      await screenshot('legend');
      await row.locator('input[aria-label="visible Phase"]').uncheck();
      await waitForCount(page, frame, rgb, (n) => n === 0, 'Phase still drawn after V off');
      await row.locator('input[aria-label="visible Phase"]').check();
      await waitForCount(page, frame, rgb, (n) => n > 50, 'Phase not drawn again after V on');
      await row.locator('button.reset').click();
      await waitForCount(page, frame, rgb, (n) => n === 0, 'the reset colour is still drawn');
      await wb.closeAllEditors();
    },
  },
];
