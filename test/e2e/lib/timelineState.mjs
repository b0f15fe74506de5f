// What a UI step reads from the trace editor's webview: the timeline's data attributes (with the
// plot's height), waiting for a condition on them, and the open stages the webview records
// (webview/timeline/openTimings.ts) with the wall-clock time of its first complete frame.

/** The `.timeline` element's data attributes, plus the plot's height in CSS px. */
export function timelineData(frame) {
  return frame.locator('.timeline').evaluate((el) => ({ ...el.dataset, plotHeight: el.querySelector('.plot')?.clientHeight }));
}

/** Polls the timeline's data attributes until `test` holds (every 150 ms, `tries` times). */
export async function waitForTimeline(page, frame, test, what, tries = 300) {
  let d;
  for (let i = 0; i < tries; i++) {
    d = await timelineData(frame).catch(() => undefined);
    if (d !== undefined && test(d)) return d;
    await page.waitForTimeout(150);
  }
  throw new Error(`${what}: not reached (${JSON.stringify(d)})`);
}

/** The open stages (`body[data-open-timings]`) and when the first complete frame was drawn, on the wall clock. */
export async function firstComplete(frame) {
  const { timings, origin } = await frame.locator('body').evaluate((b) => ({ timings: b.dataset.openTimings ?? '', origin: Number(b.dataset.openOrigin) }));
  const m = /first complete=(\d+)/.exec(timings);
  return { at: m && Number.isFinite(origin) ? origin + Number(m[1]) : undefined, timings };
}
