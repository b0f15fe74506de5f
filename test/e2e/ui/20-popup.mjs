// Hovering a drawn state in the timeline shows a popup naming its category (a real category of the trace,
// from test/fixtures/user_states_4.facts.json). Guarded: needs the custom editor and a webview with a
// role="tooltip" element.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../lib/codeServer.mjs';

const trace = 'user_states_4.slog2';
const facts = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'user_states_4.facts.json'), 'utf8'));
const categoryNames = facts.slog2.categories.filter((c) => c.drawables > 0).map((c) => c.name);

/** CSS position (relative to the canvas) of a pixel inside a drawn state: a long horizontal run of one opaque colour. */
async function findDrawnState(frame) {
  return frame.locator('canvas').evaluateAll((all) => {
    const area = (c) => c.width * c.height;
    const largest = Math.max(...all.map(area));
    let best;
    all.forEach((c, index) => {
      if (area(c) !== largest) return;
      const g = c.getContext('2d');
      if (!g) return;
      const { data, width, height } = g.getImageData(0, 0, c.width, c.height);
      const colours = new Set();
      for (let i = 0; i < data.length && colours.size < 50; i += 16) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      if (best && best.colours >= colours.size) return;
      // Scan rows (from the top, starting a third of the way in) for a run of >= 12 identical opaque pixels.
      for (let y = 6; y < height - 2; y += 3) {
        let run = 0;
        for (let x = Math.floor(width / 3); x < width; x++) {
          const i = (y * width + x) * 4;
          const same = data[i + 3] === 255 && data[i] === data[i - 4] && data[i + 1] === data[i - 3] && data[i + 2] === data[i - 2] && data[i - 1] === 255;
          run = same ? run + 1 : 0;
          if (run >= 12) {
            const rect = c.getBoundingClientRect();
            best = { index, colours: colours.size, x: ((x - 6) * rect.width) / width, y: (y * rect.height) / height };
            return;
          }
        }
      }
    });
    return best;
  });
}

export default [
  {
    name: `hovering a state in ${trace} shows a popup naming its category`,
    skip: ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet'),
    timeout: 90_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      const tooltip = frame.locator('[role="tooltip"]');
      await frame.locator('canvas').first().waitFor({ timeout: 30_000 });
      if ((await tooltip.count()) === 0) throw new Error('the webview has no [role="tooltip"] element');
      let spot;
      for (let i = 0; i < 40 && !spot; i++) {
        spot = await findDrawnState(frame);
        if (!spot) await page.waitForTimeout(250);
      }
      if (!spot) throw new Error('no drawn state found on the timeline canvas');
      const box = await frame.locator('canvas').nth(spot.index).boundingBox();
      await page.mouse.move(box.x + spot.x - 3, box.y + spot.y);
      await page.mouse.move(box.x + spot.x, box.y + spot.y);
      await tooltip.waitFor({ state: 'visible', timeout: 10_000 });
      const text = (await tooltip.innerText()).trim();
      log(`   popup at (${spot.x.toFixed(0)}, ${spot.y.toFixed(0)}): ${JSON.stringify(text)}`);
      const named = categoryNames.find((n) => text.includes(n));
      if (!named) throw new Error(`popup ${JSON.stringify(text)} names none of the trace's categories (${categoryNames.join(', ')})`);
      await screenshot('popup');
      await page.mouse.move(5, 5);
      await wb.closeAllEditors();
    },
  },
];
