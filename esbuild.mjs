// One build helper, one entry per target (extension host, worker, CLI, webviews).
//   node esbuild.mjs              development build (source maps)
//   node esbuild.mjs --production minified, no source maps (what `npm run package` ships)
//   node esbuild.mjs --watch      rebuild on change
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { CLI_BANNER } from './scripts/cliLauncher.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints esbuild errors in the `file:line:col: error:` form VS Code's problem matchers read. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        if (location) console.error(`${location.file}:${location.line}:${location.column}: error: ${text}`);
        else console.error(`error: ${text}`);
      }
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  plugins: [problemMatcher],
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20' };
const browser = { ...common, platform: 'browser', format: 'iife', target: 'es2022' };

export const targets = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...node, entryPoints: ['src/worker/conversionWorker.ts'], outfile: 'dist/worker.js' },
  { ...node, entryPoints: ['src/worker/converter.ts'], outfile: 'dist/converter.js' },
  { ...node, entryPoints: ['src/worker/analysis.ts'], outfile: 'dist/analysis.js' },
  { ...node, entryPoints: ['src/worker/decoder.ts'], outfile: 'dist/decoder.js' },
  // the CLI: a small launcher (the bin), the whole CLI it loads, and the job thread of `convert`
  { ...node, entryPoints: ['src/cli/launch.ts'], outfile: 'dist/cli.js', banner: { js: CLI_BANNER } },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cliMain.js' },
  { ...node, entryPoints: ['src/cli/convertJobThread.ts'], outfile: 'dist/convertJob.js' },
  { ...browser, entryPoints: ['webview/main.tsx'], outfile: 'dist/webview.js', jsx: 'automatic', jsxImportSource: 'preact', metafile: true },
  { ...browser, entryPoints: ['webview/stats/main.tsx'], outfile: 'dist/stats.js', jsx: 'automatic', jsxImportSource: 'preact', metafile: true },
  { ...browser, entryPoints: ['webview/compare/main.tsx'], outfile: 'dist/compare.js', jsx: 'automatic', jsxImportSource: 'preact', metafile: true },
].filter((t) => fs.existsSync(t.entryPoints[0]));

async function main() {
  if (watch) {
    for (const t of targets) await (await esbuild.context(t)).watch();
    console.log('watching…');
    return;
  }
  const results = await Promise.all(targets.map((t) => esbuild.build(t)));
  for (const [i, r] of results.entries()) {
    if (r.metafile) {
      const out = Object.entries(r.metafile.outputs).find(([f]) => f.endsWith('.js'));
      if (out) console.log(`${targets[i].outfile}: ${(out[1].bytes / 1024).toFixed(1)} KiB`);
    }
  }
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}

main().catch(() => process.exit(1));
