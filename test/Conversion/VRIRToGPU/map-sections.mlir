// RUN: vr-opt %s --vrir-gpu-map-sections --split-input-file | FileCheck %s
// RUN: vr-opt %s --vrir-gpu-map-sections="block-2d-x=16 block-2d-y=4" --split-input-file | FileCheck %s --check-prefix=TILE
// RUN: vr-opt %s --vrir-gpu-map-sections="matmul-tile-m=32 matmul-tile-n=32 matmul-tile-k=32 matmul-threads-x=32 matmul-threads-y=8" --split-input-file | FileCheck %s --check-prefix=MATMUL
// RUN: not vr-opt %s --vrir-gpu-map-sections="matmul-tile-n=40" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not vr-opt %s --vrir-gpu-map-sections="matmul-tile-k=3" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD-K
// BAD: error: vrir-gpu-map-sections: bad matrix-product tiling: tile-n must be a multiple of threads-x and tile-m of threads-y
// BAD-K: error: vrir-gpu-map-sections: bad matrix-product tiling: the tiles of A (tile-m x tile-k) and of B (tile-k x tile-n) must have a multiple of threads-x * threads-y elements

// A 2-D loop over a row-major array: tiled 8 x 32, the last (contiguous)
// dimension on x; the section is inlined.
// CHECK-LABEL: func.func @row_major
// CHECK-NOT: scf.execute_region
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = {{.*}} step (%[[C8]], %[[C32]])
// CHECK:   scf.parallel
// CHECK:     scf.if
// CHECK:       memref.store
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_y{{.*}}>, #gpu.loop_dim_map<processor = thread_x{{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_y{{.*}}>, #gpu.loop_dim_map<processor = block_x{{.*}}>]}
// TILE-LABEL: func.func @row_major
// TILE-DAG: %[[C4:.*]] = arith.constant 4 : index
// TILE-DAG: %[[C16:.*]] = arith.constant 16 : index
// TILE: scf.parallel (%{{.*}}, %{{.*}}) = {{.*}} step (%[[C4]], %[[C16]])
func.func @row_major(%A: memref<?x?xf64>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f64
  scf.execute_region {
    scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
      memref.store %cst, %A[%i, %j] : memref<?x?xf64>
    }
    scf.yield
  } {vrir.gpu_section}
  return
}

// -----

// Column-major: the first dimension has unit stride, so it goes on x.
// CHECK-LABEL: func.func @col_major
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x{{.*}}>, #gpu.loop_dim_map<processor = thread_y{{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x{{.*}}>, #gpu.loop_dim_map<processor = block_y{{.*}}>]}
func.func @col_major(%A: memref<?x?xf64, strided<[1, ?]>>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f64
  scf.execute_region {
    scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) {
      memref.store %cst, %A[%i, %j] : memref<?x?xf64, strided<[1, ?]>>
    }
    scf.yield
  } {vrir.gpu_section}
  return
}

// -----

