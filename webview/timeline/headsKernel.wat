;; The event heads' composition (headLayer.ts `heads`), as WebAssembly: the same loop over the heads'
;; sample masks, each pixel's samples OR-ed within a colour run and its colour composed over the pixel
;; under the run, with the same f64 operations as colour.ts `over` (so the same pixels). In JS the
;; dense frame of the viewport bench (26 000 heads, ~580 000 pixel visits) took ~5 ms, its 64-bit
;; sample words split in two and counted bit by bit; here a visit is an i64 OR and a popcnt.
;;
;; Memory (the caller lays it out, headsKernel.ts): the layer's pixels (u32), per pixel a 16-byte cell
;; (i32 run that last covered it, u32 the pixel under that run, i64 its samples in that run), a memo
;; of 4096 blends (16 bytes: under, count, colour, result), a byte per device row (set where a head
;; reaches), a table of the 81 masks' offsets by sub-pixel key, a colour table (65 u32), a frame
;; block of 96 bytes that says where each is (see `compose`), the masks (i32 w, h, from, to, bits:
;; byte offsets of h i32, h i32, w*h i64) and the marks' columns (f64 xe, f64 top, u32 rgba, i32 run).
;; Assembled by scripts/build-wasm.mjs into headsKernelWasm.ts (a unit test checks the two agree).
(module
  (memory (export "memory") 1)
  ;; src at coverage count/64 over dst, as colour.ts `over` (the same f64 operations)
  (func $over (param $src i32) (param $count i32) (param $dst i32) (result i32)
    (local $sa f64) (local $keep f64) (local $oa f64) (local $inv f64)
    (local.set $sa (f64.mul (f64.div (f64.convert_i32_u (i32.shr_u (local.get $src) (i32.const 24))) (f64.const 255))
                            (f64.div (f64.convert_i32_s (local.get $count)) (f64.const 64))))
    (if (f64.ge (local.get $sa) (f64.const 1)) (then (return (local.get $src))))
    (local.set $keep (f64.mul (f64.div (f64.convert_i32_u (i32.shr_u (local.get $dst) (i32.const 24))) (f64.const 255))
                              (f64.sub (f64.const 1) (local.get $sa))))
    (local.set $oa (f64.add (local.get $sa) (local.get $keep)))
    (if (f64.le (local.get $oa) (f64.const 0)) (then (return (i32.const 0))))
    (local.set $inv (f64.div (f64.const 1) (local.get $oa)))
    (i32.or
      (i32.or
        (i32.shl (i32.trunc_sat_f64_s (f64.add (f64.mul (local.get $oa) (f64.const 255)) (f64.const 0.5))) (i32.const 24))
        (i32.shl (call $chan (local.get $src) (local.get $dst) (i32.const 16) (local.get $sa) (local.get $keep) (local.get $inv)) (i32.const 16)))
      (i32.or
        (i32.shl (call $chan (local.get $src) (local.get $dst) (i32.const 8) (local.get $sa) (local.get $keep) (local.get $inv)) (i32.const 8))
        (call $chan (local.get $src) (local.get $dst) (i32.const 0) (local.get $sa) (local.get $keep) (local.get $inv)))))
  (func $chan (param $src i32) (param $dst i32) (param $sh i32) (param $sa f64) (param $keep f64) (param $inv f64) (result i32)
    (i32.trunc_sat_f64_s
      (f64.add
        (f64.mul
          (f64.add
            (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $src) (local.get $sh)) (i32.const 255))) (local.get $sa))
            (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $dst) (local.get $sh)) (i32.const 255))) (local.get $keep)))
          (local.get $inv))
        (f64.const 0.5))))
  ;; Math.round for v >= 0, exactly (floor, then up where the rest is at least a half)
  (func $round (param $v f64) (result f64)
    (local $f f64)
    (local.set $f (f64.floor (local.get $v)))
    (select (f64.add (local.get $f) (f64.const 1)) (local.get $f) (f64.ge (f64.sub (local.get $v) (local.get $f)) (f64.const 0.5))))
  ;; the colour table of $rgba at $table: the colour at 0-64 samples (headLayer.ts colourByCount)
  (func $table (param $rgba i32) (param $table i32)
    (local $c i32) (local $alpha f64) (local $rgb i32)
    (local.set $alpha (f64.div (f64.convert_i32_u (i32.shr_u (local.get $rgba) (i32.const 24))) (f64.const 255)))
    (local.set $rgb (i32.and (local.get $rgba) (i32.const 0xffffff)))
    (block $done
      (loop $each
        (br_if $done (i32.gt_s (local.get $c) (i32.const 64)))
        (i32.store (i32.add (local.get $table) (i32.shl (local.get $c) (i32.const 2)))
          (i32.or (i32.shl (i32.trunc_sat_f64_s (call $round (f64.mul (f64.div (f64.mul (local.get $alpha) (f64.convert_i32_s (local.get $c))) (f64.const 64)) (f64.const 255))))
                           (i32.const 24))
                  (local.get $rgb)))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $each))))
  ;; one head: its mask's pixels [i0, i1) x [j0, j1) at (ix, iy), in run $run and colour $rgba
  (func $head (param $ix i32) (param $iy i32) (param $mask i32) (param $i0 i32) (param $i1 i32) (param $j i32) (param $j1 i32)
              (param $run i32) (param $table i32) (param $rgba i32) (param $px i32) (param $cell i32) (param $cols i32) (param $memo i32)
    (local $opaque i32) (local $mw i32) (local $from i32) (local $to i32) (local $bits i32) (local $line i32) (local $i i32) (local $b i32)
    (local $m i64) (local $old i64) (local $nb i64) (local $c i32) (local $at i32) (local $count i32) (local $base i32)
    (local $slot i32) (local $out i32) (local $mrow i32)
    (local.set $opaque (i32.eq (i32.shr_u (local.get $rgba) (i32.const 24)) (i32.const 255)))
    (local.set $mw (i32.load (local.get $mask)))
    (local.set $from (i32.load offset=8 (local.get $mask)))
    (local.set $to (i32.load offset=12 (local.get $mask)))
    (local.set $bits (i32.load offset=16 (local.get $mask)))
    (block $rows_done
      (loop $row
        (br_if $rows_done (i32.ge_s (local.get $j) (local.get $j1)))
        (local.set $line (i32.add (i32.mul (i32.add (local.get $iy) (local.get $j)) (local.get $cols)) (local.get $ix)))
        (local.set $mrow (i32.add (local.get $bits) (i32.shl (i32.mul (local.get $j) (local.get $mw)) (i32.const 3))))
        (local.set $i (i32.load (i32.add (local.get $from) (i32.shl (local.get $j) (i32.const 2)))))
        (if (i32.lt_s (local.get $i) (local.get $i0)) (then (local.set $i (local.get $i0))))
        (local.set $b (i32.load (i32.add (local.get $to) (i32.shl (local.get $j) (i32.const 2)))))
        (if (i32.gt_s (local.get $b) (local.get $i1)) (then (local.set $b (local.get $i1))))
        (block $px_done
          (loop $pixel
            (br_if $px_done (i32.ge_s (local.get $i) (local.get $b)))
            (block $next
              (local.set $m (i64.load (i32.add (local.get $mrow) (i32.shl (local.get $i) (i32.const 3)))))
              (br_if $next (i64.eqz (local.get $m)))
              (local.set $at (i32.add (local.get $line) (local.get $i)))
              (local.set $c (i32.add (local.get $cell) (i32.shl (local.get $at) (i32.const 4))))
              (if (i32.eq (i32.load (local.get $c)) (local.get $run))
                (then
                  ;; within a run the heads are one shape: their samples are OR-ed
                  (local.set $old (i64.load offset=8 (local.get $c)))
                  (local.set $nb (i64.or (local.get $old) (local.get $m)))
                  (br_if $next (i64.eq (local.get $nb) (local.get $old)))
                  (local.set $base (i32.load offset=4 (local.get $c))))
                (else
                  (i32.store (local.get $c) (local.get $run))
                  (local.set $base (i32.load (i32.add (local.get $px) (i32.shl (local.get $at) (i32.const 2)))))
                  (i32.store offset=4 (local.get $c) (local.get $base))
                  (local.set $nb (local.get $m))))
              (i64.store offset=8 (local.get $c) (local.get $nb))
              (local.set $count (i32.wrap_i64 (i64.popcnt (local.get $nb))))
              ;; nothing under it, or an opaque colour fully covering: the colour at its coverage
              (if (i32.or (i32.eqz (local.get $base)) (i32.and (i32.eq (local.get $count) (i32.const 64)) (local.get $opaque)))
                (then (local.set $out (i32.load (i32.add (local.get $table) (i32.shl (local.get $count) (i32.const 2))))))
                (else
                  (local.set $slot (i32.add (local.get $memo) (i32.shl
                    (i32.shr_u (i32.mul (i32.xor (i32.xor (local.get $base) (local.get $rgba)) (i32.mul (local.get $count) (i32.const 0x85ebca6b))) (i32.const 0x9e3779b1)) (i32.const 20))
                    (i32.const 4))))
                  (if (i32.or (i32.or (i32.ne (i32.load (local.get $slot)) (local.get $base)) (i32.ne (i32.load offset=4 (local.get $slot)) (local.get $count)))
                              (i32.ne (i32.load offset=8 (local.get $slot)) (local.get $rgba)))
                    (then
                      (i32.store (local.get $slot) (local.get $base))
                      (i32.store offset=4 (local.get $slot) (local.get $count))
                      (i32.store offset=8 (local.get $slot) (local.get $rgba))
                      (i32.store offset=12 (local.get $slot) (call $over (local.get $rgba) (local.get $count) (local.get $base)))))
                  (local.set $out (i32.load offset=12 (local.get $slot)))))
              (i32.store (i32.add (local.get $px) (i32.shl (local.get $at) (i32.const 2))) (local.get $out)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $pixel)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $row))))
  ;; The heads of the marks, as headLayer.ts `heads`. The frame block at $f (i32 unless said):
  ;;  0 count, 4 runs (a new run where a mark's run changes), 8 run (in and out), 12 clip0, 16 clip1,
  ;;  20 cols, 24 rows, 28 y0 and 32 y1 (rows touched, in and out), 36 px, 40 cells, 44 memo, 48 used
  ;;  rows (u8), 52 mask offsets (81 i32), 56 colour table, 60 xe (f64), 64 top (f64), 68 rgba,
  ;;  72 marks' runs, 80 tri (f64), 88 k (f64)
  (func (export "compose") (param $f i32)
    (local $h i32) (local $count i32) (local $runs i32) (local $run i32) (local $clip0 i32) (local $clip1 i32)
    (local $cols i32) (local $rows i32) (local $y0 i32) (local $y1 i32) (local $tri f64) (local $k f64)
    (local $lastMarkRun i32) (local $haveRun i32) (local $markRun i32) (local $x0 f64) (local $yy f64) (local $fxf f64) (local $fyf f64)
    (local $ix i32) (local $iy i32) (local $fx i32) (local $fy i32) (local $mask i32) (local $j0 i32) (local $j1 i32)
    (local $i0 i32) (local $i1 i32) (local $rgba i32) (local $curRgba i32) (local $haveTable i32) (local $table i32) (local $y i32) (local $used i32)
    (local.set $count (i32.load (local.get $f)))
    (local.set $runs (i32.load offset=4 (local.get $f)))
    (local.set $run (i32.load offset=8 (local.get $f)))
    (local.set $clip0 (i32.load offset=12 (local.get $f)))
    (local.set $clip1 (i32.load offset=16 (local.get $f)))
    (local.set $cols (i32.load offset=20 (local.get $f)))
    (local.set $rows (i32.load offset=24 (local.get $f)))
    (local.set $y0 (i32.load offset=28 (local.get $f)))
    (local.set $y1 (i32.load offset=32 (local.get $f)))
    (local.set $used (i32.load offset=48 (local.get $f)))
    (local.set $table (i32.load offset=56 (local.get $f)))
    (local.set $tri (f64.load offset=80 (local.get $f)))
    (local.set $k (f64.load offset=88 (local.get $f)))
    (block $done
      (loop $each
        (br_if $done (i32.ge_s (local.get $h) (local.get $count)))
        (block $next
          (if (local.get $runs)
            (then
              (local.set $markRun (i32.load (i32.add (i32.load offset=72 (local.get $f)) (i32.shl (local.get $h) (i32.const 2)))))
              (if (i32.or (i32.eqz (local.get $haveRun)) (i32.ne (local.get $markRun) (local.get $lastMarkRun)))
                (then
                  (local.set $haveRun (i32.const 1))
                  (local.set $lastMarkRun (local.get $markRun))
                  (local.set $run (i32.add (local.get $run) (i32.const 1)))))))
          (local.set $x0 (f64.mul (f64.sub (f64.load (i32.add (i32.load offset=60 (local.get $f)) (i32.shl (local.get $h) (i32.const 3)))) (local.get $tri)) (local.get $k)))
          (local.set $yy (f64.mul (f64.load (i32.add (i32.load offset=64 (local.get $f)) (i32.shl (local.get $h) (i32.const 3)))) (local.get $k)))
          ;; a NaN place draws nothing (as in JS, where every compare with it fails)
          (br_if $next (i32.or (f64.ne (local.get $x0) (local.get $x0)) (f64.ne (local.get $yy) (local.get $yy))))
          (local.set $fxf (f64.floor (local.get $x0)))
          (local.set $fyf (f64.floor (local.get $yy)))
          (local.set $ix (i32.trunc_sat_f64_s (local.get $fxf)))
          (local.set $iy (i32.trunc_sat_f64_s (local.get $fyf)))
          (local.set $fx (i32.trunc_sat_f64_s (call $round (f64.mul (f64.sub (local.get $x0) (local.get $fxf)) (f64.const 8)))))
          (local.set $fy (i32.trunc_sat_f64_s (call $round (f64.mul (f64.sub (local.get $yy) (local.get $fyf)) (f64.const 8)))))
          (local.set $mask (i32.load (i32.add (i32.load offset=52 (local.get $f)) (i32.shl (i32.add (i32.mul (local.get $fx) (i32.const 9)) (local.get $fy)) (i32.const 2)))))
          ;; clipped to the layer's rows and the columns drawn
          (local.set $j0 (select (i32.const 0) (i32.sub (i32.const 0) (local.get $iy)) (i32.ge_s (local.get $iy) (i32.const 0))))
          (local.set $j1 (i32.load offset=4 (local.get $mask)))
          (if (i32.gt_s (local.get $j1) (i32.sub (local.get $rows) (local.get $iy))) (then (local.set $j1 (i32.sub (local.get $rows) (local.get $iy)))))
          (local.set $i0 (i32.sub (local.get $clip0) (local.get $ix)))
          (if (i32.lt_s (local.get $i0) (i32.const 0)) (then (local.set $i0 (i32.const 0))))
          (local.set $i1 (i32.load (local.get $mask)))
          (if (i32.gt_s (local.get $i1) (i32.sub (local.get $clip1) (local.get $ix))) (then (local.set $i1 (i32.sub (local.get $clip1) (local.get $ix)))))
          (br_if $next (i32.or (i32.le_s (local.get $j1) (local.get $j0)) (i32.le_s (local.get $i1) (local.get $i0))))
          (local.set $rgba (i32.load (i32.add (i32.load offset=68 (local.get $f)) (i32.shl (local.get $h) (i32.const 2)))))
          (if (i32.or (i32.eqz (local.get $haveTable)) (i32.ne (local.get $rgba) (local.get $curRgba)))
            (then
              (call $table (local.get $rgba) (local.get $table))
              (local.set $haveTable (i32.const 1))
              (local.set $curRgba (local.get $rgba))))
          (if (i32.lt_s (i32.add (local.get $iy) (local.get $j0)) (local.get $y0)) (then (local.set $y0 (i32.add (local.get $iy) (local.get $j0)))))
          (if (i32.gt_s (i32.add (local.get $iy) (local.get $j1)) (local.get $y1)) (then (local.set $y1 (i32.add (local.get $iy) (local.get $j1)))))
          (local.set $y (i32.add (local.get $iy) (local.get $j0)))
          (block $marked
            (loop $mark
              (br_if $marked (i32.ge_s (local.get $y) (i32.add (local.get $iy) (local.get $j1))))
              (i32.store8 (i32.add (local.get $used) (local.get $y)) (i32.const 1))
              (local.set $y (i32.add (local.get $y) (i32.const 1)))
              (br $mark)))
          (call $head (local.get $ix) (local.get $iy) (local.get $mask) (local.get $i0) (local.get $i1) (local.get $j0) (local.get $j1)
                      (local.get $run) (local.get $table) (local.get $rgba)
                      (i32.load offset=36 (local.get $f)) (i32.load offset=40 (local.get $f)) (local.get $cols) (i32.load offset=44 (local.get $f))))
        (local.set $h (i32.add (local.get $h) (i32.const 1)))
        (br $each)))
    (i32.store offset=8 (local.get $f) (local.get $run))
    (i32.store offset=28 (local.get $f) (local.get $y0))
    (i32.store offset=32 (local.get $f) (local.get $y1)))
)
