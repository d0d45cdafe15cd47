//===- GpuExpandF64Math.cpp - f64 math functions as arithmetic ------------===//
//
// GLSL.std.450, the math of Vulkan's SPIR-V, defines Exp, Log, Sin, Pow,
// Tanh, Asin, ... for 16- and 32-bit floats only. These patterns expand
// the f64 math operations of GPU kernels into f64 arithmetic, the math
// operations Vulkan has for f64 (floor, roundeven, sqrt, fabs, copysign)
// and i64 operations on the bits (exponent extraction, scaling by 2^k,
// clearing the low word of a split).
//
// The algorithms and coefficients are Sun's fdlibm 5.3 (e_exp.c, e_log.c,
// e_pow.c, e_rem_pio2.c, k_sin.c, k_cos.c, k_tan.c, s_atan.c, e_asin.c,
// e_acos.c, e_atan2.c, s_expm1.c, s_log1p.c, e_sinh.c, e_cosh.c, s_tanh.c,
// s_asinh.c, e_acosh.c, e_atanh.c, s_erf.c, s_cbrt.c) and FreeBSD msun's
// log2/log10 (e_log2.c, e_log10.c, 2011): errors below 1 ulp, 1.5 for
// sinh, cosh and atan2, 2.2 for tanh, asinh, acosh, atanh and erfc
// (test/Integration/GPU/f64_math.py measures them). Their branches
// become selects: each expansion computes the candidates it needs and
// picks one per element, so that the code is straight-line and the same
// for all work-items (but for the rare Payne-Hanek reduction). Inputs that
// would make intermediate results meaningless (NaN, infinities, huge
// arguments) are replaced by harmless values first and the special results
// selected last, as C99/NumPy define them.
//
// Differences from the C code:
// - Scaling by 2^k multiplies by two exact powers of two, so that a
//   subnormal result is rounded once and overflow gives inf, instead of
//   adding to the exponent field (`scaleByPowerOfTwo`).
// - sinh and cosh for |x| >= 22 scale exp's mantissa by 2^(k-1) instead
//   of squaring exp(x/2), and erf/erfc take one exp of a two-part argument
//   instead of the product of two exps.
// - sin/cos/tan reduce by pi/2 as e_rem_pio2.c's "medium" case (pi/2 in
//   33-bit parts, a second and third step where the first one cancelled)
//   for |x| <= 2^20*pi/2 (~1.6e6). Beyond, instead of __kernel_rem_pio2,
//   a Payne-Hanek reduction in 64-bit integers with 192 bits of 2/pi
//   (`reduceLargeByHalfPi`), under an scf.if so that work-items with
//   ordinary arguments skip it.
// - pow's log2(x) always takes e_pow.c's general path: its series for x
//   near 1 and |y| > 2^31 loses up to 2^-53 of log2(x) (hundreds of ulps
//   in x^y); the general path keeps about 2^-72 there.
//
// The rounding-error tricks (exact products of split halves, sums whose
// error is recovered) need every operation rounded as IEEE says: the
// created operations carry a marked location, and the SPIR-V lowering
// decorates the float instructions at such locations NoContraction (which
// also keeps Mesa and other drivers from reassociating them).
//
//===----------------------------------------------------------------------===//

#include "GpuExpandF64Math.h"

#include "VRIR/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <iterator>
#include <limits>

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_GPUEXPANDF64MATH
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

constexpr StringLiteral kExpandedMathMarker = "vrir.expanded_f64_math";

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

/// Creates the operations of one expansion on an f64 scalar or vector type,
/// with its bits as i64 of the same shape and comparisons as i1.
class F64Builder {
public:
  F64Builder(OpBuilder &builder, Location loc, Type floatType)
      : b(builder), loc(loc), floatType(floatType) {
    Type i64 = b.getI64Type();
    if (auto vector = dyn_cast<VectorType>(floatType))
      intType = vector.clone(i64);
    else
      intType = i64;
  }

  OpBuilder &getBuilder() { return b; }
  Location getLoc() const { return loc; }

  // Constants.
  Value cst(double value) {
    return constant(floatType, b.getF64FloatAttr(value));
  }
  Value cstBits(uint64_t bits) { return cst(llvm::bit_cast<double>(bits)); }
  Value icst(int64_t value) {
    return constant(intType, b.getI64IntegerAttr(value));
  }
  Value inf() { return cst(std::numeric_limits<double>::infinity()); }
  Value nan() { return cst(std::numeric_limits<double>::quiet_NaN()); }

  // Float arithmetic.
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value floor(Value x) { return math::FloorOp::create(b, loc, x); }
  Value roundEven(Value x) { return math::RoundEvenOp::create(b, loc, x); }
  Value sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }
  Value copySign(Value magnitude, Value sign) {
    return math::CopySignOp::create(b, loc, magnitude, sign);
  }

  /// c0 + x*(c1 + x*(c2 + ...)), fdlibm's Horner form.
  Value poly(Value x, ArrayRef<double> coefficients) {
    Value result = cst(coefficients.back());
    for (double coefficient : llvm::reverse(coefficients.drop_back()))
      result = add(cst(coefficient), mul(x, result));
    return result;
  }

  // Float comparisons (ordered: false on NaN) and the NaN test.
  Value cmp(arith::CmpFPredicate predicate, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  }
  Value lt(Value x, Value y) { return cmp(arith::CmpFPredicate::OLT, x, y); }
  Value le(Value x, Value y) { return cmp(arith::CmpFPredicate::OLE, x, y); }
  Value gt(Value x, Value y) { return cmp(arith::CmpFPredicate::OGT, x, y); }
  Value ge(Value x, Value y) { return cmp(arith::CmpFPredicate::OGE, x, y); }
  Value eq(Value x, Value y) { return cmp(arith::CmpFPredicate::OEQ, x, y); }
  Value ne(Value x, Value y) { return cmp(arith::CmpFPredicate::ONE, x, y); }
  Value lt(Value x, double y) { return lt(x, cst(y)); }
  Value le(Value x, double y) { return le(x, cst(y)); }
  Value gt(Value x, double y) { return gt(x, cst(y)); }
  Value ge(Value x, double y) { return ge(x, cst(y)); }
  Value eq(Value x, double y) { return eq(x, cst(y)); }
  Value isNaN(Value x) { return math::IsNaNOp::create(b, loc, x); }
  Value isInf(Value x) { return eq(abs(x), inf()); }
  /// Neither NaN nor infinite.
  Value isFinite(Value x) { return lt(abs(x), inf()); }

  // Booleans and selection.
  Value both(Value p, Value q) { return arith::AndIOp::create(b, loc, p, q); }
  Value either(Value p, Value q) { return arith::OrIOp::create(b, loc, p, q); }
  Value logicalNot(Value p) {
    Value one = constant(p.getType(), b.getBoolAttr(true));
    return arith::XOrIOp::create(b, loc, p, one);
  }
  Value select(Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, loc, condition, x, y);
  }
  Value select(Value condition, double x, Value y) {
    return select(condition, cst(x), y);
  }
  /// x, or `low`/`high` where it is outside them; x must not be NaN.
  Value clamp(Value x, double low, double high) {
    return select(lt(x, low), low, select(gt(x, high), high, x));
  }

  // Bits.
  Value toBits(Value x) { return arith::BitcastOp::create(b, loc, intType, x); }
  Value fromBits(Value i) {
    return arith::BitcastOp::create(b, loc, floatType, i);
  }
  Value iadd(Value i, Value j) { return arith::AddIOp::create(b, loc, i, j); }
  Value isub(Value i, Value j) { return arith::SubIOp::create(b, loc, i, j); }
  Value iand(Value i, Value j) { return arith::AndIOp::create(b, loc, i, j); }
  Value ior(Value i, Value j) { return arith::OrIOp::create(b, loc, i, j); }
  Value iadd(Value i, int64_t j) { return iadd(i, icst(j)); }
  Value iand(Value i, int64_t j) { return iand(i, icst(j)); }
  Value ior(Value i, int64_t j) { return ior(i, icst(j)); }
  Value shl(Value i, int64_t n) {
    return arith::ShLIOp::create(b, loc, i, icst(n));
  }
  /// Arithmetic shift: the high word of an f64's bits keeps its sign.
  Value shrs(Value i, int64_t n) {
    return arith::ShRSIOp::create(b, loc, i, icst(n));
  }
  Value shru(Value i, int64_t n) {
    return arith::ShRUIOp::create(b, loc, i, icst(n));
  }
  Value shl(Value i, Value n) { return arith::ShLIOp::create(b, loc, i, n); }
  Value shru(Value i, Value n) { return arith::ShRUIOp::create(b, loc, i, n); }
  /// The low 64 bits of the product (the same for signed and unsigned).
  Value imul(Value i, Value j) { return arith::MulIOp::create(b, loc, i, j); }
  Value udiv(Value i, int64_t n) {
    return arith::DivUIOp::create(b, loc, i, icst(n));
  }
  Value icmp(arith::CmpIPredicate predicate, Value i, Value j) {
    return arith::CmpIOp::create(b, loc, predicate, i, j);
  }
  Value icmp(arith::CmpIPredicate predicate, Value i, int64_t j) {
    return icmp(predicate, i, icst(j));
  }
  Value iselect(Value condition, int64_t i, Value j) {
    return select(condition, icst(i), j);
  }
  Value toFloat(Value i) {
    return arith::SIToFPOp::create(b, loc, floatType, i);
  }
  /// The integer of an integral f64 that fits in i64.
  Value toInt(Value x) { return arith::FPToSIOp::create(b, loc, intType, x); }

  /// fdlibm's high word (sign-extended, as the C code's int32).
  Value highWord(Value x) { return shrs(toBits(x), 32); }
  /// The f64 whose high word is `high` and whose low word is 0.
  Value fromHighWord(Value high) { return fromBits(shl(high, 32)); }
  /// x with its low word set to 0 (SET_LOW_WORD(x, 0)): a "hi" part with at
  /// most 21 significant bits, whose products with other such parts are
  /// exact.
  Value clearLowWord(Value x) {
    return fromBits(iand(toBits(x), static_cast<int64_t>(0xffffffff00000000)));
  }
  /// x with its high word replaced by `high` (SET_HIGH_WORD).
  Value withHighWord(Value x, Value high) {
    return fromBits(ior(shl(high, 32), iand(toBits(x), 0xffffffff)));
  }
  /// Whether the sign bit of x is set (also for -0.0 and NaNs).
  Value signBit(Value x) {
    return icmp(arith::CmpIPredicate::slt, toBits(x), 0);
  }

private:
  Value constant(Type type, TypedAttr scalar) {
    TypedAttr value = scalar;
    if (auto vector = dyn_cast<VectorType>(type))
      value = DenseElementsAttr::get(vector.clone(scalar.getType()),
                                     ArrayRef<Attribute>(scalar));
    return arith::ConstantOp::create(b, loc, value);
  }

  OpBuilder &b;
  Location loc;
  Type floatType;
  Type intType;
};

/// 2^k for an i64 k in [-1022, 1023].
Value powerOfTwo(F64Builder &m, Value k) {
  return m.fromBits(m.shl(m.iadd(k, 1023), 52));
}

/// x * 2^k for an i64 k in [-2044, 2046] and x in [0.5, 2] (or 0, inf,
/// NaN): the first factor keeps x * 2^(k/2) exact, so the result is
/// rounded once, to a subnormal, 0 or inf as IEEE says.
Value scaleByPowerOfTwo(F64Builder &m, Value x, Value k) {
  Value half = m.shrs(k, 1);
  Value rest = m.isub(k, half);
  return m.mul(m.mul(x, powerOfTwo(m, half)), powerOfTwo(m, rest));
}

/// The rounding error of s = x + y: x + y == s + error exactly (Knuth's
/// TwoSum, for any magnitudes).
Value twoSumError(F64Builder &m, Value x, Value y, Value s) {
  Value yVirtual = m.sub(s, x);
  Value xVirtual = m.sub(s, yVirtual);
  return m.add(m.sub(x, xVirtual), m.sub(y, yVirtual));
}

