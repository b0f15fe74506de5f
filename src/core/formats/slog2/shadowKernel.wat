;; A shadow section's decoding into columns (shadowKernel.ts, shadowTable.ts), as WebAssembly. A
;; whole-trace window's root holds ~1 500 shadows and ~8 000 weights: decoded by a JS loop that runs
;; once per buffer, i.e. as cold code in a fresh process, they were ~6 ms of the first window; here
;; they take well under one from the first call.
;;
;; The section was walked and bounds-checked when its node was parsed (treeNode.ts walkShadows,
;; skipShadow): the kernel reads it as the JS decoder does, trusting that walk's counts and lengths
;; (a length the walk did not see would trap on the memory's end, never read another's bytes: the
;; caller then decodes in JS). Multi-byte fields are big-endian (SLOG2.md §2); loads are
;; little-endian, so each is byte-swapped.
;;
;; Memory (the caller lays it out and copies the section in at 0): see `decode`.
;; Assembled by scripts/build-wasm.mjs into shadowKernelWasm.ts (a unit test checks the two agree).
(module
  (memory (export "memory") 1)

  (func $be32 (param $p i32) (result i32)
    (local $x i32)
    (local.set $x (i32.load align=1 (local.get $p)))
    (i32.or (i32.or (i32.shl (local.get $x) (i32.const 24)) (i32.shl (i32.and (local.get $x) (i32.const 0xff00)) (i32.const 8)))
            (i32.or (i32.and (i32.shr_u (local.get $x) (i32.const 8)) (i32.const 0xff00)) (i32.shr_u (local.get $x) (i32.const 24)))))

  ;; a signed big-endian i16
  (func $be16 (param $p i32) (result i32)
    (local $x i32)
    (local.set $x (i32.load16_u align=1 (local.get $p)))
    (i32.shr_s (i32.or (i32.shl (local.get $x) (i32.const 24)) (i32.shl (i32.and (local.get $x) (i32.const 0xff00)) (i32.const 8))) (i32.const 16)))

  (func $be64 (param $p i32) (result i64)
    (local $v i64)
    (local.set $v (i64.load align=1 (local.get $p)))
    (local.set $v (i64.or (i64.and (i64.shr_u (local.get $v) (i64.const 8)) (i64.const 0x00ff00ff00ff00ff)) (i64.shl (i64.and (local.get $v) (i64.const 0x00ff00ff00ff00ff)) (i64.const 8))))
    (local.set $v (i64.or (i64.and (i64.shr_u (local.get $v) (i64.const 16)) (i64.const 0x0000ffff0000ffff)) (i64.shl (i64.and (local.get $v) (i64.const 0x0000ffff0000ffff)) (i64.const 16))))
    (i64.rotl (local.get $v) (i64.const 32)))

  (func $finite (param $x f64) (result i32)
    (f64.eq (f64.sub (local.get $x) (local.get $x)) (f64.const 0)))

  ;; Whether category $c is met for the first time in this section: a set of i32 keys, open
  ;; addressing over $mask + 1 slots of 8 bytes (i32 key, i32 taken) at $set, all zero to begin with.
  (func $first (param $set i32) (param $mask i32) (param $c i32) (result i32)
    (local $h i32) (local $slot i32)
    (local.set $h (i32.and (i32.mul (local.get $c) (i32.const 0x9e3779b1)) (local.get $mask)))
    (loop $probe
      (local.set $slot (i32.add (local.get $set) (i32.shl (local.get $h) (i32.const 3))))
      (if (i32.eqz (i32.load offset=4 (local.get $slot)))
        (then
          (i32.store (local.get $slot) (local.get $c))
          (i32.store offset=4 (local.get $slot) (i32.const 1))
          (return (i32.const 1))))
      (if (i32.eq (i32.load (local.get $slot)) (local.get $c)) (then (return (i32.const 0))))
      (local.set $h (i32.and (i32.add (local.get $h) (i32.const 1)) (local.get $mask)))
      (br $probe))
    (i32.const 0))

  ;; Shadow weights [$w0, $w1)'s drawing order into $wo (indices into the weight columns): by
  ;; exclusion ratio descending, then inclusion ratio, then category; an insertion sort, as
  ;; shadowWeights.ts sorted them (a shadow has a handful). $kx, $kn: the ratios as sort keys
  ;; (f32, NaN or infinite as 0).
  (func $order (param $wo i32) (param $wc i32) (param $kn i32) (param $kx i32) (param $w0 i32) (param $w1 i32)
    (local $j i32) (local $i i32) (local $o i32) (local $c i32) (local $x f32) (local $n f32) (local $x2 f32) (local $n2 f32)
    (local.set $j (local.get $w0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $j) (local.get $w1)))
        (local.set $x (f32.load (i32.add (local.get $kx) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $n (f32.load (i32.add (local.get $kn) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $c (i32.load (i32.add (local.get $wc) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $i (local.get $j))
        (block $placed
          (loop $shift
            (br_if $placed (i32.le_s (local.get $i) (local.get $w0)))
            (local.set $o (i32.load (i32.add (local.get $wo) (i32.shl (i32.sub (local.get $i) (i32.const 1)) (i32.const 2)))))
            (local.set $x2 (f32.load (i32.add (local.get $kx) (i32.shl (local.get $o) (i32.const 2)))))
            (local.set $n2 (f32.load (i32.add (local.get $kn) (i32.shl (local.get $o) (i32.const 2)))))
            (br_if $placed
              (i32.eqz
                (i32.or (f32.gt (local.get $x) (local.get $x2))
                        (i32.and (f32.eq (local.get $x) (local.get $x2))
                                 (i32.or (f32.gt (local.get $n) (local.get $n2))
                                         (i32.and (f32.eq (local.get $n) (local.get $n2))
                                                  (i32.lt_s (local.get $c) (i32.load (i32.add (local.get $wc) (i32.shl (local.get $o) (i32.const 2)))))))))))
            (i32.store (i32.add (local.get $wo) (i32.shl (local.get $i) (i32.const 2))) (local.get $o))
            (local.set $i (i32.sub (local.get $i) (i32.const 1)))
            (br $shift)))
        (i32.store (i32.add (local.get $wo) (i32.shl (local.get $i) (i32.const 2))) (local.get $j))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $next))))

  ;; a ratio as a sort key: NaN or infinite as 0 (shadowWeights.ts ratio)
  (func $ratio (param $bits i32) (result f32)
    (local $x f32)
    (local.set $x (f32.reinterpret_i32 (local.get $bits)))
    (select (local.get $x) (f32.const 0) (f32.eq (f32.sub (local.get $x) (local.get $x)) (f32.const 0))))

  ;; shadowTable.ts decodeShadowTable's loop. The section (two lists, each an i32 count then its
  ;; shadows; $c0 and $c1 their counts) at 0; $v6: SLOG 2.0.6 (weights of 20 bytes with a count,
  ;; else 12). Columns: per shadow kept, $cat (i32), $ear, $lat, $real (f64); $vs, $ws (i32, one
  ;; more than the shadows kept: each shadow's first vertex and weight); per vertex $vt (f64), $vl
  ;; (i32); per weight $wc (i32), $wi, $we (f32), $wn (f64, NaN without a count). Events at $ev, 3
  ;; i32 each in the order the JS decoder reports them: (0, category, offset) for a category met for
  ;; the first time, (1, 0, offset) for a shadow dropped (a NaN or infinite time); offsets are in the
  ;; section. Each kept shadow's weights in drawing order at $wo (i32 per weight, see $order; $kn
  ;; and $kx hold its sort keys, f32 per weight). The
  ;; set of categories met at $set ($mask + 1 slots, zeroed by the caller). At $res: i32 shadows
  ;; kept (-1: more categories than half the set's slots; nothing else is written), vertices,
  ;; weights, events.
  (func (export "decode") (param $c0 i32) (param $c1 i32) (param $v6 i32)
        (param $cat i32) (param $ear i32) (param $lat i32) (param $real i32) (param $vs i32) (param $ws i32)
        (param $vt i32) (param $vl i32) (param $wc i32) (param $wi i32) (param $we i32) (param $wn i32)
        (param $wo i32) (param $kn i32) (param $kx i32) (param $ev i32) (param $set i32) (param $mask i32) (param $res i32)
    (local $list i32) (local $k i32) (local $pos i32) (local $at i32) (local $c i32) (local $nv i32) (local $nw i32)
    (local $i i32) (local $kept i32) (local $v i32) (local $w i32) (local $e i32) (local $v0 i32) (local $w0 i32)
    (local $fin i32) (local $distinct i32) (local $t f64) (local $earliest f64) (local $latest f64) (local $x i32) (local $wb i32)
    (local.set $wb (select (i32.const 20) (i32.const 12) (local.get $v6)))
    (block $lists
      (loop $nextList
        (br_if $lists (i32.ge_u (local.get $list) (i32.const 2)))
        (local.set $k (select (local.get $c0) (local.get $c1) (i32.eqz (local.get $list))))
        (local.set $pos (i32.add (local.get $pos) (i32.const 4)))
        (block $shadows
          (loop $nextShadow
            (br_if $shadows (i32.le_s (local.get $k) (i32.const 0)))
            (local.set $at (local.get $pos))
            (local.set $c (call $be32 (local.get $pos)))
            (if (call $first (local.get $set) (local.get $mask) (local.get $c))
              (then
                (local.set $distinct (i32.add (local.get $distinct) (i32.const 1)))
                (if (i32.gt_u (i32.shl (local.get $distinct) (i32.const 1)) (local.get $mask))
                  (then (i32.store (local.get $res) (i32.const -1)) (return)))
                (local.set $x (i32.add (local.get $ev) (i32.mul (local.get $e) (i32.const 12))))
                (i32.store (local.get $x) (i32.const 0))
                (i32.store offset=4 (local.get $x) (local.get $c))
                (i32.store offset=8 (local.get $x) (local.get $pos))
                (local.set $e (i32.add (local.get $e) (i32.const 1)))))
            ;; past the category, the info length and its bytes
            (local.set $pos (i32.add (local.get $pos) (i32.add (i32.const 6) (call $be16 (i32.add (local.get $pos) (i32.const 4))))))
            (local.set $nv (call $be16 (local.get $pos)))
            (local.set $pos (i32.add (local.get $pos) (i32.const 2)))
            ;; a dropped shadow's vertices and weights are overwritten by the next one's
            (local.set $v0 (local.get $v))
            (local.set $w0 (local.get $w))
            (local.set $fin (i32.const 1))
            (local.set $i (i32.const 0))
            (block $verts
              (loop $nextVert
                (br_if $verts (i32.ge_s (local.get $i) (local.get $nv)))
                (local.set $t (f64.reinterpret_i64 (call $be64 (local.get $pos))))
                (if (i32.eqz (call $finite (local.get $t))) (then (local.set $fin (i32.const 0))))
                (f64.store (i32.add (local.get $vt) (i32.shl (local.get $v) (i32.const 3))) (local.get $t))
                (i32.store (i32.add (local.get $vl) (i32.shl (local.get $v) (i32.const 2))) (call $be32 (i32.add (local.get $pos) (i32.const 8))))
                (local.set $pos (i32.add (local.get $pos) (i32.const 12)))
                (local.set $v (i32.add (local.get $v) (i32.const 1)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $nextVert)))
            (local.set $earliest (f64.reinterpret_i64 (call $be64 (local.get $pos))))
            (local.set $latest (f64.reinterpret_i64 (call $be64 (i32.add (local.get $pos) (i32.const 8)))))
            ;; num_real_objs: the walk made sure it is inside ±2^53, where the conversion is exact
            (f64.store (i32.add (local.get $real) (i32.shl (local.get $kept) (i32.const 3)))
                       (f64.convert_i64_s (call $be64 (i32.add (local.get $pos) (i32.const 16)))))
            (local.set $nw (call $be32 (i32.add (local.get $pos) (i32.const 24))))
            (local.set $pos (i32.add (local.get $pos) (i32.const 28)))
            (local.set $i (i32.const 0))
            (block $weights
              (loop $nextWeight
                (br_if $weights (i32.ge_s (local.get $i) (local.get $nw)))
                (local.set $x (call $be32 (local.get $pos)))
                (if (call $first (local.get $set) (local.get $mask) (local.get $x))
                  (then
                    (local.set $distinct (i32.add (local.get $distinct) (i32.const 1)))
                    (if (i32.gt_u (i32.shl (local.get $distinct) (i32.const 1)) (local.get $mask))
                      (then (i32.store (local.get $res) (i32.const -1)) (return)))
                    (local.set $c (i32.add (local.get $ev) (i32.mul (local.get $e) (i32.const 12))))
                    (i32.store (local.get $c) (i32.const 0))
                    (i32.store offset=4 (local.get $c) (local.get $x))
                    (i32.store offset=8 (local.get $c) (local.get $pos))
                    (local.set $e (i32.add (local.get $e) (i32.const 1)))))
                (i32.store (i32.add (local.get $wc) (i32.shl (local.get $w) (i32.const 2))) (local.get $x))
                (local.set $c (call $be32 (i32.add (local.get $pos) (i32.const 4))))
                (i32.store (i32.add (local.get $wi) (i32.shl (local.get $w) (i32.const 2))) (local.get $c))
                (f32.store (i32.add (local.get $kn) (i32.shl (local.get $w) (i32.const 2))) (call $ratio (local.get $c)))
                (local.set $c (call $be32 (i32.add (local.get $pos) (i32.const 8))))
                (i32.store (i32.add (local.get $we) (i32.shl (local.get $w) (i32.const 2))) (local.get $c))
                (f32.store (i32.add (local.get $kx) (i32.shl (local.get $w) (i32.const 2))) (call $ratio (local.get $c)))
                (f64.store (i32.add (local.get $wn) (i32.shl (local.get $w) (i32.const 3)))
                           (select (f64.convert_i64_s (call $be64 (i32.add (local.get $pos) (i32.const 12)))) (f64.const nan) (local.get $v6)))
                (local.set $pos (i32.add (local.get $pos) (local.get $wb)))
                (local.set $w (i32.add (local.get $w) (i32.const 1)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $nextWeight)))
            (if (i32.and (local.get $fin) (i32.and (call $finite (local.get $earliest)) (call $finite (local.get $latest))))
              (then
                ;; kept ($real was written at its place above)
                (i32.store (i32.add (local.get $cat) (i32.shl (local.get $kept) (i32.const 2))) (call $be32 (local.get $at)))
                (f64.store (i32.add (local.get $ear) (i32.shl (local.get $kept) (i32.const 3))) (local.get $earliest))
                (f64.store (i32.add (local.get $lat) (i32.shl (local.get $kept) (i32.const 3))) (local.get $latest))
                (i32.store (i32.add (local.get $vs) (i32.shl (local.get $kept) (i32.const 2))) (local.get $v0))
                (i32.store (i32.add (local.get $ws) (i32.shl (local.get $kept) (i32.const 2))) (local.get $w0))
                (call $order (local.get $wo) (local.get $wc) (local.get $kn) (local.get $kx) (local.get $w0) (local.get $w))
                (local.set $kept (i32.add (local.get $kept) (i32.const 1))))
              (else
                (local.set $x (i32.add (local.get $ev) (i32.mul (local.get $e) (i32.const 12))))
                (i32.store (local.get $x) (i32.const 1))
                (i32.store offset=4 (local.get $x) (i32.const 0))
                (i32.store offset=8 (local.get $x) (local.get $at))
                (local.set $e (i32.add (local.get $e) (i32.const 1)))
                (local.set $v (local.get $v0))
                (local.set $w (local.get $w0))))
            (local.set $k (i32.sub (local.get $k) (i32.const 1)))
            (br $nextShadow)))
        (local.set $list (i32.add (local.get $list) (i32.const 1)))
        (br $nextList)))
    (i32.store (i32.add (local.get $vs) (i32.shl (local.get $kept) (i32.const 2))) (local.get $v))
    (i32.store (i32.add (local.get $ws) (i32.shl (local.get $kept) (i32.const 2))) (local.get $w))
    (i32.store (local.get $res) (local.get $kept))
    (i32.store offset=4 (local.get $res) (local.get $v))
    (i32.store offset=8 (local.get $res) (local.get $w))
    (i32.store offset=12 (local.get $res) (local.get $e))))
