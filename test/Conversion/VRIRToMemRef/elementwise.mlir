// RUN: vr-opt %s -convert-vrir-to-memref -split-input-file | FileCheck %s

// Element-wise ops, casts, copies and reductions. Scalars become arith,
// math and complex ops; arrays a linalg.generic over a new array, with
// NumPy broadcasting through stride-0 views.

// CHECK-LABEL: func.func @scalar_binary_f64
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f64)
// CHECK: arith.addf %[[X]], %[[Y]] : f64
// CHECK: arith.divf %[[X]], %[[Y]] : f64
// CHECK: arith.remf %[[X]], %[[Y]] : f64
// CHECK: math.powf %[[X]], %[[Y]] : f64
// CHECK: arith.minimumf %[[X]], %[[Y]] : f64
// CHECK: arith.maximumf %[[X]], %[[Y]] : f64
// CHECK-NOT: vrir.
func.func @scalar_binary_f64(%x: f64, %y: f64) -> (f64, f64, f64, f64, f64, f64) {
  %a = vrir.binary add %x, %y : f64, f64 -> f64
  %d = vrir.binary div %x, %y : f64, f64 -> f64
  %r = vrir.binary rem %x, %y : f64, f64 -> f64
  %p = vrir.binary pow %x, %y : f64, f64 -> f64
  %m = vrir.binary min %x, %y : f64, f64 -> f64
  %M = vrir.binary max %x, %y : f64, f64 -> f64
  return %a, %d, %r, %p, %m, %M : f64, f64, f64, f64, f64, f64
}

// -----

// Integer division and remainder truncate (C), by a safe divisor (see
// @int_div_rem); pow is math.ipowi.
// CHECK-LABEL: func.func @scalar_binary_i32
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK: arith.subi %[[X]], %[[Y]] : i32
// CHECK: arith.muli %[[X]], %[[Y]] : i32
// CHECK: arith.divsi %[[X]], %{{.*}} : i32
// CHECK: arith.remsi %[[X]], %{{.*}} : i32
// CHECK: math.ipowi %[[X]], %[[Y]] : i32
// CHECK: arith.minsi %[[X]], %[[Y]] : i32
// CHECK: arith.maxsi %[[X]], %[[Y]] : i32
// CHECK: arith.andi %[[X]], %[[Y]] : i32
// CHECK: arith.ori %[[X]], %[[Y]] : i32
// CHECK: arith.xori %[[X]], %[[Y]] : i32
func.func @scalar_binary_i32(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %s = vrir.binary sub %x, %y : i32, i32 -> i32
  %t = vrir.binary mul %x, %y : i32, i32 -> i32
  %d = vrir.binary div %x, %y : i32, i32 -> i32
  %r = vrir.binary rem %x, %y : i32, i32 -> i32
  %p = vrir.binary pow %x, %y : i32, i32 -> i32
  %m = vrir.binary min %x, %y : i32, i32 -> i32
  %M = vrir.binary max %x, %y : i32, i32 -> i32
  %a = vrir.binary and %x, %y : i32, i32 -> i32
  %o = vrir.binary or %x, %y : i32, i32 -> i32
  %e = vrir.binary xor %x, %y : i32, i32 -> i32
  return %s, %t, %d, %r, %p, %m, %M, %a, %o, %e : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// Integer division by 0 or -1 never traps: the divisor becomes 1 there
// (selected, no branch), then x / 0 == 0 and x / -1 == 0 - x (wrapping for
// INT_MIN); x % 1 == 0 is already NumPy's x % 0 and INT_MIN % -1.
// CHECK-LABEL: func.func @int_div_rem
// CHECK-SAME: (%[[X:.*]]: i64, %[[Y:.*]]: i64)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[INC:.*]] = arith.addi %[[Y]], %[[ONE]] : i64
// CHECK: %[[UNSAFE:.*]] = arith.cmpi ule, %[[INC]], %[[ONE]] : i64
// CHECK: %[[DIVISOR:.*]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]] : i64
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[DIVISOR]] : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ISZERO:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i64
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[Q]] : i64
// CHECK: %[[SPECIAL:.*]] = arith.select %[[ISZERO]], %[[ZERO]], %[[NEG]] : i64
// CHECK: %[[DIV:.*]] = arith.select %[[UNSAFE]], %[[SPECIAL]], %[[Q]] : i64
// CHECK: %[[INC2:.*]] = arith.addi %[[Y]], %{{.*}} : i64
// CHECK: %[[UNSAFE2:.*]] = arith.cmpi ule, %[[INC2]], %{{.*}} : i64
// CHECK: %[[DIVISOR2:.*]] = arith.select %[[UNSAFE2]], %{{.*}}, %[[Y]] : i64
// CHECK: %[[REM:.*]] = arith.remsi %[[X]], %[[DIVISOR2]] : i64
// CHECK: return %[[DIV]], %[[REM]]
func.func @int_div_rem(%x: i64, %y: i64) -> (i64, i64) {
  %d = vrir.binary div %x, %y : i64, i64 -> i64
  %r = vrir.binary rem %x, %y : i64, i64 -> i64
  return %d, %r : i64, i64
}

// -----

// The same selects in the body of the linalg.generic of arrays.
// CHECK-LABEL: func.func @int_div_rem_array
// CHECK: linalg.generic
// CHECK: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[UNSAFE:.*]] = arith.cmpi ule
// CHECK: %[[DIVISOR:.*]] = arith.select %[[UNSAFE]], %{{.*}}, %[[B]] : i32
// CHECK: arith.divsi %[[A]], %[[DIVISOR]] : i32
// CHECK: linalg.generic
// CHECK: ^bb0(%[[A2:.*]]: i32, %[[B2:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[UNSAFE2:.*]] = arith.cmpi ule
// CHECK: %[[DIVISOR2:.*]] = arith.select %[[UNSAFE2]], %{{.*}}, %[[B2]] : i32
// CHECK: arith.remsi %[[A2]], %[[DIVISOR2]] : i32
func.func @int_div_rem_array(%x: !vrir.array<i32, 1, row_major>, %y: !vrir.array<i32, 1, row_major>)
    -> (!vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>) {
  %d = vrir.binary div %x, %y : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  %r = vrir.binary rem %x, %y : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major> -> !vrir.array<i32, 1, row_major>
  return %d, %r : !vrir.array<i32, 1, row_major>, !vrir.array<i32, 1, row_major>
}

