// RUN: vr-opt %s --vrir-gpu-expand-f64-math | FileCheck %s
// RUN: vr-opt %s --vrir-gpu-expand-f64-math | FileCheck %s --check-prefix=GONE
// RUN: vr-opt %s --vrir-gpu-expand-f64-math --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// In GPU modules, f64 math functions become f64 arithmetic, the math that
// Vulkan has for f64 (roundeven, floor, sqrt, absf, copysign, isnan) and i64
// operations on the bits: fdlibm's algorithms, their branches as selects.
// The checks follow the key steps and constants of each algorithm. Host
// code and f32 math stay.

// CHECK-LABEL: func.func @host
// CHECK:         math.exp %{{.*}} : f64
func.func @host(%x: f64) -> f64 {
  %e = math.exp %x : f64
  return %e : f64
}

// GONE-LABEL: gpu.module @kernels
// GONE-NOT: math.{{(exp|exp2|expm1|log|log2|log10|log1p|sin|cos|tan|sincos|sinh|cosh|tanh|asin|acos|atan|atan2|asinh|acosh|atanh|powf|fpowi|erf|erfc|cbrt)}} {{.*}}f64
// GONE: math.exp %{{.*}} : f32
// GONE-NOT: math.{{(exp|exp2|expm1|log|log2|log10|log1p|sin|cos|tan|sincos|sinh|cosh|tanh|asin|acos|atan|atan2|asinh|acosh|atanh|powf|fpowi|erf|erfc|cbrt)}} {{.*}}f64

// The created operations carry a marked location, which tells the SPIR-V
// lowering to decorate them NoContraction.
// LOC: loc(fused<"vrir.expanded_f64_math">[

