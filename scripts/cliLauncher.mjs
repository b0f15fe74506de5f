// The first two lines of dist/cli.js: a file that is both a POSIX sh script and JavaScript, so that
// `mpe-trace` (npm's bin link) and `./dist/cli.js` start Node with an environment of their own, in the
// same process (sh's exec), while `node dist/cli.js` reads the sh line as a string and a comment.
//
// What it sets: for `convert`, glibc's mmap threshold at 256 KiB unless the caller set one. glibc
// raises that threshold to the size of each mmapped block it frees (up to 32 MiB), so once the writer
// has dropped a few grown 1-10 MiB typed arrays, later ones come from the heap, whose free holes stay
// resident: peak RSS on a 16 384-rank conversion moves by ~25 MB from run to run and crosses the
// 256 MB target. A fixed threshold turns the dynamic raise off (mallopt(3), M_MMAP_THRESHOLD). Other
// allocators ignore the variable; other commands keep glibc's default.
export const CLI_BANNER = [
  '#!/bin/sh',
  '":" //; case "$1" in convert) export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-262144}";; esac; exec node "$0" "$@"',
].join('\n');
