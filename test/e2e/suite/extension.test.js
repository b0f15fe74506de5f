// The installed extension: present, activates, its contributions are live (stable API only).
const assert = require('assert');
const vscode = require('vscode');
const { pkg, extensionId, extension, contributes, closeAll } = require('./helpers');

suite('extension', () => {
  suiteTeardown(closeAll);

  test('is installed with the version in package.json', () => {
    const ext = extension();
    assert.strictEqual(ext.id.toLowerCase(), extensionId.toLowerCase());
    assert.strictEqual(ext.packageJSON.version, pkg.version);
  });

  test('activates without error', async () => {
    const ext = extension();
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  test('runs in the extension host of the workspace (extensionKind workspace; UI when there is no remote)', () => {
    assert.deepStrictEqual(pkg.extensionKind, ['workspace']);
    // VS Code reports Workspace only when a remote extension host exists (code-server; remote desktops).
    const expected = vscode.env.remoteName ? vscode.ExtensionKind.Workspace : vscode.ExtensionKind.UI;
    assert.strictEqual(extension().extensionKind, expected);
  });

  test('every command in contributes.commands is registered', async function () {
    const declared = (contributes().commands || []).map((c) => c.command);
    if (declared.length === 0) console.log('[mocha] note: contributes.commands is empty');
    await extension().activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  test('every setting in contributes.configuration has its declared default', () => {
    const sections = [].concat(contributes().configuration || []);
    const wrong = [];
    for (const section of sections) {
      for (const [key, schema] of Object.entries(section.properties || {})) {
        if (!('default' in schema)) {
          wrong.push(`${key}: no default declared`);
          continue;
        }
        const inspected = vscode.workspace.getConfiguration().inspect(key);
        if (!inspected) {
          wrong.push(`${key}: unknown to VS Code`);
          continue;
        }
        try {
          assert.deepStrictEqual(inspected.defaultValue, schema.default);
        } catch {
          wrong.push(`${key}: default ${JSON.stringify(inspected.defaultValue)}, declared ${JSON.stringify(schema.default)}`);
        }
        if (!schema.description && !schema.markdownDescription) wrong.push(`${key}: no description`);
      }
    }
    assert.deepStrictEqual(wrong, []);
  });
});
