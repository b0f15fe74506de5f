;; The TreeDir's per-entry work at open (treeDirKernel.ts), as WebAssembly. A 1.7 GB file has ~14 000
;; entries; in a fresh process each JS pass over them ran as cold code at ~350 ns an entry (~5 ms a
;; pass: parse, checks, overlap proof, index), most of the open. Here each pass is a few ns an entry
;; from the first call. The JS passes stay: where WebAssembly is missing, and to name the entry at
;; fault whenever a kernel result says something is wrong (the kernel only proves "all is well").
;;
;; Memory (the caller lays it out and copies in): see each function. Multi-byte fields of the file
;; are big-endian unless `le` (SLOG2.md §2); WebAssembly loads are little-endian.
;; Assembled by scripts/build-wasm.mjs into treeDirKernelWasm.ts (a unit test checks the two agree).
(module
  (memory (export "memory") 1)

  ;; parseTreeDir's loop and its summary (treeDir.ts TreeDirSummary). $n entries of 34 bytes at $src
  ;; (i16 depth, i32 xpos, f64 earliest, f64 latest, i64 fptr, i32 size) into the columns at $dep
  ;; (i16), $xp (i32), $ear, $lat, $fp (f64), $sz (i32). Per depth (D = $maxDepth + 1) at $pd, all
  ;; zero to begin with (a new instance's memory): f64 last earliest[D], f64 last latest[D], i32
  ;; count[D], i32 xpos not increasing[D], i32 bounds decreasing[D], i32 last xpos[D]. The summary at
  ;; $sum: f64 lowest fptr, f64 furthest end, i32 smallest size, i32 largest size, i32 depth or xpos
  ;; out of range, i32 root entry (or -1). Returns -1, or the first entry whose fptr is outside what
  ;; a double holds exactly (the JS parse reports it).
  (func (export "parse") (param $n i32) (param $le i32) (param $src i32) (param $maxDepth i32)
        (param $dep i32) (param $xp i32) (param $ear i32) (param $lat i32) (param $fp i32) (param $sz i32)
        (param $pd i32) (param $sum i32) (result i32)
    (local $i i32) (local $p i32) (local $d i32) (local $x i32) (local $e f64) (local $l f64)
    (local $v i64) (local $t1 i64) (local $t2 i64) (local $hi i32) (local $f f64) (local $s i32) (local $fe f64)
    (local $minF f64) (local $maxEnd f64) (local $minS i32) (local $maxS i32) (local $outOfRange i32)
    (local $root i32) (local $nd i32) (local $c i32)
    (local $lastE i32) (local $lastL i32) (local $count i32) (local $byX i32) (local $inT i32) (local $lastX i32)
    (local.set $nd (i32.add (local.get $maxDepth) (i32.const 1)))
    (local.set $lastE (local.get $pd))
    (local.set $lastL (i32.add (local.get $lastE) (i32.shl (local.get $nd) (i32.const 3))))
    (local.set $count (i32.add (local.get $lastL) (i32.shl (local.get $nd) (i32.const 3))))
    (local.set $byX (i32.add (local.get $count) (i32.shl (local.get $nd) (i32.const 2))))
    (local.set $inT (i32.add (local.get $byX) (i32.shl (local.get $nd) (i32.const 2))))
    (local.set $lastX (i32.add (local.get $inT) (i32.shl (local.get $nd) (i32.const 2))))
    (local.set $minF (f64.const inf))
    (local.set $maxEnd (f64.const -inf))
    (local.set $minS (i32.const 0x7fffffff))
    (local.set $maxS (i32.const 0x80000000))
    (local.set $root (i32.const -1))
    (local.set $p (local.get $src))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        ;; the fields, byte-swapped unless $le (inline: calls per field were most of the loop's time in
        ;; the first, unoptimised run)
        (local.set $d (i32.load16_s align=1 (local.get $p)))
        (local.set $x (i32.load offset=2 align=1 (local.get $p)))
        (local.set $t1 (i64.load offset=6 align=1 (local.get $p)))
        (local.set $t2 (i64.load offset=14 align=1 (local.get $p)))
        (local.set $v (i64.load offset=22 align=1 (local.get $p)))
        (local.set $s (i32.load offset=30 align=1 (local.get $p)))
        (if (i32.eqz (local.get $le))
          (then
            (local.set $d (i32.shr_s (i32.or (i32.shl (local.get $d) (i32.const 24)) (i32.shl (i32.and (local.get $d) (i32.const 0xff00)) (i32.const 8))) (i32.const 16)))
            (local.set $x (i32.or (i32.or (i32.shl (local.get $x) (i32.const 24)) (i32.shl (i32.and (local.get $x) (i32.const 0xff00)) (i32.const 8)))
                      (i32.or (i32.and (i32.shr_u (local.get $x) (i32.const 8)) (i32.const 0xff00)) (i32.shr_u (local.get $x) (i32.const 24)))))
            (local.set $s (i32.or (i32.or (i32.shl (local.get $s) (i32.const 24)) (i32.shl (i32.and (local.get $s) (i32.const 0xff00)) (i32.const 8)))
                      (i32.or (i32.and (i32.shr_u (local.get $s) (i32.const 8)) (i32.const 0xff00)) (i32.shr_u (local.get $s) (i32.const 24)))))
            (local.set $t1 (i64.or (i64.and (i64.shr_u (local.get $t1) (i64.const 8)) (i64.const 0x00ff00ff00ff00ff)) (i64.shl (i64.and (local.get $t1) (i64.const 0x00ff00ff00ff00ff)) (i64.const 8))))
            (local.set $t1 (i64.or (i64.and (i64.shr_u (local.get $t1) (i64.const 16)) (i64.const 0x0000ffff0000ffff)) (i64.shl (i64.and (local.get $t1) (i64.const 0x0000ffff0000ffff)) (i64.const 16))))
            (local.set $t1 (i64.rotl (local.get $t1) (i64.const 32)))
            (local.set $t2 (i64.or (i64.and (i64.shr_u (local.get $t2) (i64.const 8)) (i64.const 0x00ff00ff00ff00ff)) (i64.shl (i64.and (local.get $t2) (i64.const 0x00ff00ff00ff00ff)) (i64.const 8))))
            (local.set $t2 (i64.or (i64.and (i64.shr_u (local.get $t2) (i64.const 16)) (i64.const 0x0000ffff0000ffff)) (i64.shl (i64.and (local.get $t2) (i64.const 0x0000ffff0000ffff)) (i64.const 16))))
            (local.set $t2 (i64.rotl (local.get $t2) (i64.const 32)))
            (local.set $v (i64.or (i64.and (i64.shr_u (local.get $v) (i64.const 8)) (i64.const 0x00ff00ff00ff00ff)) (i64.shl (i64.and (local.get $v) (i64.const 0x00ff00ff00ff00ff)) (i64.const 8))))
            (local.set $v (i64.or (i64.and (i64.shr_u (local.get $v) (i64.const 16)) (i64.const 0x0000ffff0000ffff)) (i64.shl (i64.and (local.get $v) (i64.const 0x0000ffff0000ffff)) (i64.const 16))))
            (local.set $v (i64.rotl (local.get $v) (i64.const 32)))
        ))
        (local.set $e (f64.reinterpret_i64 (local.get $t1)))
        (local.set $l (f64.reinterpret_i64 (local.get $t2)))
        ;; the JS parse's test of the high word: -2^21 < hi < 2^21
        (local.set $hi (i32.wrap_i64 (i64.shr_s (local.get $v) (i64.const 32))))
        (if (i32.or (i32.le_s (local.get $hi) (i32.const -0x200000)) (i32.ge_s (local.get $hi) (i32.const 0x200000)))
          (then (return (local.get $i))))
        (local.set $f (f64.convert_i64_s (local.get $v)))
        (i32.store16 (i32.add (local.get $dep) (i32.shl (local.get $i) (i32.const 1))) (local.get $d))
        (i32.store (i32.add (local.get $xp) (i32.shl (local.get $i) (i32.const 2))) (local.get $x))
        (f64.store (i32.add (local.get $ear) (i32.shl (local.get $i) (i32.const 3))) (local.get $e))
        (f64.store (i32.add (local.get $lat) (i32.shl (local.get $i) (i32.const 3))) (local.get $l))
        (f64.store (i32.add (local.get $fp) (i32.shl (local.get $i) (i32.const 3))) (local.get $f))
        (i32.store (i32.add (local.get $sz) (i32.shl (local.get $i) (i32.const 2))) (local.get $s))
        (local.set $fe (f64.add (local.get $f) (f64.convert_i32_s (local.get $s))))
        (local.set $minF (f64.min (local.get $minF) (local.get $f)))
        (local.set $maxEnd (f64.max (local.get $maxEnd) (local.get $fe)))
        (if (i32.lt_s (local.get $s) (local.get $minS)) (then (local.set $minS (local.get $s))))
        (if (i32.gt_s (local.get $s) (local.get $maxS)) (then (local.set $maxS (local.get $s))))
        (if (i32.or (i32.or (i32.lt_s (local.get $d) (i32.const 0)) (i32.gt_s (local.get $d) (local.get $maxDepth)))
                    (i32.lt_s (local.get $x) (i32.const 0)))
          (then (local.set $outOfRange (i32.const 1)))
          (else
            (local.set $c (i32.load (i32.add (local.get $count) (i32.shl (local.get $d) (i32.const 2)))))
            (i32.store (i32.add (local.get $count) (i32.shl (local.get $d) (i32.const 2))) (i32.add (local.get $c) (i32.const 1)))
            (if (i32.gt_s (local.get $c) (i32.const 0))
              (then
                (if (i32.le_s (local.get $x) (i32.load (i32.add (local.get $lastX) (i32.shl (local.get $d) (i32.const 2)))))
                  (then (i32.store (i32.add (local.get $byX) (i32.shl (local.get $d) (i32.const 2))) (i32.const 1))))
                ;; NaN bounds compare false: not in time order (TreeIndex's check between neighbours)
                (if (i32.eqz (i32.and (f64.le (f64.load (i32.add (local.get $lastE) (i32.shl (local.get $d) (i32.const 3)))) (local.get $e))
                                      (f64.le (f64.load (i32.add (local.get $lastL) (i32.shl (local.get $d) (i32.const 3)))) (local.get $l))))
                  (then (i32.store (i32.add (local.get $inT) (i32.shl (local.get $d) (i32.const 2))) (i32.const 1))))))
            (i32.store (i32.add (local.get $lastX) (i32.shl (local.get $d) (i32.const 2))) (local.get $x))
            (f64.store (i32.add (local.get $lastE) (i32.shl (local.get $d) (i32.const 3))) (local.get $e))
            (f64.store (i32.add (local.get $lastL) (i32.shl (local.get $d) (i32.const 3))) (local.get $l))
            (if (i32.and (i32.lt_s (local.get $root) (i32.const 0))
                         (i32.and (i32.eq (local.get $d) (local.get $maxDepth)) (i32.eqz (local.get $x))))
              (then (local.set $root (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $p (i32.add (local.get $p) (i32.const 34)))
        (br $next)))
    (f64.store (local.get $sum) (local.get $minF))
    (f64.store offset=8 (local.get $sum) (local.get $maxEnd))
    (i32.store offset=16 (local.get $sum) (local.get $minS))
    (i32.store offset=20 (local.get $sum) (local.get $maxS))
    (i32.store offset=24 (local.get $sum) (local.get $outOfRange))
    (i32.store offset=28 (local.get $sum) (local.get $root))
    (i32.const -1))

;; Merges the runs [$a, $b) and [$b, $c) of pairs (start, end) at $st/$en into [$a, $c) at $st2/$en2, by start (stable).
  (func $merge (param $st i32) (param $en i32) (param $st2 i32) (param $en2 i32) (param $a i32) (param $b i32) (param $c i32)
    (local $i i32) (local $j i32) (local $k i32) (local $from i32)
    (local.set $i (local.get $a))
    (local.set $j (local.get $b))
    (local.set $k (local.get $a))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $c)))
        ;; take from the left run while it lasts and its start is not above the right run's
        (if (i32.and (i32.lt_u (local.get $i) (local.get $b))
                     (i32.or (i32.ge_u (local.get $j) (local.get $c))
                             (f64.le (f64.load (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 3))))
                                     (f64.load (i32.add (local.get $st) (i32.shl (local.get $j) (i32.const 3)))))))
          (then (local.set $from (local.get $i)) (local.set $i (i32.add (local.get $i) (i32.const 1))))
          (else (local.set $from (local.get $j)) (local.set $j (i32.add (local.get $j) (i32.const 1)))))
        (f64.store (i32.add (local.get $st2) (i32.shl (local.get $k) (i32.const 3)))
                   (f64.load (i32.add (local.get $st) (i32.shl (local.get $from) (i32.const 3)))))
        (f64.store (i32.add (local.get $en2) (i32.shl (local.get $k) (i32.const 3)))
                   (f64.load (i32.add (local.get $en) (i32.shl (local.get $from) (i32.const 3)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next))))

  ;; Whether $m half-open blocks share no byte: the first $n have starts at $st (f64) and sizes at
  ;; $sz (i32), the rest starts at $st and ends at $en (the caller's). Their ends are made at $en and
  ;; the pairs sorted by start, merging the ascending runs they come in (a writer lists its nodes in
  ;; a run per level, or one run in file order) through $st2/$en2 (f64[$m] each) with the run
  ;; bounds at $runs (i32[$m + 1]); then each block must start at or after the end of the one
  ;; before it (which, all checks passing, is the furthest end so far). 1: disjoint; 0: not shown.
  (func (export "disjoint") (param $n i32) (param $m i32) (param $st i32) (param $en i32) (param $sz i32)
        (param $st2 i32) (param $en2 i32) (param $runs i32) (result i32)
    (local $i i32) (local $r i32) (local $nr i32) (local $out i32) (local $a i32) (local $b i32) (local $c i32) (local $t i32)
    (block $made
      (loop $make
        (br_if $made (i32.ge_u (local.get $i) (local.get $n)))
        (f64.store (i32.add (local.get $en) (i32.shl (local.get $i) (i32.const 3)))
          (f64.add (f64.load (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 3))))
                   (f64.convert_i32_s (i32.load (i32.add (local.get $sz) (i32.shl (local.get $i) (i32.const 2)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $make)))
    (if (i32.le_u (local.get $m) (i32.const 1)) (then (return (i32.const 1))))
    ;; the run bounds: 0, each place where the start goes down, $m
    (local.set $nr (i32.const 1))
    (local.set $i (i32.const 1))
    (block $found
      (loop $scan
        (br_if $found (i32.ge_u (local.get $i) (local.get $m)))
        (if (f64.lt (f64.load (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 3))))
                    (f64.load (i32.add (local.get $st) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 3)))))
          (then
            (i32.store (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 2))) (local.get $i))
            (local.set $nr (i32.add (local.get $nr) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scan)))
    (i32.store (local.get $runs) (i32.const 0))
    (i32.store (i32.add (local.get $runs) (i32.shl (local.get $nr) (i32.const 2))) (local.get $m))
    ;; merge neighbouring runs until one is left, back and forth between the two buffers
    (block $sorted
      (loop $pass
        (br_if $sorted (i32.le_u (local.get $nr) (i32.const 1)))
        (local.set $out (i32.const 0))
        (local.set $r (i32.const 0))
        (block $passed
          (loop $pair
            (br_if $passed (i32.ge_u (local.get $r) (local.get $nr)))
            (local.set $a (i32.load (i32.add (local.get $runs) (i32.shl (local.get $r) (i32.const 2)))))
            (local.set $b (i32.load (i32.add (local.get $runs) (i32.shl (i32.add (local.get $r) (i32.const 1)) (i32.const 2)))))
            (local.set $c (local.get $b))
            (if (i32.le_u (i32.add (local.get $r) (i32.const 2)) (local.get $nr))
              (then (local.set $c (i32.load (i32.add (local.get $runs) (i32.shl (i32.add (local.get $r) (i32.const 2)) (i32.const 2)))))))
            (call $merge (local.get $st) (local.get $en) (local.get $st2) (local.get $en2) (local.get $a) (local.get $b) (local.get $c))
            (i32.store (i32.add (local.get $runs) (i32.shl (local.get $out) (i32.const 2))) (local.get $a))
            (local.set $out (i32.add (local.get $out) (i32.const 1)))
            (local.set $r (i32.add (local.get $r) (i32.const 2)))
            (br $pair)))
        (i32.store (i32.add (local.get $runs) (i32.shl (local.get $out) (i32.const 2))) (local.get $m))
        (local.set $nr (local.get $out))
        (local.set $t (local.get $st)) (local.set $st (local.get $st2)) (local.set $st2 (local.get $t))
        (local.set $t (local.get $en)) (local.set $en (local.get $en2)) (local.set $en2 (local.get $t))
        (br $pass)))
    (local.set $i (i32.const 1))
    (block $checked
      (loop $check
        (br_if $checked (i32.ge_u (local.get $i) (local.get $m)))
        (if (f64.lt (f64.load (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 3))))
                    (f64.load (i32.add (local.get $en) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 3)))))
          (then (return (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $check)))
    (i32.const 1))

    ;; 0, 1, …, $n − 1 as i32 at $out: every entry kept (validateTreeDir), without a JS loop.
  (func (export "iota") (param $n i32) (param $out i32)
    (local $i i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))

  ;; TreeIndex's levels: entry i (depth at $dep, i16, each in range) goes to the next slot of its
  ;; depth in $out (i32[$n]); $next (i32 per depth) holds each level's first slot and is advanced.
  (func (export "levels") (param $n i32) (param $dep i32) (param $next i32) (param $out i32)
    (local $i i32) (local $at i32) (local $k i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.add (local.get $next)
                                (i32.shl (i32.load16_s (i32.add (local.get $dep) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 2))))
        (local.set $k (i32.load (local.get $at)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2))) (local.get $i))
        (i32.store (local.get $at) (i32.add (local.get $k) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))
)
