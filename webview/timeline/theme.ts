/**
 * Canvas colours from the VS Code theme: reads the --vscode-* CSS variables (and the body's
 * vscode-light / vscode-dark / vscode-high-contrast class). States are filled with the trace's exact
 * RGB (as Jumpshot-4 draws them, and as the legend's swatch shows); where that colour has too little
 * contrast with the editor background (yellow or white on a light theme) only their border is drawn
 * in a contrasting shade. Arrows and events are lines, all border: they use that shade.
 * Re-read whenever the theme changes (see watchTheme).
 */
import type { CategoryInfo } from '../../src/protocol/webview';
import { adjustForBackground, cssRgba, parseCssColour, type Rgb } from './colour';
import { textOn } from './drawStyle';

export interface Palette {
  readonly background: Rgb;
  readonly backgroundCss: string;
  readonly foreground: string;
  readonly muted: string;
  readonly grid: string;
  readonly rowAlt: string;
  readonly border: string;
  readonly accent: string;
  /** Text on the accent colour. */
  readonly accentForeground: string;
  readonly selection: string;
  readonly loading: string;
  readonly highContrast: boolean;
  readonly font: string;
  /** CSS colour per category index: the trace's (or the user's) exact RGB. */
  readonly fill: ReadonlyMap<number, string>;
  readonly fillRgb: ReadonlyMap<number, Rgb>;
  /** Border colour of the categories whose fill has too little contrast with the background. */
  readonly edge: ReadonlyMap<number, string>;
  /** Colour of arrows and events (lines): the fill, shaded for contrast when needed. */
  readonly line: ReadonlyMap<number, string>;
  /** Categories the legend hides (not drawn anywhere). */
  readonly hidden: ReadonlySet<number>;
  /** Drawing key of a located drawable from its flags (site marks, siteStyle.ts); absent: its category. */
  readonly siteKey?: (cat: number, flags: number) => number;
  /** Drawing key of a category's share in a preview box (they carry no sites: faded while sites are shown). */
  readonly previewKey?: (cat: number) => number;
}

/** The user's legend choices: hidden categories and colours replacing the file's. */
export interface CategoryStyle {
  readonly hidden: ReadonlySet<number>;
  readonly colours: ReadonlyMap<number, Rgb>;
  /** One category stands out: the others are faded toward the background. */
  readonly highlight?: number;
}

export const DEFAULT_STYLE: CategoryStyle = { hidden: new Set(), colours: new Map() };

const FADE = 0.75;

/** Per category: exact fill, contrasting border (only where needed) and line colour (pure). */
export function categoryColours(
  categories: readonly Pick<CategoryInfo, 'index' | 'rgba'>[],
  style: CategoryStyle,
  background: Rgb,
  highContrast: boolean,
): Pick<Palette, 'fill' | 'fillRgb' | 'edge' | 'line'> {
  const fill = new Map<number, string>();
  const fillRgb = new Map<number, Rgb>();
  const edge = new Map<number, string>();
  const line = new Map<number, string>();
  const fade = (rgb: Rgb): Rgb => {
    const f = (a: number, b: number): number => Math.round(a * (1 - FADE) + b * FADE);
    return [f(rgb[0], background[0]), f(rgb[1], background[1]), f(rgb[2], background[2])];
  };
  for (const c of categories) {
    const chosen = style.colours.get(c.index);
    const exact: Rgb = chosen ?? [c.rgba[0], c.rgba[1], c.rgba[2]];
    // a colour the user picked is drawn as picked; the file's get a contrasting border when needed
    const shaded = chosen ?? adjustForBackground(exact, background, highContrast ? 3 : undefined);
    const faded = style.highlight !== undefined && c.index !== style.highlight && c.index >= 0;
    const rgb = faded ? fade(exact) : exact;
    fillRgb.set(c.index, rgb);
    fill.set(c.index, cssRgba(rgb));
    line.set(c.index, cssRgba(faded ? fade(shaded) : shaded));
    if (shaded !== exact) edge.set(c.index, cssRgba(faded ? fade(shaded) : shaded));
  }
  return { fill, fillRgb, edge, line };
}

export function readPalette(categories: readonly CategoryInfo[], style: CategoryStyle = DEFAULT_STYLE): Palette {
  const css = getComputedStyle(document.body);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const cls = document.body.classList;
  const highContrast = cls.contains('vscode-high-contrast') || cls.contains('vscode-high-contrast-light');
  const light = cls.contains('vscode-light') || cls.contains('vscode-high-contrast-light');
  const backgroundCss = v('--vscode-editor-background', light ? '#ffffff' : '#1e1e1e');
  const background = parseCssColour(backgroundCss) ?? (light ? [255, 255, 255] : [30, 30, 30]);
  const foreground = v('--vscode-editor-foreground', light ? '#333333' : '#cccccc');
  const { fill, fillRgb, edge, line } = categoryColours(categories, style, background, highContrast);
  const fg = parseCssColour(foreground) ?? [200, 200, 200];
  const accent = v('--vscode-focusBorder', '#007fd4');
  return {
    background,
    backgroundCss,
    foreground,
    muted: v('--vscode-descriptionForeground', cssRgba(fg, 0.7)),
    grid: cssRgba(fg, highContrast ? 0.35 : 0.12),
    rowAlt: cssRgba(fg, highContrast ? 0 : 0.035),
    border: v('--vscode-contrastBorder', '') || v('--vscode-editorWidget-border', cssRgba(fg, 0.3)),
    accent,
    accentForeground: cssRgba(textOn(parseCssColour(accent) ?? [0, 127, 212])),
    selection: v('--vscode-editor-selectionBackground', 'rgba(38,79,120,0.5)'),
    loading: cssRgba(fg, 0.1),
    highContrast,
    font: `${v('--vscode-editor-font-size', '12px').replace(/^(\d+)$/, '$1px')} ${v('--vscode-font-family', 'sans-serif')}`,
    fill,
    fillRgb,
    edge,
    line,
    hidden: style.hidden,
  };
}

/** Calls `onChange` when the theme changes (body class or the root's CSS variables). */
export function watchTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(() => onChange());
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-id'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  return () => observer.disconnect();
}
