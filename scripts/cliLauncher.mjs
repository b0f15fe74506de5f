// The first two lines of dist/cli.js: a file that is both a POSIX sh script and JavaScript, so that
// `mpe-trace` (npm's bin link) and `./dist/cli.js` start Node with an environment of their own, in the
// same process (sh's exec), while `node dist/cli.js` reads the sh line as a string and a comment.
//
// What it sets: for `convert`, glibc's mmap threshold at 256 KiB unless the caller set one. glibc
// raises that threshold to the size of each mmapped block it frees (up to 32 MiB), so once the writer
// has dropped a few grown 1-10 MiB typed arrays, later ones come from the heap, whose free holes stay
// resident: peak RSS on a 16 384-rank conversion moves by ~25 MB from run to run and crosses the
// 256 MB target. A fixed threshold turns the dynamic raise off (mallopt(3), M_MMAP_THRESHOLD).
// And glibc's arenas at 2, unless the caller set a number: by default each thread that mallocs gets
// an arena of its own (up to 8 per core: V8's compiler and collector threads, libuv's pool, the
// job's and converter's threads), each grown and trimmed on its own, so memory one thread freed was
// page-faulted in afresh by another; with 2, a 16-rank conversion takes ~35 000 minor faults
// instead of ~45 000 (MALLOC_ARENA_MAX, mallopt(3) M_ARENA_MAX). Other allocators ignore the
// variables; other commands keep glibc's defaults.
export const CLI_BANNER = [
  '#!/bin/sh',
  '":" //; case "$1" in convert) export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-262144}" MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}";; esac; exec node "$0" "$@"',
].join('\n');
