/**
 * When the stages of opening a trace happened in this webview (ms since the webview document
 * started): the first init, the first coarse and final window payloads (with the host's build
 * time, the nodes read and whether the row index served them) and the first complete frame. Kept
 * in `body[data-open-timings]` for the e2e tests that measure first paint and say where it went.
 */
const seen = new Set<string>();
const parts: string[] = [];

export function markOpenStage(stage: string, detail?: string): void {
  if (seen.has(stage)) return;
  seen.add(stage);
  parts.push(`${stage}=${Math.round(performance.now())}${detail === undefined ? '' : `(${detail})`}`);
  // Through globalThis: the module is also compiled (and unit-tested) without the DOM library.
  const doc = (globalThis as { document?: { body: { dataset: Record<string, string | undefined> } } }).document;
  if (doc === undefined) return;
  doc.body.dataset.openTimings = parts.join(' ');
  // The stages' time zero on the wall clock (ms since 1970), so a test can time from its click.
  doc.body.dataset.openOrigin = String(performance.timeOrigin);
}
