// Region selection (issue 17, region → code): Ctrl+Shift+drag over the timeline selects a range of
// time over the rows dragged across only (rows 1 and 2 of user_states_4), shaded over those rows,
// and the statistics strip counts those 2 rows; Esc clears it. (What the host does with the region's rows — the sites of the code it came from —
// is checked in the extension-host suite, sourceLens.test.js.)
const trace = 'user_states_4.slog2';

export default [
  {
    name: `${trace}: Ctrl+Shift+drag selects a region of rows 1–2 × time; Esc clears it`,
    skip: ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet'),
    timeout: 90_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      const root = frame.locator('.timeline');
      let d = {};
      for (let i = 0; i < 200 && d.complete !== 'true'; i++) {
        d = await root.evaluate((el) => ({ ...el.dataset })).catch(() => ({}));
        if (d.complete !== 'true') await page.waitForTimeout(150);
      }
      const box = await frame.locator('.plot canvas.overlay').boundingBox();
      const rowY = (slot) => box.y + slot * Number(d.rowHeight) - Number(d.scrollPx) + Number(d.rowHeight) / 2;
      await page.mouse.move(box.x + box.width * 0.2, rowY(1));
      await page.keyboard.down('Control');
      await page.keyboard.down('Shift');
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.3, rowY(1.5), { steps: 4 });
      await page.mouse.move(box.x + box.width * 0.4, rowY(2), { steps: 4 });
      await page.mouse.up();
      await page.keyboard.up('Shift');
      await page.keyboard.up('Control');
      for (let i = 0; i < 40 && d.rangeRows === undefined; i++) {
        await page.waitForTimeout(100);
        d = await root.evaluate((el) => ({ ...el.dataset }));
      }
      log(`   region: rows ${d.rangeRows}, [${d.rangeStart}, ${d.rangeEnd}] s`);
      if (d.rangeRows !== '1,2') throw new Error(`region rows ${JSON.stringify(d.rangeRows)}, expected "1,2"`);
      if (!(Number(d.rangeStart) < Number(d.rangeEnd))) throw new Error('no time range with the region');
      // The statistics strip counts the region's rows only.
      let label = '';
      for (let i = 0; i < 40 && !/2 rows/.test(label); i++) {
        await page.waitForTimeout(100);
        label = await frame.locator('.activity-label').innerText();
      }
      log(`   strip: ${label}`);
      if (!/· 2 rows ·/.test(label)) throw new Error(`the strip does not count the region's 2 rows: ${JSON.stringify(label)}`);
      await screenshot('region');
      await page.keyboard.press('Escape');
      for (let i = 0; i < 40 && d.rangeRows !== undefined; i++) {
        await page.waitForTimeout(100);
        d = await root.evaluate((el) => ({ ...el.dataset }));
      }
      if (d.rangeRows !== undefined || d.rangeStart !== undefined) throw new Error('Esc did not clear the region');
      await wb.closeAllEditors();
    },
  },
];
