/* C peers of the VRIR kernels in kernels/: the same algorithms, statement
 * for statement, in plain C. Sizes are run-time values (as in VRIR, whose
 * array types carry no sizes); arrays that are distinct in VRIR are
 * `restrict` here. Each kernel has a serial version and, where the VRIR file
 * has a pfor entry, an OpenMP one (`_omp`) parallel over the same loop.
 * Built with clang-22 -O3 -march=native -fopenmp, without -ffast-math. */
#include "kernels_c.h"

/* ---- 2-D Jacobi (PolyBench jacobi-2d) --------------------------------- */

void jacobi2d_c(long n, long steps, double (*restrict A)[n],
                double (*restrict B)[n]) {
  for (long t = 0; t < steps; t++) {
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
}

void jacobi2d_c_omp(long n, long steps, double (*restrict A)[n],
                    double (*restrict B)[n]) {
  for (long t = 0; t < steps; t++) {
#pragma omp parallel for
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
#pragma omp parallel for
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
}

/* ---- 3-D heat (PolyBench heat-3d) ------------------------------------- */

#define HEAT(A, i, j, k)                                                       \
  (0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +              \
   0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +              \
   0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) + A[i][j][k])

void heat3d_c(long n, long steps, double (*restrict A)[n][n],
              double (*restrict B)[n][n]) {
  for (long t = 0; t < steps; t++) {
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        for (long k = 1; k < n - 1; k++)
          B[i][j][k] = HEAT(A, i, j, k);
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        for (long k = 1; k < n - 1; k++)
          A[i][j][k] = HEAT(B, i, j, k);
  }
}

void heat3d_c_omp(long n, long steps, double (*restrict A)[n][n],
                  double (*restrict B)[n][n]) {
  for (long t = 0; t < steps; t++) {
#pragma omp parallel for
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        for (long k = 1; k < n - 1; k++)
          B[i][j][k] = HEAT(A, i, j, k);
#pragma omp parallel for
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        for (long k = 1; k < n - 1; k++)
          A[i][j][k] = HEAT(B, i, j, k);
  }
}

/* ---- matrix multiply, i-k-j loops: C += A*B ---------------------------- */

void matmul_c(long m, long n, long p, double (*restrict C)[n],
              double (*restrict A)[p], double (*restrict B)[n]) {
  for (long i = 0; i < m; i++)
    for (long k = 0; k < p; k++)
      for (long j = 0; j < n; j++)
        C[i][j] += A[i][k] * B[k][j];
}

void matmul_c_omp(long m, long n, long p, double (*restrict C)[n],
                  double (*restrict A)[p], double (*restrict B)[n]) {
#pragma omp parallel for
  for (long i = 0; i < m; i++)
    for (long k = 0; k < p; k++)
      for (long j = 0; j < n; j++)
        C[i][j] += A[i][k] * B[k][j];
}

/* ---- gemver (PolyBench) ------------------------------------------------ */

void gemver_c(long n, double alpha, double beta, double (*restrict A)[n],
              const double *restrict u1, const double *restrict v1,
              const double *restrict u2, const double *restrict v2,
              double *restrict w, double *restrict x, const double *restrict y,
              const double *restrict z) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (long i = 0; i < n; i++)
    x[i] = x[i] + z[i];
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
}

void gemver_c_omp(long n, double alpha, double beta, double (*restrict A)[n],
                  const double *restrict u1, const double *restrict v1,
                  const double *restrict u2, const double *restrict v2,
                  double *restrict w, double *restrict x,
                  const double *restrict y, const double *restrict z) {
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    x[i] = x[i] + z[i];
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
}

/* ---- LU without pivoting (PolyBench lu), in place ---------------------- */

void lu_c(long n, double (*restrict A)[n]) {
  for (long i = 0; i < n; i++) {
    for (long j = 0; j < i; j++) {
      for (long k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (long j = i; j < n; j++)
      for (long k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}

/* ---- 2-D stencil of the thesis (figure 9.2), one sweep ----------------- */

void stencil2d_c(long m, long n, double (*restrict A)[n],
                 double (*restrict B)[n]) {
  for (long i = 1; i < m - 1; i++)
    for (long j = 1; j < n - 1; j++)
      B[i][j] =
          (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j + 1] + A[i][j - 1]) / 5;
}

void stencil2d_c_omp(long m, long n, double (*restrict A)[n],
                     double (*restrict B)[n]) {
#pragma omp parallel for
  for (long i = 1; i < m - 1; i++)
    for (long j = 1; j < n - 1; j++)
      B[i][j] =
          (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j + 1] + A[i][j - 1]) / 5;
}

/* ---- reduction: sum of a 1-D array, in index order --------------------- */

double sum_c(long n, const double *restrict x) {
  double s = 0.0;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}
