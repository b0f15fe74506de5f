// The timeline webview's HTML and options: strict CSP, nonce'd script only, resources from dist/ and media/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';

interface FakeUri {
  readonly path: string;
  toString(): string;
}
const uri = (path: string): FakeUri => ({ path, toString: () => `file://${path}` });
const fakeVscode = { Uri: { joinPath: (base: FakeUri, ...parts: string[]) => uri([base.path, ...parts].join('/')) } };

// webviewHtml.ts imports 'vscode' (only Uri.joinPath at run time): serve a stand-in.
type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Loader };
const originalLoad = moduleWithLoad._load;
moduleWithLoad._load = (request, parent, isMain) => (request === 'vscode' ? fakeVscode : originalLoad(request, parent, isMain));

test('CSP: default-src none, the one script by nonce, styles and fonts from the webview origin only', async () => {
  const { timelineHtml, webviewOptions } = await import('../../../src/host/webviewHtml');
  const ext = uri('/ext');
  const webview = {
    cspSource: 'https://webview.example',
    asWebviewUri: (u: FakeUri) => uri(`/webview${u.path}`),
  };
  const html = timelineHtml(webview as never, ext as never, 'a<b>.slog2');
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k!, v]),
  );
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  const nonce = /^'nonce-([A-Za-z0-9+/=]{16,})'$/.exec(directives.get('script-src')?.[0] ?? '')?.[1];
  assert.ok(nonce, `script-src ${directives.get('script-src')}`);
  // WebAssembly compiled from the script's own bytes (the heads kernel), no other source, no JS eval
  assert.deepEqual(directives.get('script-src')!.slice(1), ["'wasm-unsafe-eval'"], 'no other script source');
  assert.deepEqual(directives.get('style-src'), ['https://webview.example']);
  assert.ok(!csp.includes("'unsafe-inline'") && !csp.includes("'unsafe-eval'"), 'no unsafe-inline / unsafe-eval');
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
  assert.equal(scripts.length, 1);
  assert.ok(scripts[0]!.includes(`nonce="${nonce}"`) && scripts[0]!.includes('/webview/ext/dist/webview.js'));
  assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');
  assert.ok(html.includes('<title>a&#60;b&#62;.slog2</title>'), 'title escaped');
  assert.ok(html.includes('<body data-state="loading" data-renderer="auto">'), 'the renderer setting, auto by default');
  const other = timelineHtml(webview as never, ext as never, 'x', undefined, 'webgl2');
  assert.ok(other.includes(' data-renderer="webgl2">'), 'the renderer setting as given');
  assert.notEqual(/nonce-([^']+)/.exec(other)?.[1], nonce, 'a fresh nonce per page');
  const options = webviewOptions(ext as never);
  assert.equal(options.enableScripts, true);
  assert.deepEqual(
    options.localResourceRoots?.map((r) => (r as unknown as FakeUri).path),
    ['/ext/dist', '/ext/media'],
  );
});

test('boot messages: a JSON data block (not run, so no CSP source) that no string in it can end', async () => {
  const { timelineHtml } = await import('../../../src/host/webviewHtml');
  const webview = { cspSource: 'https://webview.example', asWebviewUri: (u: FakeUri) => uri(`/webview${u.path}`) };
  const boot = [
    { kind: 'init', generation: 3, fileName: 'x</script><script>alert(1)</script>.slog2', warnings: ['<!-- a', 'b\u2028c'] },
    { kind: 'siteMarks', colourings: [] },
  ];
  const html = timelineHtml(webview as never, uri('/ext') as never, 't', boot);
  const blocks = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(blocks.length, 2, 'the data block and the one script: the file name did not end the block');
  const [data, script] = blocks;
  assert.equal(data![1], ' type="application/json" id="boot"');
  assert.ok(!data![2]!.includes('<'), 'every < escaped');
  assert.deepEqual(JSON.parse(data![2]!), boot, 'read back as embedded');
  assert.ok(script![1]!.includes('nonce="'), 'the script still by nonce');
  assert.ok(!timelineHtml(webview as never, uri('/ext') as never, 't').includes('id="boot"'), 'no block without boot messages');
});
