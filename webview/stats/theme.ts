// Theme colours for canvases and charts, read from VS Code's --vscode-* CSS variables and re-read
// when the theme changes (VS Code swaps the body's vscode-light/dark/high-contrast class).
import { useEffect, useState } from 'preact/hooks';

export interface Theme {
  readonly foreground: string;
  readonly muted: string;
  readonly background: string;
  readonly grid: string;
  readonly accent: string;
  readonly border: string;
  readonly highContrast: boolean;
  readonly font: string;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v === '' ? fallback : v;
}

export function readTheme(): Theme {
  const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  return {
    foreground: cssVar('--vscode-foreground', '#cccccc'),
    muted: cssVar('--vscode-descriptionForeground', '#999999'),
    background: cssVar('--vscode-sideBar-background', cssVar('--vscode-editor-background', '#1e1e1e')),
    grid: cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.35)'),
    accent: cssVar('--vscode-charts-blue', cssVar('--vscode-focusBorder', '#3794ff')),
    border: cssVar('--vscode-contrastBorder', highContrast ? '#ffffff' : 'transparent'),
    highContrast,
    font: `${cssVar('--vscode-font-size', '12px')} ${cssVar('--vscode-font-family', 'sans-serif')}`,
  };
}

export function useTheme(): Theme {
  const [theme, setTheme] = useState(readTheme);
  useEffect(() => {
    const obs = new MutationObserver(() => setTheme(readTheme()));
    obs.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    return () => obs.disconnect();
  }, []);
  return theme;
}