// -----

// CHECK-LABEL: func.func @scalar_logical_i1
// CHECK: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: arith.xori %{{.*}}, %{{.*}} : i1
func.func @scalar_logical_i1(%x: i1, %y: i1) -> (i1, i1) {
  %a = vrir.binary and %x, %y : i1, i1 -> i1
  %e = vrir.binary xor %x, %y : i1, i1 -> i1
  return %a, %e : i1, i1
}

// -----

// CHECK-LABEL: func.func @scalar_binary_complex
// CHECK-SAME: (%[[X:.*]]: complex<f64>, %[[Y:.*]]: complex<f64>)
// CHECK: complex.add %[[X]], %[[Y]] : complex<f64>
// CHECK: complex.sub %[[X]], %[[Y]] : complex<f64>
// CHECK: complex.mul %[[X]], %[[Y]] : complex<f64>
// CHECK: complex.div %[[X]], %[[Y]] : complex<f64>
// CHECK: complex.pow %[[X]], %[[Y]] : complex<f64>
func.func @scalar_binary_complex(%x: complex<f64>, %y: complex<f64>) -> (complex<f64>, complex<f64>, complex<f64>, complex<f64>, complex<f64>) {
  %a = vrir.binary add %x, %y : complex<f64>, complex<f64> -> complex<f64>
  %s = vrir.binary sub %x, %y : complex<f64>, complex<f64> -> complex<f64>
  %m = vrir.binary mul %x, %y : complex<f64>, complex<f64> -> complex<f64>
  %d = vrir.binary div %x, %y : complex<f64>, complex<f64> -> complex<f64>
  %p = vrir.binary pow %x, %y : complex<f64>, complex<f64> -> complex<f64>
  return %a, %s, %m, %d, %p : complex<f64>, complex<f64>, complex<f64>, complex<f64>, complex<f64>
}

// -----

// CHECK-LABEL: func.func @scalar_unary_real
// CHECK-SAME: (%[[F:.*]]: f64, %[[I:.*]]: i64, %[[B:.*]]: i1)
// CHECK: arith.negf %[[F]] : f64
// CHECK: math.absf %[[F]] : f64
// CHECK: math.sqrt %[[F]] : f64
// CHECK: math.exp %[[F]] : f64
// CHECK: math.log %[[F]] : f64
// CHECK: math.sin %[[F]] : f64
// CHECK: math.cos %[[F]] : f64
// CHECK: math.tan %[[F]] : f64
// CHECK: math.tanh %[[F]] : f64
// CHECK: math.floor %[[F]] : f64
// CHECK: math.ceil %[[F]] : f64
// np.round rounds halves to even.
// CHECK: math.roundeven %[[F]] : f64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: arith.subi %[[ZERO]], %[[I]] : i64
// CHECK: math.absi %[[I]] : i64
// Bitwise not on integers, logical not on i1.
// CHECK: %[[ONES:.*]] = arith.constant -1 : i64
// CHECK: arith.xori %[[I]], %[[ONES]] : i64
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: arith.xori %[[B]], %[[TRUE]] : i1
// real and conj of a real number are the number, imag is 0.
// CHECK: %[[IMAG:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: return {{.*}}, %[[F]], %[[IMAG]], %[[F]] :
func.func @scalar_unary_real(%f: f64, %i: i64, %b: i1) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, i64, i64, i64, i1, f64, f64, f64) {
  %0 = vrir.unary neg %f : f64 -> f64
  %1 = vrir.unary abs %f : f64 -> f64
  %2 = vrir.unary sqrt %f : f64 -> f64
  %3 = vrir.unary exp %f : f64 -> f64
  %4 = vrir.unary log %f : f64 -> f64
  %5 = vrir.unary sin %f : f64 -> f64
  %6 = vrir.unary cos %f : f64 -> f64
  %7 = vrir.unary tan %f : f64 -> f64
  %8 = vrir.unary tanh %f : f64 -> f64
  %9 = vrir.unary floor %f : f64 -> f64
  %10 = vrir.unary ceil %f : f64 -> f64
  %11 = vrir.unary round %f : f64 -> f64
  %12 = vrir.unary neg %i : i64 -> i64
  %13 = vrir.unary abs %i : i64 -> i64
  %14 = vrir.unary not %i : i64 -> i64
  %15 = vrir.unary not %b : i1 -> i1
  %16 = vrir.unary real %f : f64 -> f64
  %17 = vrir.unary imag %f : f64 -> f64
  %18 = vrir.unary conj %f : f64 -> f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, i64, i64, i64, i1, f64, f64, f64
}

// -----

