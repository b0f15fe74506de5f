/**
 * The words and numbers the editor shows on a recorded source line: the CodeLens title and the
 * hover's tables (pure text, so the host only wires them and tests read them).
 */
import type { SitePartStat, SiteStat } from './siteStats';
import { siteShare, type SiteProfile } from './siteIndex';

/** 0.0403 → "40.3 ms"; three significant digits, s / ms / µs / ns. */
export function formatSeconds(t: number): string {
  const a = Math.abs(t);
  if (a === 0) return '0 s';
  if (a >= 1) return `${trim(t)} s`;
  if (a >= 1e-3) return `${trim(t * 1e3)} ms`;
  if (a >= 1e-6) return `${trim(t * 1e6)} µs`;
  return `${trim(t * 1e9)} ns`;
}

function trim(v: number): string {
  return String(Number(v.toPrecision(3)));
}

export function formatShare(share: number): string {
  return `${(share * 100).toFixed(share >= 0.1 ? 1 : 2)} %`;
}

/** "24× · 967 ms total · mean 40.3 ms · worst rank 2" */
export function lensTitle(site: SiteStat): string {
  const parts = [`${site.count}×`, `${formatSeconds(site.total)} total`, `mean ${formatSeconds(site.mean)}`];
  if (site.worstRank !== '') parts.push(`worst rank ${site.worstRank}`);
  return parts.join(' · ');
}

const MAX_HOVER_RANKS = 8;

function partRow(name: string, p: SitePartStat): string {
  return `| ${escapeCell(name)} | ${p.count} | ${formatSeconds(p.total)} | ${formatSeconds(p.min)} | ${formatSeconds(p.median)} | ${formatSeconds(p.max)} |`;
}

function escapeCell(s: string): string {
  return s.replace(/[|\\`*_[\]<>]/g, (c) => `\\${c}`);
}

/** The hover's Markdown body (without the command links): share, per category and per rank tables. */
export function hoverTables(site: SiteStat, profile: Pick<SiteProfile, 'range' | 'timelines'>, rangeNote: string): string {
  const head = '| | count | total | min | median | max |\n|---|--:|--:|--:|--:|--:|';
  const lines = [
    `**${escapeCell(site.file)}:${site.line}** — ${lensTitle(site)}, ${formatShare(siteShare(site, profile))} of the trace's time (${rangeNote})`,
    '',
    head.replace('| |', '| category |'),
    ...Object.entries(site.byCategory).map(([name, p]) => partRow(name, p)),
    '',
    head.replace('| |', '| rank |'),
    ...site.byRank.slice(0, MAX_HOVER_RANKS).map((r) => partRow(r.rank, r)),
  ];
  if (site.byRank.length > MAX_HOVER_RANKS) lines.push('', `… ${site.byRank.length - MAX_HOVER_RANKS} more ranks (\`mpe-trace stats --by site --json\`)`);
  return lines.join('\n');
}
