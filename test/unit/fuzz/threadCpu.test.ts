/**
 * The fuzzer's clock (test/helpers/threadCpu.ts): the calling thread's CPU time, not another
 * thread's (V8's collector threads beside a fuzz case, here a worker spinning beside this one).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { threadCpuMs } from '../../helpers/threadCpu';

const linux = process.platform === 'linux' ? false : 'the thread clock is Linux-only (/proc/thread-self); elsewhere it is process CPU time';

test('threadCpuMs counts this thread spinning', () => {
  const cpu0 = threadCpuMs();
  const until = performance.now() + 300;
  let x = 0;
  while (performance.now() < until) x++;
  const used = threadCpuMs() - cpu0;
  assert.ok(x > 0);
  // 300 ms of wall time spinning; a loaded machine may take some of it away, never add to it
  assert.ok(used <= 320, `${used} ms of CPU in 300 ms of wall time`);
  assert.ok(used >= 30, `only ${used} ms of CPU counted for a 300 ms spin`);
});

test('threadCpuMs does not count another thread spinning', { skip: linux }, async () => {
  const cpu0 = threadCpuMs();
  const process0 = process.cpuUsage();
  const spinner = new Worker('const until = Date.now() + 400; while (Date.now() < until);', { eval: true });
  await new Promise((resolve) => spinner.once('exit', resolve));
  const mine = threadCpuMs() - cpu0;
  const p = process.cpuUsage(process0);
  const processMs = (p.user + p.system) / 1000;
  // the worker's spin is in the process's CPU time and not in this (waiting) thread's
  assert.ok(processMs - mine >= 100, `process ${processMs} ms, this thread ${mine} ms`);
  assert.ok(mine < 150, `this thread used ${mine} ms of CPU while it waited`);
});
