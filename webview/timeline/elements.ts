/** The DOM elements the timeline draws into and listens on (created by the Preact shell). */
export interface TimelineElements {
  readonly root: HTMLElement;
  readonly axis: HTMLCanvasElement;
  readonly labels: HTMLCanvasElement;
  readonly grid: HTMLCanvasElement;
  readonly data: HTMLCanvasElement;
  readonly overlay: HTMLCanvasElement;
  readonly plot: HTMLElement;
  readonly vscroll: HTMLElement;
  readonly vspacer: HTMLElement;
  readonly overview: HTMLCanvasElement;
  readonly overviewWindow: HTMLElement;
  /** The statistics strip above the plot, and its label in the row-label column. */
  readonly activity: HTMLCanvasElement;
  readonly activityLabel: HTMLElement;
  readonly tooltip: HTMLElement;
}
