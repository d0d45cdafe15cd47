/*===- VRIRComplex.c - NumPy's complex power and float functions ----------===
 *
 * numpy/_core/src/npymath/npy_math_complex.c.src: npy_cpow and npy_cpowf,
 * so that complex numbers raised to a power give NumPy's results, special
 * values and exact small integer powers included; and complex64 functions
 * computed in single precision as NumPy computes them (csqrtf, ...). C, for
 * C99's complex functions.
 *
 * Generated code passes and receives doubles only (a complex64 result comes
 * back widened, exactly): C returns `float _Complex` in one register on
 * x86-64, where LLVM returns {float, float} in two.
 *
 *===----------------------------------------------------------------------===*/

#include "VRIR/Runtime/VRIRRuntime.h"

#include <complex.h>
#include <math.h>
#include <stdint.h>

/* x + y * I would make nan of an infinite imaginary part (and clang's glibc
 * headers have no CMPLX). */
#define VRIR_DEFINE_MAKE(NAME, T)                                              \
  static T _Complex NAME(T re, T im) {                                         \
    T _Complex z;                                                              \
    __real__ z = re;                                                           \
    __imag__ z = im;                                                           \
    return z;                                                                  \
  }
VRIR_DEFINE_MAKE(make, double)
VRIR_DEFINE_MAKE(makef, float)

/* npy_cpow in precision T: a zero exponent gives 1; a zero base 0 (positive
 * real part of the exponent) or nan; a real integer exponent below 100 in
 * magnitude multiplies (binary powering; 1 / z by Smith's method, NumPy's
 * cdiv, for a negative one); others call libm's CPOW. */
#define VRIR_DEFINE_POWER(NAME, T, FABS, CPOW, CREAL, CIMAG, MAKE)             \
  typedef struct {                                                             \
    T re, im;                                                                  \
  } NAME##_value;                                                              \
  static NAME##_value NAME##_multiply(NAME##_value a, NAME##_value b) {        \
    NAME##_value r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};   \
    return r;                                                                  \
  }                                                                            \
  static NAME##_value NAME##_reciprocal(NAME##_value b) {                      \
    NAME##_value a = {1, 0}, r;                                                \
    T absRe = FABS(b.re), absIm = FABS(b.im);                                  \
    if (absRe >= absIm) {                                                      \
      if (absRe == 0 && absIm == 0) {                                          \
        r.re = a.re / absRe;                                                   \
        r.im = a.im / absRe;                                                   \
        return r;                                                              \
      }                                                                        \
      T ratio = b.im / b.re, denominator = b.re + b.im * ratio;                \
      r.re = (a.re + a.im * ratio) / denominator;                              \
      r.im = (a.im - a.re * ratio) / denominator;                              \
      return r;                                                                \
    }                                                                          \
    T ratio = b.re / b.im, denominator = b.im + b.re * ratio;                  \
    r.re = (a.re * ratio + a.im) / denominator;                                \
    r.im = (a.im * ratio - a.re) / denominator;                                \
    return r;                                                                  \
  }                                                                            \
  static NAME##_value NAME(T baseRe, T baseIm, T expRe, T expIm) {             \
    NAME##_value a = {baseRe, baseIm}, one = {1, 0};                           \
    if (expRe == 0 && expIm == 0)                                              \
      return one;                                                              \
    if (baseRe == 0 && baseIm == 0) {                                          \
      NAME##_value r = {0, 0};                                                 \
      if (!(expRe > 0))                                                        \
        r.re = r.im = NAN;                                                     \
      return r;                                                                \
    }                                                                          \
    if (expIm == 0 && expRe > -100 && expRe < 100 &&                           \
        expRe == (T)(int64_t)expRe) {                                          \
      int64_t n = (int64_t)expRe;                                              \
      if (n == 1)                                                              \
        return a;                                                              \
      if (n == 2)                                                              \
        return NAME##_multiply(a, a);                                          \
      if (n == 3)                                                              \
        return NAME##_multiply(a, NAME##_multiply(a, a));                      \
      if (n < 0)                                                               \
        n = -n;                                                                \
      NAME##_value result = one, square = a;                                   \
      for (int64_t mask = 1;; mask <<= 1) {                                    \
        if (n & mask)                                                          \
          result = NAME##_multiply(result, square);                            \
        if (n < (mask << 1))                                                   \
          break;                                                               \
        square = NAME##_multiply(square, square);                              \
      }                                                                        \
      return expRe < 0 ? NAME##_reciprocal(result) : result;                   \
    }                                                                          \
    T _Complex r = CPOW(MAKE(baseRe, baseIm), MAKE(expRe, expIm));             \
    NAME##_value out = {CREAL(r), CIMAG(r)};                                   \
    return out;                                                                \
  }
VRIR_DEFINE_POWER(power, double, fabs, cpow, creal, cimag, make)
VRIR_DEFINE_POWER(powerf, float, fabsf, cpowf, crealf, cimagf, makef)

vrir_rt_complex128 vrir_rt_cpow(double baseRe, double baseIm, double expRe,
                                double expIm) {
  power_value r = power(baseRe, baseIm, expRe, expIm);
  vrir_rt_complex128 out = {r.re, r.im};
  return out;
}

vrir_rt_complex128 vrir_rt_cpowf(double baseRe, double baseIm, double expRe,
                                 double expIm) {
  powerf_value r =
      powerf((float)baseRe, (float)baseIm, (float)expRe, (float)expIm);
  vrir_rt_complex128 out = {r.re, r.im};
  return out;
}

/* The complex64 functions, in single precision. */
#define VRIR_DEFINE_FLOAT_FUNCTION(NAME, FUNCTION)                             \
  vrir_rt_complex128 NAME(double re, double im) {                              \
    float _Complex r = FUNCTION(makef((float)re, (float)im));                  \
    vrir_rt_complex128 out = {crealf(r), cimagf(r)};                           \
    return out;                                                                \
  }
VRIR_DEFINE_FLOAT_FUNCTION(vrir_rt_csqrtf, csqrtf)
VRIR_DEFINE_FLOAT_FUNCTION(vrir_rt_cexpf, cexpf)
VRIR_DEFINE_FLOAT_FUNCTION(vrir_rt_clogf, clogf)
VRIR_DEFINE_FLOAT_FUNCTION(vrir_rt_csinf, csinf)
VRIR_DEFINE_FLOAT_FUNCTION(vrir_rt_ccosf, ccosf)
VRIR_DEFINE_FLOAT_FUNCTION(vrir_rt_ctanf, ctanf)
VRIR_DEFINE_FLOAT_FUNCTION(vrir_rt_ctanhf, ctanhf)
