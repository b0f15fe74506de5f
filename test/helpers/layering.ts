// The layering table: the rooms of the code and the arrows allowed between them (mirrored in
// docs/ARCHITECTURE.md, "Layers"). `layeringProblems(root)` lists every import that crosses rooms
// without an allowed arrow, and every impure import (vscode, node:*, preact/uplot, DOM) in the
// pure rooms. Used by test/unit/layering.test.ts on the tree and on synthetic trees.
import fs from 'node:fs';
import path from 'node:path';

/** `value`: values and types may be imported; `type`: `import type` only (erased from bundles). */
type Arrow = 'value' | 'type';

const FORMATS = ['slog2', 'clog2', 'clog', 'srcloc', 'convert', 'alog', 'slog1'] as const;
const formats = (...names: (typeof FORMATS)[number][]): string[] => names.map((n) => `core/formats/${n}`);
const allFormats = formats(...FORMATS);
/** Every core room. */
const CORE = [
  'core/bytes',
  'core/model',
  ...allFormats,
  'core/formats/detectFormat',
  'core/info',
  'core/index',
  'core/query',
  'core/stats',
  'core/search',
  'core/analysis',
  'core/compare',
  'core/bookmarks',
  'core/sourcePath',
  'core/synth',
  'core/viewLink',
  'core/text',
];
/** The one core module the webview may import values from (quantised window keys, shared with the host). */
export const WEBVIEW_CORE_MODULE = 'src/core/query/windowKey.ts';

const values = (rooms: readonly string[]): Record<string, Arrow> => Object.fromEntries(rooms.map((r) => [r, 'value']));
const types = (rooms: readonly string[]): Record<string, Arrow> => Object.fromEntries(rooms.map((r) => [r, 'type']));

/**
 * room → the rooms it may import. Formats sit at the bottom (above bytes and the model); a format
 * may use the converter's records (convert) and SLOG-2's tree for source locations; everything
 * above reads formats; nothing below reaches up.
 */
export const ALLOWED: Record<string, Record<string, Arrow>> = {
  'core/bytes': {},
  'core/model': values(['core/bytes']),
  // The conversion summary names each input format's own facts (types only).
  'core/formats/convert': { ...values(['core/bytes', 'core/model']), ...types(formats('clog2', 'alog', 'slog1')) },
  'core/formats/clog2': values(['core/bytes', 'core/model', ...formats('convert')]),
  'core/formats/clog': values(['core/bytes', 'core/model', ...formats('convert', 'clog2')]),
  'core/formats/srcloc': values(['core/bytes', 'core/model', ...formats('slog2')]),
  'core/formats/slog2': values(['core/bytes', 'core/model', ...formats('convert', 'srcloc')]),
  'core/formats/alog': values(['core/bytes', 'core/model', ...formats('convert')]),
  'core/formats/slog1': values(['core/bytes', 'core/model', ...formats('convert')]),
  // Which format a file's first bytes are: asks every format's own sniffer.
  'core/formats/detectFormat': values(['core/bytes', 'core/model', ...allFormats]),
  'core/info': values(['core/bytes', 'core/model', ...allFormats, 'core/formats/detectFormat', 'core/text']),
  'core/index': values(['core/bytes', 'core/model', ...allFormats]),
  'core/stats': values(['core/bytes', 'core/model', ...allFormats, 'core/text']),
  'core/search': values(['core/bytes', 'core/model', ...allFormats]),
  'core/query': values(['core/bytes', 'core/model', ...allFormats, 'core/index', 'core/stats']),
  'core/analysis': values(['core/bytes', 'core/model', ...allFormats, 'core/index', 'core/query', 'core/stats', 'core/search']),
  'core/compare': values(['core/bytes', 'core/model', ...allFormats, 'core/index', 'core/query', 'core/stats', 'core/search', 'core/analysis']),
  'core/bookmarks': values(['core/viewLink']),
  'core/sourcePath': {},
  'core/synth': values(['core/bytes', 'core/model', ...allFormats]),
  'core/viewLink': {},
  // Escaping untrusted text for terminals and spreadsheets (issue 14): a leaf.
  'core/text': {},
  protocol: values(CORE),
  io: values(CORE),
  // The conversion job over Node (input, converter thread, atomic output): used by cli, worker, host.
  convert: values([...CORE, 'protocol', 'io']),
  worker: values([...CORE, 'protocol', 'io', 'convert']),
  cli: values([...CORE, 'io', 'convert']),
  host: values([...CORE, 'protocol', 'io', 'convert', 'worker']),
  extension: values(['host', 'worker']),
  // The webviews: protocol values (the wire decoder), WEBVIEW_CORE_MODULE, and core types.
  webview: { ...types(CORE), protocol: 'value' },
  // The browser harness (bench, manual checks without VS Code) stands in for the host.
  'webview/dev': values([...CORE, 'protocol', 'webview']),
};

