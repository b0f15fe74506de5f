// Entry point for extensionTestsPath: runs every test/e2e/suite/*.test.js with mocha INSIDE the extension
// host (real `vscode` API). VS Code awaits run(); a rejection makes the run exit with code 1.
// The extension host's console reaches the workbench page, so every line is prefixed "[mocha] " for the
// driver (test/e2e/run.mjs), and a final "[mocha] RESULT {json}" line carries per-test results.
const fs = require('fs');
const path = require('path');
const util = require('util');
const Mocha = require('mocha');

const say = (...a) => {
  for (const line of util.format(...a).split('\n')) console.log('[mocha] ' + line);
};
Mocha.reporters.Base.consoleLog = say;

exports.run = function run() {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30000, reporter: 'spec' });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js') && (!process.env.MPE_E2E_FILTER || new RegExp(process.env.MPE_E2E_FILTER).test(f)))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    const tests = [];
    const runner = mocha.run((failures) => {
      say('RESULT ' + JSON.stringify({ failures, tests }));
      if (failures) reject(new Error(`${failures} extension-host tests failed.`));
      else resolve();
    });
    const title = (t) => t.fullTitle();
    runner.on('pass', (t) => tests.push({ title: title(t), state: 'passed' }));
    runner.on('pending', (t) => tests.push({ title: title(t), state: 'pending', detail: t.skipReason || 'skipped' }));
    runner.on('fail', (t, err) => tests.push({ title: title(t), state: 'failed', detail: String((err && err.message) || err).split('\n')[0] }));
  });
};