// CHECK-LABEL: func.func @scalar_unary_complex
// CHECK-SAME: (%[[C:.*]]: complex<f32>)
// CHECK: complex.neg %[[C]] : complex<f32>
// CHECK: complex.abs %[[C]] : complex<f32>
// CHECK: complex.sqrt %[[C]] : complex<f32>
// CHECK: complex.exp %[[C]] : complex<f32>
// CHECK: complex.log %[[C]] : complex<f32>
// CHECK: complex.sin %[[C]] : complex<f32>
// CHECK: complex.cos %[[C]] : complex<f32>
// CHECK: complex.tan %[[C]] : complex<f32>
// CHECK: complex.tanh %[[C]] : complex<f32>
// CHECK: complex.re %[[C]] : complex<f32>
// CHECK: complex.im %[[C]] : complex<f32>
// CHECK: complex.conj %[[C]] : complex<f32>
func.func @scalar_unary_complex(%c: complex<f32>) -> (complex<f32>, f32, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, f32, f32, complex<f32>) {
  %0 = vrir.unary neg %c : complex<f32> -> complex<f32>
  %1 = vrir.unary abs %c : complex<f32> -> f32
  %2 = vrir.unary sqrt %c : complex<f32> -> complex<f32>
  %3 = vrir.unary exp %c : complex<f32> -> complex<f32>
  %4 = vrir.unary log %c : complex<f32> -> complex<f32>
  %5 = vrir.unary sin %c : complex<f32> -> complex<f32>
  %6 = vrir.unary cos %c : complex<f32> -> complex<f32>
  %7 = vrir.unary tan %c : complex<f32> -> complex<f32>
  %8 = vrir.unary tanh %c : complex<f32> -> complex<f32>
  %9 = vrir.unary real %c : complex<f32> -> f32
  %10 = vrir.unary imag %c : complex<f32> -> f32
  %11 = vrir.unary conj %c : complex<f32> -> complex<f32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : complex<f32>, f32, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, f32, f32, complex<f32>
}

// -----

