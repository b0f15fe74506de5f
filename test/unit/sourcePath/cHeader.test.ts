// Compiles media/mpe_srcloc.h against stand-in mpi.h/mpe.h (a recording CLOG_Buffer_save_srcloc)
// and checks what the macros pass to libmpe: line, file name fitted to 39 bytes, ids, threads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../helpers/paths';

const cc = ['cc', 'gcc', 'clang'].find((c) => spawnSync(c, ['--version']).status === 0);

const STUB_MPI = `typedef int MPI_Comm;\n#define MPI_COMM_WORLD 91\n`;
const STUB_MPE = `typedef struct { int world; } CLOG_CommSet_t;
typedef struct { int comm; } CLOG_CommIDs_t;
const CLOG_CommIDs_t *CLOG_CommSet_get_IDs(CLOG_CommSet_t *set, MPI_Comm comm);
`;
const STUB_LIB = `#include <stdio.h>
#include "mpi.h"
#include "mpe.h"
static int buffer_object;
static CLOG_CommSet_t commset = { 1 };
static CLOG_CommIDs_t ids = { 0 };
void *CLOG_Buffer = 0;
CLOG_CommSet_t *CLOG_CommSet = 0;
const CLOG_CommIDs_t *CLOG_CommSet_get_IDs(CLOG_CommSet_t *set, MPI_Comm comm) { ids.comm = comm; return set ? &ids : 0; }
void CLOG_Buffer_save_srcloc(void *buffer, const CLOG_CommIDs_t *commIDs, int thread, int srcloc, int lineno, const char *filename) {
  printf("%s|%d|%d|%d|%d|%s\\n", buffer == &buffer_object ? "buf" : "?", commIDs->comm, thread, srcloc, lineno, filename);
}
void start_logging(void) { CLOG_Buffer = &buffer_object; CLOG_CommSet = &commset; }
`;
const LONG_DIR = 'a_rather_long_directory_name/src/solver';
const PROGRAM = `#include "mpe_srcloc.h"
void start_logging(void);
int main(void) {
  MPE_SRCLOC();                 /* line 4: before logging starts: nothing */
  start_logging();
  MPE_SRCLOC();                 /* line 6 */
  MPE_SRCLOC_ID(42);            /* line 7 */
  MPE_SRCLOC_THREAD(3);         /* line 8 */
  MPE_SRCLOC_ID_THREAD(7, 2);   /* line 9 */
  MPE_SRCLOC();                 /* line 10 */
  return 0;
}
`;

function build(dir: string, source: string, extra: string[] = []): string {
  const exe = path.join(dir, 'prog');
  const r = spawnSync(
    cc!,
    ['-std=c99', '-Wall', '-Wextra', '-Werror', '-I', dir, '-I', path.join(repoRoot, 'media'), ...extra, source, path.join(dir, 'lib.c'), '-o', exe],
    { cwd: dir, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return exe;
}

test('mpe_srcloc.h records line, fitted file name, ids and threads', { skip: cc === undefined ? 'no C compiler' : false }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-srcloc-'));
  try {
    fs.writeFileSync(path.join(dir, 'mpi.h'), STUB_MPI);
    fs.writeFileSync(path.join(dir, 'mpe.h'), STUB_MPE);
    fs.writeFileSync(path.join(dir, 'lib.c'), STUB_LIB);
    // A short path is passed as is.
    fs.writeFileSync(path.join(dir, 'short.c'), PROGRAM);
    const short = spawnSync(build(dir, 'short.c'), { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .map((l) => l.split('|'));
    assert.equal(short.length, 5);
    assert.deepEqual(
      short.map((f) => [f[0], f[1], f[2], f[4], f[5]]),
      [
        ['buf', '91', '0', '6', 'short.c'],
        ['buf', '91', '0', '7', 'short.c'],
        ['buf', '91', '3', '8', 'short.c'],
        ['buf', '91', '2', '9', 'short.c'],
        ['buf', '91', '0', '10', 'short.c'],
      ],
    );
    assert.equal(short[1]![3], '42');
    assert.equal(short[3]![3], '7');
    const auto = [short[0]![3], short[2]![3], short[4]![3]].map(Number);
    assert.equal(new Set(auto).size, 3, `automatic ids differ per site: ${auto.join(',')}`);
    // A long path keeps the longest directory-aligned tail that fits 39 bytes.
    fs.mkdirSync(path.join(dir, LONG_DIR), { recursive: true });
    const longSource = path.join(LONG_DIR, 'conjugate_gradient.c');
    fs.writeFileSync(path.join(dir, longSource), PROGRAM);
    assert.ok(longSource.length > 39);
    const long = spawnSync(build(dir, longSource), { encoding: 'utf8' }).stdout.trim().split('\n');
    assert.equal(long[0]!.split('|')[5], 'src/solver/conjugate_gradient.c');
    // A bare name longer than 39 bytes is passed whole (CLOG cuts it; the viewer matches by prefix).
    const longName = 'x'.repeat(45) + '.c';
    fs.writeFileSync(path.join(dir, LONG_DIR, longName), PROGRAM);
    const bare = spawnSync(build(dir, path.join(LONG_DIR, longName)), { encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    assert.equal(bare[0]!.split('|')[5], longName);
    // Old C (C89) and C++ compilers take the header too.
    const c89 = spawnSync(build(dir, 'short.c', ['-std=c89', '-pedantic']), { encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    assert.equal(c89.length, 5);
    // Disabled: no calls at all, still compiles warning-free.
    const off = spawnSync(build(dir, 'short.c', ['-DMPE_SRCLOC_DISABLE']), { encoding: 'utf8' }).stdout;
    assert.equal(off, '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
