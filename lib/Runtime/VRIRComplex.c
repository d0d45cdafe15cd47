/*===- VRIRComplex.c - NumPy's complex power ------------------------------===
 *
 * numpy/_core/src/npymath/npy_math_complex.c.src (npy_cpow), so that
 * complex numbers raised to a power give NumPy's results, special values and
 * exact small integer powers included. C, for C99's cpow.
 *
 *===----------------------------------------------------------------------===*/

#include "VRIR/Runtime/VRIRRuntime.h"

#include <complex.h>
#include <math.h>
#include <stdint.h>

static vrir_rt_complex128 multiply(vrir_rt_complex128 a, vrir_rt_complex128 b) {
  vrir_rt_complex128 r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}

/* x + y * I would make nan of an infinite imaginary part (and clang's
 * glibc headers have no CMPLX). */
static double _Complex make(double re, double im) {
  double _Complex z;
  __real__ z = re;
  __imag__ z = im;
  return z;
}

/* a / b by Smith's method, as NumPy's cdiv (signed zeros included). */
static vrir_rt_complex128 divide(vrir_rt_complex128 a, vrir_rt_complex128 b) {
  double absRe = fabs(b.re), absIm = fabs(b.im);
  vrir_rt_complex128 r;
  if (absRe >= absIm) {
    if (absRe == 0 && absIm == 0) {
      r.re = a.re / absRe;
      r.im = a.im / absRe;
      return r;
    }
    double ratio = b.im / b.re, denominator = b.re + b.im * ratio;
    r.re = (a.re + a.im * ratio) / denominator;
    r.im = (a.im - a.re * ratio) / denominator;
    return r;
  }
  double ratio = b.re / b.im, denominator = b.im + b.re * ratio;
  r.re = (a.re * ratio + a.im) / denominator;
  r.im = (a.im * ratio - a.re) / denominator;
  return r;
}

vrir_rt_complex128 vrir_rt_cpow(double baseRe, double baseIm, double expRe,
                                double expIm) {
  vrir_rt_complex128 a = {baseRe, baseIm}, one = {1, 0};
  if (expRe == 0 && expIm == 0)
    return one;
  if (baseRe == 0 && baseIm == 0) {
    vrir_rt_complex128 r = {0, 0};
    if (!(expRe > 0))
      r.re = r.im = NAN;
    return r;
  }
  if (expIm == 0 && expRe > -100 && expRe < 100 &&
      expRe == (double)(int64_t)expRe) {
    int64_t n = (int64_t)expRe;
    if (n == 1)
      return a;
    if (n == 2)
      return multiply(a, a);
    if (n == 3)
      return multiply(a, multiply(a, a));
    if (n < 0)
      n = -n;
    vrir_rt_complex128 result = one, square = a;
    for (int64_t mask = 1;; mask <<= 1) {
      if (n & mask)
        result = multiply(result, square);
      if (n < (mask << 1))
        break;
      square = multiply(square, square);
    }
    return expRe < 0 ? divide(one, result) : result;
  }
  double _Complex r = cpow(make(baseRe, baseIm), make(expRe, expIm));
  vrir_rt_complex128 out = {creal(r), cimag(r)};
  return out;
}
