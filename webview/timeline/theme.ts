/**
 * Canvas colours from the VS Code theme: reads the --vscode-* CSS variables (and the body's
 * vscode-light / vscode-dark / vscode-high-contrast class), and adjusts category colours for
 * contrast on the editor background. Re-read whenever the theme changes (see watchTheme).
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
  /** CSS colour per category index (adjusted for the background). */
  readonly fill: ReadonlyMap<number, string>;
  readonly fillRgb: ReadonlyMap<number, Rgb>;
  /** Categories the legend hides (not drawn anywhere). */
  readonly hidden: ReadonlySet<number>;
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

export function readPalette(categories: readonly CategoryInfo[], style: CategoryStyle = DEFAULT_STYLE): Palette {
  const css = getComputedStyle(document.body);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const cls = document.body.classList;
  const highContrast = cls.contains('vscode-high-contrast') || cls.contains('vscode-high-contrast-light');
  const light = cls.contains('vscode-light') || cls.contains('vscode-high-contrast-light');
  const backgroundCss = v('--vscode-editor-background', light ? '#ffffff' : '#1e1e1e');
  const background = parseCssColour(backgroundCss) ?? (light ? [255, 255, 255] : [30, 30, 30]);
  const foreground = v('--vscode-editor-foreground', light ? '#333333' : '#cccccc');
  const fill = new Map<number, string>();
  const fillRgb = new Map<number, Rgb>();
  for (const c of categories) {
    const chosen = style.colours.get(c.index);
    // a colour the user picked is drawn as picked; the file's colours are adjusted for contrast
    let rgb = chosen ?? adjustForBackground([c.rgba[0], c.rgba[1], c.rgba[2]], background, highContrast ? 3 : undefined);
    if (style.highlight !== undefined && c.index !== style.highlight && c.index >= 0) {
      const fade = (a: number, b: number): number => Math.round(a * (1 - FADE) + b * FADE);
      rgb = [fade(rgb[0], background[0]), fade(rgb[1], background[1]), fade(rgb[2], background[2])];
    }
    fillRgb.set(c.index, rgb);
    fill.set(c.index, cssRgba(rgb));
  }
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