gpu.module @kernels {
  // f32 math is GLSL.std.450's.
  // CHECK-LABEL: gpu.func @exp_f32
  // CHECK-NEXT:    math.exp %{{.*}} : f32
  gpu.func @exp_f32(%x: f32, %out: memref<f32>) kernel {
    %r = math.exp %x : f32
    memref.store %r, %out[] : memref<f32>
    gpu.return
  }

  // exp (e_exp.c): k = roundeven(x/ln2), r = x - k*ln2 in two parts, a
  // rational approximation, then 2^k as two powers of two built from bits.
  // CHECK-LABEL: gpu.func @exp(
  // CHECK:         %[[NAN:.*]] = math.isnan %arg0 : f64
  // CHECK:         arith.constant 1.4426950408889634 : f64
  // CHECK:         %[[K:.*]] = math.roundeven
  // CHECK:         arith.constant 0.69314718036912382 : f64
  // CHECK:         arith.constant 1.9082149292705877E-10 : f64
  // CHECK:         arith.constant 4.1381367970572385E-8 : f64
  // CHECK:         arith.divf
  // CHECK:         %[[KI:.*]] = arith.fptosi %[[K]] : f64 to i64
  // CHECK:         %[[HALF:.*]] = arith.shrsi %[[KI]]
  // CHECK:         arith.subi %[[KI]], %[[HALF]] : i64
  // CHECK:         %[[BIAS:.*]] = arith.addi %[[HALF]], %{{.*}} : i64
  // CHECK:         %[[EXP:.*]] = arith.shli %[[BIAS]], %{{.*}} : i64
  // CHECK:         arith.bitcast %[[EXP]] : i64 to f64
  // CHECK:         %[[ISNAN:.*]] = math.isnan %arg0 : f64
  // CHECK:         %[[R:.*]] = arith.select %[[ISNAN]], %arg0, %{{.*}} : f64
  // CHECK:         memref.store %[[R]]
  gpu.func @exp(%x: f64, %out: memref<f64>) kernel {
    %r = math.exp %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // exp2: 2^k * 2^(x - k), the fraction times ln2 split as in e_pow.c.
  // CHECK-LABEL: gpu.func @exp2(
  // CHECK:         math.roundeven
  // CHECK:         arith.constant -4294967296 : i64
  // CHECK:         arith.constant 0.69314718246459961 : f64
  // CHECK:         arith.constant -1.904654299957768E-9 : f64
  // CHECK:         arith.fptosi
  gpu.func @exp2(%x: f64, %out: memref<f64>) kernel {
    %r = math.exp2 %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // expm1 (s_expm1.c): the reduction with its correction term, then one
  // candidate per case of k, selected.
  // CHECK-LABEL: gpu.func @expm1(
  // CHECK:         math.roundeven
  // CHECK:         arith.constant -0.033333333333333132 : f64
  // CHECK:         arith.constant 2.000000e+01 : f64
  // CHECK:         arith.constant 5.5511151231257827E-17 : f64
  gpu.func @expm1(%x: f64, %out: memref<f64>) kernel {
    %r = math.expm1 %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // log (e_log.c): x = 2^k * (1 + f) from the bits (subnormals scaled by
  // 2^54 first), 1 + f in [sqrt(2)/2, sqrt(2)), s = f/(2 + f) and Lg1..7.
  // CHECK-LABEL: gpu.func @log(
  // CHECK:         arith.constant 2.2250738585072014E-308 : f64
  // CHECK:         arith.constant 0x4350000000000000 : f64
  // CHECK:         %[[BITS:.*]] = arith.bitcast %{{.*}} : f64 to i64
  // CHECK:         %[[HIGH:.*]] = arith.shrsi %[[BITS]], %{{.*}} : i64
  // CHECK:         arith.constant 614242 : i64
  // CHECK:         arith.constant 1072079006 : i64
  // CHECK:         arith.sitofp %{{.*}} : i64 to f64
  // CHECK:         %[[F:.*]] = arith.subf
  // CHECK:         %[[TWOF:.*]] = arith.addf %{{.*}}, %[[F]] : f64
  // CHECK:         arith.divf %[[F]], %[[TWOF]] : f64
  // CHECK:         arith.constant 0.66666666666667351 : f64
  // CHECK:         arith.constant 0.69314718036912382 : f64
  // CHECK:         arith.negf
  // CHECK:         arith.constant 0x7FF8000000000000 : f64
  gpu.func @log(%x: f64, %out: memref<f64>) kernel {
    %r = math.log %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // log2 and log10 (FreeBSD): f - f*f/2 split at its 21-bit high part.
  // CHECK-LABEL: gpu.func @log2(
  // CHECK:         arith.constant 614242 : i64
  // CHECK:         arith.constant -4294967296 : i64
  // CHECK:         arith.constant 1.4426950407214463 : f64
  // CHECK:         arith.constant 1.6751713164886512E-10 : f64
  gpu.func @log2(%x: f64, %out: memref<f64>) kernel {
    %r = math.log2 %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @log10(
  // CHECK:         arith.constant -4294967296 : i64
  // CHECK:         arith.constant 0.43429448187816888 : f64
  // CHECK:         arith.constant 0.30102999566361177 : f64
  gpu.func @log10(%x: f64, %out: memref<f64>) kernel {
    %r = math.log10 %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // log1p (s_log1p.c): f = x near 0, else 1 + x reduced with a correction.
  // CHECK-LABEL: gpu.func @log1p(
  // CHECK:         arith.constant -0.29289340972900391 : f64
  // CHECK:         arith.constant 0.41421365737915039 : f64
  // CHECK:         arith.constant 614242 : i64
  // CHECK:         arith.divf
  gpu.func @log1p(%x: f64, %out: memref<f64>) kernel {
    %r = math.log1p %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // sin (e_rem_pio2.c, k_sin.c, k_cos.c): x - n*pi/2 with pi/2 in 33-bit
  // parts; beyond 2^20*pi/2, Payne-Hanek with the bits of 2/pi, only where
  // a work-item needs it; the quadrant picks +-sin or +-cos of the rest.
  // CHECK-LABEL: gpu.func @sin(
  // CHECK:         arith.constant 0.63661977236758138 : f64
  // CHECK:         %[[N:.*]] = math.roundeven
  // CHECK:         arith.constant 1.5707963267341256 : f64
  // CHECK:         arith.constant 6.0771005065061922E-11 : f64
  // CHECK:         arith.constant 2.0222662487959506E-21 : f64
  // CHECK:         arith.constant 8.4784276603688995E-32 : f64
  // CHECK:         math.floor
  // CHECK:         %[[LARGE:.*]] = arith.cmpf oge, %{{.*}}, %{{.*}} : f64
  // CHECK:         %{{.*}}:3 = scf.if %[[LARGE]] -> (f64, f64, f64) {
  // CHECK:           arith.constant -6703182060581546711 : i64
  // CHECK:           arith.muli
  // CHECK:           arith.constant 0x41A0000002000000 : f64
  // CHECK:           scf.yield
  // CHECK:         } else {
  // CHECK:           scf.yield
  // CHECK:         }
  // CHECK:         arith.constant -0.16666666666666632 : f64
  // CHECK:         arith.constant 0.041666666666666602 : f64
  // CHECK:         arith.constant 2.812500e-01 : f64
  gpu.func @sin(%x: f64, %out: memref<f64>) kernel {
    %r = math.sin %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @cos(
  // CHECK:         math.roundeven
  // CHECK:         scf.if
  // CHECK:         arith.constant 0.041666666666666602 : f64
  gpu.func @cos(%x: f64, %out: memref<f64>) kernel {
    %r = math.cos %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // tan (k_tan.c): tan(pi/4 - |x|) above 0.6744, -1/tan in odd quadrants.
  // CHECK-LABEL: gpu.func @tan(
  // CHECK:         math.roundeven
  // CHECK:         scf.if
  // CHECK:         arith.constant 0.78539816339744828 : f64
  // CHECK:         arith.constant 0.33333333333333409 : f64
  // CHECK:         arith.constant -1.000000e+00 : f64
  gpu.func @tan(%x: f64, %out: memref<f64>) kernel {
    %r = math.tan %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // sincos reduces once.
  // CHECK-LABEL: gpu.func @sincos(
  // CHECK:         math.roundeven
  // CHECK-NOT:     math.roundeven
  // CHECK:         gpu.return
  gpu.func @sincos(%x: f64, %out: memref<2xf64>) kernel {
    %s, %c = math.sincos %x : f64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    memref.store %s, %out[%c0] : memref<2xf64>
    memref.store %c, %out[%c1] : memref<2xf64>
    gpu.return
  }

  // sinh, cosh (e_sinh.c, e_cosh.c): expm1 for small |x|, exp's mantissa
  // scaled by 2^(k-1) for large |x|; tanh (s_tanh.c) from expm1(+-2|x|).
  // CHECK-LABEL: gpu.func @sinh(
  // CHECK:         arith.constant 2.200000e+01 : f64
  // CHECK:         arith.constant -0.033333333333333132 : f64
  // CHECK:         arith.constant 4.1381367970572385E-8 : f64
  // CHECK:         arith.constant -1 : i64
  // CHECK:         math.copysign
  gpu.func @sinh(%x: f64, %out: memref<f64>) kernel {
    %r = math.sinh %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @cosh(
  // CHECK:         arith.constant -0.033333333333333132 : f64
  // CHECK:         arith.constant 4.1381367970572385E-8 : f64
  // CHECK:         arith.constant 0.3465735912322998 : f64
  gpu.func @cosh(%x: f64, %out: memref<f64>) kernel {
    %r = math.cosh %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @tanh(
  // CHECK:         arith.constant -0.033333333333333132 : f64
  // CHECK:         math.copysign
  gpu.func @tanh(%x: f64, %out: memref<f64>) kernel {
    %r = math.tanh %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // asin, acos (e_asin.c, e_acos.c): R(x^2) near 0, sqrt((1 - |x|)/2) with
  // its 21-bit high part and correction near 1.
  // CHECK-LABEL: gpu.func @asin(
  // CHECK:         arith.constant 0.16666666666666666 : f64
  // CHECK:         arith.constant -2.4033949117344142 : f64
  // CHECK:         math.sqrt
  // CHECK:         arith.constant -4294967296 : i64
  // CHECK:         math.copysign
  gpu.func @asin(%x: f64, %out: memref<f64>) kernel {
    %r = math.asin %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @acos(
  // CHECK:         arith.constant 0.16666666666666666 : f64
  // CHECK:         math.sqrt
  // CHECK:         arith.constant 3.1415926535897931 : f64
  // CHECK:         arith.constant -4294967296 : i64
  gpu.func @acos(%x: f64, %out: memref<f64>) kernel {
    %r = math.acos %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // atan (s_atan.c): one of five intervals by |x|, atan(1/2), atan(1),
  // atan(3/2) or pi/2 plus the polynomial of a small argument.
  // CHECK-LABEL: gpu.func @atan(
  // CHECK:         arith.constant 4.375000e-01 : f64
  // CHECK:         arith.constant 2.437500e+00 : f64
  // CHECK:         arith.divf
  // CHECK:         arith.constant 0.46364760900080609 : f64
  // CHECK:         arith.constant 0.33333333333332932 : f64
  // CHECK:         math.copysign
  gpu.func @atan(%x: f64, %out: memref<f64>) kernel {
    %r = math.atan %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // atan2 (e_atan2.c): atan(|y/x|) moved to the quadrant of (x, y), the
  // special cases of C99 selected.
  // CHECK-LABEL: gpu.func @atan2(
  // CHECK:         arith.divf
  // CHECK:         arith.constant 0.46364760900080609 : f64
  // CHECK:         arith.constant 3.1415926535897931 : f64
  // CHECK:         arith.constant 1.2246467991473532E-16 : f64
  // CHECK:         arith.constant 2.3561944901923448 : f64
  gpu.func @atan2(%y: f64, %x: f64, %out: memref<f64>) kernel {
    %r = math.atan2 %y, %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // asinh, acosh, atanh: log or log1p of fdlibm's arguments, one polynomial.
  // CHECK-LABEL: gpu.func @asinh(
  // CHECK:         math.sqrt
  // CHECK:         arith.constant 614242 : i64
  // CHECK:         arith.constant -0.29289340972900391 : f64
  // CHECK:         arith.constant 0.66666666666667351 : f64
  // CHECK-NOT:     arith.constant 0.66666666666667351 : f64
  // CHECK:         gpu.return
  gpu.func @asinh(%x: f64, %out: memref<f64>) kernel {
    %r = math.asinh %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @acosh(
  // CHECK:         math.sqrt
  // CHECK:         math.sqrt
  // CHECK:         arith.constant 0.66666666666667351 : f64
  gpu.func @acosh(%x: f64, %out: memref<f64>) kernel {
    %r = math.acosh %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @atanh(
  // CHECK:         arith.constant -0.29289340972900391 : f64
  // CHECK:         arith.constant 0.66666666666667351 : f64
  // CHECK:         arith.constant 5.000000e-01 : f64
  // CHECK:         math.copysign
  gpu.func @atanh(%x: f64, %out: memref<f64>) kernel {
    %r = math.atanh %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // erf, erfc (s_erf.c): the coefficients of the interval of |x| selected
  // into one rational function; beyond 1.25, exp(-x^2 - 0.5625 + R/S)/x.
  // CHECK-LABEL: gpu.func @erf(
  // CHECK:         arith.constant 8.437500e-01 : f64
  // CHECK:         arith.constant 1.250000e+00 : f64
  // CHECK:         arith.constant 0.12837916709551256 : f64
  // CHECK:         arith.constant 5.625000e-01 : f64
  // CHECK:         math.roundeven
  // CHECK:         arith.constant 0.84506291151046753 : f64
  gpu.func @erf(%x: f64, %out: memref<f64>) kernel {
    %r = math.erf %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @erfc(
  // CHECK:         arith.constant 5.625000e-01 : f64
  // CHECK:         arith.constant 0.84506291151046753 : f64
  // CHECK:         arith.constant -6.000000e+00 : f64
  gpu.func @erfc(%x: f64, %out: memref<f64>) kernel {
    %r = math.erfc %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // cbrt (s_cbrt.c): the high word divided by 3 for 5 bits, a rational
  // step to 23 bits, a Newton step to 53.
  // CHECK-LABEL: gpu.func @cbrt(
  // CHECK:         arith.constant 715094163 : i64
  // CHECK:         arith.divui %{{.*}}, %{{.*}} : i64
  // CHECK:         arith.constant 0.54285714285714282 : f64
  // CHECK:         math.copysign
  gpu.func @cbrt(%x: f64, %out: memref<f64>) kernel {
    %r = math.cbrt %x : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // powf (e_pow.c): log2|x| in extra precision from s = (x - bp)/(x + bp),
  // y split so that y1*t1 is exact, overflow and underflow decided on
  // p_h + p_l, 2^(p_h + p_l); then C99's special cases.
  // CHECK-LABEL: gpu.func @powf(
  // CHECK:         math.floor %arg1
  // CHECK:         arith.constant 1.8446744073709552E+19 : f64
  // CHECK:         arith.constant 235662 : i64
  // CHECK:         arith.constant 767610 : i64
  // CHECK:         arith.constant 1.500000e+00 : f64
  // CHECK:         arith.constant 0.59999999999999465 : f64
  // CHECK:         arith.constant 0.96179670095443726 : f64
  // CHECK:         arith.constant 1.024000e+03 : f64
  // CHECK:         arith.constant 8.0085662595372941E-17 : f64
  // CHECK:         arith.constant -1.075000e+03 : f64
  // CHECK:         arith.constant 0.69314718246459961 : f64
  // CHECK:         math.sqrt %arg0
  gpu.func @powf(%x: f64, %y: f64, %out: memref<f64>) kernel {
    %r = math.powf %x, %y : f64
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // fpowi: pow with the exponent converted, odd when its integer is.
  // CHECK-LABEL: gpu.func @fpowi(
  // CHECK:         arith.sitofp %arg1 : i32 to f64
  // CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK:         %[[LOW:.*]] = arith.andi %arg1, %[[ONE]] : i32
  // CHECK:         arith.cmpi eq, %[[LOW]], %[[ONE]] : i32
  // CHECK:         arith.constant 8.0085662595372941E-17 : f64
  gpu.func @fpowi(%x: f64, %n: i32, %out: memref<f64>) kernel {
    %r = math.fpowi %x, %n : f64, i32
    memref.store %r, %out[] : memref<f64>
    gpu.return
  }

  // Vectors: splat constants, i64 vectors for the bits; the Payne-Hanek
  // reduction without a branch.
  // CHECK-LABEL: gpu.func @vector(
  // CHECK:         arith.constant dense<1.4426950408889634> : vector<2xf64>
  // CHECK:         arith.fptosi %{{.*}} : vector<2xf64> to vector<2xi64>
  // CHECK:         arith.bitcast %{{.*}} : vector<2xi64> to vector<2xf64>
  // CHECK:         arith.constant dense<0.63661977236758138> : vector<2xf64>
  // CHECK-NOT:     scf.if
  // CHECK:         arith.constant dense<-6703182060581546711> : vector<2xi64>
  // CHECK:         gpu.return
  gpu.func @vector(%x: vector<2xf64>, %out: memref<vector<2xf64>>) kernel {
    %e = math.exp %x : vector<2xf64>
    %r = math.cos %e : vector<2xf64>
    memref.store %r, %out[] : memref<vector<2xf64>>
    gpu.return
  }
}
