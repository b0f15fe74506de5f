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
// And for every command, NODE_EXTRA_CA_CERTS unset: Node 20 with OpenSSL 3 reads and parses that
// file's certificates as the process starts (nodejs/node#40524), whether or not a TLS connection
// follows; the CLI makes none (it reads and writes local files only). With the system bundle
// (/etc/ssl/certs/ca-certificates.crt, 144 certificates) that was 40-75 ms of every run's start on
// this VM (`node -e 0`: 0.07-0.10 s set, 0.01 s unset), paid before the conversion's threads start.
export const CLI_BANNER = [
  '#!/bin/sh',
  '":" //; unset NODE_EXTRA_CA_CERTS; case "$1" in convert) export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-262144}" MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}";; esac; exec node "$0" "$@"',
].join('\n');
