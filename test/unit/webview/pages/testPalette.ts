// The palette the browser pixel pages draw with: a black background, the given fills (also the
// line colours), and their RGB where the names' text colour needs it.
import type { Palette } from '../../../../webview/timeline/theme';
import type { Rgb } from '../../../../webview/timeline/colour';

export function testPalette(fill: ReadonlyMap<number, string>, fillRgb: ReadonlyMap<number, Rgb> = new Map(), loading = '#303030'): Palette {
  return {
    background: [0, 0, 0],
    backgroundCss: '#000000',
    foreground: '#ffffff',
    muted: '#808080',
    grid: '#202020',
    rowAlt: '#101010',
    border: '#404040',
    accent: '#0080ff',
    accentForeground: '#ffffff',
    selection: 'rgba(0, 128, 255, 0.3)',
    loading,
    highContrast: false,
    font: '12px sans-serif',
    fill,
    fillRgb,
    edge: new Map(),
    line: fill,
    hidden: new Set(),
  };
}
