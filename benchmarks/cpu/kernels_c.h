/* C peers of the VRIR benchmark kernels (kernels_c.c). */
#ifndef VRIR_BENCH_KERNELS_C_H
#define VRIR_BENCH_KERNELS_C_H

void jacobi2d_c(long n, long steps, double (*restrict A)[n],
                double (*restrict B)[n]);
void jacobi2d_c_omp(long n, long steps, double (*restrict A)[n],
                    double (*restrict B)[n]);
void heat3d_c(long n, long steps, double (*restrict A)[n][n],
              double (*restrict B)[n][n]);
void heat3d_c_omp(long n, long steps, double (*restrict A)[n][n],
                  double (*restrict B)[n][n]);
void matmul_c(long m, long n, long p, double (*restrict C)[n],
              double (*restrict A)[p], double (*restrict B)[n]);
void matmul_c_omp(long m, long n, long p, double (*restrict C)[n],
                  double (*restrict A)[p], double (*restrict B)[n]);
void gemver_c(long n, double alpha, double beta, double (*restrict A)[n],
              const double *restrict u1, const double *restrict v1,
              const double *restrict u2, const double *restrict v2,
              double *restrict w, double *restrict x, const double *restrict y,
              const double *restrict z);
void gemver_c_omp(long n, double alpha, double beta, double (*restrict A)[n],
                  const double *restrict u1, const double *restrict v1,
                  const double *restrict u2, const double *restrict v2,
                  double *restrict w, double *restrict x,
                  const double *restrict y, const double *restrict z);
void lu_c(long n, double (*restrict A)[n]);
void stencil2d_c(long m, long n, double (*restrict A)[n],
                 double (*restrict B)[n]);
void stencil2d_c_omp(long m, long n, double (*restrict A)[n],
                     double (*restrict B)[n]);
double sum_c(long n, const double *restrict x);

#endif