// Floats compare ordered (false on NaN) except ne; integers signed;
// booleans unsigned (False < True).
// CHECK-LABEL: func.func @scalar_cmp
// CHECK-SAME: (%[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[I:[^:]*]]: i32, %[[J:[^:]*]]: i32, %[[A:[^:]*]]: i1, %[[B:[^:]*]]: i1, %[[C:[^:]*]]: complex<f64>, %[[D:[^:]*]]: complex<f64>)
// CHECK: arith.cmpf oeq, %[[X]], %[[Y]] : f64
// CHECK: arith.cmpf une, %[[X]], %[[Y]] : f64
// CHECK: arith.cmpf olt, %[[X]], %[[Y]] : f64
// CHECK: arith.cmpf ole, %[[X]], %[[Y]] : f64
// CHECK: arith.cmpf ogt, %[[X]], %[[Y]] : f64
// CHECK: arith.cmpf oge, %[[X]], %[[Y]] : f64
// CHECK: arith.cmpi slt, %[[I]], %[[J]] : i32
// CHECK: arith.cmpi sge, %[[I]], %[[J]] : i32
// CHECK: arith.cmpi ult, %[[A]], %[[B]] : i1
// CHECK: arith.cmpi eq, %[[A]], %[[B]] : i1
// CHECK: complex.eq %[[C]], %[[D]] : complex<f64>
// CHECK: complex.neq %[[C]], %[[D]] : complex<f64>
func.func @scalar_cmp(%x: f64, %y: f64, %i: i32, %j: i32, %a: i1, %b: i1, %c: complex<f64>, %d: complex<f64>) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %0 = vrir.cmp eq %x, %y : f64, f64 -> i1
  %1 = vrir.cmp ne %x, %y : f64, f64 -> i1
  %2 = vrir.cmp lt %x, %y : f64, f64 -> i1
  %3 = vrir.cmp le %x, %y : f64, f64 -> i1
  %4 = vrir.cmp gt %x, %y : f64, f64 -> i1
  %5 = vrir.cmp ge %x, %y : f64, f64 -> i1
  %6 = vrir.cmp lt %i, %j : i32, i32 -> i1
  %7 = vrir.cmp ge %i, %j : i32, i32 -> i1
  %8 = vrir.cmp lt %a, %b : i1, i1 -> i1
  %9 = vrir.cmp eq %a, %b : i1, i1 -> i1
  %10 = vrir.cmp eq %c, %d : complex<f64>, complex<f64> -> i1
  %11 = vrir.cmp ne %c, %d : complex<f64>, complex<f64> -> i1
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// CHECK-LABEL: func.func @scalar_select
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32)
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : f32
// CHECK: return %[[R]]
func.func @scalar_select(%c: i1, %x: f32, %y: f32) -> f32 {
  %r = vrir.select %c, %x, %y : i1, f32, f32 -> f32
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @scalar_casts
// CHECK-SAME: (%[[I:[^:]*]]: i32, %[[F:[^:]*]]: f64, %[[B:[^:]*]]: i1, %[[C:[^:]*]]: complex<f32>)
// CHECK: arith.sitofp %[[I]] : i32 to f64
// CHECK: arith.fptosi %[[F]] : f64 to i32
// CHECK: %[[F32:.*]] = arith.truncf %[[F]] : f64 to f32
// CHECK: arith.extf %[[F32]] : f32 to f64
// CHECK: %[[I64:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK: arith.trunci %[[I64]] : i64 to i32
// astype(bool) is `!= 0`; NaN is true.
// CHECK: %[[IZERO:.*]] = arith.constant 0 : i32
// CHECK: arith.cmpi ne, %[[I]], %[[IZERO]] : i32
// CHECK: %[[FZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: arith.cmpf une, %[[F]], %[[FZERO]] : f64
// Booleans are 0 or 1.
// CHECK: arith.extui %[[B]] : i1 to i64
// CHECK: arith.uitofp %[[B]] : i1 to f32
// CHECK: %[[ZIM:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: complex.create %[[F]], %[[ZIM]] : complex<f64>
// CHECK: complex.re %[[C]] : complex<f32>
// CHECK: %[[RE:.*]] = complex.re %[[C]] : complex<f32>
// CHECK: %[[IM:.*]] = complex.im %[[C]] : complex<f32>
// CHECK: %[[RE64:.*]] = arith.extf %[[RE]] : f32 to f64
// CHECK: %[[IM64:.*]] = arith.extf %[[IM]] : f32 to f64
// CHECK: complex.create %[[RE64]], %[[IM64]] : complex<f64>
// A complex number is true when either part is nonzero.
// CHECK: %[[RE2:.*]] = complex.re %[[C]] : complex<f32>
// CHECK: %[[IM2:.*]] = complex.im %[[C]] : complex<f32>
// CHECK: %[[RENZ:.*]] = arith.cmpf une, %[[RE2]]
// CHECK: %[[IMNZ:.*]] = arith.cmpf une, %[[IM2]]
// CHECK: arith.ori %[[RENZ]], %[[IMNZ]] : i1
func.func @scalar_casts(%i: i32, %f: f64, %b: i1, %c: complex<f32>) -> (f64, i32, f32, f64, i64, i32, i1, i1, i64, f32, complex<f64>, f32, complex<f64>, i1) {
  %0 = vrir.cast %i : i32 to f64
  %1 = vrir.cast %f : f64 to i32
  %2 = vrir.cast %f : f64 to f32
  %3 = vrir.cast %2 : f32 to f64
  %4 = vrir.cast %i : i32 to i64
  %5 = vrir.cast %4 : i64 to i32
  %6 = vrir.cast %i : i32 to i1
  %7 = vrir.cast %f : f64 to i1
  %8 = vrir.cast %b : i1 to i64
  %9 = vrir.cast %b : i1 to f32
  %10 = vrir.cast %f : f64 to complex<f64>
  %11 = vrir.cast %c : complex<f32> to f32
  %12 = vrir.cast %c : complex<f32> to complex<f64>
  %13 = vrir.cast %c : complex<f32> to i1
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : f64, i32, f32, f64, i64, i32, i1, i1, i64, f32, complex<f64>, f32, complex<f64>, i1
}

// -----

// A (m, n) + v (n): the result sizes broadcast at run time, with a check;
// each operand is viewed with the result's shape, stride 0 where it
// broadcasts.
// CHECK: llvm.mlir.global internal constant @[[MSG:__vrir_str_[0-9a-f]+]]("operands could not be broadcast together: vrir.binary add (array argument #0, accessed at {{.*}}elementwise.mlir:[[# @LINE + 45]]:8), dimension 1 of the result\00")
// CHECK-LABEL: func.func @broadcast_binary
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64>, %[[V:.*]]: memref<?xf64>) -> memref<?x?xf64>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[M:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf64>
// CHECK-DAG: %[[AN:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf64>
// CHECK: %[[VN:.*]] = memref.dim %[[V]], %{{.*}} : memref<?xf64>
// The result's size is the smallest size other than 1, or 1.
// CHECK: %[[NONE:.*]] = arith.constant 9223372036854775807 : index
// CHECK: %[[AN_NOT_ONE:.*]] = arith.cmpi ne, %[[AN]], %[[ONE]] : index
// CHECK: %[[AN_OR_NONE:.*]] = arith.select %[[AN_NOT_ONE]], %[[AN]], %[[NONE]] : index
// CHECK: %[[VN_NOT_ONE:.*]] = arith.cmpi ne, %[[VN]], %[[ONE]] : index
// CHECK: %[[VN_OR_NONE:.*]] = arith.select %[[VN_NOT_ONE]], %[[VN]], %[[NONE]] : index
// CHECK: %[[SMALLEST:.*]] = arith.minsi %[[AN_OR_NONE]], %[[VN_OR_NONE]] : index
// CHECK: %[[ALL_ONES:.*]] = arith.cmpi eq, %[[SMALLEST]], %[[NONE]] : index
// CHECK: %[[N:.*]] = arith.select %[[ALL_ONES]], %[[ONE]], %[[SMALLEST]] : index
// A size other than 1 and the smallest one is an error.
// CHECK: %[[AN_DIFFERS:.*]] = arith.cmpi ne, %[[AN]], %[[SMALLEST]] : index
// CHECK: arith.andi %[[AN_NOT_ONE]], %[[AN_DIFFERS]] : i1
// CHECK: %[[VN_DIFFERS:.*]] = arith.cmpi ne, %[[VN]], %[[SMALLEST]] : index
// CHECK: arith.andi %[[VN_NOT_ONE]], %[[VN_DIFFERS]] : i1
// CHECK: %[[BAD:.*]] = arith.ori
// CHECK: scf.if %[[BAD]] {
// CHECK:   llvm.mlir.addressof @[[MSG]]
// CHECK:   llvm.call @vrir_rt_error
// CHECK: }
// CHECK: %[[R:.*]] = memref.alloc(%[[M]], %[[N]]) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK: %[[ABASE:.*]], %[[AOFF:.*]], %[[ASIZES:.*]]:2, %[[ASTRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[AS0:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ASTRIDES]]#0 : index
// CHECK: %[[AS1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ASTRIDES]]#1 : index
// CHECK: %[[AVIEW:.*]] = memref.reinterpret_cast %[[ABASE]] to offset: [%[[AOFF]]], sizes: [%[[M]], %[[N]]], strides: [%[[AS0]], %[[AS1]]] : memref<f64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[VBASE:.*]], %[[VOFF:.*]], %[[VSIZE:.*]], %[[VSTRIDE:.*]] = memref.extract_strided_metadata %[[V]]
// CHECK: %[[VZERO:.*]] = arith.constant 0 : index
// CHECK: %[[VS1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[VSTRIDE]] : index
// The missing leading dimension has stride 0.
// CHECK: %[[VVIEW:.*]] = memref.reinterpret_cast %[[VBASE]] to offset: [%[[VOFF]]], sizes: [%[[M]], %[[N]]], strides: [%[[VZERO]], %[[VS1]]] : memref<f64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[ID:.*]], #[[ID]], #[[ID]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[AVIEW]], %[[VVIEW]] : {{.*}}) outs(%[[R]] : memref<?x?xf64>)
// CHECK: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64, %{{.*}}: f64):
// CHECK:   %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f64
// CHECK:   linalg.yield %[[S]] : f64
// CHECK: return %[[R]]
func.func @broadcast_binary(%A: !vrir.array<f64, 2, row_major>, %v: !vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 2, row_major> {
  %S = vrir.binary add %A, %v : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 2, row_major>
  return %S : !vrir.array<f64, 2, row_major>
}

// -----

// A lone array operand needs neither checks nor a view; a scalar operand is
// used from above. Column-major results loop with dimension 0 innermost.
// CHECK-DAG: #[[REV:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @array_scalar_col_major
// CHECK-SAME: (%[[A:.*]]: memref<?x?xi32, strided<[1, ?]>>, %[[S:.*]]: i32)
// CHECK-NOT: reinterpret_cast %[[A]]
// CHECK-NOT: extract_strided_metadata
// CHECK: %[[R:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, %{{.*}}], strides: [1, %{{.*}}] : memref<?xi32> to memref<?x?xi32, strided<[1, ?]>>
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #[[REV]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]] : memref<?x?xi32, strided<[1, ?]>>) outs(%[[R]] : memref<?x?xi32, strided<[1, ?]>>)
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK:   %[[DIVISOR:.*]] = arith.select %{{.*}}, %{{.*}}, %[[S]] : i32
// CHECK:   arith.divsi %[[X]], %[[DIVISOR]] : i32
// CHECK: return %[[R]]
func.func @array_scalar_col_major(%A: !vrir.array<i32, 2, col_major>, %s: i32) -> !vrir.array<i32, 2, col_major> {
  %D = vrir.binary div %A, %s : !vrir.array<i32, 2, col_major>, i32 -> !vrir.array<i32, 2, col_major>
  return %D : !vrir.array<i32, 2, col_major>
}

// -----

// CHECK-LABEL: func.func @array_unary_complex
// CHECK-SAME: (%[[A:.*]]: memref<?xcomplex<f64>, strided<[?], offset: ?>>) -> memref<?xf64>
// CHECK: %[[R:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<?xcomplex<f64>, strided<[?], offset: ?>>) outs(%[[R]] : memref<?xf64>)
// CHECK: ^bb0(%[[X:.*]]: complex<f64>, %{{.*}}: f64):
// CHECK:   complex.abs %[[X]] : complex<f64>
func.func @array_unary_complex(%A: !vrir.array<complex<f64>, 1, strided>) -> !vrir.array<f64, 1, row_major> {
  %B = vrir.unary abs %A : !vrir.array<complex<f64>, 1, strided> -> !vrir.array<f64, 1, row_major>
  return %B : !vrir.array<f64, 1, row_major>
}

// -----

// i1 arrays are memrefs of i1. select takes its condition array, a value
// array and a scalar.
// CHECK-LABEL: func.func @array_cmp_select
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[S:.*]]: f32)
// CHECK: %[[M:.*]] = memref.alloc({{.*}}) {alignment = 64 : i64} : memref<?x?xi1>
// CHECK: linalg.generic {{.*}} outs(%[[M]] : memref<?x?xi1>)
// CHECK:   arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK: %[[E:.*]] = memref.alloc({{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK: memref.extract_strided_metadata %[[M]]
// CHECK: memref.extract_strided_metadata %[[A]]
// CHECK: linalg.generic {{.*}} outs(%[[E]] : memref<?x?xf32>)
// CHECK: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK:   arith.select %[[C]], %[[X]], %[[S]] : f32
// CHECK: return %[[E]]
func.func @array_cmp_select(%A: !vrir.array<f32, 2, row_major>, %B: !vrir.array<f32, 2, row_major>, %s: f32) -> !vrir.array<f32, 2, row_major> {
  %M = vrir.cmp gt %A, %B : !vrir.array<f32, 2, row_major>, !vrir.array<f32, 2, row_major> -> !vrir.array<i1, 2, row_major>
  %E = vrir.select %M, %A, %s : !vrir.array<i1, 2, row_major>, !vrir.array<f32, 2, row_major>, f32 -> !vrir.array<f32, 2, row_major>
  return %E : !vrir.array<f32, 2, row_major>
}

