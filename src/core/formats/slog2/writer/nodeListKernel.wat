;; A tree node's two lists (SLOG2.md §7.2, §8) put in drawing order and encoded, as WebAssembly
;; (nodeListKernel.ts). In JS (drawingOrder.ts, drawableBatchBytes.ts) this was a quarter of the
;; writer thread in a 16-rank conversion: ~3.5 M entries sorted by five typed keys through an index
;; array, then encoded big-endian one DataView call per field.
;;
;; The node's columns (the DrawableBatch layout, drawableBatch.ts) are copied in by the caller, the
;; encoder's validated values: the kernel trusts their counts and offsets (one it did not expect
;; would trap on the memory's end, never read another's bytes: the caller then writes the node in
;; JS). Drawing order is a total order once ties go by entry index (the JS sort is stable over
;; entries in index order), so any correct sort gives the JS bytes: here a bucket sort on the
;; earliest time, each bucket finished by insertion, crowded ones by merging.
;; Assembled by scripts/build-wasm.mjs into nodeListKernelWasm.ts (a unit test checks the two agree).
(module
  (memory (export "memory") 1)

  ;; the key columns of the entries being ordered (set by $order)
  (global $E (mut i32) (i32.const 0))
  (global $L (mut i32) (i32.const 0))
  (global $C (mut i32) (i32.const 0))
  (global $SL (mut i32) (i32.const 0))
  (global $FL (mut i32) (i32.const 0))
  ;; the primitive, vertex and info columns (set by $encode)
  (global $PC (mut i32) (i32.const 0))
  (global $PIS (mut i32) (i32.const 0))
  (global $PIE (mut i32) (i32.const 0))
  (global $VS (mut i32) (i32.const 0))
  (global $VT (mut i32) (i32.const 0))
  (global $VL (mut i32) (i32.const 0))
  (global $INFO (mut i32) (i32.const 0))

  (func $bswap32 (param $x i32) (result i32)
    (i32.or (i32.or (i32.shl (local.get $x) (i32.const 24)) (i32.shl (i32.and (local.get $x) (i32.const 0xff00)) (i32.const 8)))
            (i32.or (i32.and (i32.shr_u (local.get $x) (i32.const 8)) (i32.const 0xff00)) (i32.shr_u (local.get $x) (i32.const 24)))))

  ;; DataView.setInt32 / setInt16 (big-endian; an i16 keeps the low 16 bits)
  (func $be32 (param $p i32) (param $x i32)
    (i32.store align=1 (local.get $p) (call $bswap32 (local.get $x))))
  (func $be16 (param $p i32) (param $x i32)
    (i32.store16 align=1 (local.get $p)
      (i32.or (i32.shl (i32.and (local.get $x) (i32.const 0xff)) (i32.const 8)) (i32.and (i32.shr_u (local.get $x) (i32.const 8)) (i32.const 0xff)))))

  ;; Entry $a strictly before entry $b in drawing order (drawingOrder.ts `before`): earliest ↑,
  ;; latest ↓, category ↑, start lineID ↑, final lineID ↑; equal in all five: not before.
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
    (local.set $i (i32.load (i32.add (global.get $SL) (i32.shl (local.get $a) (i32.const 2)))))
    (local.set $j (i32.load (i32.add (global.get $SL) (i32.shl (local.get $b) (i32.const 2)))))
    (if (i32.ne (local.get $i) (local.get $j)) (then (return (i32.lt_s (local.get $i) (local.get $j)))))
    (i32.lt_s (i32.load (i32.add (global.get $FL) (i32.shl (local.get $a) (i32.const 2)))) (i32.load (i32.add (global.get $FL) (i32.shl (local.get $b) (i32.const 2))))))

  ;; Stable insertion sort of the entry indices $o[$from .. $to), their earliest times alongside
  ;; at $te (moved with them: read in place, not through the index); `before` only on a tie.
  (func $insertion (param $o i32) (param $te i32) (param $from i32) (param $to i32)
    (local $i i32) (local $j i32) (local $item i32) (local $other i32) (local $t f64) (local $u f64)
    (local.set $i (i32.add (local.get $from) (i32.const 1)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (local.set $t (f64.load (i32.add (local.get $te) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $u (f64.load (i32.add (local.get $te) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 3)))))
        (if (f64.le (local.get $t) (local.get $u))
          (then
            (local.set $item (i32.load (i32.add (local.get $o) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $j (local.get $i))
            (block $placed
              (loop $shift
                (br_if $placed (i32.le_u (local.get $j) (local.get $from)))
                (local.set $other (i32.load (i32.add (local.get $o) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 2)))))
                (local.set $u (f64.load (i32.add (local.get $te) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 3)))))
                (br_if $placed (f64.gt (local.get $t) (local.get $u)))
                (if (f64.eq (local.get $t) (local.get $u))
                  (then (br_if $placed (i32.eqz (call $before (local.get $item) (local.get $other))))))
                (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $other))
                (f64.store (i32.add (local.get $te) (i32.shl (local.get $j) (i32.const 3))) (local.get $u))
                (local.set $j (i32.sub (local.get $j) (i32.const 1)))
                (br $shift)))
            (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $item))
            (f64.store (i32.add (local.get $te) (i32.shl (local.get $j) (i32.const 3))) (local.get $t))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; Stable insertion sort of $o[$from .. $to) by the full keys (merge sort's runs).
  (func $insertionByKeys (param $o i32) (param $from i32) (param $to i32)
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

  ;; Stable merge sort of $o[$from .. $to) (a crowded bucket: many equal or near times), $tmp the
  ;; same size as scratch: insertion-sorted runs of 16, then merges of doubling width.
  (func $mergeSort (param $o i32) (param $tmp i32) (param $from i32) (param $to i32)
    (local $w i32) (local $src i32) (local $dst i32) (local $lo i32) (local $mid i32) (local $hi i32)
    (local $a i32) (local $b i32) (local $k i32) (local $x i32) (local $y i32) (local $t i32)
    (local.set $lo (local.get $from))
    (block $runs
      (loop $run
        (br_if $runs (i32.ge_u (local.get $lo) (local.get $to)))
        (local.set $hi (select (i32.add (local.get $lo) (i32.const 16)) (local.get $to) (i32.lt_u (i32.add (local.get $lo) (i32.const 16)) (local.get $to))))
        (call $insertionByKeys (local.get $o) (local.get $lo) (local.get $hi))
        (local.set $lo (local.get $hi))
        (br $run)))
    (local.set $src (local.get $o))
    (local.set $dst (local.get $tmp))
    (local.set $w (i32.const 16))
    (block $sorted
      (loop $pass
        (br_if $sorted (i32.ge_u (local.get $w) (i32.sub (local.get $to) (local.get $from))))
        (local.set $lo (local.get $from))
        (block $merged
          (loop $pair
            (br_if $merged (i32.ge_u (local.get $lo) (local.get $to)))
            (local.set $mid (select (i32.add (local.get $lo) (local.get $w)) (local.get $to) (i32.lt_u (i32.add (local.get $lo) (local.get $w)) (local.get $to))))
            (local.set $hi (select (i32.add (local.get $mid) (local.get $w)) (local.get $to) (i32.lt_u (i32.add (local.get $mid) (local.get $w)) (local.get $to))))
            (local.set $a (local.get $lo))
            (local.set $b (local.get $mid))
            (local.set $k (local.get $lo))
            (block $full
              (loop $take
                (br_if $full (i32.ge_u (local.get $k) (local.get $hi)))
                ;; the left one unless the right one is strictly before it (stable)
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
      (then
        (memory.copy
          (i32.add (local.get $o) (i32.shl (local.get $from) (i32.const 2)))
          (i32.add (local.get $src) (i32.shl (local.get $from) (i32.const 2)))
          (i32.shl (i32.sub (local.get $to) (local.get $from)) (i32.const 2))))))

;; Insertion in arrival order gives up after PILOT_MOVES (2) moves an entry over the first
  ;; PILOT_ENTRIES (256), ARRIVAL_MOVES (3) in all; after PILOT_MISSES (4) lists in a row gave up,
  ;; only every PILOT_RETRY-th (16) tries (drawingOrder.ts: the same constants and reasons).
  (global $pilotMisses (mut i32) (i32.const 0))
  (global $pilotSkips (mut i32) (i32.const 0))

  (func $pilotWorthTrying (param $n i32) (result i32)
    (if (i32.or (i32.lt_u (local.get $n) (i32.const 256)) (i32.lt_u (global.get $pilotMisses) (i32.const 4)))
      (then (return (i32.const 1))))
    (global.set $pilotSkips (i32.add (global.get $pilotSkips) (i32.const 1)))
    (if (i32.lt_u (global.get $pilotSkips) (i32.const 16)) (then (return (i32.const 0))))
    (global.set $pilotSkips (i32.const 0))
    (i32.const 1))

  (func $notePilot (param $n i32) (param $nearly i32)
    (if (local.get $nearly)
      (then (global.set $pilotMisses (i32.const 0)))
      (else
        (if (i32.ge_u (local.get $n) (i32.const 256))
          (then (global.set $pilotMisses (i32.add (global.get $pilotMisses) (i32.const 1))))))))

  ;; Stable insertion sort of $o[0 .. $n) within the pilot's budget of moves; 0 (the order is then
  ;; some other) once it is spent.
  (func $nearlyOrdered (param $o i32) (param $n i32) (result i32)
    (local $budget i32) (local $k i32) (local $j i32) (local $item i32) (local $other i32)
    (local.set $budget (i32.shl (select (local.get $n) (i32.const 256) (i32.lt_u (local.get $n) (i32.const 256))) (i32.const 1)))
    (local.set $k (i32.const 1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (if (i32.eq (local.get $k) (i32.const 256))
          (then (local.set $budget (i32.add (local.get $budget) (i32.mul (local.get $n) (i32.const 3))))))
        (local.set $item (i32.load (i32.add (local.get $o) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $j (local.get $k))
        (block $placed
          (loop $shift
            (br_if $placed (i32.eqz (local.get $j)))
            (local.set $other (i32.load (i32.add (local.get $o) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 2)))))
            (br_if $placed (i32.eqz (call $before (local.get $item) (local.get $other))))
            (local.set $budget (i32.sub (local.get $budget) (i32.const 1)))
            (if (i32.lt_s (local.get $budget) (i32.const 0)) (then (return (i32.const 0))))
            (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $other))
            (local.set $j (i32.sub (local.get $j) (i32.const 1)))
            (br $shift)))
        (i32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2))) (local.get $item))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (i32.const 1))

  ;; The entries of one list ($nest[i] = $wanted: 0 nestless, 1 nestable) among the node's $n, in
  ;; drawing order, as indices at $o; returns how many. Key columns $e, $l (f64), $c, $sl, $fl
  ;; (i32); scratch $starts ($n + 1 i32), $bof and $tmp ($n i32 each), $te ($n f64).
  (func (export "order") (param $n i32) (param $wanted i32) (param $e i32) (param $l i32) (param $c i32) (param $sl i32)
        (param $fl i32) (param $nest i32) (param $o i32) (param $starts i32) (param $bof i32) (param $tmp i32) (param $te i32) (result i32)
    (local $i i32) (local $m i32) (local $k i32) (local $t f64) (local $min f64) (local $max f64) (local $buckets i32)
    (local $scale f64) (local $unit f64) (local $b i32) (local $last i32) (local $from i32) (local $to i32) (local $x i32)
    (global.set $E (local.get $e))
    (global.set $L (local.get $l))
    (global.set $C (local.get $c))
    (global.set $SL (local.get $sl))
    (global.set $FL (local.get $fl))
    (block $picked
      (loop $pick
        (br_if $picked (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.eq (i32.load8_u (i32.add (local.get $nest) (local.get $i))) (local.get $wanted))
          (then
            (i32.store (i32.add (local.get $tmp) (i32.shl (local.get $m) (i32.const 2))) (local.get $i))
            (local.set $m (i32.add (local.get $m) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $pick)))
    (if (i32.lt_u (local.get $m) (i32.const 2))
      (then
        (if (local.get $m) (then (i32.store (local.get $o) (i32.load (local.get $tmp)))))
        (return (local.get $m))))
    ;; Arrival order is often nearly drawing order (2 ranks: 1-2 moves an entry): tried first.
    (if (call $pilotWorthTrying (local.get $m))
      (then
        (memory.copy (local.get $o) (local.get $tmp) (i32.shl (local.get $m) (i32.const 2)))
        (local.set $x (call $nearlyOrdered (local.get $o) (local.get $m)))
        (call $notePilot (local.get $m) (local.get $x))
        (if (local.get $x) (then (return (local.get $m))))))
    (local.set $min (f64.const inf))
    (local.set $max (f64.const -inf))
    (block $spanned
      (loop $span
        (br_if $spanned (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $t (f64.load (i32.add (local.get $e) (i32.shl (i32.load (i32.add (local.get $tmp) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3)))))
        (if (f64.lt (local.get $t) (local.get $min)) (then (local.set $min (local.get $t))))
        (if (f64.gt (local.get $t) (local.get $max)) (then (local.set $max (local.get $t))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $span)))
    ;; about one bucket per entry over the span (drawingOrder.ts bucketScale: a span of subnormal
    ;; times is scaled by 2^600 first)
    (local.set $buckets (i32.const 1))
    (local.set $unit (f64.const 1))
    (if (f64.gt (local.get $max) (local.get $min))
      (then
        (local.set $buckets (local.get $m))
        (local.set $scale (f64.div (f64.convert_i32_u (local.get $m)) (f64.sub (local.get $max) (local.get $min))))
        (if (f64.ne (f64.sub (local.get $scale) (local.get $scale)) (f64.const 0))
          (then
            (local.set $unit (f64.const 0x1p600))
            (local.set $scale (f64.div (f64.convert_i32_u (local.get $m)) (f64.mul (f64.sub (local.get $max) (local.get $min)) (local.get $unit))))))))
    (memory.fill (local.get $starts) (i32.const 0) (i32.shl (i32.add (local.get $buckets) (i32.const 1)) (i32.const 2)))
    (local.set $last (i32.sub (local.get $buckets) (i32.const 1)))
    (local.set $k (i32.const 0))
    (block $counted
      (loop $count
        (br_if $counted (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $t (f64.load (i32.add (local.get $e) (i32.shl (i32.load (i32.add (local.get $tmp) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3)))))
        (local.set $b (i32.trunc_sat_f64_u (f64.floor (f64.mul (f64.mul (f64.sub (local.get $t) (local.get $min)) (local.get $unit)) (local.get $scale)))))
        (if (i32.gt_u (local.get $b) (local.get $last)) (then (local.set $b (local.get $last))))
        (i32.store (i32.add (local.get $bof) (i32.shl (local.get $k) (i32.const 2))) (local.get $b))
        (local.set $x (i32.add (local.get $starts) (i32.shl (i32.add (local.get $b) (i32.const 1)) (i32.const 2))))
        (i32.store (local.get $x) (i32.add (i32.load (local.get $x)) (i32.const 1)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $count)))
    (local.set $b (i32.const 0))
    (block $summed
      (loop $sum
        (br_if $summed (i32.ge_u (local.get $b) (local.get $buckets)))
        (local.set $x (i32.add (local.get $starts) (i32.shl (i32.add (local.get $b) (i32.const 1)) (i32.const 2))))
        (i32.store (local.get $x) (i32.add (i32.load (local.get $x)) (i32.load (i32.add (local.get $starts) (i32.shl (local.get $b) (i32.const 2))))))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $sum)))
    ;; placed in index order; starts[b] moves on to the end of bucket b
    (local.set $k (i32.const 0))
    (block $placed
      (loop $place
        (br_if $placed (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $x (i32.add (local.get $starts) (i32.shl (i32.load (i32.add (local.get $bof) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2))))
        (i32.store (i32.add (local.get $o) (i32.shl (i32.load (local.get $x)) (i32.const 2))) (i32.load (i32.add (local.get $tmp) (i32.shl (local.get $k) (i32.const 2)))))
        (i32.store (local.get $x) (i32.add (i32.load (local.get $x)) (i32.const 1)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $place)))
    ;; Crowded buckets merged; then one insertion pass over all: an entry never moves past its
    ;; bucket (earlier buckets hold strictly earlier times), so it finishes every other bucket.
    (local.set $b (i32.const 0))
    (block $finished
      (loop $bucket
        (br_if $finished (i32.ge_u (local.get $b) (local.get $buckets)))
        (local.set $to (i32.load (i32.add (local.get $starts) (i32.shl (local.get $b) (i32.const 2)))))
        (if (i32.gt_u (i32.sub (local.get $to) (local.get $from)) (i32.const 48))
          (then (call $mergeSort (local.get $o) (local.get $tmp) (local.get $from) (local.get $to))))
        (local.set $from (local.get $to))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $bucket)))
    (local.set $k (i32.const 0))
    (block $keyed
      (loop $key
        (br_if $keyed (i32.ge_u (local.get $k) (local.get $m)))
        (f64.store (i32.add (local.get $te) (i32.shl (local.get $k) (i32.const 3)))
          (f64.load (i32.add (local.get $e) (i32.shl (i32.load (i32.add (local.get $o) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $key)))
    (call $insertion (local.get $o) (local.get $te) (i32.const 0) (local.get $m))
    (local.get $m))

  ;; Primitive $p's §7.2 body at $at (drawableBatchBytes.ts encodePrimitive); returns its end.
  ;; (Byte swaps written out: V8 does not inline WebAssembly calls here, and this runs per entry.)
  (func $primitive (param $p i32) (param $at i32) (result i32)
    (local $x i32) (local $i0 i32) (local $len i32) (local $v i32) (local $v1 i32) (local $t i64)
    (local.set $x (i32.load (i32.add (global.get $PC) (i32.shl (local.get $p) (i32.const 2)))))
    (i32.store align=1 (local.get $at)
      (i32.or (i32.or (i32.shl (local.get $x) (i32.const 24)) (i32.shl (i32.and (local.get $x) (i32.const 0xff00)) (i32.const 8)))
              (i32.or (i32.and (i32.shr_u (local.get $x) (i32.const 8)) (i32.const 0xff00)) (i32.shr_u (local.get $x) (i32.const 24)))))
    (local.set $i0 (i32.load (i32.add (global.get $PIS) (i32.shl (local.get $p) (i32.const 2)))))
    (local.set $len (i32.sub (i32.load (i32.add (global.get $PIE) (i32.shl (local.get $p) (i32.const 2)))) (local.get $i0)))
    (i32.store16 offset=4 align=1 (local.get $at)
      (i32.or (i32.shl (i32.and (local.get $len) (i32.const 0xff)) (i32.const 8)) (i32.and (i32.shr_u (local.get $len) (i32.const 8)) (i32.const 0xff))))
    (if (local.get $len)
      (then (memory.copy (i32.add (local.get $at) (i32.const 6)) (i32.add (global.get $INFO) (local.get $i0)) (local.get $len))))
    (local.set $at (i32.add (local.get $at) (i32.add (i32.const 6) (local.get $len))))
    (local.set $v (i32.load (i32.add (global.get $VS) (i32.shl (local.get $p) (i32.const 2)))))
    (local.set $v1 (i32.load offset=4 (i32.add (global.get $VS) (i32.shl (local.get $p) (i32.const 2)))))
    (local.set $x (i32.sub (local.get $v1) (local.get $v)))
    (i32.store16 align=1 (local.get $at)
      (i32.or (i32.shl (i32.and (local.get $x) (i32.const 0xff)) (i32.const 8)) (i32.and (i32.shr_u (local.get $x) (i32.const 8)) (i32.const 0xff))))
    (local.set $at (i32.add (local.get $at) (i32.const 2)))
    (block $done
      (loop $vertex
        (br_if $done (i32.ge_u (local.get $v) (local.get $v1)))
        (local.set $t (i64.load (i32.add (global.get $VT) (i32.shl (local.get $v) (i32.const 3)))))
        (local.set $t (i64.or (i64.and (i64.shr_u (local.get $t) (i64.const 8)) (i64.const 0x00ff00ff00ff00ff)) (i64.shl (i64.and (local.get $t) (i64.const 0x00ff00ff00ff00ff)) (i64.const 8))))
        (local.set $t (i64.or (i64.and (i64.shr_u (local.get $t) (i64.const 16)) (i64.const 0x0000ffff0000ffff)) (i64.shl (i64.and (local.get $t) (i64.const 0x0000ffff0000ffff)) (i64.const 16))))
        (i64.store align=1 (local.get $at) (i64.rotl (local.get $t) (i64.const 32)))
        (local.set $x (i32.load (i32.add (global.get $VL) (i32.shl (local.get $v) (i32.const 2)))))
        (i32.store offset=8 align=1 (local.get $at)
          (i32.or (i32.or (i32.shl (local.get $x) (i32.const 24)) (i32.shl (i32.and (local.get $x) (i32.const 0xff00)) (i32.const 8)))
                  (i32.or (i32.and (i32.shr_u (local.get $x) (i32.const 8)) (i32.const 0xff00)) (i32.shr_u (local.get $x) (i32.const 24)))))
        (local.set $at (i32.add (local.get $at) (i32.const 12)))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (br $vertex)))
    (local.get $at))

  ;; The $m entries whose indices are at $o, in that order, as §7.2 node-list entries at $out
  ;; (drawableBatchBytes.ts encodeEntry); returns the end. Entry columns $c (category), $kind,
  ;; $ps (first primitive, $n + 1), $eis, $eie (a composite's own info); primitive columns $pc,
  ;; $pis, $pie, $vs ($p + 1); vertex columns $vt (f64), $vl; info bytes at $info.
  (func (export "encode") (param $m i32) (param $o i32) (param $c i32) (param $kind i32) (param $ps i32) (param $eis i32)
        (param $eie i32) (param $pc i32) (param $pis i32) (param $pie i32) (param $vs i32) (param $vt i32) (param $vl i32)
        (param $info i32) (param $out i32) (result i32)
    (local $k i32) (local $i i32) (local $at i32) (local $p i32) (local $p1 i32) (local $i0 i32) (local $len i32)
    (global.set $PC (local.get $pc))
    (global.set $PIS (local.get $pis))
    (global.set $PIE (local.get $pie))
    (global.set $VS (local.get $vs))
    (global.set $VT (local.get $vt))
    (global.set $VL (local.get $vl))
    (global.set $INFO (local.get $info))
    (local.set $at (local.get $out))
    (block $done
      (loop $entry
        (br_if $done (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $i (i32.load (i32.add (local.get $o) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $p (i32.load (i32.add (local.get $ps) (i32.shl (local.get $i) (i32.const 2)))))
        (if (i32.eqz (i32.load8_u (i32.add (local.get $kind) (local.get $i))))
          (then
            (i32.store8 (local.get $at) (i32.const 0))
            (local.set $at (call $primitive (local.get $p) (i32.add (local.get $at) (i32.const 1)))))
          (else
            (i32.store8 (local.get $at) (i32.const 1))
            (call $be32 (i32.add (local.get $at) (i32.const 1)) (i32.load (i32.add (local.get $c) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $i0 (i32.load (i32.add (local.get $eis) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $len (i32.sub (i32.load (i32.add (local.get $eie) (i32.shl (local.get $i) (i32.const 2)))) (local.get $i0)))
            (call $be16 (i32.add (local.get $at) (i32.const 5)) (local.get $len))
            (memory.copy (i32.add (local.get $at) (i32.const 7)) (i32.add (local.get $info) (local.get $i0)) (local.get $len))
            (local.set $at (i32.add (local.get $at) (i32.add (i32.const 7) (local.get $len))))
            (local.set $p1 (i32.load (i32.add (local.get $ps) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 2)))))
            (call $be16 (local.get $at) (i32.sub (local.get $p1) (local.get $p)))
            (local.set $at (i32.add (local.get $at) (i32.const 2)))
            (block $members
              (loop $member
                (br_if $members (i32.ge_u (local.get $p) (local.get $p1)))
                (local.set $at (call $primitive (local.get $p) (local.get $at)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $member)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $entry)))
    (local.get $at))

  ;; The located entries among the $m at $o (site index columns $ss, $se: -1 = none) as i32
  ;; triples (position in the list, start site, end site) at $out; returns how many.
  (func (export "located") (param $m i32) (param $o i32) (param $ss i32) (param $se i32) (param $out i32) (result i32)
    (local $k i32) (local $i i32) (local $a i32) (local $z i32) (local $n i32)
    (block $done
      (loop $entry
        (br_if $done (i32.ge_u (local.get $k) (local.get $m)))
        (local.set $i (i32.shl (i32.load (i32.add (local.get $o) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))
        (local.set $a (i32.load (i32.add (local.get $ss) (local.get $i))))
        (local.set $z (i32.load (i32.add (local.get $se) (local.get $i))))
        (if (i32.or (i32.ge_s (local.get $a) (i32.const 0)) (i32.ge_s (local.get $z) (i32.const 0)))
          (then
            (local.set $i (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 12))))
            (i32.store (local.get $i) (local.get $k))
            (i32.store offset=4 (local.get $i) (local.get $a))
            (i32.store offset=8 (local.get $i) (local.get $z))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $entry)))
    (local.get $n)))
