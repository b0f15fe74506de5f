// CLOG2 read + convert benchmark (issue 3): synthesize ~300 MB CLOG2 files with 2 and 64 ranks in a
// temp dir, then read + convert each in a fresh child process (so its peak RSS is the reader's own)
// and print MB/s, drawables/s and peak RSS; the temp files are deleted afterwards. Reference:
// clog2TOslog2 ~30 MB/s and 300–480 MB peak RSS on 310 MB; targets ≥ 300 MB/s, ≤ 200 MB RSS.
//   MPE_BENCH_CLOG2_MB=50 node test/bench/run.mjs clog2      (smaller inputs)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chunksOf } from '../../src/core/bytes/memorySource';
import { convertClog2 } from '../../src/core/formats/clog2/convertClog2';
import { synthesizeClog2 } from '../../src/core/synth/synthClog2';
import { FileSource } from '../../src/io/fileSource';
import { describeBaseline, ratio, readScanBaseline } from './baseline';

const targetMB = Number(process.env.MPE_BENCH_CLOG2_MB ?? 300);

async function synthesize(file: string, ranks: number): Promise<void> {
  const handle = await open(file, 'w');
  let position = 0;
  try {
    const t0 = performance.now();
    const report = await synthesizeClog2({
      ranks,
      bytes: targetMB * 1e6,
      seed: ranks,
      sink: async (chunk) => {
        await handle.write(chunk, 0, chunk.length, position);
        position += chunk.length;
      },
      rewritePreamble: async (preamble) => {
        await handle.write(preamble, 0, preamble.length, 0);
      },
    });
    const s = (performance.now() - t0) / 1000;
    console.log(`synth   --ranks ${ranks}: ${(report.bytes / 1e6).toFixed(1)} MB in ${s.toFixed(1)} s (${(report.bytes / 1e6 / s).toFixed(0)} MB/s)`);
  } finally {
    await handle.close();
  }
}

/** Node's read stream as ByteChunks (1 MiB chunks, no extra copy). */
async function* fileStream(file: string): AsyncGenerator<Uint8Array> {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
}

/** Child process: read + convert one file, discarding the drawables as a streaming consumer would. */
async function child(file: string, how: string): Promise<void> {
  const baseline = await readScanBaseline(file);
  console.log(describeBaseline(baseline));
  const source = await FileSource.open(file);
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const chunks = how === 'stream' ? fileStream(file) : chunksOf(source, 1 << 20);
    const conversion = convertClog2(chunks, { name: file });
    let drawables = 0;
    let lastLatest = -Infinity;
    let outOfOrder = 0;
    for await (const batch of conversion.batches) {
      drawables += batch.length;
      for (const p of batch) {
        if (p.latest < lastLatest) outOfOrder++;
        lastLatest = p.latest;
      }
    }
    const s = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const mb = source.size / 1e6;
    const summary = conversion.summary;
    const cpuS = (cpu.user + cpu.system) / 1e6;
    console.log(
      `read (${how === 'stream' ? 'fs read stream' : 'FileSource chunks'}) ${mb.toFixed(1)} MB in ${s.toFixed(2)} s wall: ${(mb / s).toFixed(1)} MB/s, ${(drawables / s / 1e6).toFixed(2)} M drawables/s; CPU ${cpuS.toFixed(2)} s = ${(mb / cpuS).toFixed(0)} MB per CPU-second (${drawables} drawables); ${ratio(s, baseline)}`,
    );
    console.log(
      `        ${summary.categories.length} categories, ${summary.lineIDs.length} lines, unmatched ${summary.unmatched.reference}, out of order ${outOfOrder}, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
  } finally {
    await source.close();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--read') return child(process.argv[3]!, process.argv[4]!);
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${os.cpus().length} CPUs`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-clog2-bench-'));
  try {
    for (const ranks of [2, 64]) {
      const file = path.join(dir, `synth-r${ranks}.clog2`);
      await synthesize(file, ranks);
      for (const how of ['stream', 'source']) {
        const r = spawnSync(process.execPath, [process.argv[1]!, '--read', file, how], { stdio: 'inherit' });
        if (r.status !== 0) throw new Error(`reader child failed (${r.status})`);
      }
      fs.rmSync(file);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