// -----

// CHECK-DAG: #[[REV3:.*]] = affine_map<(d0, d1, d2) -> (d2, d1, d0)>
// CHECK-LABEL: func.func @array_cast
// CHECK-SAME: (%[[A:.*]]: memref<?x?x?xi32>) -> memref<?x?x?xf64, strided<[1, ?, ?]>>
// CHECK: linalg.generic {indexing_maps = [#[[REV3]], #[[REV3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: f64):
// CHECK:   arith.sitofp %[[X]] : i32 to f64
func.func @array_cast(%A: !vrir.array<i32, 3, row_major>) -> !vrir.array<f64, 3, col_major> {
  %B = vrir.cast %A : !vrir.array<i32, 3, row_major> to !vrir.array<f64, 3, col_major>
  return %B : !vrir.array<f64, 3, col_major>
}

// -----

// A rank-0 array broadcasts like a scalar: its view has stride 0, and the
// sizes need no check.
// CHECK-NOT: could not be broadcast
// CHECK-LABEL: func.func @rank0_broadcast
// CHECK-SAME: (%[[A:.*]]: memref<f64>, %[[B:.*]]: memref<?xf64>)
// CHECK: %[[N:.*]] = memref.dim %[[B]]
// CHECK: memref.alloc(%[[N]])
// CHECK: %[[ABASE:.*]], %[[AOFF:.*]] = memref.extract_strided_metadata %[[A]] : memref<f64> -> memref<f64>, index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: memref.reinterpret_cast %[[ABASE]] to offset: [%[[AOFF]]], sizes: [%[[N]]], strides: [%[[ZERO]]] : memref<f64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK: linalg.generic
// CHECK:   arith.mulf
func.func @rank0_broadcast(%A: !vrir.array<f64, 0, row_major>, %B: !vrir.array<f64, 1, row_major>) -> !vrir.array<f64, 1, row_major> {
  %C = vrir.binary mul %A, %B : !vrir.array<f64, 0, row_major>, !vrir.array<f64, 1, row_major> -> !vrir.array<f64, 1, row_major>
  return %C : !vrir.array<f64, 1, row_major>
}

