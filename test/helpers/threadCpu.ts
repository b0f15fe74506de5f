/**
 * CPU time of the calling thread, for the fuzzer's time limit. Process CPU time (process.cpuUsage)
 * also counts V8's helper threads: a case that allocates much is collected in parallel beside it
 * (fuzz case slog2:839078204:29688, a 2.2 MB SLOG-2 read whole about ten times: 1.98 s of process
 * CPU against 1.46 s of wall time in one thread), so the same work crossed the 2 s limit or not
 * with the machine's load. On Linux the thread's own time is in /proc/thread-self/stat; elsewhere
 * this falls back to process CPU time.
 */
import fs from 'node:fs';

/** Linux reports /proc times in USER_HZ ticks, 100 per second on every architecture Node runs on. */
const MS_PER_TICK = 10;

/** Decided once, so that two readings are always of the same clock. */
const THREAD_STAT = process.platform === 'linux' && fs.existsSync('/proc/thread-self/stat') ? '/proc/thread-self/stat' : undefined;

/** Milliseconds of CPU time used so far by the calling thread (10 ms resolution on Linux). */
export function threadCpuMs(): number {
  if (THREAD_STAT === undefined) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  const stat = fs.readFileSync(THREAD_STAT, 'latin1');
  // The fields after the command name (in parentheses, and it may hold spaces): the state first,
  // then utime and stime as the 12th and 13th (fields 14 and 15 of proc(5)).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`${THREAD_STAT}: no CPU times in ${JSON.stringify(stat.slice(0, 120))}`);
  return ticks * MS_PER_TICK;
}