//===----------------------------------------------------------------------===//
// exp, exp2, expm1 (e_exp.c, e_pow.c, s_expm1.c)
//===----------------------------------------------------------------------===//

constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3fe62e42fee00000
constexpr double kLn2Lo = 1.90821492927058770002e-10;  // 0x3dea39ef35793c76
constexpr double kInvLn2 = 1.44269504088896338700e+00; // 0x3ff71547652b82fe
constexpr double kExpP[] = {
    1.66666666666666019037e-01,  // 0x3FC555555555553E
    -2.77777777770155933842e-03, // 0xBF66C16C16BEBD93
    6.61375632143793436117e-05,  // 0x3F11566AAF25DE2C
    -1.65339022054652515390e-06, // 0xBEBBBD41C5D26BF1
    4.13813679705723846039e-08,  // 0x3E66376972BEA4D0
};

/// exp(hi - lo) for |hi - lo| <= 0.5*ln2 (e_exp.c step 2):
/// 1 - ((lo - r*c/(2 - c)) - hi) with c = r - r^2*P(r^2).
Value expKernel(F64Builder &m, Value hi, Value lo) {
  Value r = m.sub(hi, lo);
  Value t = m.mul(r, r);
  Value c = m.sub(r, m.mul(t, m.poly(t, kExpP)));
  Value q = m.div(m.mul(r, c), m.sub(m.cst(2.0), c));
  return m.sub(m.cst(1.0), m.sub(m.sub(lo, q), hi));
}

/// exp(x) = mantissa * 2^exponent.
struct ExpParts {
  Value mantissa;
  Value exponent; // i64
};

/// e_exp.c's argument reduction x = k*ln2 + (hi - lo) with ln2 in two
/// parts (k*ln2Hi is exact), for x that is not NaN.
ExpParts expParts(F64Builder &m, Value x) {
  // exp(+-800) over/underflows; k stays within scaleByPowerOfTwo's range.
  Value xs = m.clamp(x, -800.0, 800.0);
  Value k = m.roundEven(m.mul(xs, m.cst(kInvLn2)));
  Value hi = m.sub(xs, m.mul(k, m.cst(kLn2Hi)));
  Value lo = m.mul(k, m.cst(kLn2Lo));
  return {expKernel(m, hi, lo), m.toInt(k)};
}

/// 0 where x is NaN, else x: an argument that keeps the integer
/// conversions of an expansion defined (its NaN result is selected last).
Value withoutNaN(F64Builder &m, Value x) {
  return m.select(m.isNaN(x), 0.0, x);
}

Value expandExp(F64Builder &m, Value x) {
  ExpParts parts = expParts(m, withoutNaN(m, x));
  Value result = scaleByPowerOfTwo(m, parts.mantissa, parts.exponent);
  return m.select(m.isNaN(x), x, result);
}

constexpr double kLg2 = 6.93147180559945286227e-01;    // 0x3FE62E42FEFA39EF
constexpr double kLg2Hi = 6.93147182464599609375e-01;  // 0x3FE62E4300000000
constexpr double kLg2Lo = -1.90465429995776804525e-09; // 0xBE205C610CA86C39

/// 2^(hi + lo) for |hi + lo| <= ~0.5 (the end of e_pow.c): the argument
/// times ln2 as z + w, with (hi + lo) split so that its product with the
/// 21-bit high part of ln2 is exact, then exp(z + w).
Value exp2Kernel(F64Builder &m, Value hi, Value lo) {
  Value t = m.clearLowWord(m.add(lo, hi));
  Value u = m.mul(t, m.cst(kLg2Hi));
  Value v = m.add(m.mul(m.sub(lo, m.sub(t, hi)), m.cst(kLg2)),
                  m.mul(t, m.cst(kLg2Lo)));
  Value z = m.add(u, v);
  Value w = m.sub(v, m.sub(z, u));
  Value zz = m.mul(z, z);
  Value t1 = m.sub(z, m.mul(zz, m.poly(zz, kExpP)));
  Value r =
      m.sub(m.div(m.mul(z, t1), m.sub(t1, m.cst(2.0))), m.add(w, m.mul(z, w)));
  return m.sub(m.cst(1.0), m.sub(r, z));
}

/// 2^x = 2^k * 2^(x - k), x - k exact.
Value expandExp2(F64Builder &m, Value x) {
  Value xs = m.clamp(withoutNaN(m, x), -1100.0, 1100.0);
  Value k = m.roundEven(xs);
  Value fraction = m.sub(xs, k);
  Value mantissa = exp2Kernel(m, fraction, m.cst(0.0));
  Value result = scaleByPowerOfTwo(m, mantissa, m.toInt(k));
  return m.select(m.isNaN(x), x, result);
}

constexpr double kExpm1Q[] = {
    1.0,
    -3.33333333333331316428e-02, // 0xBFA11111111110F4
    1.58730158725481460165e-03,  // 0x3F5A01A019FE5585
    -7.93650757867487942473e-05, // 0xBF14CE199EAADBB7
    4.00821782732936239552e-06,  // 0x3ED0CFCA86E65239
    -2.01099218183624371326e-07, // 0xBE8AFDB76E09C32D
};

/// s_expm1.c: x = k*ln2 + r + c, a rational approximation of expm1(r), and
/// the recombination that fits k (0, -1, 1, small, large).
Value expandExpm1(F64Builder &m, Value x) {
  // expm1(x) = -1 below -56*ln2 and overflows above 709.8.
  Value xs = m.clamp(withoutNaN(m, x), -60.0, 720.0);
  Value kf = m.roundEven(m.mul(xs, m.cst(kInvLn2)));
  Value hi = m.sub(xs, m.mul(kf, m.cst(kLn2Hi)));
  Value lo = m.mul(kf, m.cst(kLn2Lo));
  Value r = m.sub(hi, lo);
  Value c = m.sub(m.sub(hi, r), lo);

  Value hfx = m.mul(m.cst(0.5), r);
  Value hxs = m.mul(r, hfx);
  Value r1 = m.poly(hxs, kExpm1Q);
  Value t = m.sub(m.cst(3.0), m.mul(r1, hfx));
  Value e = m.mul(hxs, m.div(m.sub(r1, t), m.sub(m.cst(6.0), m.mul(r, t))));

  // k == 0: c is 0.
  Value resultK0 = m.sub(r, m.sub(m.mul(r, e), hxs));
  // k != 0.
  Value ek = m.sub(m.sub(m.mul(r, m.sub(e, c)), c), hxs);
  Value resultKMinus1 = m.sub(m.mul(m.cst(0.5), m.sub(r, ek)), m.cst(0.5));
  Value resultK1 = m.select(m.lt(r, -0.25),
                            m.mul(m.cst(-2.0), m.sub(ek, m.add(r, m.cst(0.5)))),
                            m.add(m.cst(1.0), m.mul(m.cst(2.0), m.sub(r, ek))));
  Value k = m.toInt(kf);
  // k <= -2 or k > 56: 2^k * (1 - (e - r)) - 1.
  Value far = m.sub(m.cst(1.0), m.sub(ek, r));
  Value resultFar = m.sub(scaleByPowerOfTwo(m, far, k), m.cst(1.0));
  // 2 <= k <= 56: 2^-k subtracted before scaling, with k clamped so that
  // 2^-k is a normal number where this result is not used.
  Value kMid = m.select(m.lt(kf, 2.0), m.icst(2),
                        m.select(m.gt(kf, 56.0), m.icst(56), k));
  Value twoToMinusK = powerOfTwo(m, m.isub(m.icst(0), kMid));
  Value nearK = m.sub(m.sub(m.cst(1.0), twoToMinusK), m.sub(ek, r));
  Value farK = m.add(m.sub(r, m.add(ek, twoToMinusK)), m.cst(1.0));
  Value mid = m.select(m.lt(kf, 20.0), nearK, farK);
  Value resultMid = scaleByPowerOfTwo(m, mid, kMid);

  Value result =
      m.select(m.both(m.ge(kf, 2.0), m.le(kf, 56.0)), resultMid, resultFar);
  result = m.select(m.eq(kf, 1.0), resultK1, result);
  result = m.select(m.eq(kf, -1.0), resultKMinus1, result);
  result = m.select(m.eq(kf, 0.0), resultK0, result);
  // |x| < 2^-54 (and +-0): x.
  result = m.select(m.lt(m.abs(x), 0x1p-54), x, result);
  return m.select(m.isNaN(x), x, result);
}

//===----------------------------------------------------------------------===//
// log, log2, log10, log1p (e_log.c, e_log2.c, e_log10.c, s_log1p.c)
//===----------------------------------------------------------------------===//

constexpr double kLg[] = {
    6.666666666666735130e-01, // 0x3FE5555555555593
    3.999999999940941908e-01, // 0x3FD999999997FA04
    2.857142874366239149e-01, // 0x3FD2492494229359
    2.222219843214978396e-01, // 0x3FCC71C51D8E78AF
    1.818357216161805012e-01, // 0x3FC7466496CB03DE
    1.531383769920937332e-01, // 0x3FC39A09D078C69F
    1.479819860511658591e-01, // 0x3FC2F112DF3E5244
};

/// x = 2^k * (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)), for positive finite
/// x (subnormals scaled by 2^54 first).
struct LogReduction {
  Value k; // f64
  Value f;
};

LogReduction reduceForLog(F64Builder &m, Value x) {
  Value subnormal = m.lt(x, 0x1p-1022);
  Value scaled = m.select(subnormal, m.mul(x, m.cst(0x1p54)), x);
  Value bits = m.toBits(scaled);
  // Adding 0x3ff00000 - 0x3fe6a09e (the high words of 1 and sqrt(2)/2)
  // carries into the exponent exactly when the mantissa is at least
  // sqrt(2); the mantissa then goes back to [sqrt(2)/2, sqrt(2)) (musl's
  // form of e_log.c's normalization).
  Value high = m.iadd(m.shrs(bits, 32), 0x3ff00000 - 0x3fe6a09e);
  Value k = m.iadd(m.shrs(high, 20), -0x3ff);
  k = m.iadd(k, m.iselect(subnormal, -54, m.icst(0)));
  Value mantissaHigh = m.iadd(m.iand(high, 0x000fffff), 0x3fe6a09e);
  Value normalized = m.withHighWord(scaled, mantissaHigh);
  return {m.toFloat(k), m.sub(normalized, m.cst(1.0))};
}

/// s = f/(2 + f) and R(s^2), log(1 + f) = f - hfsq + s*(hfsq + R).
struct LogKernel {
  Value hfsq, s, r;
};

LogKernel logKernel(F64Builder &m, Value f) {
  Value s = m.div(f, m.add(m.cst(2.0), f));
  Value z = m.mul(s, s);
  Value w = m.mul(z, z);
  Value t1 = m.mul(w, m.poly(w, {kLg[1], kLg[3], kLg[5]}));
  Value t2 = m.mul(z, m.poly(w, {kLg[0], kLg[2], kLg[4], kLg[6]}));
  Value hfsq = m.mul(m.mul(m.cst(0.5), f), f);
  return {hfsq, s, m.add(t2, t1)};
}

/// k*ln2 + log(1 + f) + c for a correction c of 1 + f (s_log1p.c step 3):
/// k*ln2_hi - ((hfsq - (s*(hfsq + R) + (k*ln2_lo + c))) - f).
Value logOfReduced(F64Builder &m, Value k, Value f, Value c) {
  LogKernel kernel = logKernel(m, f);
  Value tail = m.add(m.mul(kernel.s, m.add(kernel.hfsq, kernel.r)),
                     m.add(m.mul(k, m.cst(kLn2Lo)), c));
  return m.sub(m.mul(k, m.cst(kLn2Hi)), m.sub(m.sub(kernel.hfsq, tail), f));
}