// -----

// CHECK-LABEL: func.func @rank0_arrays
// CHECK: %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<f64>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = []}
// CHECK:   arith.subf
// CHECK: return %[[R]]
func.func @rank0_arrays(%A: !vrir.array<f64, 0, row_major>, %B: !vrir.array<f64, 0, row_major>) -> !vrir.array<f64, 0, row_major> {
  %C = vrir.binary sub %A, %B : !vrir.array<f64, 0, row_major>, !vrir.array<f64, 0, row_major> -> !vrir.array<f64, 0, row_major>
  return %C : !vrir.array<f64, 0, row_major>
}

// -----

// Row-major to row-major is a memref.copy (a memcpy).
// CHECK-LABEL: func.func @copy_row_major
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64>)
// CHECK: %[[R:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK: memref.copy %[[A]], %[[R]] : memref<?x?xf64> to memref<?x?xf64>
// CHECK: return %[[R]]
func.func @copy_row_major(%A: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, row_major> {
  %B = vrir.copy %A : !vrir.array<f64, 2, row_major> to !vrir.array<f64, 2, row_major>
  return %B : !vrir.array<f64, 2, row_major>
}

// -----

// Other layouts copy in a loop nest that walks the result's layout.
// CHECK-DAG: #[[REV:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @copy_strided_to_col_major
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64, strided<[?, ?], offset: ?>>)
// CHECK-NOT: memref.copy
// CHECK: %[[R:.*]] = memref.reinterpret_cast %{{.*}} : memref<?xf64> to memref<?x?xf64, strided<[1, ?]>>
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #[[REV]]], {{.*}}} ins(%[[A]] : {{.*}}) outs(%[[R]] : {{.*}})
// CHECK: ^bb0(%[[X:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: linalg.yield %[[X]] : f64
func.func @copy_strided_to_col_major(%A: !vrir.array<f64, 2, strided>) -> !vrir.array<f64, 2, col_major> {
  %B = vrir.copy %A : !vrir.array<f64, 2, strided> to !vrir.array<f64, 2, col_major>
  return %B : !vrir.array<f64, 2, col_major>
}

// -----

// Integer complex values may be moved, not computed on.
// CHECK-LABEL: func.func @copy_select_integer_complex
// CHECK: linalg.generic
// CHECK:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : complex<i32>
// CHECK: memref.copy
func.func @copy_select_integer_complex(%c: !vrir.array<i1, 1, row_major>, %A: !vrir.array<complex<i32>, 1, row_major>, %s: complex<i32>) -> !vrir.array<complex<i32>, 1, row_major> {
  %r = vrir.select %c, %A, %s : !vrir.array<i1, 1, row_major>, !vrir.array<complex<i32>, 1, row_major>, complex<i32> -> !vrir.array<complex<i32>, 1, row_major>
  %d = vrir.copy %r : !vrir.array<complex<i32>, 1, row_major> to !vrir.array<complex<i32>, 1, row_major>
  return %d : !vrir.array<complex<i32>, 1, row_major>
}

// -----

// Whole-array sum: a loop nest carrying the accumulator, no buffer. The
// additions may be reassociated, so that LLVM vectorises them.
// CHECK-LABEL: func.func @reduce_sum_all
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64>) -> f64
// CHECK-DAG: %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK-DAG: %[[N:.*]] = memref.dim %[[A]], %c1
// CHECK-NOT: scf.if
// CHECK-NOT: memref.alloca
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[M]] step %{{.*}} iter_args(%[[ACC0:.*]] = %[[ZERO]]) -> (f64) {
// CHECK:   %[[ROW:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (f64) {
// CHECK:     %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<?x?xf64>
// CHECK:     %[[S:.*]] = arith.addf %[[ACC]], %[[X]] fastmath<reassoc> : f64
// CHECK:     scf.yield %[[S]] : f64
// CHECK:   scf.yield %[[ROW]] : f64
// CHECK: return %[[R]] : f64
func.func @reduce_sum_all(%A: !vrir.array<f64, 2, row_major>) -> f64 {
  %s = vrir.reduce sum %A : !vrir.array<f64, 2, row_major> -> f64
  return %s : f64
}

// -----

// min of nothing is an error; the identity is the largest value.
// CHECK: llvm.mlir.global internal constant @[[MSG:__vrir_str_[0-9a-f]+]]("zero-size array to reduction operation min which has no identity (array argument #0, accessed at {{.*}}elementwise.mlir:[[# @LINE + 14]]:8)\00")
// CHECK-LABEL: func.func @reduce_min_rank1_axis
// CHECK-SAME: (%[[A:.*]]: memref<?xi64>) -> i64
// CHECK: %[[N:.*]] = memref.dim %[[A]]
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK: scf.if %[[EMPTY]] {
// CHECK:   llvm.mlir.addressof @[[MSG]]
// CHECK:   llvm.call @vrir_rt_error
// CHECK: }
// CHECK: %[[MAX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: scf.for {{.*}} to %[[N]] {{.*}} iter_args(%[[ACC:.*]] = %[[MAX]]) -> (i64) {
// CHECK:   %[[X:.*]] = memref.load %[[A]]
// CHECK:   arith.minsi %[[ACC]], %[[X]] : i64
func.func @reduce_min_rank1_axis(%A: !vrir.array<i64, 1, row_major>) -> i64 {
  %s = vrir.reduce min %A axis 0 : !vrir.array<i64, 1, row_major> -> i64
  return %s : i64
}

// -----

// Float max starts at -inf and propagates NaN (maximumf); an empty array is
// an error. Loops follow the column-major input: dimension 0 innermost.
// CHECK-LABEL: func.func @reduce_max_col_major
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64, strided<[1, ?]>>)
// CHECK-DAG: %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK-DAG: %[[N:.*]] = memref.dim %[[A]], %c1
// CHECK: scf.if
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFFF0000000000000 : f64
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N]] {{.*}} iter_args(%{{.*}} = %[[NEGINF]])
// CHECK:   scf.for %[[I:.*]] = %{{.*}} to %[[M]] {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:     %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]]]
// CHECK:     arith.maximumf %[[ACC]], %[[X]] : f64
func.func @reduce_max_col_major(%A: !vrir.array<f64, 2, col_major>) -> f64 {
  %s = vrir.reduce max %A : !vrir.array<f64, 2, col_major> -> f64
  return %s : f64
}

