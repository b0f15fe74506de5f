// The same extension-host mocha suites (test/e2e/suite/) in a DESKTOP VS Code, through
// @vscode/test-electron's runner, for machines that have one installed (it cannot be downloaded here:
// see shared/notes/vscode-e2e.md). Not part of `npm test`; our CI uses code-server (test/e2e/run.mjs).
//
//   VSCODE_EXECUTABLE=/path/to/code node test/e2e/desktop.mjs
//
// Loads the development build (run `npm run build` first) with extensionDevelopmentPath = the repository.
import { runTests } from '@vscode/test-electron';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './lib/codeServer.mjs';
import { buildWorkspace } from './lib/workspace.mjs';

const executable = process.env.VSCODE_EXECUTABLE;
if (!executable) {
  console.log('desktop e2e: SKIPPED - set VSCODE_EXECUTABLE to a desktop VS Code binary (none can be downloaded offline)');
  process.exit(0);
}
const run = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-trace-desktop-'));
try {
  const workspace = buildWorkspace(path.join(run, 'workspace'));
  const code = await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: path.join(repoRoot, 'test', 'e2e', 'suite', 'index.js'),
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--user-data-dir',
      path.join(run, 'user-data'),
      '--extensions-dir',
      path.join(run, 'extensions'),
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
    ],
  });
  process.exitCode = code;
} catch (e) {
  console.error(`desktop e2e failed: ${e?.message ?? e}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(run, { recursive: true, force: true });
}
