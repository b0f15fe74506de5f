;; A node's shadow weights (SLOG2.md §12.2; shadowWeights.ts) summed as WebAssembly
;; (shadowWeightsKernel.ts): the own members grouped by shadow, each one's inclusive ratio added to
;; its shadow's weight of its category, and the exclusive ratios of the state shadows that collect
;; children (members put in drawing order, time under merged child shadows and nested states taken
;; off, then summed per weight). In JS (groupByShadow, sortMembers, exclusiveDurations, a weight
;; looked up and a float added per member) this was ~15 % of the writer thread in a 16-rank
;; conversion. Every ratio is the reference's Java float (f32 arithmetic is the JS path's
;; Math.fround of the double result: double rounding is exact for one +, −, × or ÷ of floats), added
;; in the JS path's order, so the weights are the same.
;;
;; The caller lays the columns out and copies them in; the kernel trusts their counts (a shadow
;; index past the rows or a category without a weight traps, as would anything past the memory's
;; end: the caller then works in JS). Drawing order with ties by member index is a total order (the
;; JS sort is stable over members in insertion order), so any correct sort gives the JS result.
;; Assembled by scripts/build-wasm.mjs into shadowWeightsKernelWasm.ts.
(module
  (memory (export "memory") 1)

  ;; the grouped member columns being ordered (set by $exclusive)
  (global $E (mut i32) (i32.const 0))
  (global $L (mut i32) (i32.const 0))
  (global $C (mut i32) (i32.const 0))

  ;; Member $a strictly before member $b (shadowMembers.ts compareMembers, then the index):
  ;; earliest ↑, latest ↓, category ↑, index ↑.
  (func $before (param $a i32) (param $b i32) (result i32)
    (local $x f64) (local $y f64) (local $i i32) (local $j i32)
    (local.set $x (f64.load (i32.add (global.get $E) (i32.shl (local.get $a) (i32.const 3)))))
    (local.set $y (f64.load (i32.add (global.get $E) (i32.shl (local.get $b) (i32.const 3)))))
    (if (f64.ne (local.get $x) (local.get $y)) (then (return (f64.lt (local.get $x) (local.get $y)))))
    (local.set $x (f64.load (i32.add (global.get $L) (i32.shl (local.get $a) (i32.const 3)))))
    (local.set $y (f64.load (i32.add (global.get $L) (i32.shl (local.get $b) (i32.const 3)))))
    (if (f64.ne (local.get $x) (local.get $y)) (then (return (f64.gt (local.get $x) (local.get $y)))))
    (local.set $i (i32.load (i32.add (global.get $C) (i32.shl (local.get $a) (i32.const 2)))))
    (local.set $j (i32.load (i32.add (global.get $C) (i32.shl (local.get $b) (i32.const 2)))))
    (if (i32.ne (local.get $i) (local.get $j)) (then (return (i32.lt_s (local.get $i) (local.get $j)))))
    (i32.lt_u (local.get $a) (local.get $b)))

  ;; Members $a and $b equal in drawing order (the reference's sorted set keeps one of them).
  (func $same (param $a i32) (param $b i32) (result i32)
    (i32.and
      (i32.and
        (f64.eq (f64.load (i32.add (global.get $E) (i32.shl (local.get $a) (i32.const 3))))
                (f64.load (i32.add (global.get $E) (i32.shl (local.get $b) (i32.const 3)))))
        (f64.eq (f64.load (i32.add (global.get $L) (i32.shl (local.get $a) (i32.const 3))))
                (f64.load (i32.add (global.get $L) (i32.shl (local.get $b) (i32.const 3))))))
      (i32.eq (i32.load (i32.add (global.get $C) (i32.shl (local.get $a) (i32.const 2))))
              (i32.load (i32.add (global.get $C) (i32.shl (local.get $b) (i32.const 2)))))))

  ;; Insertion sort of $o[$from .. $to) (merge sort's runs).
  (func $insertion (param $o i32) (param $from i32) (param $to i32)
    (local $i i32) (local $j i32) (local $item i32) (local $other i32)
    (local.set $i (i32.add (local.get $from) (i32.const 1)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (local.set $item (i32.load (i32.add (local.get $o) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $j (local.get $i))
        (block $placed
          (loop $shift
            (br_if $placed (i32.le_u (local.get $j) (local.get $from)))
            (local.set $other (i32.load (i32.add (local.get $o) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 2)))))
            (br_if $placed (i32.eqz (call $before (local.get $item) (local.get $other))))
            (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $other))
            (local.set $j (i32.sub (local.get $j) (i32.const 1)))
            (br $shift)))
        (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $item))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

;; Insertion sort of $o[0 .. $n) while it moves members at most 3 times as many as there are (a
  ;; row's members arrive by end time: out of order only by the states nested in them); 0 if it
  ;; gave up ($o then no longer a permutation: the caller lists the members again).
  (func $nearlyOrdered (param $o i32) (param $n i32) (result i32)
    (local $i i32) (local $j i32) (local $item i32) (local $other i32) (local $budget i32) (local $t f64) (local $u f64)
    (local.set $budget (i32.mul (local.get $n) (i32.const 3)))
    (local.set $i (i32.const 1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $item (i32.load (i32.add (local.get $o) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $t (f64.load (i32.add (global.get $E) (i32.shl (local.get $item) (i32.const 3)))))
        (local.set $j (local.get $i))
        (block $placed
          (loop $shift
            (br_if $placed (i32.eqz (local.get $j)))
            (local.set $other (i32.load (i32.add (local.get $o) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 2)))))
            ;; the earliest times first, here ($before only on a tie: calls are not inlined)
            (local.set $u (f64.load (i32.add (global.get $E) (i32.shl (local.get $other) (i32.const 3)))))
            (br_if $placed (f64.gt (local.get $t) (local.get $u)))
            (if (f64.eq (local.get $t) (local.get $u))
              (then (br_if $placed (i32.eqz (call $before (local.get $item) (local.get $other))))))
            (local.set $budget (i32.sub (local.get $budget) (i32.const 1)))
            (if (i32.lt_s (local.get $budget) (i32.const 0)) (then (return (i32.const 0))))
            (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $other))
            (local.set $j (i32.sub (local.get $j) (i32.const 1)))
            (br $shift)))
        (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $item))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.const 1))

  ;; Merge sort of $o[0 .. $n), $tmp the same size as scratch: insertion-sorted runs of 16, then
  ;; merges of doubling width (the left one unless the right one is strictly before it).
  (func $mergeSort (param $o i32) (param $tmp i32) (param $n i32)
    (local $w i32) (local $src i32) (local $dst i32) (local $lo i32) (local $mid i32) (local $hi i32)
    (local $a i32) (local $b i32) (local $k i32) (local $x i32) (local $y i32) (local $t i32)
    (local.set $lo (i32.const 0))
    (block $runs
      (loop $run
        (br_if $runs (i32.ge_u (local.get $lo) (local.get $n)))
        (local.set $hi (select (i32.add (local.get $lo) (i32.const 16)) (local.get $n) (i32.lt_u (i32.add (local.get $lo) (i32.const 16)) (local.get $n))))
        (call $insertion (local.get $o) (local.get $lo) (local.get $hi))
        (local.set $lo (local.get $hi))
        (br $run)))
    (local.set $src (local.get $o))
    (local.set $dst (local.get $tmp))
    (local.set $w (i32.const 16))
    (block $sorted
      (loop $pass
        (br_if $sorted (i32.ge_u (local.get $w) (local.get $n)))
        (local.set $lo (i32.const 0))
        (block $merged
          (loop $pair
            (br_if $merged (i32.ge_u (local.get $lo) (local.get $n)))
            (local.set $mid (select (i32.add (local.get $lo) (local.get $w)) (local.get $n) (i32.lt_u (i32.add (local.get $lo) (local.get $w)) (local.get $n))))
            (local.set $hi (select (i32.add (local.get $mid) (local.get $w)) (local.get $n) (i32.lt_u (i32.add (local.get $mid) (local.get $w)) (local.get $n))))
            (local.set $a (local.get $lo))
            (local.set $b (local.get $mid))
            (local.set $k (local.get $lo))
            (block $full
              (loop $take
                (br_if $full (i32.ge_u (local.get $k) (local.get $hi)))
                (if (i32.lt_u (local.get $a) (local.get $mid))
                  (then
                    (local.set $x (i32.load (i32.add (local.get $src) (i32.shl (local.get $a) (i32.const 2)))))
                    (if (i32.lt_u (local.get $b) (local.get $hi))
                      (then
                        (local.set $y (i32.load (i32.add (local.get $src) (i32.shl (local.get $b) (i32.const 2)))))
                        (if (call $before (local.get $y) (local.get $x))
                          (then (local.set $x (local.get $y)) (local.set $b (i32.add (local.get $b) (i32.const 1))))
                          (else (local.set $a (i32.add (local.get $a) (i32.const 1))))))
                      (else (local.set $a (i32.add (local.get $a) (i32.const 1))))))
                  (else
                    (local.set $x (i32.load (i32.add (local.get $src) (i32.shl (local.get $b) (i32.const 2)))))
                    (local.set $b (i32.add (local.get $b) (i32.const 1)))))
                (i32.store (i32.add (local.get $dst) (i32.shl (local.get $k) (i32.const 2))) (local.get $x))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $take)))
            (local.set $lo (local.get $hi))
            (br $pair)))
        (local.set $t (local.get $src))
        (local.set $src (local.get $dst))
        (local.set $dst (local.get $t))
        (local.set $w (i32.shl (local.get $w) (i32.const 1)))
        (br $pass)))
    (if (i32.ne (local.get $src) (local.get $o))
      (then (memory.copy (local.get $o) (local.get $src) (i32.shl (local.get $n) (i32.const 2))))))

  ;; Rows $S[0 .. $m) (each below $rows) grouped by row into $gE, $gL, $gC, insertion order kept
  ;; within a row (a counting sort, groupByShadow): row r's are $starts[r] .. $starts[r + 1].
  ;; $fill: $rows scratch words. $m = 0 just zeroes $starts.
  (func (export "group") (param $m i32) (param $rows i32) (param $S i32) (param $E i32) (param $L i32) (param $Cat i32)
        (param $fill i32) (param $starts i32) (param $gE i32) (param $gL i32) (param $gC i32)
    (local $k i32) (local $s i32) (local $p i32) (local $at i32)
    (memory.fill (local.get $starts) (i32.const 0) (i32.shl (i32.add (local.get $rows) (i32.const 1)) (i32.const 2)))
    (local.set $k (i32.const 0))
    (block $counted
      (loop $count
        (br_if $counted (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $s (i32.load (i32.add (local.get $S) (i32.shl (local.get $k) (i32.const 2)))))
        (if (i32.ge_u (local.get $s) (local.get $rows)) (then unreachable))
        (local.set $p (i32.add (local.get $starts) (i32.shl (i32.add (local.get $s) (i32.const 1)) (i32.const 2))))
        (i32.store (local.get $p) (i32.add (i32.load (local.get $p)) (i32.const 1)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $count)))
    (local.set $k (i32.const 0))
    (block $summed
      (loop $sum
        (br_if $summed (i32.ge_u (local.get $k) (local.get $rows)))
        (local.set $p (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))))
        (i32.store offset=4 (local.get $p) (i32.add (i32.load offset=4 (local.get $p)) (i32.load (local.get $p))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $sum)))
    (memory.copy (local.get $fill) (local.get $starts) (i32.shl (local.get $rows) (i32.const 2)))
    (local.set $k (i32.const 0))
    (block $placed
      (loop $place
        (br_if $placed (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $p (i32.add (local.get $fill) (i32.shl (i32.load (i32.add (local.get $S) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2))))
        (local.set $at (i32.load (local.get $p)))
        (i32.store (local.get $p) (i32.add (local.get $at) (i32.const 1)))
        (f64.store (i32.add (local.get $gE) (i32.shl (local.get $at) (i32.const 3))) (f64.load (i32.add (local.get $E) (i32.shl (local.get $k) (i32.const 3)))))
        (f64.store (i32.add (local.get $gL) (i32.shl (local.get $at) (i32.const 3))) (f64.load (i32.add (local.get $L) (i32.shl (local.get $k) (i32.const 3)))))
        (i32.store (i32.add (local.get $gC) (i32.shl (local.get $at) (i32.const 2))) (i32.load (i32.add (local.get $Cat) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $place))))

;; A direct-mapped cache of (category → weight index) for the row being summed, 256 entries of
  ;; three words at offset 0 (the caller keeps the first CACHE_BYTES free): valid where the stamp is
  ;; the row's (shadowWeights.ts weightOf does the same with a table by category).
  (global $stamp (mut i32) (i32.const 0))

  (func $nextRow
    (global.set $stamp (i32.add (global.get $stamp) (i32.const 1)))
    (if (i32.eqz (global.get $stamp))
      (then (memory.fill (i32.const 0) (i32.const 0) (i32.const 3072)) (global.set $stamp (i32.const 1)))))

  ;; The index of category $c among the $n weights at $w ($stride bytes apart, the category the
  ;; first word), or −1.
  (func $weightIndex (param $w i32) (param $n i32) (param $stride i32) (param $c i32) (result i32)
    (local $h i32) (local $i i32)
    (local.set $h (i32.mul (i32.and (local.get $c) (i32.const 255)) (i32.const 12)))
    (if (i32.and (i32.eq (i32.load (local.get $h)) (global.get $stamp)) (i32.eq (i32.load offset=4 (local.get $h)) (local.get $c)))
      (then (return (i32.load offset=8 (local.get $h)))))
    (block $found
      (loop $scan
        (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
        (br_if $found (i32.eq (i32.load (i32.add (local.get $w) (i32.mul (local.get $i) (local.get $stride)))) (local.get $c)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scan)))
    (call $remember (local.get $c) (local.get $i))
    (local.get $i))

  (func $remember (param $c i32) (param $i i32)
    (local $h i32)
    (local.set $h (i32.mul (i32.and (local.get $c) (i32.const 255)) (i32.const 12)))
    (i32.store (local.get $h) (global.get $stamp))
    (i32.store offset=4 (local.get $h) (local.get $c))
    (i32.store offset=8 (local.get $h) (local.get $i)))

  ;; Each row's inclusive ratios and counts (inclusiveWeights): its members (grouped, insertion
  ;; order) summed into its weights, (latest − earliest) / the row's duration as a float added to
  ;; its category's (appended, zero, when the row has none). Weights are 16 bytes as in the arena
  ;; (category, inclusive, exclusive, count); row r's start at $W + 16 · ($wstarts[r] + $starts[r]),
  ;; its $wstarts[r + 1] − $wstarts[r] weights so far copied in there by the caller, room after them
  ;; for one a member; how many it has then goes to $count[r].
  (func (export "inclusive") (param $rows i32) (param $RE i32) (param $RL i32) (param $starts i32) (param $gE i32) (param $gL i32) (param $gC i32)
        (param $W i32) (param $wstarts i32) (param $count i32)
    (local $r i32) (local $k i32) (local $to i32) (local $d f64) (local $w i32) (local $n i32) (local $c i32) (local $i i32) (local $p i32)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $k (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $to (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $p (i32.add (local.get $wstarts) (i32.shl (local.get $r) (i32.const 2))))
        (local.set $n (i32.sub (i32.load offset=4 (local.get $p)) (i32.load (local.get $p))))
        (local.set $w (i32.add (local.get $W) (i32.shl (i32.add (i32.load (local.get $p)) (local.get $k)) (i32.const 4))))
        (local.set $d (f64.sub (f64.load (i32.add (local.get $RL) (i32.shl (local.get $r) (i32.const 3))))
                               (f64.load (i32.add (local.get $RE) (i32.shl (local.get $r) (i32.const 3))))))
        (call $nextRow)
        (block $members
          (loop $member
            (br_if $members (i32.ge_u (local.get $k) (local.get $to)))
            (local.set $c (i32.load (i32.add (local.get $gC) (i32.shl (local.get $k) (i32.const 2)))))
            (local.set $i (call $weightIndex (local.get $w) (local.get $n) (i32.const 16) (local.get $c)))
            (if (i32.lt_s (local.get $i) (i32.const 0))
              (then
                (local.set $i (local.get $n))
                (local.set $p (i32.add (local.get $w) (i32.shl (local.get $i) (i32.const 4))))
                (i32.store (local.get $p) (local.get $c))
                (i64.store offset=4 (local.get $p) (i64.const 0))
                (i32.store offset=12 (local.get $p) (i32.const 0))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))
                (call $remember (local.get $c) (local.get $i))))
            (local.set $p (i32.add (local.get $w) (i32.shl (local.get $i) (i32.const 4))))
            (f32.store offset=4 (local.get $p)
              (f32.add (f32.load offset=4 (local.get $p))
                       (f32.demote_f64 (f64.div (f64.sub (f64.load (i32.add (local.get $gL) (i32.shl (local.get $k) (i32.const 3))))
                                                         (f64.load (i32.add (local.get $gE) (i32.shl (local.get $k) (i32.const 3)))))
                                                (local.get $d)))))
            (i32.store offset=12 (local.get $p) (i32.add (i32.load offset=12 (local.get $p)) (i32.const 1)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $member)))
        (i32.store (i32.add (local.get $count) (i32.shl (local.get $r) (i32.const 2))) (local.get $n))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))

  ;; The exclusive ratio of each member of the rows flagged at $flags (a byte a row), as a float,
  ;; into $term (exclusiveDurations, then / the shadow's duration): members in drawing order, those
  ;; equal to the one before skipped (0); each one's duration less its overlap with the row's
  ;; covers (merged child shadows, rows grouped at $cstarts, $cE, $cL; taken off last to first)
  ;; and less the exclusive durations of the states directly nested in it. Scratch: $order, $tmp,
  ;; $stack (a word a member of the largest row), $excl (8 bytes a member, by member index).
  (func (export "exclusive") (param $rows i32) (param $RE i32) (param $RL i32) (param $flags i32) (param $starts i32)
        (param $gE i32) (param $gL i32) (param $gC i32) (param $cstarts i32) (param $cE i32) (param $cL i32)
        (param $order i32) (param $tmp i32) (param $stack i32) (param $excl i32)
        (param $cats i32) (param $wstarts i32) (param $sums i32) (param $touched i32)
    (local $r i32) (local $from i32) (local $to i32) (local $n i32) (local $i i32) (local $k i32)
    (local $idx i32) (local $prev i32) (local $depth i32) (local $top i32) (local $c i32) (local $cfrom i32)
    (local $e f64) (local $l f64) (local $ex f64) (local $ce f64) (local $cl f64) (local $d f64) (local $p i32) (local $w i32) (local $nw i32)
    (global.set $E (local.get $gE))
    (global.set $L (local.get $gL))
    (global.set $C (local.get $gC))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $to (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $n (i32.sub (local.get $to) (local.get $from)))
        (if (i32.and (i32.ne (i32.load8_u (i32.add (local.get $flags) (local.get $r))) (i32.const 0)) (i32.gt_u (local.get $n) (i32.const 0)))
          (then
            ;; drawing order: as they came when already in it (the common case), else sorted
            (local.set $i (i32.const 0))
            (local.set $p (i32.const 1))
            (block $listed
              (loop $list
                (br_if $listed (i32.ge_u (local.get $i) (local.get $n)))
                (i32.store (i32.add (local.get $order) (i32.shl (local.get $i) (i32.const 2))) (i32.add (local.get $from) (local.get $i)))
                (if (i32.and (local.get $p) (i32.gt_u (local.get $i) (i32.const 0)))
                  (then
                    (local.set $k (i32.add (local.get $from) (local.get $i)))
                    (local.set $e (f64.load (i32.add (local.get $gE) (i32.shl (local.get $k) (i32.const 3)))))
                    (local.set $l (f64.load (i32.sub (i32.add (local.get $gE) (i32.shl (local.get $k) (i32.const 3))) (i32.const 8))))
                    (if (f64.lt (local.get $e) (local.get $l))
                      (then (local.set $p (i32.const 0)))
                      (else (if (f64.eq (local.get $e) (local.get $l))
                        (then (if (call $before (local.get $k) (i32.sub (local.get $k) (i32.const 1)))
                          (then (local.set $p (i32.const 0))))))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $list)))
            (if (i32.eqz (local.get $p))
              (then
                (if (i32.eqz (call $nearlyOrdered (local.get $order) (local.get $n)))
                  (then
                    (local.set $i (i32.const 0))
                    (block $relisted
                      (loop $relist
                        (br_if $relisted (i32.ge_u (local.get $i) (local.get $n)))
                        (i32.store (i32.add (local.get $order) (i32.shl (local.get $i) (i32.const 2))) (i32.add (local.get $from) (local.get $i)))
                        (local.set $i (i32.add (local.get $i) (i32.const 1)))
                        (br $relist)))
                    (call $mergeSort (local.get $order) (local.get $tmp) (local.get $n))))))
            (memory.fill (i32.add (local.get $excl) (i32.shl (local.get $from) (i32.const 3))) (i32.const 0) (i32.shl (local.get $n) (i32.const 3)))
            (local.set $cfrom (i32.load (i32.add (local.get $cstarts) (i32.shl (local.get $r) (i32.const 2)))))
            (local.set $depth (i32.const 0))
            (local.set $prev (i32.const -1))
            (local.set $k (i32.const 0))
            (block $walked
              (loop $walk
                (br_if $walked (i32.ge_u (local.get $k) (local.get $n)))
                (local.set $idx (i32.load (i32.add (local.get $order) (i32.shl (local.get $k) (i32.const 2)))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (if (i32.ge_s (local.get $prev) (i32.const 0))
                  (then (br_if $walk (call $same (local.get $prev) (local.get $idx)))))
                (local.set $prev (local.get $idx))
                (local.set $e (f64.load (i32.add (local.get $gE) (i32.shl (local.get $idx) (i32.const 3)))))
                (local.set $l (f64.load (i32.add (local.get $gL) (i32.shl (local.get $idx) (i32.const 3)))))
                (local.set $ex (f64.sub (local.get $l) (local.get $e)))
                (local.set $c (i32.load offset=4 (i32.add (local.get $cstarts) (i32.shl (local.get $r) (i32.const 2)))))
                (block $uncovered
                  (loop $cover
                    (br_if $uncovered (i32.le_s (local.get $c) (local.get $cfrom)))
                    (local.set $c (i32.sub (local.get $c) (i32.const 1)))
                    (local.set $ce (f64.load (i32.add (local.get $cE) (i32.shl (local.get $c) (i32.const 3)))))
                    (local.set $cl (f64.load (i32.add (local.get $cL) (i32.shl (local.get $c) (i32.const 3)))))
                    (if (i32.eqz (i32.or (f64.gt (local.get $e) (local.get $cl)) (f64.gt (local.get $ce) (local.get $l))))
                      (then (local.set $ex (f64.sub (local.get $ex) (f64.sub (f64.min (local.get $l) (local.get $cl)) (f64.max (local.get $e) (local.get $ce)))))))
                    (br $cover)))
                (f64.store (i32.add (local.get $excl) (i32.shl (local.get $idx) (i32.const 3))) (local.get $ex))
                ;; the innermost open member holding this one loses its time; the others are closed
                (block $parented
                  (loop $up
                    (br_if $parented (i32.eqz (local.get $depth)))
                    (local.set $top (i32.load (i32.add (local.get $stack) (i32.shl (i32.sub (local.get $depth) (i32.const 1)) (i32.const 2)))))
                    (if (i32.and
                          (f64.le (f64.load (i32.add (local.get $gE) (i32.shl (local.get $top) (i32.const 3)))) (local.get $e))
                          (f64.le (local.get $l) (f64.load (i32.add (local.get $gL) (i32.shl (local.get $top) (i32.const 3))))))
                      (then
                        (local.set $p (i32.add (local.get $excl) (i32.shl (local.get $top) (i32.const 3))))
                        (f64.store (local.get $p) (f64.sub (f64.load (local.get $p)) (local.get $ex)))
                        (br $parented)))
                    (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
                    (br $up)))
                (i32.store (i32.add (local.get $stack) (i32.shl (local.get $depth) (i32.const 2))) (local.get $idx))
                (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
                (br $walk)))
            (local.set $d (f64.sub (f64.load (i32.add (local.get $RL) (i32.shl (local.get $r) (i32.const 3))))
                                   (f64.load (i32.add (local.get $RE) (i32.shl (local.get $r) (i32.const 3))))))
            ;; summed per weight in insertion order (a category without a weight traps)
            (local.set $p (i32.add (local.get $wstarts) (i32.shl (local.get $r) (i32.const 2))))
            (local.set $w (i32.load (local.get $p)))
            (local.set $nw (i32.sub (i32.load offset=4 (local.get $p)) (local.get $w)))
            (memory.fill (i32.add (local.get $sums) (i32.shl (local.get $w) (i32.const 2))) (i32.const 0) (i32.shl (local.get $nw) (i32.const 2)))
            (memory.fill (i32.add (local.get $touched) (local.get $w)) (i32.const 0) (local.get $nw))
            (call $nextRow)
            (local.set $k (local.get $from))
            (block $summed
              (loop $sum
                (br_if $summed (i32.ge_u (local.get $k) (local.get $to)))
                (local.set $i (call $weightIndex (i32.add (local.get $cats) (i32.shl (local.get $w) (i32.const 2))) (local.get $nw) (i32.const 4)
                  (i32.load (i32.add (local.get $gC) (i32.shl (local.get $k) (i32.const 2))))))
                (if (i32.lt_s (local.get $i) (i32.const 0)) (then unreachable))
                (local.set $i (i32.add (local.get $w) (local.get $i)))
                (local.set $p (i32.add (local.get $sums) (i32.shl (local.get $i) (i32.const 2))))
                (f32.store (local.get $p)
                  (f32.add (f32.load (local.get $p))
                           (f32.demote_f64 (f64.div (f64.load (i32.add (local.get $excl) (i32.shl (local.get $k) (i32.const 3)))) (local.get $d)))))
                (i32.store8 (i32.add (local.get $touched) (local.get $i)) (i32.const 1))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $sum)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
)