// -----

// A rank-0 array reduces to its element.
// CHECK-LABEL: func.func @reduce_rank0
// CHECK-SAME: (%[[A:.*]]: memref<f64>)
// CHECK-NOT: scf.for
// CHECK: %[[X:.*]] = memref.load %[[A]][] : memref<f64>
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[X]] fastmath<reassoc> : f64
// CHECK: return %[[P]]
func.func @reduce_rank0(%A: !vrir.array<f64, 0, row_major>) -> f64 {
  %s = vrir.reduce prod %A : !vrir.array<f64, 0, row_major> -> f64
  return %s : f64
}

// -----

// With an axis: a new array of one rank less, filled with the identity,
// then a generic whose axis dimension is a reduction. The empty check is
// on the reduced axis only.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @reduce_axis
// CHECK-SAME: (%[[A:.*]]: memref<?x?x?xf32, strided<[1, ?, ?]>>) -> memref<?x?xf32>
// CHECK-DAG: %[[D0:.*]] = memref.dim %[[A]], %c0
// CHECK-DAG: %[[D1:.*]] = memref.dim %[[A]], %c1
// CHECK-DAG: %[[D2:.*]] = memref.dim %[[A]], %c2
// CHECK: arith.cmpi eq, %[[D1]], %{{.*}} : index
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[R:.*]] = memref.alloc(%[[D0]], %[[D2]]) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK: linalg.fill ins(%[[NEGINF]] : f32) outs(%[[R]] : memref<?x?xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[A]] : {{.*}}) outs(%[[R]] : memref<?x?xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK:   arith.maximumf %[[ACC]], %[[X]] : f32
// CHECK: return %[[R]]
func.func @reduce_axis(%A: !vrir.array<f32, 3, col_major>) -> !vrir.array<f32, 2, row_major> {
  %R = vrir.reduce max %A axis 1 : !vrir.array<f32, 3, col_major> -> !vrir.array<f32, 2, row_major>
  return %R : !vrir.array<f32, 2, row_major>
}

// -----

// Float sums along an axis may be reassociated too; integer products are
// exact in any order and keep no flags.
// CHECK-LABEL: func.func @reduce_sum_axis1
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
func.func @reduce_sum_axis1(%A: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 1, row_major> {
  %R = vrir.reduce sum %A axis 1 : !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 1, row_major>
  return %R : !vrir.array<f64, 1, row_major>
}

// -----

// CHECK-LABEL: func.func @reduce_prod_axis0_col_major_result
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[R:.*]] = memref.cast {{.*}} to memref<?xi32, strided<[1]>>
// CHECK: linalg.fill ins(%[[ONE]] : i32) outs(%[[R]] : memref<?xi32, strided<[1]>>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:   arith.muli %{{.*}}, %{{.*}} : i32
func.func @reduce_prod_axis0_col_major_result(%A: !vrir.array<i32, 2, row_major>) -> !vrir.array<i32, 1, col_major> {
  %R = vrir.reduce prod %A axis 0 : !vrir.array<i32, 2, row_major> -> !vrir.array<i32, 1, col_major>
  return %R : !vrir.array<i32, 1, col_major>
}

// -----

// No stack buffer: in a serial loop it would grow the stack at every
// iteration.
// CHECK-LABEL: func.func @reduce_complex_in_loop
// CHECK-NOT: memref.alloca
// CHECK: scf.for
// CHECK:   %[[ONE:.*]] = complex.constant [1.000000e+00, 0.000000e+00] : complex<f64>
// CHECK:   scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ONE]]) -> (complex<f64>)
// CHECK:     %[[X:.*]] = memref.load
// CHECK:     complex.mul %[[ACC]], %[[X]] : complex<f64>
func.func @reduce_complex_in_loop(%A: !vrir.array<complex<f64>, 1, row_major>, %n: index) -> complex<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = complex.constant [0.0, 0.0] : complex<f64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> complex<f64> {
    %p = vrir.reduce prod %A : !vrir.array<complex<f64>, 1, row_major> -> complex<f64>
    %t = complex.add %acc, %p : complex<f64>
    scf.yield %t : complex<f64>
  }
  return %r : complex<f64>
}

// -----