// A linalg op becomes a kernel; a nested parallel loop runs serially in
// its work-item; code outside loops and loops with reductions stay on the
// host; the section's result is its yield.
// CHECK-LABEL: func.func @mixed
// CHECK: scf.parallel {{.*}} step (%{{.*}})
// CHECK:   scf.parallel
// CHECK:     arith.sitofp
// CHECK-NOT: linalg.generic
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_x{{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x{{.*}}>]}
// CHECK: scf.parallel
// CHECK:   scf.parallel
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = sequential{{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x{{.*}}>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x{{.*}}>]}
// The reduction: partial results per work-group, then one group.
// CHECK: %[[PARTIAL:.*]] = memref.alloc(%[[GROUPS:.*]]) : memref<?xf64>
// CHECK: %[[RESULT:.*]] = memref.alloc() : memref<1xf64>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[GROUPS]], {{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}) workgroup(%[[SHARED:.*]] : memref<256xf64, #gpu.address_space<workgroup>>)
// CHECK:   scf.for
// One dimension: the iteration number is the index (no division).
// CHECK-NOT:   arith.remui
// CHECK:     memref.load %arg0
// CHECK:     arith.addf
// CHECK:   memref.store %{{.*}}, %[[SHARED]]
// CHECK:   gpu.barrier
// CHECK-COUNT-8: gpu.barrier
// CHECK:   memref.store %{{.*}}, %[[PARTIAL]]
// CHECK: gpu.launch
// CHECK:   memref.load %[[PARTIAL]]
// CHECK:   memref.store %{{.*}}, %[[RESULT]]
// CHECK: %[[SUM:.*]] = memref.load %[[RESULT]]
// CHECK-NOT: scf.parallel
// CHECK: return %[[SUM]]
#id = affine_map<(d0) -> (d0)>
func.func @mixed(%x: memref<?xf64>, %y: memref<?x?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.execute_region -> f64 {
    linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%x : memref<?xf64>) {
    ^bb0(%out: f64):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f64
      linalg.yield %f : f64
    }
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      scf.parallel (%j) = (%c0) to (%n) step (%c1) {
        memref.store %zero, %y[%i, %j] : memref<?x?xf64>
      }
    }
    %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
      %v = memref.load %x[%i] : memref<?xf64>
      scf.reduce(%v : f64) {
      ^bb0(%a: f64, %b: f64):
        %t = arith.addf %a, %b : f64
        scf.reduce.return %t : f64
      }
    }
    scf.yield %s : f64
  } {vrir.gpu_section}
  return %r : f64
}

// -----

