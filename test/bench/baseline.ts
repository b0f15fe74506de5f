// The same-run baseline every bench compares against: a sequential read of the input file that
// touches every 8-byte word (the least any reader of the file must do), measured now, on this
// machine, under its current load. Ratios to it are comparable across machines and loads where
// absolute times are not.
import { open } from 'node:fs/promises';

export interface Baseline {
  readonly bytes: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly mbPerSecond: number;
}

export async function readScanBaseline(path: string): Promise<Baseline> {
  const handle = await open(path, 'r');
  const buf = new Uint8Array(1 << 20);
  const view = new DataView(buf.buffer);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let bytes = 0;
  let checksum = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, bytes);
      if (bytesRead === 0) break;
      for (let i = 0; i + 8 <= bytesRead; i += 8) checksum = (checksum + view.getInt32(i) + view.getInt32(i + 4)) | 0;
      bytes += bytesRead;
    }
  } finally {
    await handle.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (checksum === 0x7fffffff) console.log(''); // keeps the scan from being optimised away
  return { bytes, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, mbPerSecond: bytes / 1e6 / seconds };
}

export function describeBaseline(b: Baseline): string {
  return `baseline (same run): read + scan of the same ${(b.bytes / 1e6).toFixed(1)} MB in ${b.seconds.toFixed(2)} s wall / ${b.cpuSeconds.toFixed(2)} s CPU (${b.mbPerSecond.toFixed(0)} MB/s)`;
}

/** "4.2× the baseline" — how many times longer than the read + scan of the same bytes. */
export function ratio(seconds: number, b: Baseline): string {
  return `${(seconds / b.seconds).toFixed(1)}× the baseline`;
}
