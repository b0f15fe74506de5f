// One uPlot per chart: created when the options change (theme, series), fed with setData, resized
// with the container, destroyed on unmount.
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export function useUplot(
  make: (width: number) => uPlot.Options | undefined,
  data: uPlot.AlignedData | undefined,
  deps: readonly unknown[],
  onCreate?: (u: uPlot) => void,
): { readonly container: RefObject<HTMLDivElement> } {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);

  useEffect(() => {
    const el = container.current;
    if (el === null || data === undefined) return undefined;
    const opts = make(Math.max(120, el.clientWidth));
    if (opts === undefined) return undefined;
    const u = new uPlot(opts, data, el);
    plot.current = u;
    onCreate?.(u);
    const ro = new ResizeObserver(() => {
      const w = Math.max(120, el.clientWidth);
      if (w !== u.width) u.setSize({ width: w, height: u.height });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = undefined;
    };
    // The chart is rebuilt when its inputs change; data-only updates would need stable series.
  }, [...deps, data]);

  return { container };
}