// A matrix product (of f32: the tiling of every element type but f64):
// one launch of 16x16 work-items per 128x128 tile of C (grid: ceil(n/128)
// x ceil(m/128)). A work-item keeps 8x8 sums in registers in runs of 4
// (rows 4y + i and 64 + 4y + i, columns the same with x; fused
// multiply-adds) and adds them to C where they fall inside it. The tiles
// hold the runs as vector<4xf32>: A's k-major (16 deep, 32 runs of 4 rows
// and one of padding), B's 16 x 32 runs of 4 columns. Each work-item loads
// two runs of each before the loop (without bounds tests when the group's
// tiles lie inside the matrices); each step stores the runs loaded the
// step before, passes a barrier, loads the next ones, reads two runs of A
// and two of B per depth (16 depths unrolled) and passes a barrier. A
// matmul with indexing maps of its own stays a linalg op turned into
// loops.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[M:.*]] = memref.dim %arg2, %c0
// CHECK: %[[N:.*]] = memref.dim %arg2, %c1
// CHECK: %[[GX:.*]] = arith.ceildivsi %[[N]], %c128
// CHECK: %[[GY:.*]] = arith.ceildivsi %[[M]], %c128
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[GX]], {{.*}} = %[[GY]], {{.*}}) threads(%[[TX:[^,]*]], %[[TY:[^,]*]], %{{[^)]*}}) in ({{.*}} = %c16{{[_0-9]*}}, {{.*}} = %c16{{[_0-9]*}}, {{.*}}) workgroup(%[[AT:[^ ]*]] : memref<16x33xvector<4xf32>, #gpu.address_space<workgroup>>, %[[BT:[^ ]*]] : memref<16x32xvector<4xf32>, #gpu.address_space<workgroup>>)
// CHECK: scf.if %{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NOT: scf.if
// CHECK-COUNT-8: memref.load %arg0[
// CHECK-NOT: scf.if
// CHECK-COUNT-8: memref.load %arg1[
// CHECK: } else {
// CHECK-COUNT-16: scf.if
// CHECK: scf.for {{.*}} step %c16{{[_0-9]*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: %[[AVEC:.*]] = vector.from_elements {{.*}} : vector<4xf32>
// CHECK-NEXT: memref.store %[[AVEC]], %[[AT]][
// CHECK-NEXT: %[[AVEC2:.*]] = vector.from_elements
// CHECK-NEXT: memref.store %[[AVEC2]], %[[AT]][
// CHECK-NEXT: %[[BVEC:.*]] = vector.from_elements
// CHECK-NEXT: memref.store %[[BVEC]], %[[BT]][
// CHECK-NEXT: %[[BVEC2:.*]] = vector.from_elements
// CHECK-NEXT: memref.store %[[BVEC2]], %[[BT]][
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: memref.load %arg0[
// CHECK-COUNT-8: memref.load %arg1[
// CHECK: memref.load %[[AT]][%c0{{[_0-9]*}}, %[[TY]]]
// CHECK-COUNT-4: vector.extract
// CHECK: memref.load %[[AT]][%c0{{[_0-9]*}}, %{{.*}}]
// CHECK: memref.load %[[BT]][%c0{{[_0-9]*}}, %[[TX]]]
// CHECK: memref.load %[[BT]][%c0{{[_0-9]*}}, %{{.*}}]
// CHECK-COUNT-64: math.fma
// CHECK: memref.load %[[AT]][%c1{{[_0-9]*}}, %[[TY]]]
// CHECK-COUNT-960: math.fma
// CHECK-NOT: math.fma
// CHECK: gpu.barrier
// CHECK-COUNT-64: memref.store {{.*}}, %arg2
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: scf.parallel
// CHECK: return
// The tiling is an option: 32x32 tiles of C, 32 deep, 32x8 work-items with
// 4x1 sums each: a run of 4 rows of A (a vector) and a scalar of B (a
// work-item has no run of columns), four of B's elements staged per
// work-item.
// MATMUL-LABEL: func.func @matmul
// MATMUL: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c32{{[_0-9]*}}, {{.*}} = %c8{{[_0-9]*}}, {{.*}}) workgroup(%{{.*}} : memref<32x9xvector<4xf32>, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x32xf32, #gpu.address_space<workgroup>>)
// MATMUL: scf.for {{.*}} step %c32{{[_0-9]*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// MATMUL: vector.from_elements
// MATMUL-COUNT-5: memref.store {{.*}} : memref<{{.*}}, #gpu.address_space<workgroup>>
// MATMUL: gpu.barrier
// MATMUL-COUNT-128: math.fma
// MATMUL: gpu.barrier
// MATMUL-COUNT-4: memref.store {{.*}}, %arg2
func.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  scf.execute_region {
    linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>]
        ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
    scf.yield
  } {vrir.gpu_section}
  return
}

// -----

// An f64 product has other defaults: 64x64 tiles of C, 8 deep, 8x8
// work-items with 8x8 sums each in runs of 2 (vector<2xf64>: 16 bytes; 4
// runs of A's tile and 4 of B's staged per work-item, 4 of each read per
// depth). An option replaces the default of every element type.
// CHECK-LABEL: func.func @matmul_f64
// CHECK: %[[M:.*]] = memref.dim %arg2, %c0
// CHECK: %[[N:.*]] = memref.dim %arg2, %c1
// CHECK: %[[GX:.*]] = arith.ceildivsi %[[N]], %c64
// CHECK: %[[GY:.*]] = arith.ceildivsi %[[M]], %c64
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[GX]], {{.*}} = %[[GY]], {{.*}}) threads({{.*}}) in ({{.*}} = %c8{{[_0-9]*}}, {{.*}} = %c8{{[_0-9]*}}, {{.*}}) workgroup(%{{.*}} : memref<8x33xvector<2xf64>, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xvector<2xf64>, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} step %c8{{[_0-9]*}} iter_args({{.*}}) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK-COUNT-4: memref.store {{.*}} : memref<8x33xvector<2xf64>, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: memref.store {{.*}} : memref<8x32xvector<2xf64>, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load {{.*}} : memref<8x33xvector<2xf64>, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: memref.load {{.*}} : memref<8x32xvector<2xf64>, #gpu.address_space<workgroup>>
// CHECK-COUNT-512: math.fma
// CHECK: gpu.barrier
// CHECK-COUNT-64: memref.store {{.*}}, %arg2
// MATMUL-LABEL: func.func @matmul_f64
// MATMUL: gpu.launch {{.*}} workgroup(%{{.*}} : memref<32x17xvector<2xf64>, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x32xf64, #gpu.address_space<workgroup>>)
func.func @matmul_f64(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  scf.execute_region {
    linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
    scf.yield
  } {vrir.gpu_section}
  return
}