// Nor in a parallel loop body, where it would keep the body's alloca_scope.
// CHECK-LABEL: func.func @reduce_in_pfor
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel
// CHECK:   scf.for {{.*}} -> (f64)
// CHECK:     arith.addf
func.func @reduce_in_pfor(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 1, row_major>, %n: index) {
  %c0 = arith.constant 0 : index
  %r = vrir.range %c0 to %n
  vrir.pfor (%i) in %r : !vrir.range shared(%A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 1, row_major>) {
    %row = vrir.slice %A[%i] : !vrir.array<f64, 2, row_major>[index] -> !vrir.array<f64, 1, strided>
    %s = vrir.reduce sum %row : !vrir.array<f64, 1, strided> -> f64
    vrir.store %s, %B[%i] : !vrir.array<f64, 1, row_major>[index]
  }
  return
}

// -----

// Operands of one rank: when their shapes agree at run time the loops read
// them through their own layouts (vectorizable; the static unit stride is
// kept) with the result's sizes, so that canonicalization cannot give
// them conflicting constant sizes; only a real broadcast goes through
// stride-0 views.
// CHECK-LABEL: func.func @same_rank_versions
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<?x?xf64>, %[[B:[a-z0-9_]+]]: memref<?x?xf64>)
// CHECK: %[[SAME:.*]] = arith.andi
// CHECK: scf.if %{{.*}} {
// CHECK:   %[[BASE_A:.*]], %{{.*}}, %{{.*}}:2, %[[STRIDES_A:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:   %[[VA:.*]] = memref.reinterpret_cast %[[BASE_A]] to offset: [0], sizes: [%[[D0:.*]], %[[D1:.*]]], strides: [%[[STRIDES_A]]#0, 1] : memref<f64> to memref<?x?xf64, strided<[?, 1]>>
// CHECK:   %[[BASE_B:.*]], %{{.*}}, %{{.*}}:2, %[[STRIDES_B:.*]]:2 = memref.extract_strided_metadata %[[B]]
// CHECK:   %[[VB:.*]] = memref.reinterpret_cast %[[BASE_B]] to offset: [0], sizes: [%[[D0]], %[[D1]]], strides: [%[[STRIDES_B]]#0, 1] : memref<f64> to memref<?x?xf64, strided<[?, 1]>>
// CHECK:   linalg.generic {{.*}} ins(%[[VA]], %[[VB]] : memref<?x?xf64, strided<[?, 1]>>, memref<?x?xf64, strided<[?, 1]>>)
// CHECK: } else {
// CHECK:   memref.reinterpret_cast
// CHECK:   linalg.generic
func.func @same_rank_versions(%A: !vrir.array<f64, 2, row_major>, %B: !vrir.array<f64, 2, row_major>) -> !vrir.array<f64, 2, row_major> {
  %C = vrir.binary add %A, %B : !vrir.array<f64, 2, row_major>, !vrir.array<f64, 2, row_major> -> !vrir.array<f64, 2, row_major>
  return %C : !vrir.array<f64, 2, row_major>
}

// -----

// A map is one linalg.generic whose body is the map's body, lowered.
// CHECK-LABEL: func.func @map
// CHECK: %[[R:.*]] = memref.alloc
// CHECK: scf.if
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[R]] : memref<?x?xf64>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK-NEXT:   %[[Q:.*]] = math.sqrt %[[S]] : f64
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %{{.*}}, %[[Q]] : f64
// CHECK-NEXT:   linalg.yield %[[M]] : f64
// CHECK: } else {
// CHECK: linalg.generic
// CHECK-NOT: vrir.
func.func @map(%A: !vrir.array<f64, 2, strided>, %B: !vrir.array<f64, 2, row_major>, %s: f64) -> !vrir.array<f64, 2, row_major> {
  %r = vrir.map %A, %B, %s : (!vrir.array<f64, 2, strided>, !vrir.array<f64, 2, row_major>, f64) -> !vrir.array<f64, 2, row_major> {
  ^bb0(%a: f64, %b: f64, %x: f64):
    %t = vrir.binary add %a, %b : f64, f64 -> f64
    %q = vrir.unary sqrt %t : f64 -> f64
    %u = vrir.binary mul %x, %q : f64, f64 -> f64
    vrir.yield %u : f64
  }
  return %r : !vrir.array<f64, 2, row_major>
}

// -----

// A reducing map: the broadcast check, then a loop nest carrying the
// accumulator over views with the broadcast shape (the operands' own
// strides when their shapes agree); no array is allocated.
// CHECK-LABEL: func.func @map_reduce_dot
// CHECK-NOT: memref.alloc
// CHECK: scf.if %{{.*}} {
// CHECK:   llvm.call @vrir_rt_error
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK:     %[[A:.*]] = memref.load
// CHECK:     %[[B:.*]] = memref.load
// CHECK:     %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f64
// CHECK:     %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<reassoc> : f64
// CHECK:     scf.yield %[[S]] : f64
// CHECK: } else {
// CHECK:   arith.select
// CHECK:   scf.for
// CHECK: return %[[R]] : f64
!V = !vrir.array<f64, 1, strided>
func.func @map_reduce_dot(%x: !V, %y: !V) -> f64 {
  %d = vrir.map %x, %y reduce(sum) : (!V, !V) -> f64 {
  ^bb0(%a: f64, %b: f64):
    %t = arith.mulf %a, %b : f64
    vrir.yield %t : f64
  }
  return %d : f64
}

// -----

// min/max of no element is an error; a col_major input is walked in its
// own order (the first dimension innermost).
// CHECK-LABEL: func.func @map_reduce_max_col_major
// CHECK: arith.cmpi eq, %[[D0:.*]], %c0
// CHECK: llvm.call @vrir_rt_error
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:     memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK:     arith.maximumf
func.func @map_reduce_max_col_major(%A: !vrir.array<f64, 2, col_major>, %s: f64) -> f64 {
  %d = vrir.map %A, %s reduce(max) : (!vrir.array<f64, 2, col_major>, f64) -> f64 {
  ^bb0(%a: f64, %b: f64):
    %t = arith.addf %a, %b : f64
    vrir.yield %t : f64
  }
  return %d : f64
}