/// The special results of log, log2 and log10: -inf at +-0, NaN below 0,
/// inf at inf, NaN at NaN.
Value logSpecialCases(F64Builder &m, Value x, Value result) {
  result = m.select(m.eq(x, m.inf()), m.inf(), result);
  result = m.select(m.eq(x, 0.0), m.neg(m.inf()), result);
  result = m.select(m.lt(x, 0.0), m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

/// Positive finite x, else 1.
Value positiveFiniteOrOne(F64Builder &m, Value x) {
  return m.select(m.both(m.gt(x, 0.0), m.lt(x, m.inf())), x, m.cst(1.0));
}

Value expandLog(F64Builder &m, Value x) {
  LogReduction reduced = reduceForLog(m, positiveFiniteOrOne(m, x));
  Value result = logOfReduced(m, reduced.k, reduced.f, m.cst(0.0));
  return logSpecialCases(m, x, result);
}

/// log(1 + f) - f as hi + lo with a 21-bit hi, for log2 and log10 (FreeBSD
/// e_log2.c): the large cancellation of f - hfsq near sqrt(2) or
/// sqrt(2)/2 is kept exact.
std::pair<Value, Value> logSplit(F64Builder &m, Value f) {
  LogKernel kernel = logKernel(m, f);
  Value r = m.mul(kernel.s, m.add(kernel.hfsq, kernel.r));
  Value hi = m.clearLowWord(m.sub(f, kernel.hfsq));
  Value lo = m.add(m.sub(m.sub(f, hi), kernel.hfsq), r);
  return {hi, lo};
}

constexpr double kInvLn2Hi = 1.44269504072144627571e+00;   // 0x3ff7154765200000
constexpr double kInvLn2Lo = 1.67517131648865118353e-10;   // 0x3de705fc2eefa200
constexpr double kInvLn10Hi = 4.34294481878168880939e-01;  // 0x3fdbcb7b15200000
constexpr double kInvLn10Lo = 2.50829467116452752298e-11;  // 0x3dbb9438ca9aadd5
constexpr double kLog10Of2Hi = 3.01029995663611771306e-01; // 0x3FD34413509F6000
constexpr double kLog10Of2Lo = 3.69423907715893078616e-13; // 0x3D59FEF311F12B36

Value expandLog2(F64Builder &m, Value x) {
  LogReduction reduced = reduceForLog(m, positiveFiniteOrOne(m, x));
  auto [hi, lo] = logSplit(m, reduced.f);
  Value valHi = m.mul(hi, m.cst(kInvLn2Hi));
  Value valLo = m.add(m.mul(m.add(lo, hi), m.cst(kInvLn2Lo)),
                      m.mul(lo, m.cst(kInvLn2Hi)));
  // k + valHi with its rounding error kept (|k| >= |valHi| or k == 0).
  Value w = m.add(reduced.k, valHi);
  valLo = m.add(valLo, m.add(m.sub(reduced.k, w), valHi));
  return logSpecialCases(m, x, m.add(valLo, w));
}

Value expandLog10(F64Builder &m, Value x) {
  LogReduction reduced = reduceForLog(m, positiveFiniteOrOne(m, x));
  auto [hi, lo] = logSplit(m, reduced.f);
  Value valHi = m.mul(hi, m.cst(kInvLn10Hi));
  Value y2 = m.mul(reduced.k, m.cst(kLog10Of2Hi));
  Value valLo = m.add(m.add(m.mul(reduced.k, m.cst(kLog10Of2Lo)),
                            m.mul(m.add(lo, hi), m.cst(kInvLn10Lo))),
                      m.mul(lo, m.cst(kInvLn10Hi)));
  Value w = m.add(y2, valHi);
  valLo = m.add(valLo, m.add(m.sub(y2, w), valHi));
  return logSpecialCases(m, x, m.add(valLo, w));
}

/// log1p's reduction (s_log1p.c step 1) of b > -1 finite: 1 + b = 2^k *
/// (1 + f) * (1 + c) with f exact. Near 0, f = b; elsewhere u = 1 + b
/// rounded, c its rounding error relative to u.
struct Log1pReduction {
  Value k, f, c;
};

Log1pReduction reduceForLog1p(F64Builder &m, Value b) {
  // -0.2929 < b < 0.41422: 1 + b in [sqrt(2)/2, sqrt(2)), k = 0.
  Value nearZero = m.both(m.gt(b, m.cstBits(0xbfd2bec400000000)),
                          m.lt(b, m.cstBits(0x3fda827a00000000)));
  Value u = m.add(m.cst(1.0), b);
  Value error = m.select(m.ge(u, 2.0), m.sub(m.cst(1.0), m.sub(u, b)),
                         m.sub(b, m.sub(u, m.cst(1.0))));
  LogReduction reduced = reduceForLog(m, u);
  Value zero = m.cst(0.0);
  return {m.select(nearZero, zero, reduced.k), m.select(nearZero, b, reduced.f),
          m.select(nearZero, zero, m.div(error, u))};
}

Value expandLog1p(F64Builder &m, Value x) {
  Value xs = m.select(m.both(m.gt(x, -1.0), m.lt(x, m.inf())), x, m.cst(0.0));
  Log1pReduction reduced = reduceForLog1p(m, xs);
  Value result = logOfReduced(m, reduced.k, reduced.f, reduced.c);
  // |x| < 2^-54 (and +-0): x.
  result = m.select(m.lt(m.abs(x), 0x1p-54), x, result);
  result = m.select(m.eq(x, m.inf()), m.inf(), result);
  result = m.select(m.eq(x, -1.0), m.neg(m.inf()), result);
  result = m.select(m.lt(x, -1.0), m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

//===----------------------------------------------------------------------===//
// pow, fpowi (e_pow.c)
//===----------------------------------------------------------------------===//

constexpr double kPowL[] = {
    5.99999999999994648725e-01, // 0x3FE3333333333303
    4.28571428578550184252e-01, // 0x3FDB6DB6DB6FABFF
    3.33333329818377432918e-01, // 0x3FD55555518F264D
    2.72728123808534006489e-01, // 0x3FD17460A91D4101
    2.30660745775561754067e-01, // 0x3FCD864A93C9DB65
    2.06975017800338417784e-01, // 0x3FCA7E284A454EEF
};
constexpr double kPowDpHi = 5.84962487220764160156e-01;  // 0x3FE2B80340000000
constexpr double kPowDpLo = 1.35003920212974897128e-08;  // 0x3E4CFDEB43CFD006
constexpr double kPowCp = 9.61796693925975554329e-01;    // 0x3FEEC709DC3A03FD
constexpr double kPowCpHi = 9.61796700954437255859e-01;  // 0x3FEEC709E0000000
constexpr double kPowCpLo = -7.02846165095275826516e-09; // 0xBE3E2FE0145B01F5
/// -(1024 - log2(DBL_MAX + 0.5 ulp)).
constexpr double kPowOverflowTail = 8.0085662595372944372e-17;

/// log2(ax) as t1 + t2 with a 21-bit t1, for positive finite ax (e_pow.c
/// step 1): ax = 2^n * (bp + s*...) with bp 1 or 1.5, log2 by a rational
/// approximation in s = (ax - bp)/(ax + bp) carried in extra precision.
std::pair<Value, Value> log2Extended(F64Builder &m, Value ax) {
  using arith::CmpIPredicate;
  Value subnormal = m.lt(ax, 0x1p-1022);
  Value scaled = m.select(subnormal, m.mul(ax, m.cst(0x1p53)), ax);
  Value ix = m.highWord(scaled);
  Value n = m.iadd(m.shrs(ix, 20), -0x3ff);
  n = m.iadd(n, m.iselect(subnormal, -53, m.icst(0)));
  Value j = m.iand(ix, 0x000fffff);
  // |x| < sqrt(3/2): bp = 1; < sqrt(3): bp = 1.5; else x/2 with bp = 1.
  Value useOneHalf = m.both(m.icmp(CmpIPredicate::sgt, j, 0x3988E),
                            m.icmp(CmpIPredicate::slt, j, 0xBB67A));
  Value halve = m.icmp(CmpIPredicate::sge, j, 0xBB67A);
  Value normalizedHigh = m.ior(j, 0x3ff00000);
  normalizedHigh =
      m.select(halve, m.iadd(normalizedHigh, -0x00100000), normalizedHigh);
  n = m.select(halve, m.iadd(n, 1), n);
  Value x = m.withHighWord(scaled, normalizedHigh);
  Value bp = m.select(useOneHalf, 1.5, m.cst(1.0));
  Value dpHi = m.select(useOneHalf, kPowDpHi, m.cst(0.0));
  Value dpLo = m.select(useOneHalf, kPowDpLo, m.cst(0.0));

  // s = s_h + s_l = (x - bp)/(x + bp).
  Value u = m.sub(x, bp);
  Value v = m.div(m.cst(1.0), m.add(x, bp));
  Value ss = m.mul(u, v);
  Value sHi = m.clearLowWord(ss);
  // t_h = x + bp, high part, from the bits.
  Value tHigh =
      m.iadd(m.iadd(m.ior(m.shrs(normalizedHigh, 1), 0x20000000), 0x00080000),
             m.iselect(useOneHalf, 1 << 18, m.icst(0)));
  Value tHi = m.fromHighWord(tHigh);
  Value tLo = m.sub(x, m.sub(tHi, bp));
  Value sLo = m.mul(v, m.sub(m.sub(u, m.mul(sHi, tHi)), m.mul(sHi, tLo)));
  // log(x).
  Value s2 = m.mul(ss, ss);
  Value r = m.mul(m.mul(s2, s2), m.poly(s2, kPowL));
  r = m.add(r, m.mul(sLo, m.add(sHi, ss)));
  s2 = m.mul(sHi, sHi);
  Value t3Hi = m.clearLowWord(m.add(m.add(m.cst(3.0), s2), r));
  Value t3Lo = m.sub(r, m.sub(m.sub(t3Hi, m.cst(3.0)), s2));
  // u + v = s*(1 + ...).
  Value uu = m.mul(sHi, t3Hi);
  Value vv = m.add(m.mul(sLo, t3Hi), m.mul(t3Lo, ss));
  // 2/(3 log2)*(s + ...).
  Value pHi = m.clearLowWord(m.add(uu, vv));
  Value pLo = m.sub(vv, m.sub(pHi, uu));
  Value zHi = m.mul(m.cst(kPowCpHi), pHi);
  Value zLo = m.add(
      m.add(m.mul(m.cst(kPowCpLo), pHi), m.mul(pLo, m.cst(kPowCp))), dpLo);
  // log2(ax) = n + dp_h + z_h + z_l.
  Value t = m.toFloat(n);
  Value t1 = m.clearLowWord(m.add(m.add(m.add(zHi, zLo), dpHi), t));
  Value t2 = m.sub(zLo, m.sub(m.sub(m.sub(t1, t), dpHi), zHi));
  return {t1, t2};
}

/// Whether y (finite) is an integer, and an odd one.
std::pair<Value, Value> classifyInteger(F64Builder &m, Value y) {
  Value isInteger = m.both(m.isFinite(y), m.eq(m.floor(y), y));
  Value half = m.mul(y, m.cst(0.5));
  Value isOdd = m.both(m.both(isInteger, m.lt(m.abs(y), 0x1p53)),
                       m.ne(m.floor(half), half));
  return {isInteger, isOdd};
}

/// x^y as C99 (and NumPy) define it; `yIsOdd` says whether y is an odd
/// integer (fpowi knows it from the integer).
Value buildPow(F64Builder &m, Value x, Value y, Value yIsInteger,
               Value yIsOdd) {
  Value zero = m.cst(0.0), one = m.cst(1.0), inf = m.inf();
  Value ax = m.abs(x);
  Value axFinite = m.select(m.both(m.gt(ax, 0.0), m.lt(ax, inf)), ax, one);
  // |y| > 2^64 over- or underflows unless |x| == 1, which is special.
  Value yFinite = m.clamp(withoutNaN(m, y), -0x1p64, 0x1p64);

  // log2|x| as t1 + t2 (to about 2^-72 relative). Unlike e_pow.c, also
  // for |y| > 2^31 and x near 1: its series there loses up to 2^-53.
  auto [t1, t2] = log2Extended(m, axFinite);

  // y*log2|x| = p_h + p_l: y split so that y1*t1 is exact.
  Value y1 = m.clearLowWord(yFinite);
  Value pLo = m.add(m.mul(m.sub(yFinite, y1), t1), m.mul(yFinite, t2));
  Value pHi = m.mul(y1, t1);
  Value z = m.add(pLo, pHi);
  Value overflow =
      m.either(m.gt(z, 1024.0),
               m.both(m.eq(z, 1024.0), m.gt(m.add(pLo, m.cst(kPowOverflowTail)),
                                            m.sub(z, pHi))));
  Value underflow = m.either(
      m.lt(z, -1075.0), m.both(m.eq(z, -1075.0), m.le(pLo, m.sub(z, pHi))));

  // 2^(p_h + p_l) = 2^n * 2^(p_h - n + p_l).
  Value nf = m.roundEven(m.clamp(z, -1100.0, 1100.0));
  Value mantissa = exp2Kernel(m, m.sub(pHi, nf), pLo);
  Value result = scaleByPowerOfTwo(m, mantissa, m.toInt(nf));
  result = m.select(overflow, inf, result);
  result = m.select(underflow, zero, result);
  Value negative = m.both(m.lt(x, 0.0), yIsOdd);
  result = m.select(negative, m.neg(result), result);

  // Exact special values of y (e_pow.c): x, 1/x, x*x, sqrt(x).
  result = m.select(m.both(m.eq(y, 0.5), m.logicalNot(m.signBit(x))), m.sqrt(x),
                    result);
  result = m.select(m.eq(y, 2.0), m.mul(x, x), result);
  result = m.select(m.eq(y, -1.0), m.div(one, x), result);
  result = m.select(m.eq(y, 1.0), x, result);

  // (x < 0) ** non-integer is NaN.
  Value xNegativeFinite = m.both(m.lt(x, 0.0), m.isFinite(x));
  result = m.select(
      m.both(xNegativeFinite, m.both(m.isFinite(y), m.logicalNot(yIsInteger))),
      m.nan(), result);
  // x = +-0: +-0 or +0 for y > 0, +-inf or +inf for y < 0.
  Value yNegative = m.lt(y, 0.0);
  Value zeroResult =
      m.select(yNegative, m.select(yIsOdd, m.copySign(inf, x), inf),
               m.select(yIsOdd, x, zero));
  result = m.select(m.eq(x, 0.0), zeroResult, result);
  // x = +-inf: the reciprocal of the x = +-0 case.
  Value infResult =
      m.select(yNegative, m.select(yIsOdd, m.copySign(zero, x), zero),
               m.select(yIsOdd, x, inf));
  result = m.select(m.isInf(x), infResult, result);
  // y = +-inf: 1 for |x| == 1, else 0 or inf.
  Value yInfResult =
      m.select(m.eq(ax, 1.0), one,
               m.select(m.gt(ax, 1.0), m.select(m.gt(y, 0.0), inf, zero),
                        m.select(m.gt(y, 0.0), zero, inf)));
  result = m.select(m.isInf(y), yInfResult, result);
  result = m.select(m.either(m.isNaN(x), m.isNaN(y)), m.nan(), result);
  // 1 ** anything and anything ** 0 are 1, even NaN.
  return m.select(m.either(m.eq(x, 1.0), m.eq(y, 0.0)), one, result);
}

Value expandPowF(F64Builder &m, Value x, Value y) {
  auto [isInteger, isOdd] = classifyInteger(m, y);
  return buildPow(m, x, y, isInteger, isOdd);
}

//===----------------------------------------------------------------------===//
// sin, cos, tan (e_rem_pio2.c, k_sin.c, k_cos.c, k_tan.c)
//===----------------------------------------------------------------------===//

constexpr double kInvPio2 = 6.36619772367581382433e-01; // 0x3FE45F306DC9C883
constexpr double kPio2_1 = 1.57079632673412561417e+00;  // 0x3FF921FB54400000
constexpr double kPio2_1t = 6.07710050650619224932e-11; // 0x3DD0B4611A626331
constexpr double kPio2_2 = 6.07710050630396597660e-11;  // 0x3DD0B4611A600000
constexpr double kPio2_2t = 2.02226624879595063154e-21; // 0x3BA3198A2E037073
constexpr double kPio2_3 = 2.02226624871116645580e-21;  // 0x3BA3198A2E000000
constexpr double kPio2_3t = 8.47842766036889956997e-32; // 0x397B839A252049C1
constexpr double kPio2Hi = 1.57079632679489655800e+00;  // 0x3FF921FB54442D18
constexpr double kPio2Lo = 6.12323399573676603587e-17;  // 0x3C91A62633145C07

/// x = n*pi/2 + y0 + y1, |y0 + y1| <= ~pi/4, n mod 4 as an f64 in {0, 1,
/// 2, 3}.
struct TrigReduction {
  Value y0, y1, quadrant;
};

/// The biased exponent of x.
Value exponentField(F64Builder &m, Value x) {
  return m.iand(m.shrs(m.toBits(x), 52), 0x7ff);
}

/// e_rem_pio2.c for |x| <= 2^20*pi/2: pi/2 in 33-bit parts (n*pio2_i is
/// exact), a second and third part where the first one cancelled. x is
/// finite.
TrigReduction reduceByHalfPi(F64Builder &m, Value x) {
  using arith::CmpIPredicate;
  Value fn = m.roundEven(m.mul(x, m.cst(kInvPio2)));
  // First round, good to 85 bits.
  Value r1 = m.sub(x, m.mul(fn, m.cst(kPio2_1)));
  Value w1 = m.mul(fn, m.cst(kPio2_1t));
  // Second round, good to 118 bits.
  Value p2 = m.mul(fn, m.cst(kPio2_2));
  Value r2 = m.sub(r1, p2);
  Value w2 = m.sub(m.mul(fn, m.cst(kPio2_2t)), m.sub(m.sub(r1, r2), p2));
  // Third round, 151 bits.
  Value p3 = m.mul(fn, m.cst(kPio2_3));
  Value r3 = m.sub(r2, p3);
  Value w3 = m.sub(m.mul(fn, m.cst(kPio2_3t)), m.sub(m.sub(r2, r3), p3));
  // A later round where the result lost more than 16 (49) bits to
  // cancellation.
  Value exponent = exponentField(m, x);
  Value lost1 = m.isub(exponent, exponentField(m, m.sub(r1, w1)));
  Value lost2 = m.isub(exponent, exponentField(m, m.sub(r2, w2)));
  Value second = m.icmp(CmpIPredicate::sgt, lost1, 16);
  Value third = m.both(second, m.icmp(CmpIPredicate::sgt, lost2, 49));
  Value r = m.select(third, r3, m.select(second, r2, r1));
  Value w = m.select(third, w3, m.select(second, w2, w1));
  Value y0 = m.sub(r, w);
  Value y1 = m.sub(m.sub(r, y0), w);
  Value quadrant =
      m.sub(fn, m.mul(m.cst(4.0), m.floor(m.mul(fn, m.cst(0.25)))));
  return {y0, y1, quadrant};
}

/// The bits of 2/pi after the binary point, 64 to a word (fdlibm's ipio2
/// table of e_rem_pio2.c as 64-bit words), preceded by a zero word so that
/// a window may start up to 64 bits before the binary point.
constexpr uint64_t kTwoOverPiBits[] = {
    0x0000000000000000, 0xA2F9836E4E441529, 0xFC2757D1F534DDC0,
    0xDB6295993C439041, 0xFE5163ABDEBBC561, 0xB7246E3A424DD2E0,
    0x06492EEA09D1921C, 0xFE1DEB1CB129A73E, 0xE88235F52EBB4484,
    0xE99C7026B45F7E41, 0x3991D639835339F4, 0x9C845F8BBDF9283B,
    0x1FF897FFDE05980F, 0xEF2F118B5A0A6D1F, 0x6D367ECF27CB09B7,
    0x4F463F669E5FEA2D, 0x7527BAC7EBE5F17B, 0x3D0739F78A5292EA,
    0x6BFB5FB11F8D5D08, 0x56033046FC7B6BAB,
};

/// a*b = p + e exactly (Dekker's product with Veltkamp's splitting; the
/// SPIR-V lowering keeps each operation separately rounded).
std::pair<Value, Value> twoProduct(F64Builder &m, Value a, Value b) {
  auto split = [&](Value v) {
    Value t = m.mul(v, m.cst(134217729.0)); // 2^27 + 1
    Value hi = m.sub(t, m.sub(t, v));
    return std::make_pair(hi, m.sub(v, hi));
  };
  auto [aHi, aLo] = split(a);
  auto [bHi, bLo] = split(b);
  Value p = m.mul(a, b);
  Value e = m.add(
      m.add(m.add(m.sub(m.mul(aHi, bHi), p), m.mul(aHi, bLo)), m.mul(aLo, bHi)),
      m.mul(aLo, bLo));
  return {p, e};
}

/// Payne-Hanek reduction of a finite |x| >= 2^20*pi/2: x = m*2^e with a
/// 53-bit integer m; the bits of 2/pi that make m*2^e*(2/pi) a multiple of
/// 4 are skipped, the next 192 bits F multiplied by m modulo 2^192 (as 32-bit
/// limbs): frac(x*2/pi/4) to 2^-139, whose top 2 bits are the quadrant and
/// the rest the reduced argument over pi/2, rounded to the nearest
/// quadrant and multiplied by pi/2 in double-double.
TrigReduction reduceLargeByHalfPi(F64Builder &m, Value x) {
  using arith::CmpIPredicate;
  Value bits = m.iand(m.toBits(x), 0x7fffffffffffffff);
  Value mantissa = m.ior(m.iand(bits, 0x000fffffffffffff), 0x0010000000000000);
  // e = exponent - 1075; the window starts after bit j = e - 2 of 2/pi,
  // at bit j + 64 of the table.
  Value start = m.iadd(m.shru(bits, 52), -1075 - 2 + 64);
  Value word = m.shru(start, 6);
  Value shift = m.iand(start, 63);
  constexpr int64_t tableSize = std::size(kTwoOverPiBits);
  SmallVector<Value> isWord;
  for (int64_t i = 0; i < tableSize; ++i)
    isWord.push_back(m.icmp(CmpIPredicate::eq, word, i));
  auto tableWord = [&](int64_t offset) {
    Value value = m.icst(0);
    for (int64_t i = 0; i + offset < tableSize; ++i)
      value = m.select(isWord[i], m.icst(kTwoOverPiBits[i + offset]), value);
    return value;
  };
  Value t0 = tableWord(0), t1 = tableWord(1), t2 = tableWord(2),
        t3 = tableWord(3);
  // (hi << shift) | (lo >> (64 - shift)), for shift 0 too.
  Value backShift = m.isub(m.icst(63), shift);
  auto window = [&](Value hi, Value lo) {
    return m.ior(m.shl(hi, shift), m.shru(m.shru(lo, 1), backShift));
  };
  Value f2 = window(t0, t1), f1 = window(t1, t2), f0 = window(t2, t3);
  // F as six 32-bit limbs, least significant first; m as two.
  Value mask = m.icst(0xffffffff);
  auto low = [&](Value v) { return m.iand(v, mask); };
  auto high = [&](Value v) { return m.shru(v, 32); };
  Value a[6] = {low(f0), high(f0), low(f1), high(f1), low(f2), high(f2)};
  Value mLo = low(mantissa), mHi = high(mantissa);
  // r = m*F mod 2^192, column by column with carries.
  Value r[6];
  Value carry = m.icst(0);
  Value previousLo, previousHi; // products of limb c - 1
  Value beforeHi;               // mHi*a[c - 2]
  for (int c = 0; c < 6; ++c) {
    Value productLo = m.imul(mLo, a[c]);
    Value sum = m.iadd(low(productLo), carry);
    if (c >= 1) {
      sum = m.iadd(sum, high(previousLo));
      sum = m.iadd(sum, low(previousHi));
    }
    if (c >= 2)
      sum = m.iadd(sum, high(beforeHi));
    r[c] = low(sum);
    carry = m.shru(sum, 32);
    beforeHi = previousHi;
    previousLo = productLo;
    previousHi = m.imul(mHi, a[c]);
  }
  // 4*frac = quadrant + f; f >= 1/2 rounds to the next quadrant, f - 1.
  Value top = r[5];
  Value quadrant =
      m.iand(m.iadd(m.shru(top, 30), m.iand(m.shru(top, 29), 1)), 3);
  // f*2^190 as a signed 192-bit number: (r << 2) mod 2^192, limbs exact
  // in f64, summed with their rounding errors kept.
  Value hi, lo = m.cst(0.0);
  for (int c = 5; c >= 0; --c) {
    Value limb =
        low(m.ior(m.shl(r[c], 2), c > 0 ? m.shru(r[c - 1], 30) : m.icst(0)));
    if (c == 5) // the sign limb
      limb = m.select(m.icmp(CmpIPredicate::sge, limb, 0x80000000),
                      m.isub(limb, m.icst(0x100000000)), limb);
    Value value = m.mul(m.toFloat(limb), m.cst(std::ldexp(1.0, 32 * c - 192)));
    if (c == 5) {
      hi = value;
      continue;
    }
    Value sum = m.add(hi, value);
    lo = m.add(lo, twoSumError(m, hi, value, sum));
    hi = sum;
  }
  // y = (hi + lo)*pi/2.
  auto [p, e] = twoProduct(m, hi, m.cst(kPio2Hi));
  Value tail =
      m.add(e, m.add(m.mul(hi, m.cst(kPio2Lo)), m.mul(lo, m.cst(kPio2Hi))));
  Value y0 = m.add(p, tail);
  Value y1 = m.sub(tail, m.sub(y0, p));
  // Negative x: -y in quadrant -n.
  Value negative = m.signBit(x);
  Value n =
      m.select(negative, m.iand(m.isub(m.icst(4), quadrant), 3), quadrant);
  return {m.select(negative, m.neg(y0), y0), m.select(negative, m.neg(y1), y1),
          m.toFloat(n)};
}

constexpr double kSinS[] = {
    -1.66666666666666324348e-01, // 0xBFC5555555555549
    8.33333333332248946124e-03,  // 0x3F8111111110F8A6
    -1.98412698298579493134e-04, // 0xBF2A01A019C161D5
    2.75573137070700676789e-06,  // 0x3EC71DE357B1FE7D
    -2.50507602534068634195e-08, // 0xBE5AE5E68A2B9CEB
    1.58969099521155010221e-10,  // 0x3DE5D93A5ACFD57C
};

/// sin(x + y) on [-pi/4, pi/4] (k_sin.c with a tail y):
/// x - ((z*(y/2 - v*r) - y) - v*S1).
Value sinKernel(F64Builder &m, Value x, Value y) {
  Value z = m.mul(x, x);
  Value v = m.mul(z, x);
  Value r = m.poly(z, ArrayRef<double>(kSinS).drop_front());
  Value inner = m.sub(m.mul(z, m.sub(m.mul(m.cst(0.5), y), m.mul(v, r))), y);
  return m.sub(x, m.sub(inner, m.mul(v, m.cst(kSinS[0]))));
}

constexpr double kCosC[] = {
    4.16666666666666019037e-02,  // 0x3FA555555555554C
    -1.38888888888741095749e-03, // 0xBF56C16C16C15177
    2.48015872894767294178e-05,  // 0x3EFA01A019CB1590
    -2.75573143513906633035e-07, // 0xBE927E4F809C52AD
    2.08757232129817482790e-09,  // 0x3E21EE9EBDB4B1C4
    -1.13596475577881948265e-11, // 0xBDA8FAE9BE8838D4
};

/// cos(x + y) on [-pi/4, pi/4] (k_cos.c): (1 - qx) - ((z/2 - qx) - (z*r -
/// x*y)) with qx = 0, |x|/4 (20 bits) or 0.28125, which keeps both
/// subtractions exact.
Value cosKernel(F64Builder &m, Value x, Value y) {
  Value z = m.mul(x, x);
  Value r = m.mul(z, m.poly(z, kCosC));
  Value ax = m.abs(x);
  Value quarter = m.fromHighWord(m.iadd(m.highWord(ax), -0x00200000));
  Value qx = m.select(
      m.lt(ax, m.cstBits(0x3FD3333300000000)), 0.0,
      m.select(m.ge(ax, m.cstBits(0x3fe9000100000000)), 0.28125, quarter));
  Value hz = m.sub(m.mul(m.cst(0.5), z), qx);
  Value a = m.sub(m.cst(1.0), qx);
  return m.sub(a, m.sub(hz, m.sub(m.mul(z, r), m.mul(x, y))));
}

constexpr double kPio4 = 7.85398163397448278999e-01;   // 0x3FE921FB54442D18
constexpr double kPio4Lo = 3.06161699786838301793e-17; // 0x3C81A62633145C07
constexpr double kTanT[] = {
    3.33333333333334091986e-01,  // 0x3FD5555555555563
    1.33333333333201242699e-01,  // 0x3FC111111110FE7A
    5.39682539762260521377e-02,  // 0x3FABA1BA1BB341FE
    2.18694882948595424599e-02,  // 0x3F9664F48406D637
    8.86323982359930005737e-03,  // 0x3F8226E3E96E8493
    3.59207910759131235356e-03,  // 0x3F6D6D22C9560328
    1.45620945432529025516e-03,  // 0x3F57DBC8FEE08315
    5.88041240820264096874e-04,  // 0x3F4344D8F2F26501
    2.46463134818469906812e-04,  // 0x3F3026F71A8D1068
    7.81794442939557092300e-05,  // 0x3F147E88A03792A6
    7.14072491382608190305e-05,  // 0x3F12B80F32F0A7E9
    -1.85586374855275456654e-05, // 0xBEF375CBDB605373
    2.59073051863633712884e-05,  // 0x3EFB2A7074BF7AD4
};

/// tan(x + y) where `odd` is false, -1/tan(x + y) where it is true, on
/// [-pi/4, pi/4] (k_tan.c, 2004).
Value tanKernel(F64Builder &m, Value x, Value y, Value odd) {
  // |x| >= 0.6744: tan(pi/4 - |x|).
  Value big = m.ge(m.abs(x), m.cstBits(0x3FE5942800000000));
  Value negative = m.lt(x, 0.0);
  Value ax = m.select(negative, m.neg(x), x);
  Value ay = m.select(negative, m.neg(y), y);
  Value reflected = m.add(m.sub(m.cst(kPio4), ax), m.sub(m.cst(kPio4Lo), ay));
  x = m.select(big, reflected, x);
  y = m.select(big, 0.0, y);

  Value z = m.mul(x, x);
  Value w = m.mul(z, z);
  Value r =
      m.poly(w, {kTanT[1], kTanT[3], kTanT[5], kTanT[7], kTanT[9], kTanT[11]});
  Value v = m.mul(z, m.poly(w, {kTanT[2], kTanT[4], kTanT[6], kTanT[8],
                                kTanT[10], kTanT[12]}));
  Value s = m.mul(z, x);
  r = m.add(y, m.mul(z, m.add(m.mul(s, m.add(r, v)), y)));
  r = m.add(r, m.mul(m.cst(kTanT[0]), s));
  w = m.add(x, r);

  // |x| >= 0.6744: (1 - 2*(x - (w^2/(w + v) - r))) with v = +-1, signed.
  Value iy = m.select(odd, -1.0, m.cst(1.0));
  Value reflectedResult =
      m.sub(iy, m.mul(m.cst(2.0),
                      m.sub(x, m.sub(m.div(m.mul(w, w), m.add(w, iy)), r))));
  reflectedResult = m.select(negative, m.neg(reflectedResult), reflectedResult);
  // -1/(x + r) accurately: w = z + v with a 21-bit z, a = -1/w with a
  // 21-bit t.
  Value zHi = m.clearLowWord(w);
  Value vLo = m.sub(r, m.sub(zHi, x));
  Value a = m.div(m.cst(-1.0), w);
  Value t = m.clearLowWord(a);
  Value sCorr = m.add(m.cst(1.0), m.mul(t, zHi));
  Value inverse = m.add(t, m.mul(a, m.add(sCorr, m.mul(t, vLo))));
  return m.select(big, reflectedResult, m.select(odd, inverse, w));
}

/// The reduction of x, and where the result is replaced: NaN for NaN and
/// infinities, x where |x| < 2^-27 (sin and tan).
struct TrigArgument {
  TrigReduction reduced;
  Value invalid; // i1
  Value tiny;    // i1
};

/// e_rem_pio2.c's medium reduction, and Payne-Hanek's beyond 2^20*pi/2:
/// for a scalar only where some work-item needs it (scf.if), for a vector
/// always.
TrigArgument reduceTrigArgument(F64Builder &m, Value x) {
  Value invalid = m.logicalNot(m.isFinite(x));
  Value xs = m.select(invalid, 0.0, x);
  TrigReduction medium = reduceByHalfPi(m, xs);
  Value large = m.ge(m.abs(xs), m.cstBits(0x413921FC00000000));
  TrigReduction reduced;
  if (isa<VectorType>(xs.getType())) {
    TrigReduction big = reduceLargeByHalfPi(m, xs);
    reduced = {m.select(large, big.y0, medium.y0),
               m.select(large, big.y1, medium.y1),
               m.select(large, big.quadrant, medium.quadrant)};
  } else {
    OpBuilder &b = m.getBuilder();
    Type type = xs.getType();
    auto ifOp = scf::IfOp::create(b, m.getLoc(), TypeRange{type, type, type},
                                  large, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    TrigReduction big = reduceLargeByHalfPi(m, xs);
    scf::YieldOp::create(b, m.getLoc(),
                         ValueRange{big.y0, big.y1, big.quadrant});
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, m.getLoc(),
                         ValueRange{medium.y0, medium.y1, medium.quadrant});
    reduced = {ifOp.getResult(0), ifOp.getResult(1), ifOp.getResult(2)};
  }
  return {reduced, invalid, m.lt(m.abs(x), 0x1p-27)};
}

/// sin (n even) or cos (n odd) by quadrant: k_sin or k_cos with the sign
/// of the quadrant.
std::pair<Value, Value> sinAndCos(F64Builder &m, const TrigReduction &r) {
  Value sine = sinKernel(m, r.y0, r.y1);
  Value cosine = cosKernel(m, r.y0, r.y1);
  Value q1 = m.eq(r.quadrant, 1.0), q2 = m.eq(r.quadrant, 2.0),
        q3 = m.eq(r.quadrant, 3.0);
  Value sinResult = m.select(
      q1, cosine, m.select(q2, m.neg(sine), m.select(q3, m.neg(cosine), sine)));
  Value cosResult = m.select(
      q1, m.neg(sine), m.select(q2, m.neg(cosine), m.select(q3, sine, cosine)));
  return {sinResult, cosResult};
}

Value finishSin(F64Builder &m, Value x, const TrigArgument &arg, Value result) {
  result = m.select(arg.tiny, x, result);
  result = m.select(arg.invalid, m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

Value finishCos(F64Builder &m, Value x, const TrigArgument &arg, Value result) {
  result = m.select(arg.invalid, m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

Value expandSin(F64Builder &m, Value x) {
  TrigArgument arg = reduceTrigArgument(m, x);
  return finishSin(m, x, arg, sinAndCos(m, arg.reduced).first);
}

Value expandCos(F64Builder &m, Value x) {
  TrigArgument arg = reduceTrigArgument(m, x);
  return finishCos(m, x, arg, sinAndCos(m, arg.reduced).second);
}

Value expandTan(F64Builder &m, Value x) {
  TrigArgument arg = reduceTrigArgument(m, x);
  Value odd = m.either(m.eq(arg.reduced.quadrant, 1.0),
                       m.eq(arg.reduced.quadrant, 3.0));
  Value result = tanKernel(m, arg.reduced.y0, arg.reduced.y1, odd);
  return finishSin(m, x, arg, result);
}

//===----------------------------------------------------------------------===//
// atan, atan2, asin, acos (s_atan.c, e_atan2.c, e_asin.c, e_acos.c)
//===----------------------------------------------------------------------===//

constexpr double kAtanHi[] = {
    4.63647609000806093515e-01, // atan(0.5)hi 0x3FDDAC670561BB4F
    7.85398163397448278999e-01, // atan(1.0)hi 0x3FE921FB54442D18
    9.82793723247329054082e-01, // atan(1.5)hi 0x3FEF730BD281F69B
    1.57079632679489655800e+00, // atan(inf)hi 0x3FF921FB54442D18
};
constexpr double kAtanLo[] = {
    2.26987774529616870924e-17, // atan(0.5)lo 0x3C7A2B7F222F65E2
    3.06161699786838301793e-17, // atan(1.0)lo 0x3C81A62633145C07
    1.39033110312309984516e-17, // atan(1.5)lo 0x3C7007887AF0CBBD
    6.12323399573676603587e-17, // atan(inf)lo 0x3C91A62633145C07
};
constexpr double kAtanT[] = {
    3.33333333333329318027e-01,  // 0x3FD555555555550D
    -1.99999999998764832476e-01, // 0xBFC999999998EBC4
    1.42857142725034663711e-01,  // 0x3FC24924920083FF
    -1.11111104054623557880e-01, // 0xBFBC71C6FE231671
    9.09088713343650656196e-02,  // 0x3FB745CDC54C206E
    -7.69187620504482999495e-02, // 0xBFB3B0F2AF749A6D
    6.66107313738753120669e-02,  // 0x3FB10D66A0D03D51
    -5.83357013379057348645e-02, // 0xBFADDE2D52DEFD9A
    4.97687799461593236017e-02,  // 0x3FA97B4B24760DEB
    -3.65315727442169155270e-02, // 0xBFA2B4442C6A6C2F
    1.62858201153657823623e-02,  // 0x3F90AD3AE322DA11
};

/// atan(t) for t >= 0 (not NaN; inf gives pi/2): s_atan.c's reduction to
/// one of [0, 7/16), atan(1/2), atan(1), atan(3/2), atan(inf) plus a
/// small argument, and its polynomial.
Value atanOfNonNegative(F64Builder &m, Value t) {
  Value one = m.cst(1.0), zero = m.cst(0.0);
  Value id0 = m.ge(t, 0.4375), id1 = m.ge(t, 0.6875), id2 = m.ge(t, 1.1875),
        id3 = m.ge(t, 2.4375);
  // (2t - 1)/(2 + t), (t - 1)/(t + 1), (t - 1.5)/(1 + 1.5t), -1/t.
  Value numerator = m.select(
      id3, -1.0,
      m.select(id2, m.sub(t, m.cst(1.5)),
               m.select(id1, m.sub(t, one),
                        m.select(id0, m.sub(m.mul(m.cst(2.0), t), one), t))));
  Value denominator =
      m.select(id3, t,
               m.select(id2, m.add(one, m.mul(m.cst(1.5), t)),
                        m.select(id1, m.add(t, one),
                                 m.select(id0, m.add(m.cst(2.0), t), one))));
  Value x = m.div(numerator, denominator);
  auto pick = [&](ArrayRef<double> values) {
    return m.select(
        id3, values[3],
        m.select(id2, values[2],
                 m.select(id1, values[1], m.select(id0, values[0], zero))));
  };
  Value hi = pick(kAtanHi), lo = pick(kAtanLo);
  Value z = m.mul(x, x);
  Value w = m.mul(z, z);
  Value s1 = m.mul(z, m.poly(w, {kAtanT[0], kAtanT[2], kAtanT[4], kAtanT[6],
                                 kAtanT[8], kAtanT[10]}));
  Value s2 = m.mul(
      w, m.poly(w, {kAtanT[1], kAtanT[3], kAtanT[5], kAtanT[7], kAtanT[9]}));
  Value s = m.add(s1, s2);
  // t < 7/16: x - x*(s1 + s2); else hi - ((x*(s1 + s2) - lo) - x).
  return m.select(id0, m.sub(hi, m.sub(m.sub(m.mul(x, s), lo), x)),
                  m.sub(x, m.mul(x, s)));
}

Value expandAtan(F64Builder &m, Value x) {
  Value t = m.abs(withoutNaN(m, x));
  Value result = m.copySign(atanOfNonNegative(m, t), x);
  return m.select(m.isNaN(x), x, result);
}

constexpr double kPiO4 = 7.8539816339744827900e-01; // 0x3FE921FB54442D18
constexpr double kPiO2 = 1.5707963267948965580e+00; // 0x3FF921FB54442D18
constexpr double kPi = 3.1415926535897931160e+00;   // 0x400921FB54442D18
constexpr double kPiLo = 1.2246467991473531772e-16; // 0x3CA1A62633145C07

/// atan2(y, x) (e_atan2.c): atan(|y/x|) in the quadrant of (x, y).
Value expandAtan2(F64Builder &m, Value y, Value x) {
  Value ax = m.abs(x), ay = m.abs(y);
  Value zero = m.cst(0.0);
  // |y/x| where it is defined; the special cases below replace the rest.
  Value ratio =
      m.select(m.either(m.eq(ay, 0.0), m.isInf(ax)), zero, m.div(ay, ax));
  ratio = m.select(m.either(m.isNaN(ratio), m.eq(ax, 0.0)), zero, ratio);
  Value z = atanOfNonNegative(m, ratio);
  Value xNegative = m.signBit(x);
  Value result =
      m.select(xNegative,
               m.select(m.signBit(y), m.sub(m.sub(z, m.cst(kPiLo)), m.cst(kPi)),
                        m.sub(m.cst(kPi), m.sub(z, m.cst(kPiLo)))),
               m.select(m.signBit(y), m.neg(z), z));
  // x = +-0 or y = +-inf (x finite): +-pi/2.
  Value halfPi = m.copySign(m.cst(kPiO2), y);
  result = m.select(
      m.both(m.logicalNot(m.eq(ay, 0.0)),
             m.either(m.eq(ax, 0.0), m.both(m.isInf(y), m.isFinite(x)))),
      halfPi, result);
  // Both infinite: +-pi/4 or +-3pi/4.
  Value corner = m.select(xNegative, 3.0 * kPiO4, m.cst(kPiO4));
  result =
      m.select(m.both(m.isInf(x), m.isInf(y)), m.copySign(corner, y), result);
  return m.select(m.either(m.isNaN(x), m.isNaN(y)), m.nan(), result);
}

constexpr double kPio4Hi = 7.85398163397448278999e-01; // 0x3FE921FB54442D18
constexpr double kAsinP[] = {
    1.66666666666666657415e-01,  // 0x3FC5555555555555
    -3.25565818622400915405e-01, // 0xBFD4D61203EB6F7D
    2.01212532134862925881e-01,  // 0x3FC9C1550E884455
    -4.00555345006794114027e-02, // 0xBFA48228B5688F3B
    7.91534994289814532176e-04,  // 0x3F49EFE07501B288
    3.47933107596021167570e-05,  // 0x3F023DE10DFDF709
};
constexpr double kAsinQ[] = {
    1.0,
    -2.40339491173441421878e+00, // 0xC0033A271C8A2D4B
    2.02094576023350569471e+00,  // 0x40002AE59C598AC8
    -6.88283971605453293030e-01, // 0xBFE6066C1B8D0159
    7.70381505559019352791e-02,  // 0x3FB3B8C5B12E9282
};

/// R(z) of e_asin.c/e_acos.c: (asin(x) - x)/x^3 ~ R(x^2).
Value asinRational(F64Builder &m, Value z) {
  Value p = m.mul(z, m.poly(z, kAsinP));
  Value q = m.poly(z, kAsinQ);
  return m.div(p, q);
}

Value expandAsin(F64Builder &m, Value x) {
  Value ax = m.abs(x);
  Value axs = m.select(m.le(ax, 1.0), ax, m.cst(0.0)); // not NaN, <= 1
  Value small = m.lt(axs, 0.5);
  // |x| < 0.5: z = x^2; else z = (1 - |x|)/2.
  Value w = m.sub(m.cst(1.0), axs);
  Value z = m.select(small, m.mul(axs, axs), m.mul(w, m.cst(0.5)));
  Value r = asinRational(m, z);
  Value smallResult = m.add(x, m.mul(x, r));
  // |x| >= 0.5: pi/2 - 2*asin(sqrt(z)).
  Value s = m.sqrt(z);
  Value nearOne =
      m.sub(m.cst(kPio2Hi),
            m.sub(m.mul(m.cst(2.0), m.add(s, m.mul(s, r))), m.cst(kPio2Lo)));
  Value f = m.clearLowWord(s);
  Value c = m.div(m.sub(z, m.mul(f, f)), m.add(s, f));
  Value p = m.sub(m.mul(m.mul(m.cst(2.0), s), r),
                  m.sub(m.cst(kPio2Lo), m.mul(m.cst(2.0), c)));
  Value q = m.sub(m.cst(kPio4Hi), m.mul(m.cst(2.0), f));
  Value middle = m.sub(m.cst(kPio4Hi), m.sub(p, q));
  Value large =
      m.select(m.ge(axs, m.cstBits(0x3FEF333300000000)), nearOne, middle);
  Value result = m.select(small, smallResult, m.copySign(large, x));
  result = m.select(m.gt(ax, 1.0), m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

Value expandAcos(F64Builder &m, Value x) {
  Value one = m.cst(1.0);
  Value xs = m.select(m.le(m.abs(x), 1.0), x, m.cst(0.0)); // not NaN
  Value small = m.lt(m.abs(xs), 0.5);
  Value negative = m.lt(xs, 0.0);
  // |x| < 0.5: z = x^2; x < -0.5: (1 + x)/2; x > 0.5: (1 - x)/2.
  Value z = m.select(
      small, m.mul(xs, xs),
      m.mul(m.select(negative, m.add(one, xs), m.sub(one, xs)), m.cst(0.5)));
  Value r = asinRational(m, z);
  Value smallResult =
      m.sub(m.cst(kPio2Hi), m.sub(xs, m.sub(m.cst(kPio2Lo), m.mul(xs, r))));
  Value s = m.sqrt(z);
  // x < -0.5: pi - 2*(s + (r*s - pio2_lo)).
  Value negativeResult =
      m.sub(m.cst(kPi),
            m.mul(m.cst(2.0), m.add(s, m.sub(m.mul(r, s), m.cst(kPio2Lo)))));
  // x > 0.5: 2*(df + (r*s + c)), df + c = sqrt(z).
  Value df = m.clearLowWord(s);
  Value c = m.div(m.sub(z, m.mul(df, df)), m.add(s, df));
  Value positiveResult = m.mul(m.cst(2.0), m.add(df, m.add(m.mul(r, s), c)));
  Value result = m.select(small, smallResult,
                          m.select(negative, negativeResult, positiveResult));
  result = m.select(m.eq(x, 1.0), 0.0, result);
  result = m.select(m.gt(m.abs(x), 1.0), m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

//===----------------------------------------------------------------------===//
// sinh, cosh, tanh (e_sinh.c, e_cosh.c, s_tanh.c)
//===----------------------------------------------------------------------===//

Value expandSinh(F64Builder &m, Value x) {
  Value t = m.abs(withoutNaN(m, x));
  Value one = m.cst(1.0);
  // |x| < 22: (E + E/(E + 1))/2 with E = expm1(|x|), E*E/(E + 1) below 1.
  Value e = expandExpm1(m, m.select(m.lt(t, 22.0), t, m.cst(0.0)));
  Value ePlusOne = m.add(e, one);
  Value below1 = m.sub(m.mul(m.cst(2.0), e), m.div(m.mul(e, e), ePlusOne));
  Value below22 = m.add(e, m.div(e, ePlusOne));
  Value smallResult =
      m.mul(m.cst(0.5), m.select(m.lt(t, 1.0), below1, below22));
  // |x| >= 22: exp(|x|)/2, scaled by 2^(k-1) so that it does not overflow
  // before exp(|x|) does.
  ExpParts parts = expParts(m, t);
  Value largeResult =
      scaleByPowerOfTwo(m, parts.mantissa, m.iadd(parts.exponent, -1));
  Value result = m.select(m.lt(t, 22.0), smallResult, largeResult);
  result = m.copySign(result, x);
  // |x| < 2^-28: x.
  result = m.select(m.lt(m.abs(x), 0x1p-28), x, result);
  return m.select(m.isNaN(x), x, result);
}

Value expandCosh(F64Builder &m, Value x) {
  Value t = m.abs(withoutNaN(m, x));
  Value one = m.cst(1.0), half = m.cst(0.5);
  // |x| < ln2/2: 1 + E^2/(2(1 + E)) with E = expm1(|x|).
  Value e = expandExpm1(m, m.select(m.lt(t, 0.5), t, m.cst(0.0)));
  Value w = m.add(one, e);
  Value smallResult = m.add(one, m.div(m.mul(e, e), m.add(w, w)));
  // |x| < 22: (exp(|x|) + 1/exp(|x|))/2; beyond exp(|x|)/2 as in sinh.
  ExpParts parts = expParts(m, t);
  Value expT = scaleByPowerOfTwo(m, parts.mantissa, parts.exponent);
  Value middleResult = m.add(m.mul(half, expT), m.div(half, expT));
  Value largeResult =
      scaleByPowerOfTwo(m, parts.mantissa, m.iadd(parts.exponent, -1));
  Value result = m.select(m.lt(t, m.cstBits(0x3fd62e4300000000)), smallResult,
                          m.select(m.lt(t, 22.0), middleResult, largeResult));
  return m.select(m.isNaN(x), x, result);
}

Value expandTanh(F64Builder &m, Value x) {
  Value t = m.abs(withoutNaN(m, x));
  Value two = m.cst(2.0);
  Value below1 = m.lt(t, 1.0);
  // t < 1: -E/(E + 2) with E = expm1(-2t); 1 <= t < 22: 1 - 2/(E + 2)
  // with E = expm1(2t); beyond 1.
  Value twiceT = m.mul(two, m.select(m.lt(t, 22.0), t, m.cst(0.0)));
  Value e = expandExpm1(m, m.select(below1, m.neg(twiceT), twiceT));
  Value result = m.select(below1, m.div(m.neg(e), m.add(e, two)),
                          m.sub(m.cst(1.0), m.div(two, m.add(e, two))));
  result = m.select(m.lt(t, 22.0), result, m.cst(1.0));
  result = m.copySign(result, x);
  // |x| < 2^-55: x.
  result = m.select(m.lt(m.abs(x), 0x1p-55), x, result);
  return m.select(m.isNaN(x), x, result);
}

//===----------------------------------------------------------------------===//
// asinh, acosh, atanh (s_asinh.c, e_acosh.c, e_atanh.c)
//===----------------------------------------------------------------------===//

/// log(a) for large arguments or log1p(b) for small ones, with one
/// polynomial: `useLog` picks log(a) (a positive finite) plus `extraLn2`
/// (0 or 1) times ln2, else log1p(b) (b > -1 finite).
Value logOrLog1p(F64Builder &m, Value useLog, Value a, Value extraLn2,
                 Value b) {
  LogReduction reducedLog = reduceForLog(m, a);
  Log1pReduction reducedLog1p = reduceForLog1p(m, b);
  Value k = m.select(useLog, m.add(reducedLog.k, extraLn2), reducedLog1p.k);
  Value f = m.select(useLog, reducedLog.f, reducedLog1p.f);
  Value c = m.select(useLog, 0.0, reducedLog1p.c);
  return logOfReduced(m, k, f, c);
}

Value expandAsinh(F64Builder &m, Value x) {
  Value one = m.cst(1.0);
  Value t = m.abs(m.select(m.isFinite(x), x, one));
  Value huge = m.gt(t, 0x1p28);
  // |x| > 2^28: log(|x|) + ln2; > 2: log(2|x| + 1/(sqrt(x^2 + 1) + |x|));
  // else log1p(|x| + x^2/(1 + sqrt(1 + x^2))).
  Value tt = m.mul(t, t);
  Value sq = m.sqrt(m.add(tt, one));
  Value a =
      m.select(huge, t, m.add(m.mul(m.cst(2.0), t), m.div(one, m.add(sq, t))));
  Value bArg = m.add(t, m.div(tt, m.add(one, sq)));
  Value result =
      logOrLog1p(m, m.gt(t, 2.0), a, m.select(huge, one, m.cst(0.0)), bArg);
  result = m.copySign(result, x);
  // |x| < 2^-28, +-inf, NaN: x.
  return m.select(
      m.either(m.lt(m.abs(x), 0x1p-28), m.logicalNot(m.isFinite(x))), x,
      result);
}

Value expandAcosh(F64Builder &m, Value x) {
  Value one = m.cst(1.0);
  Value xs = m.select(m.both(m.ge(x, 1.0), m.lt(x, m.inf())), x, one);
  Value huge = m.ge(xs, 0x1p28);
  // x >= 2^28: log(x) + ln2; > 2: log(2x - 1/(x + sqrt(x^2 - 1)));
  // else log1p(t + sqrt(2t + t^2)), t = x - 1.
  Value a =
      m.select(huge, xs,
               m.sub(m.mul(m.cst(2.0), xs),
                     m.div(one, m.add(xs, m.sqrt(m.sub(m.mul(xs, xs), one))))));
  Value t = m.sub(xs, one);
  Value bArg = m.add(t, m.sqrt(m.add(m.mul(m.cst(2.0), t), m.mul(t, t))));
  Value result =
      logOrLog1p(m, m.gt(xs, 2.0), a, m.select(huge, one, m.cst(0.0)), bArg);
  result = m.select(m.eq(x, m.inf()), m.inf(), result);
  result = m.select(m.lt(x, 1.0), m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

Value expandAtanh(F64Builder &m, Value x) {
  Value one = m.cst(1.0);
  Value ax = m.abs(x);
  Value t = m.select(m.lt(ax, 1.0), ax, m.cst(0.0)); // not NaN, < 1
  // t < 0.5: log1p(2t + 2t*t/(1 - t))/2; else log1p(2t/(1 - t))/2.
  Value twoT = m.add(t, t);
  Value oneMinusT = m.sub(one, t);
  Value bArg =
      m.select(m.lt(t, 0.5), m.add(twoT, m.div(m.mul(twoT, t), oneMinusT)),
               m.div(twoT, oneMinusT));
  Log1pReduction reduced = reduceForLog1p(m, bArg);
  Value result =
      m.mul(m.cst(0.5), logOfReduced(m, reduced.k, reduced.f, reduced.c));
  result = m.copySign(result, x);
  result = m.select(m.lt(ax, 0x1p-28), x, result);
  result = m.select(m.eq(ax, 1.0), m.copySign(m.inf(), x), result);
  result = m.select(m.gt(ax, 1.0), m.nan(), result);
  return m.select(m.isNaN(x), x, result);
}

//===----------------------------------------------------------------------===//
// erf, erfc (s_erf.c)
//===----------------------------------------------------------------------===//

constexpr double kErx = 8.45062911510467529297e-01;  // 0x3FEB0AC160000000
constexpr double kEfx = 1.28379167095512586316e-01;  // 0x3FC06EBA8214DB69
constexpr double kEfx8 = 1.02703333676410069053e+00; // 0x3FF06EBA8214DB69

/// Numerator and denominator coefficients (ascending; the denominator's
/// constant term is 1) of s_erf.c's rational approximations, padded with
/// zeros to a common degree so that one evaluation serves all intervals.
struct ErfInterval {
  double numerator[8];
  double denominator[9];
};

constexpr ErfInterval kErfIntervals[] = {
    // |x| < 0.84375: erf(x) = x + x*R(x^2).
    {{1.28379167095512558561e-01, -3.25042107247001499370e-01,
      -2.84817495755985104766e-02, -5.77027029648944159157e-03,
      -2.37630166566501626084e-05},
     {1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02,
      5.08130628187576562776e-03, 1.32494738004321644526e-04,
      -3.96022827877536812320e-06}},
    // |x| < 1.25: erf(x) = erx + P(|x| - 1)/Q(|x| - 1).
    {{-2.36211856075265944077e-03, 4.14856118683748331666e-01,
      -3.72207876035701323847e-01, 3.18346619901161753674e-01,
      -1.10894694282396677476e-01, 3.54783043256182359371e-02,
      -2.16637559486879084300e-03},
     {1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01,
      7.18286544141962662868e-02, 1.26171219808761642112e-01,
      1.36370839120290507362e-02, 1.19844998467991074170e-02}},
    // |x| < 1/0.35: erfc(x) = exp(-x^2 - 0.5625 + R(1/x^2)/S(1/x^2))/x.
    {{-9.86494403484714822705e-03, -6.93858572707181764372e-01,
      -1.05586262253232909814e+01, -6.23753324503260060396e+01,
      -1.62396669462573470355e+02, -1.84605092906711035994e+02,
      -8.12874355063065934246e+01, -9.81432934416914548592e+00},
     {1.0, 1.96512716674392571292e+01, 1.37657754143519042600e+02,
      4.34565877475229228821e+02, 6.45387271733267880336e+02,
      4.29008140027567833386e+02, 1.08635005541779435134e+02,
      6.57024977031928170135e+00, -6.04244152148580987438e-02}},
    // |x| >= 1/0.35: the same form.
    {{-9.86494292470009928597e-03, -7.99283237680523006574e-01,
      -1.77579549177547519889e+01, -1.60636384855821916062e+02,
      -6.37566443368389627722e+02, -1.02509513161107724954e+03,
      -4.83519191608651397019e+02},
     {1.0, 3.03380607434824582924e+01, 3.25792512996573918826e+02,
      1.53672958608443695994e+03, 3.19985821950859553908e+03,
      2.55305040643316442583e+03, 4.74528541206955367215e+02,
      -2.24409524465858183362e+01}},
};

/// What erf and erfc are made of, for x not NaN.
struct ErfParts {
  Value interval0, interval1; // i1: |x| < 0.84375, 0.84375 <= |x| < 1.25
  /// The rational function of the interval: erf(x) = x + x*ratio,
  /// erf(|x|) = erx + ratio, or (beyond 1.25) erfc(|x|) = scaledTail/t.
  Value ratio;
  Value scaledTail;
  Value t; // |x|, at most 28 (beyond, erfc underflows and erf is +-1)
};

ErfParts erfParts(F64Builder &m, Value x) {
  Value ax = m.abs(x);
  Value interval0 = m.lt(ax, 0.84375);
  Value interval1 = m.both(m.logicalNot(interval0), m.lt(ax, 1.25));
  Value interval2 = m.lt(ax, m.cstBits(0x4006DB6E00000000));
  Value t = m.select(m.lt(ax, 28.0), ax, m.cst(28.0));
  Value s = m.select(interval0, m.mul(x, x),
                     m.select(interval1, m.sub(t, m.cst(1.0)),
                              m.div(m.cst(1.0), m.mul(t, t))));
  auto pick = [&](double c0, double c1, double c2, double c3) {
    return m.select(
        interval0, c0,
        m.select(interval1, c1, m.select(interval2, c2, m.cst(c3))));
  };
  Value numerator = m.cst(0.0);
  for (int i = 7; i >= 0; --i)
    numerator = m.add(
        pick(kErfIntervals[0].numerator[i], kErfIntervals[1].numerator[i],
             kErfIntervals[2].numerator[i], kErfIntervals[3].numerator[i]),
        m.mul(s, numerator));
  Value denominator = m.cst(0.0);
  for (int i = 8; i >= 0; --i)
    denominator = m.add(
        pick(kErfIntervals[0].denominator[i], kErfIntervals[1].denominator[i],
             kErfIntervals[2].denominator[i], kErfIntervals[3].denominator[i]),
        m.mul(s, denominator));
  Value ratio = m.div(numerator, denominator);

  // exp(-z^2 - 0.5625 + ((z - t)(z + t) + R/S)) with z the 21-bit high
  // part of t: -z^2 - 0.5625 is exact, and so is its difference with
  // k*ln2_hi; the small rest is added with its rounding error kept.
  Value z = m.clearLowWord(t);
  Value big = m.sub(m.neg(m.mul(z, z)), m.cst(0.5625));
  Value small = m.add(m.mul(m.sub(z, t), m.add(z, t)), ratio);
  Value k = m.roundEven(m.mul(m.add(big, small), m.cst(kInvLn2)));
  Value reduced = m.sub(big, m.mul(k, m.cst(kLn2Hi)));
  Value hi = m.add(reduced, small);
  Value error = twoSumError(m, reduced, small, hi);
  Value lo = m.sub(m.mul(k, m.cst(kLn2Lo)), error);
  Value scaledTail = scaleByPowerOfTwo(m, expKernel(m, hi, lo), m.toInt(k));
  return {interval0, interval1, ratio, scaledTail, t};
}

Value expandErf(F64Builder &m, Value x) {
  Value xs = withoutNaN(m, x);
  ErfParts p = erfParts(m, xs);
  // |x| < 2^-28: x + efx*x, scaled where x*efx would lose bits as a
  // subnormal.
  Value tiny = m.select(m.lt(m.abs(xs), 0x1p-1022),
                        m.mul(m.cst(0.125), m.add(m.mul(m.cst(8.0), xs),
                                                  m.mul(m.cst(kEfx8), xs))),
                        m.add(xs, m.mul(m.cst(kEfx), xs)));
  Value result0 =
      m.select(m.lt(m.abs(xs), 0x1p-28), tiny, m.add(xs, m.mul(xs, p.ratio)));
  Value result1 = m.copySign(m.add(m.cst(kErx), p.ratio), xs);
  Value tailResult =
      m.copySign(m.sub(m.cst(1.0), m.div(p.scaledTail, p.t)), xs);
  tailResult =
      m.select(m.ge(m.abs(xs), 6.0), m.copySign(m.cst(1.0), xs), tailResult);
  Value result = m.select(p.interval0, result0,
                          m.select(p.interval1, result1, tailResult));
  return m.select(m.isNaN(x), x, result);
}

Value expandErfc(F64Builder &m, Value x) {
  Value xs = withoutNaN(m, x);
  ErfParts p = erfParts(m, xs);
  Value one = m.cst(1.0), half = m.cst(0.5), two = m.cst(2.0);
  // |x| < 0.84375: 1 - erf(x), or 0.5 - (x*y + (x - 0.5)) above 1/4.
  Value erf0 = m.add(xs, m.mul(xs, p.ratio));
  Value result0 =
      m.select(m.lt(xs, 0.25), m.sub(one, erf0),
               m.sub(half, m.add(m.mul(xs, p.ratio), m.sub(xs, half))));
  // |x| < 1.25: (1 - erx) - P/Q, or 1 + (erx + P/Q) for x < 0.
  Value result1 =
      m.select(m.lt(xs, 0.0), m.add(one, m.add(m.cst(kErx), p.ratio)),
               m.sub(m.sub(one, m.cst(kErx)), p.ratio));
  Value tail = m.div(p.scaledTail, p.t);
  Value tailResult = m.select(m.lt(xs, 0.0), m.sub(two, tail), tail);
  // x <= -6: 2.
  tailResult = m.select(m.le(xs, -6.0), two, tailResult);
  Value result = m.select(p.interval0, result0,
                          m.select(p.interval1, result1, tailResult));
  return m.select(m.isNaN(x), x, result);
}

//===----------------------------------------------------------------------===//
// cbrt (s_cbrt.c)
//===----------------------------------------------------------------------===//

Value expandCbrt(F64Builder &m, Value x) {
  using arith::CmpIPredicate;
  Value ax = m.abs(withoutNaN(m, x));
  Value axs =
      m.select(m.both(m.gt(ax, 0.0), m.lt(ax, m.inf())), ax, m.cst(1.0));
  // Rough cbrt to 5 bits from the high word divided by 3 (subnormals
  // scaled by 2^54 first).
  Value subnormal = m.lt(axs, 0x1p-1022);
  Value high = m.highWord(m.select(subnormal, m.mul(axs, m.cst(0x1p54)), axs));
  Value bias = m.iselect(subnormal, 696219795, m.icst(715094163));
  Value t = m.fromHighWord(m.iadd(m.udiv(high, 3), bias));
  // New cbrt to 23 bits.
  Value r = m.div(m.mul(t, t), axs);
  Value s = m.add(m.cst(5.42857142857142815906e-01), m.mul(r, t));
  t = m.mul(t,
            m.add(m.cst(3.57142857142857150787e-01),
                  m.div(m.cst(1.60714285714285720630e+00),
                        m.add(m.add(s, m.cst(1.41428571428571436819e+00)),
                              m.div(m.cst(-7.05306122448979611050e-01), s)))));
  // Chopped to 20 bits and made larger than cbrt(x).
  t = m.fromHighWord(m.iadd(m.highWord(t), 1));
  // One Newton step to 53 bits with an error below 0.667 ulp.
  s = m.mul(t, t);
  r = m.div(axs, s);
  Value w = m.add(t, t);
  r = m.div(m.sub(r, t), m.add(w, r));
  t = m.add(t, m.mul(t, r));
  Value result = m.copySign(t, x);
  // +-0, +-inf and NaN are their own cube roots.
  return m.select(m.either(m.eq(ax, 0.0), m.logicalNot(m.isFinite(x))), x,
                  result);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

bool isF64OrF64Vector(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementType().isF64() && !vector.isScalable();
  return type.isF64();
}

using UnaryExpansion = Value (*)(F64Builder &, Value);
using BinaryExpansion = Value (*)(F64Builder &, Value, Value);

/// Replaces an f64 `OpTy` with one operand by `expand`'s arithmetic.
template <typename OpTy> struct ExpandUnary : public OpRewritePattern<OpTy> {
  ExpandUnary(MLIRContext *context, UnaryExpansion expand)
      : OpRewritePattern<OpTy>(context), expand(expand) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isF64OrF64Vector(op.getType()))
      return rewriter.notifyMatchFailure(op, "not f64");
    F64Builder m(rewriter, getExpandedF64MathLoc(op.getLoc()), op.getType());
    rewriter.replaceOp(op, expand(m, op.getOperand()));
    return success();
  }

  UnaryExpansion expand;
};

/// Replaces an f64 `OpTy` with two operands (atan2(y, x), pow(x, y)).
template <typename OpTy> struct ExpandBinary : public OpRewritePattern<OpTy> {
  ExpandBinary(MLIRContext *context, BinaryExpansion expand)
      : OpRewritePattern<OpTy>(context), expand(expand) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isF64OrF64Vector(op.getType()))
      return rewriter.notifyMatchFailure(op, "not f64");
    F64Builder m(rewriter, getExpandedF64MathLoc(op.getLoc()), op.getType());
    rewriter.replaceOp(op, expand(m, op.getLhs(), op.getRhs()));
    return success();
  }

  BinaryExpansion expand;
};

/// math.fpowi: pow with the exponent converted, odd when its integer is.
struct ExpandFPowI : public OpRewritePattern<math::FPowIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::FPowIOp op,
                                PatternRewriter &rewriter) const override {
    if (!isF64OrF64Vector(op.getType()))
      return rewriter.notifyMatchFailure(op, "not f64");
    Location loc = getExpandedF64MathLoc(op.getLoc());
    F64Builder m(rewriter, loc, op.getType());
    Value power = op.getRhs();
    Value y = arith::SIToFPOp::create(rewriter, loc, op.getType(), power);
    Type powerType = power.getType();
    auto oneAttr = rewriter.getIntegerAttr(getElementTypeOrSelf(powerType), 1);
    TypedAttr one = oneAttr;
    if (auto vector = dyn_cast<VectorType>(powerType))
      one = DenseElementsAttr::get(vector, ArrayRef<Attribute>(oneAttr));
    Value oneValue = arith::ConstantOp::create(rewriter, loc, one);
    Value lowBit = arith::AndIOp::create(rewriter, loc, power, oneValue);
    Value isOdd = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        lowBit, oneValue);
    Value isInteger = m.eq(y, y);
    rewriter.replaceOp(op, buildPow(m, op.getLhs(), y, isInteger, isOdd));
    return success();
  }
};

/// math.sincos: one reduction for both.
struct ExpandSincos : public OpRewritePattern<math::SincosOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::SincosOp op,
                                PatternRewriter &rewriter) const override {
    if (!isF64OrF64Vector(op.getOperand().getType()))
      return rewriter.notifyMatchFailure(op, "not f64");
    Value x = op.getOperand();
    F64Builder m(rewriter, getExpandedF64MathLoc(op.getLoc()), x.getType());
    TrigArgument arg = reduceTrigArgument(m, x);
    auto [sine, cosine] = sinAndCos(m, arg.reduced);
    rewriter.replaceOp(
        op, {finishSin(m, x, arg, sine), finishCos(m, x, arg, cosine)});
    return success();
  }
};

struct GpuExpandF64MathPass
    : public vrir::impl::GpuExpandF64MathBase<GpuExpandF64MathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandF64MathPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (auto gpuModule : getOperation().getOps<gpu::GPUModuleOp>())
      walkAndApplyPatterns(gpuModule, frozen);
  }
};

} // namespace

void mlir::vrir::populateExpandF64MathPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ExpandUnary<math::ExpOp>>(context, expandExp);
  patterns.add<ExpandUnary<math::Exp2Op>>(context, expandExp2);
  patterns.add<ExpandUnary<math::ExpM1Op>>(context, expandExpm1);
  patterns.add<ExpandUnary<math::LogOp>>(context, expandLog);
  patterns.add<ExpandUnary<math::Log2Op>>(context, expandLog2);
  patterns.add<ExpandUnary<math::Log10Op>>(context, expandLog10);
  patterns.add<ExpandUnary<math::Log1pOp>>(context, expandLog1p);
  patterns.add<ExpandUnary<math::SinOp>>(context, expandSin);
  patterns.add<ExpandUnary<math::CosOp>>(context, expandCos);
  patterns.add<ExpandUnary<math::TanOp>>(context, expandTan);
  patterns.add<ExpandUnary<math::SinhOp>>(context, expandSinh);
  patterns.add<ExpandUnary<math::CoshOp>>(context, expandCosh);
  patterns.add<ExpandUnary<math::TanhOp>>(context, expandTanh);
  patterns.add<ExpandUnary<math::AsinOp>>(context, expandAsin);
  patterns.add<ExpandUnary<math::AcosOp>>(context, expandAcos);
  patterns.add<ExpandUnary<math::AtanOp>>(context, expandAtan);
  patterns.add<ExpandUnary<math::AsinhOp>>(context, expandAsinh);
  patterns.add<ExpandUnary<math::AcoshOp>>(context, expandAcosh);
  patterns.add<ExpandUnary<math::AtanhOp>>(context, expandAtanh);
  patterns.add<ExpandUnary<math::ErfOp>>(context, expandErf);
  patterns.add<ExpandUnary<math::ErfcOp>>(context, expandErfc);
  patterns.add<ExpandUnary<math::CbrtOp>>(context, expandCbrt);
  patterns.add<ExpandBinary<math::Atan2Op>>(context, expandAtan2);
  patterns.add<ExpandBinary<math::PowFOp>>(context, expandPowF);
  patterns.add<ExpandFPowI, ExpandSincos>(context);
}

Location mlir::vrir::getExpandedF64MathLoc(Location loc) {
  MLIRContext *context = loc.getContext();
  return FusedLoc::get(context, {loc},
                       StringAttr::get(context, kExpandedMathMarker));
}

bool mlir::vrir::isExpandedF64MathLoc(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto marker =
      fused ? dyn_cast_or_null<StringAttr>(fused.getMetadata()) : nullptr;
  return marker && marker.getValue() == kExpandedMathMarker;
}