// -----

// A matrix-vector product on a matrix with unit-stride rows: 8 rows per
// group of 32x8 work-items, each row's 32 work-items reading it in strides
// of 32, then a halving sum (16, 8, 4, 2, 1) in work-group memory; lane 0
// adds the row's total to y. A column-major matrix keeps the loop form.
// CHECK-LABEL: func.func @matvec
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c32{{[_0-9]*}}, {{.*}} = %c8{{[_0-9]*}}, {{.*}}) workgroup(%{{.*}} : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} step %c32
// CHECK: arith.mulf
// CHECK: gpu.barrier
// CHECK-COUNT-5: gpu.barrier
// CHECK: memref.store {{.*}}, %arg2
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: scf.parallel
// CHECK: return
func.func @matvec(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>,
                  %C: memref<?x?xf32, strided<[1, ?]>>) {
  scf.execute_region {
    linalg.matvec ins(%A, %x : memref<?x?xf32>, memref<?xf32>) outs(%y : memref<?xf32>)
    linalg.matvec ins(%C, %x : memref<?x?xf32, strided<[1, ?]>>, memref<?xf32>) outs(%y : memref<?xf32>)
    scf.yield
  } {vrir.gpu_section}
  return
}

// -----

// A view of the parts of a complex array defined outside the loop moves in
// front of it: the kernel takes the f64 view as its buffer.
// CHECK-LABEL: func.func @part_view_hoisted
// CHECK: %[[IM:.*]] = vrir.memref_part_view imag %{{.*}} : memref<?xcomplex<f64>>
// CHECK: scf.parallel
// CHECK-NOT: vrir.memref_part_view
// CHECK: memref.store %{{.*}}, %[[IM]]
func.func @part_view_hoisted(%Z: memref<?xcomplex<f64>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f64
  scf.execute_region {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %im = vrir.memref_part_view imag %Z : memref<?xcomplex<f64>> -> memref<?xf64, strided<[?], offset: ?>>
      memref.store %cst, %im[%i] : memref<?xf64, strided<[?], offset: ?>>
    }
    scf.yield
  } {vrir.gpu_section}
  return
}

// -----

// A 2-D reduction: each work-item's iteration number splits into the row
// (what is left after the inner dimension, below the row count: no
// division for it) and the column (one remainder and one quotient).
// CHECK-LABEL: func.func @sum2d
// CHECK: gpu.launch
// CHECK:   scf.for %[[K:[a-z0-9_]+]] =
// CHECK:     %[[COL:.*]] = arith.remui %[[K]], %{{.*}} : index
// CHECK:     %[[ROW:.*]] = arith.divui %[[K]], %{{.*}} : index
// CHECK-NOT: arith.remui
// CHECK-NOT: arith.divui
// CHECK:     memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf64>
// CHECK: gpu.launch
func.func @sum2d(%x: memref<?x?xf64>, %m: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.execute_region -> f64 {
    %s = scf.parallel (%i, %j) = (%c0, %c0) to (%m, %n) step (%c1, %c1) init (%zero) -> f64 {
      %v = memref.load %x[%i, %j] : memref<?x?xf64>
      scf.reduce(%v : f64) {
      ^bb0(%a: f64, %b: f64):
        %t = arith.addf %a, %b : f64
        scf.reduce.return %t : f64
      }
    }
    scf.yield %s : f64
  } {vrir.gpu_section}
  return %r : f64
}
