/** A window request: what the timeline asks the window service for (it crosses the host ↔ webview wire). */

/** The requested window: visible span plus what the webview wants fetched around it. */
export interface WindowRequest {
  /** Fetched span, absolute seconds (already quantised + over-fetched by the webview, see windowKey.ts). */
  readonly t0: number;
  readonly t1: number;
  /** Row range [rowStart, rowEnd) in the chosen map. */
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly mapIndex: number;
  /** Canvas width in device-independent pixels of the VISIBLE span (drives the level of detail). */
  readonly pixelWidth: number;
  /** Visible span in seconds (pixelWidth covers this much time). */
  readonly visibleSpan: number;
}
