// Navigating the timeline as a person does (issue 5): the data canvas shows the category colours at
// the rows of the ranks that logged them, and keyboard (W zoom, D pan, Home) and mouse (wheel zoom at
// the cursor, drag to pan) change the visible window accordingly. The webview publishes the geometry
// of each drawn frame on `.timeline` (data-t0, data-t1, data-row-height, data-scroll-px).
const trace = 'user_states_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

async function view(frame) {
  const d = await frame.locator('.timeline').evaluate((el) => ({ ...el.dataset }));
  return { t0: Number(d.t0), t1: Number(d.t1), rowHeight: Number(d.rowHeight), scrollPx: Number(d.scrollPx) };
}

/** Waits until the drawn window satisfies `test` (the frame after an input is drawn asynchronously). */
async function waitForView(page, frame, test, what) {
  let v;
  for (let i = 0; i < 80; i++) {
    v = await view(frame);
    if (test(v)) return v;
    await page.waitForTimeout(100);
  }
  throw new Error(`${what}; window is [${v?.t0}, ${v?.t1}]`);
}

/** Colours (r,g,b) found along the middle line of each row of the data canvas, per row. */
async function rowColours(frame, rows) {
  return frame.locator('.plot canvas.data').evaluate((c, n) => {
    const root = c.closest('.timeline');
    const rowHeight = Number(root.dataset.rowHeight);
    const scroll = Number(root.dataset.scrollPx);
    const k = c.width / c.clientWidth;
    const g = c.getContext('2d');
    const out = [];
    for (let r = 0; r < n; r++) {
      const y = Math.round((r * rowHeight - scroll + rowHeight / 2) * k);
      const colours = new Set();
      if (y >= 0 && y < c.height) {
        const data = g.getImageData(0, y, c.width, 1).data;
        for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      }
      out.push([...colours]);
    }
    return out;
  }, rows);
}

const near = (rgb, [r, g, b], tol = 48) => {
  const [x, y, z] = rgb.split(',').map(Number);
  return Math.abs(x - r) <= tol && Math.abs(y - g) <= tol && Math.abs(z - b) <= tol;
};

export default [
  {
    name: `${trace}: MPI_Allreduce (purple) is drawn on the rows of ranks 0-3 and nothing on the row below`,
    skip: noEditor,
    timeout: 90_000,
    async run({ page, wb, log }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      await frame.locator('.timeline[data-complete="true"]').waitFor({ timeout: 60_000 });
      const rows = await rowColours(frame, 5);
      const purple = [160, 32, 240]; // MPI_Allreduce in every rank's nested Kernel states
      for (let r = 0; r < 4; r++) {
        if (!rows[r].some((c) => near(c, purple))) throw new Error(`row ${r}: no MPI_Allreduce purple among ${rows[r].length} colours`);
      }
      if (rows[4].some((c) => near(c, purple))) throw new Error('row 4 (no such rank) shows MPI_Allreduce purple');
      log(`   rows 0-3 show MPI_Allreduce; distinct colours per row: ${rows.map((x) => x.length).join(', ')}`);
    },
  },
  {
    name: `${trace}: keyboard W zooms in, D pans right, Home shows the whole trace again`,
    skip: noEditor,
    timeout: 60_000,
    async run({ page, wb, log }) {
      const frame = wb.webview();
      const whole = await view(frame);
      await frame.locator('.timeline').focus();
      await page.keyboard.press('Escape');
      await page.keyboard.press('w');
      const zoomed = await waitForView(page, frame, (v) => v.t1 - v.t0 < (whole.t1 - whole.t0) * 0.9, 'W did not zoom in');
      await page.keyboard.press('d');
      const panned = await waitForView(page, frame, (v) => v.t0 > zoomed.t0 + (zoomed.t1 - zoomed.t0) * 0.01, 'D did not pan right');
      const spanKept = Math.abs(panned.t1 - panned.t0 - (zoomed.t1 - zoomed.t0)) < (zoomed.t1 - zoomed.t0) * 1e-6;
      if (!spanKept) throw new Error('D changed the visible span');
      await page.keyboard.press('Home');
      await waitForView(page, frame, (v) => Math.abs(v.t0 - whole.t0) < 1e-9 && Math.abs(v.t1 - whole.t1) < 1e-9, 'Home did not show the whole trace');
      log(`   span ${(whole.t1 - whole.t0).toFixed(4)} s → W ${(zoomed.t1 - zoomed.t0).toFixed(4)} s → D t0 +${(panned.t0 - zoomed.t0).toFixed(4)} s → Home`);
    },
  },
  {
    name: `${trace}: the mouse wheel zooms at the cursor and a drag pans`,
    skip: noEditor,
    timeout: 60_000,
    async run({ page, wb, log }) {
      const frame = wb.webview();
      const overlay = frame.locator('.plot canvas.overlay');
      const box = await overlay.boundingBox();
      const before = await view(frame);
      const x = box.x + box.width * 0.25;
      const y = box.y + 20;
      const tAtCursor = before.t0 + ((x - box.x) / box.width) * (before.t1 - before.t0);
      await page.mouse.move(x, y);
      await page.mouse.wheel(0, -400);
      const zoomed = await waitForView(page, frame, (v) => v.t1 - v.t0 < (before.t1 - before.t0) * 0.9, 'the wheel did not zoom in');
      const tAfter = zoomed.t0 + ((x - box.x) / box.width) * (zoomed.t1 - zoomed.t0);
      if (Math.abs(tAfter - tAtCursor) > (before.t1 - before.t0) * 0.02) throw new Error(`the time under the cursor moved from ${tAtCursor} to ${tAfter}`);
      await page.mouse.move(box.x + box.width * 0.6, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.4, y, { steps: 5 });
      await page.mouse.up();
      const dragged = await waitForView(page, frame, (v) => v.t0 > zoomed.t0 + (zoomed.t1 - zoomed.t0) * 0.1, 'dragging left did not pan right');
      log(
        `   wheel: span ${(before.t1 - before.t0).toFixed(4)} → ${(zoomed.t1 - zoomed.t0).toFixed(4)} s around t=${tAtCursor.toFixed(4)}; drag: t0 +${(dragged.t0 - zoomed.t0).toFixed(4)} s`,
      );
      await page.keyboard.press('Home');
    },
  },
];