/** Rooms that run everywhere: no vscode, node:*, preact/uplot or DOM. */
const PURE = (room: string): boolean => room.startsWith('core/') || room === 'protocol';

/** The room of a repo-relative path (posix), or undefined outside src/ and webview/. */
export function roomOf(rel: string): string | undefined {
  const p = rel.split('/');
  if (p[0] === 'webview') return p[1] === 'dev' ? 'webview/dev' : 'webview';
  if (p[0] !== 'src') return undefined;
  if (p.length === 2) return p[1] === 'extension.ts' ? 'extension' : `src/${p[1]}`;
  if (p[1] === 'core') {
    if (p[2] === 'formats') return `core/formats/${(p[3] ?? '').replace(/\.tsx?$/, '')}`;
    return `core/${(p[2] ?? '').replace(/\.tsx?$/, '')}`;
  }
  return p[1];
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// `import … from 'x'`, `export … from 'x'` (with `type` or not), dynamic import() and require().
const IMPORT = /(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;
const NODE_BUILTINS = new Set([
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'worker_threads',
  'stream',
  'zlib',
  'util',
  'events',
  'url',
  'buffer',
  'readline',
  'perf_hooks',
  'assert',
  'net',
  'http',
  'https',
  'process',
]);
const DOM_GLOBALS = /\b(HTMLElement|HTMLCanvasElement|CanvasRenderingContext2D|requestAnimationFrame|localStorage|navigator)\b/;

/** True when an import brings in types only (`import type`, or every named binding marked `type`). */
function typeOnly(typeKeyword: string | undefined, clause: string): boolean {
  if (typeKeyword) return true;
  const named = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!named) return false;
  const parts = named[1]!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return parts.length > 0 && parts.every((s) => s.startsWith('type '));
}

/** Every layering problem under `root` (a repository or a synthetic tree with src/ and webview/). */
export function layeringProblems(root: string): string[] {
  const problems: string[] = [];
  for (const file of [...filesUnder(path.join(root, 'src')), ...filesUnder(path.join(root, 'webview'))]) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    const from = roomOf(rel);
    if (from === undefined) continue;
    const allowed = ALLOWED[from];
    if (allowed === undefined) {
      problems.push(`${rel}: room ${from} is not in the layering table`);
      continue;
    }
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[4] ?? m[5] ?? m[6] ?? '';
      const isType = m[4] !== undefined && typeOnly(m[2], m[3] ?? '');
      if (PURE(from) && (spec === 'vscode' || spec.startsWith('node:') || NODE_BUILTINS.has(spec) || spec.startsWith('preact') || spec.startsWith('uplot'))) {
        problems.push(`${rel}: ${from} imports ${spec}`);
      }
      if (!spec.startsWith('.')) continue;
      const targetRel = path
        .relative(root, path.resolve(path.dirname(file), spec))
        .split(path.sep)
        .join('/');
      const to = roomOf(targetRel.endsWith('.ts') || targetRel.endsWith('.tsx') ? targetRel : `${targetRel}.ts`);
      if (to === undefined || to === from) continue;
      const arrow = allowed[to];
      const webviewCore = from === 'webview' && `${targetRel}.ts` === WEBVIEW_CORE_MODULE;
      if (webviewCore) continue;
      if (arrow === 'value' || (arrow === 'type' && isType)) continue;
      problems.push(`${rel}: ${from} → ${to}${isType ? ' (type)' : ''} is not an allowed arrow (${spec})`);
    }
    if (PURE(from)) {
      const code = text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      const dom = DOM_GLOBALS.exec(code);
      if (dom) problems.push(`${rel}: ${from} uses DOM global ${dom[1]}`);
    }
  }
  return problems;
}
