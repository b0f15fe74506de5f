// Ctrl-C during `mpe-trace convert`: exit code 130, one line, and neither the target nor the
// temporary file remains.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { bundleNode } from '../../helpers/bundle';
import { convertNeedsJobThread } from '../../../src/cli/convertLaunch';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-interrupt-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

function buildCli(): string {
  const out = path.join(dir, 'cli.js');
  bundleNode('src/cli/main.ts', out);
  return out;
}

async function synthesize(file: string, bytes: number): Promise<void> {
  await synthesizeClog2File(file, { ranks: 8, bytes, seed: 7 });
}

// Both ways the CLI runs a conversion: on its main thread (an input for one thread) and in its job
// thread, which the main thread relays the signal to (jobThread.ts).
for (const [way, bytes, inJobThread] of [
  ['on the main thread', 12e6, false],
  ['in the job thread', 30e6, true],
] as const) {
  test(`SIGINT during a conversion ${way} exits 130 and leaves no file`, async () => {
    const cli = buildCli();
    const input = path.join(dir, `big-${bytes}.clog2`);
    await synthesize(input, bytes);
    const outDir = path.join(dir, `out-${bytes}`);
    fs.mkdirSync(outDir);
    const target = path.join(outDir, 'big.slog2');
    assert.equal(convertNeedsJobThread([input, '-o', target]), inJobThread);
    const child = spawn(process.execPath, [cli, 'convert', input, '-o', target], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Interrupt once the temporary output exists (the conversion is under way).
    const deadline = Date.now() + 60_000;
    let sawTemp = false;
    while (Date.now() < deadline && child.exitCode === null) {
      if (fs.readdirSync(outDir).some((f) => f.endsWith('.tmp'))) {
        sawTemp = true;
        child.kill('SIGINT');
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const code = await exited;
    assert.ok(sawTemp, `no temporary file seen (exit ${code}, stderr ${stderr})`);
    assert.equal(code, 130, stderr);
    assert.match(stderr, /interrupted; .* was not written/);
    assert.deepEqual(fs.readdirSync(outDir), []);
  });
}
