/* VRIR CPU benchmark driver.
 *
 * For every kernel: loads the ahead-of-time compiled VRIR library
 * (<dir>/<kernel>.so, made from kernels/<kernel>.mlir by
 * `vr-run --emit-object` and a link; see run.py), initializes the inputs
 * once, checks that every variant (VRIR serial, C OpenMP, VRIR pfor)
 * agrees with the serial C peer (kernels_c.c), and times C and VRIR
 * alternately, `reps` runs each -- the two serial variants first, then the
 * two parallel ones -- and prints the median times, the ratio VRIR/C and
 * the parallel speedups as a Markdown table.
 *
 * Each timed run starts from the same inputs: the arrays a kernel writes
 * are restored (memcpy, not timed) before every run of every variant.
 *
 * Needs no MLIR: only the .so files, their runtime (libvrir_runtime.so,
 * libomp.so.5) and this program. OMP_NUM_THREADS sets the threads of both
 * the C OpenMP loops and the VRIR pfor loops (one libomp serves both).
 *
 *   vrir-bench [-a] [-d DIR] [-r REPS] [-k KERNEL,...] [-s KERNEL=N]
 *              [-t KERNEL=STEPS]
 *
 * -a adds the diagnostic rows (heat3d-contract: VRIR with FMA contraction
 * allowed).
 *
 * Kernels built with `vr-run --specialize` (run.py --vr-run-flag=--specialize)
 * call their regions through the run-time dispatcher; with
 * VRIR_SPECIALIZER=path/to/libVRIRCompiler.so the driver installs that
 * compiler as the specializer (so the first run of a kernel compiles its
 * specialised version; the medians leave it out) and prints each region's
 * counters on stderr at the end.
 */
#define _GNU_SOURCE
#include "kernels_c.h"

#include <dlfcn.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- memref descriptors (the C interface of `_mlir_ciface_*`) ---------- */

typedef struct {
  double *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Desc1;
typedef struct {
  double *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Desc2;
typedef struct {
  double *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
} Desc3;

static Desc1 desc1(double *p, int64_t n) {
  Desc1 d = {p, p, 0, {n}, {1}};
  return d;
}
static Desc2 desc2(double *p, int64_t m, int64_t n) {
  Desc2 d = {p, p, 0, {m, n}, {n, 1}};
  return d;
}
static Desc3 desc3(double *p, int64_t a, int64_t b, int64_t c) {
  Desc3 d = {p, p, 0, {a, b, c}, {b * c, c, 1}};
  return d;
}

/* ---- utilities --------------------------------------------------------- */

static void die(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "vrir-bench: error: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  exit(2);
}

static double *xalloc(size_t count) {
  size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
  double *p = aligned_alloc(64, bytes ? bytes : 64);
  if (!p)
    die("out of memory (%zu bytes)", bytes);
  return p;
}

static double *xdup(const double *src, size_t count) {
  double *p = xalloc(count);
  memcpy(p, src, count * sizeof(double));
  return p;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *values, int count) {
  double sorted[count];
  memcpy(sorted, values, sizeof(double) * count);
  qsort(sorted, count, sizeof(double), compare_doubles);
  return count % 2 ? sorted[count / 2]
                   : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

/* ---- the VRIR libraries ------------------------------------------------ */

static char lib_dir[4096];
static int (*rt_try)(void (*)(void *), void *);
static const char *(*rt_last_error)(void);
static void *open_libs[16];
static int open_lib_count;

static void *open_kernel(const char *name) {
  char path[8192];
  snprintf(path, sizeof(path), "%s/%s.so", lib_dir, name);
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    die("cannot load %s: %s", path, dlerror());
  if (!rt_try) {
    /* The runtime is a dependency of every kernel library. */
    rt_try = (int (*)(void (*)(void *), void *))dlsym(handle, "vrir_rt_try");
    rt_last_error = (const char *(*)(void))dlsym(handle, "vrir_rt_last_error");
    if (!rt_try || !rt_last_error)
      die("%s does not bring the VRIR runtime (vrir_rt_try)", path);
  }
  if (open_lib_count < 16)
    open_libs[open_lib_count++] = handle;
  return handle;
}

/* Region specialization: the compiler that specialises regions at run
 * time, when VRIR_SPECIALIZER names it. */
static void *specializer_lib;

static void install_specializer(void) {
  const char *path = getenv("VRIR_SPECIALIZER");
  if (!path || !*path)
    return;
  specializer_lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  if (!specializer_lib)
    die("cannot load %s: %s", path, dlerror());
  void (*install)(const char *, int) = (void (*)(const char *, int))dlsym(
      specializer_lib, "vrirInstallRegionSpecializer");
  if (!install)
    die("%s has no vrirInstallRegionSpecializer", path);
  install(NULL, 3);
}

/* Mirrors vrir_rt_region_stats of include/VRIR/Runtime/VRIRRegions.h. */
typedef struct {
  const char *name;
  uint64_t calls, hits, misses, generic, compileFailures;
  double compileMs;
  uint64_t checks, proven, cached;
} RegionStats;

static void print_region_stats(void) {
  if (!specializer_lib)
    return;
  int (*count)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "vrir_rt_region_count");
  int (*get)(int, RegionStats *) =
      (int (*)(int, RegionStats *))dlsym(RTLD_DEFAULT, "vrir_rt_region_get_stats");
  if (!count || !get)
    return;
  for (int i = 0; i < count(); ++i) {
    RegionStats r;
    if (get(i, &r) == 0)
      fprintf(stderr,
              "region %s: calls=%lu hits=%lu misses=%lu generic=%lu "
              "compile_ms=%.1f checks=%lu proven=%lu\n",
              r.name, (unsigned long)r.calls, (unsigned long)r.hits,
              (unsigned long)r.misses, (unsigned long)r.generic, r.compileMs,
              (unsigned long)r.checks, (unsigned long)r.proven);
  }
}

static void *entry(void *handle, const char *function) {
  char symbol[256];
  snprintf(symbol, sizeof(symbol), "_mlir_ciface_%s", function);
  void *address = dlsym(handle, symbol);
  if (!address)
    die("no %s in the kernel library: %s", symbol, dlerror());
  return address;
}

/* Calls VRIR code with its error channel armed. */
static void vrir_call(void (*thunk)(void *), void *context) {
  if (rt_try(thunk, context) != 0)
    die("VRIR error: %s", rt_last_error());
}

/* ---- the benchmark table ----------------------------------------------- */

enum { C_SER, V_SER, C_PAR, V_PAR, NVAR };
static const char *const variant_names[NVAR] = {"C", "VRIR", "C-omp",
                                                "VRIR-pfor"};

typedef struct Bench Bench;
struct Bench {
  const char *name; /* row of the table, -k/-s/-t selector */
  long n, steps;    /* size and time steps (defaults; -s, -t) */
  int diagnostic;   /* not run by default (-a or -k runs it) */
  void (*setup)(Bench *);
  void (*reset)(void);    /* restores the arrays the kernel writes */
  void (*teardown)(void); /* frees the arrays */
  void (*run[NVAR])(void);
  /* Filled by setup. */
  char sizes[96];
  int outputs;
  const double *out[4];
  size_t out_len[4];
  /* Results. */
  int selected, failed;
  double ms[NVAR], min_ms[NVAR], max_ms[NVAR], max_abs[NVAR], max_rel[NVAR];
};

static void set_outputs(Bench *b, int count, ...) {
  va_list args;
  va_start(args, count);
  b->outputs = count;
  for (int i = 0; i < count; ++i) {
    b->out[i] = va_arg(args, const double *);
    b->out_len[i] = va_arg(args, size_t);
  }
  va_end(args);
}

/* ---- 2-D Jacobi -------------------------------------------------------- */

typedef void (*Jacobi2dFn)(Desc2 *, Desc2 *, int64_t);
static struct {
  long n, steps;
  double *A0, *B0, *A, *B;
  Jacobi2dFn serial, pfor;
} J;

static void jacobi2d_setup(Bench *b) {
  long n = J.n = b->n;
  J.steps = b->steps;
  J.A0 = xalloc(n * n);
  J.B0 = xalloc(n * n);
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      J.A0[i * n + j] = ((double)i * (j + 2) + 2) / n;
      J.B0[i * n + j] = ((double)i * (j + 3) + 3) / n;
    }
  J.A = xdup(J.A0, n * n);
  J.B = xdup(J.B0, n * n);
  void *lib = open_kernel("jacobi2d");
  J.serial = (Jacobi2dFn)entry(lib, "jacobi2d");
  J.pfor = (Jacobi2dFn)entry(lib, "jacobi2d_pfor");
  snprintf(b->sizes, sizeof(b->sizes), "%ldx%ld, %ld steps", n, n, J.steps);
  set_outputs(b, 2, J.A, (size_t)(n * n), J.B, (size_t)(n * n));
}
static void jacobi2d_reset(void) {
  memcpy(J.A, J.A0, sizeof(double) * J.n * J.n);
  memcpy(J.B, J.B0, sizeof(double) * J.n * J.n);
}
static void jacobi2d_teardown(void) {
  free(J.A0), free(J.B0), free(J.A), free(J.B);
}
static void jacobi2d_cs(void) {
  jacobi2d_c(J.n, J.steps, (double(*)[J.n])J.A, (double(*)[J.n])J.B);
}
static void jacobi2d_cp(void) {
  jacobi2d_c_omp(J.n, J.steps, (double(*)[J.n])J.A, (double(*)[J.n])J.B);
}
typedef struct {
  Jacobi2dFn fn;
  Desc2 A, B;
  int64_t steps;
} Jacobi2dCall;
static void jacobi2d_thunk(void *p) {
  Jacobi2dCall *c = p;
  c->fn(&c->A, &c->B, c->steps);
}
static void jacobi2d_vrir(Jacobi2dFn fn) {
  Jacobi2dCall c = {fn, desc2(J.A, J.n, J.n), desc2(J.B, J.n, J.n), J.steps};
  vrir_call(jacobi2d_thunk, &c);
}
static void jacobi2d_vs(void) { jacobi2d_vrir(J.serial); }
static void jacobi2d_vp(void) { jacobi2d_vrir(J.pfor); }

/* ---- 3-D heat ---------------------------------------------------------- */

typedef void (*Heat3dFn)(Desc3 *, Desc3 *, int64_t);
static struct {
  long n, steps;
  double *A0, *A, *B;
  Heat3dFn serial, pfor;
} H;

static void heat3d_setup(Bench *b) {
  long n = H.n = b->n;
  H.steps = b->steps;
  H.A0 = xalloc(n * n * n);
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      for (long k = 0; k < n; k++)
        H.A0[(i * n + j) * n + k] = (double)(i + j + (n - k)) * 10 / n;
  H.A = xdup(H.A0, n * n * n);
  H.B = xdup(H.A0, n * n * n);
  /* heat3d-contract: diagnostics/heat3d_contract.mlir, the same kernel
   * with fastmath<contract> (FMAs allowed, as clang's -ffp-contract=on). */
  int contract = b->diagnostic;
  void *lib = open_kernel(contract ? "heat3d_contract" : "heat3d");
  H.serial = (Heat3dFn)entry(lib, contract ? "heat3d_contract" : "heat3d");
  H.pfor =
      (Heat3dFn)entry(lib, contract ? "heat3d_contract_pfor" : "heat3d_pfor");
  snprintf(b->sizes, sizeof(b->sizes), "%ld^3, %ld steps", n, H.steps);
  set_outputs(b, 2, H.A, (size_t)(n * n * n), H.B, (size_t)(n * n * n));
}
static void heat3d_reset(void) {
  memcpy(H.A, H.A0, sizeof(double) * H.n * H.n * H.n);
  memcpy(H.B, H.A0, sizeof(double) * H.n * H.n * H.n);
}
static void heat3d_teardown(void) { free(H.A0), free(H.A), free(H.B); }
static void heat3d_cs(void) {
  heat3d_c(H.n, H.steps, (double(*)[H.n][H.n])H.A, (double(*)[H.n][H.n])H.B);
}
static void heat3d_cp(void) {
  heat3d_c_omp(H.n, H.steps, (double(*)[H.n][H.n])H.A,
               (double(*)[H.n][H.n])H.B);
}
typedef struct {
  Heat3dFn fn;
  Desc3 A, B;
  int64_t steps;
} Heat3dCall;
static void heat3d_thunk(void *p) {
  Heat3dCall *c = p;
  c->fn(&c->A, &c->B, c->steps);
}
static void heat3d_vrir(Heat3dFn fn) {
  Heat3dCall c = {fn, desc3(H.A, H.n, H.n, H.n), desc3(H.B, H.n, H.n, H.n),
                  H.steps};
  vrir_call(heat3d_thunk, &c);
}
static void heat3d_vs(void) { heat3d_vrir(H.serial); }
static void heat3d_vp(void) { heat3d_vrir(H.pfor); }

/* ---- matrix multiply ---------------------------------------------------- */

typedef void (*MatmulFn)(Desc2 *, Desc2 *, Desc2 *);
static struct {
  long n;
  double *C0, *C, *A, *B;
  MatmulFn serial, pfor;
} M;

static void matmul_setup(Bench *b) {
  long n = M.n = b->n;
  M.C0 = xalloc(n * n);
  M.A = xalloc(n * n);
  M.B = xalloc(n * n);
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      M.C0[i * n + j] = (double)((i * j + 1) % n) / n;
      M.A[i * n + j] = (double)(i * (j + 1) % n) / n;
      M.B[i * n + j] = (double)(i * (j + 2) % n) / n;
    }
  M.C = xdup(M.C0, n * n);
  void *lib = open_kernel("matmul");
  M.serial = (MatmulFn)entry(lib, "matmul");
  M.pfor = (MatmulFn)entry(lib, "matmul_pfor");
  snprintf(b->sizes, sizeof(b->sizes), "%ldx%ld", n, n);
  set_outputs(b, 1, M.C, (size_t)(n * n));
}
static void matmul_reset(void) {
  memcpy(M.C, M.C0, sizeof(double) * M.n * M.n);
}
static void matmul_teardown(void) {
  free(M.C0), free(M.C), free(M.A), free(M.B);
}
static void matmul_cs(void) {
  matmul_c(M.n, M.n, M.n, (double(*)[M.n])M.C, (double(*)[M.n])M.A,
           (double(*)[M.n])M.B);
}
static void matmul_cp(void) {
  matmul_c_omp(M.n, M.n, M.n, (double(*)[M.n])M.C, (double(*)[M.n])M.A,
               (double(*)[M.n])M.B);
}
typedef struct {
  MatmulFn fn;
  Desc2 C, A, B;
} MatmulCall;
static void matmul_thunk(void *p) {
  MatmulCall *c = p;
  c->fn(&c->C, &c->A, &c->B);
}
static void matmul_vrir(MatmulFn fn) {
  MatmulCall c = {fn, desc2(M.C, M.n, M.n), desc2(M.A, M.n, M.n),
                  desc2(M.B, M.n, M.n)};
  vrir_call(matmul_thunk, &c);
}
static void matmul_vs(void) { matmul_vrir(M.serial); }
static void matmul_vp(void) { matmul_vrir(M.pfor); }

/* ---- gemver ------------------------------------------------------------- */

typedef void (*GemverFn)(double, double, Desc2 *, Desc1 *, Desc1 *, Desc1 *,
                         Desc1 *, Desc1 *, Desc1 *, Desc1 *, Desc1 *);
static struct {
  long n;
  double alpha, beta;
  double *A0, *A, *u1, *v1, *u2, *v2, *w, *x, *y, *z;
  GemverFn serial, pfor;
} G;

static void gemver_setup(Bench *b) {
  long n = G.n = b->n;
  double fn = (double)n;
  G.alpha = 1.5;
  G.beta = 1.2;
  G.A0 = xalloc(n * n);
  G.u1 = xalloc(n), G.v1 = xalloc(n), G.u2 = xalloc(n), G.v2 = xalloc(n);
  G.w = xalloc(n), G.x = xalloc(n), G.y = xalloc(n), G.z = xalloc(n);
  for (long i = 0; i < n; i++) {
    G.u1[i] = i;
    G.u2[i] = ((i + 1) / fn) / 2.0;
    G.v1[i] = ((i + 1) / fn) / 4.0;
    G.v2[i] = ((i + 1) / fn) / 6.0;
    G.y[i] = ((i + 1) / fn) / 8.0;
    G.z[i] = ((i + 1) / fn) / 9.0;
    for (long j = 0; j < n; j++)
      G.A0[i * n + j] = (double)(i * j % n) / n;
  }
  G.A = xdup(G.A0, n * n);
  void *lib = open_kernel("gemver");
  G.serial = (GemverFn)entry(lib, "gemver");
  G.pfor = (GemverFn)entry(lib, "gemver_pfor");
  snprintf(b->sizes, sizeof(b->sizes), "n=%ld", n);
  set_outputs(b, 3, G.A, (size_t)(n * n), G.x, (size_t)n, G.w, (size_t)n);
}
static void gemver_reset(void) {
  memcpy(G.A, G.A0, sizeof(double) * G.n * G.n);
  memset(G.w, 0, sizeof(double) * G.n);
  memset(G.x, 0, sizeof(double) * G.n);
}
static void gemver_teardown(void) {
  free(G.A0), free(G.A), free(G.u1), free(G.v1), free(G.u2), free(G.v2);
  free(G.w), free(G.x), free(G.y), free(G.z);
}
static void gemver_cs(void) {
  gemver_c(G.n, G.alpha, G.beta, (double(*)[G.n])G.A, G.u1, G.v1, G.u2, G.v2,
           G.w, G.x, G.y, G.z);
}
static void gemver_cp(void) {
  gemver_c_omp(G.n, G.alpha, G.beta, (double(*)[G.n])G.A, G.u1, G.v1, G.u2,
               G.v2, G.w, G.x, G.y, G.z);
}
typedef struct {
  GemverFn fn;
  double alpha, beta;
  Desc2 A;
  Desc1 u1, v1, u2, v2, w, x, y, z;
} GemverCall;
static void gemver_thunk(void *p) {
  GemverCall *c = p;
  c->fn(c->alpha, c->beta, &c->A, &c->u1, &c->v1, &c->u2, &c->v2, &c->w, &c->x,
        &c->y, &c->z);
}
static void gemver_vrir(GemverFn fn) {
  long n = G.n;
  GemverCall c = {fn,
                  G.alpha,
                  G.beta,
                  desc2(G.A, n, n),
                  desc1(G.u1, n),
                  desc1(G.v1, n),
                  desc1(G.u2, n),
                  desc1(G.v2, n),
                  desc1(G.w, n),
                  desc1(G.x, n),
                  desc1(G.y, n),
                  desc1(G.z, n)};
  vrir_call(gemver_thunk, &c);
}
static void gemver_vs(void) { gemver_vrir(G.serial); }
static void gemver_vp(void) { gemver_vrir(G.pfor); }

/* ---- LU ----------------------------------------------------------------- */

typedef void (*LuFn)(Desc2 *);
static struct {
  long n;
  double *A0, *A;
  LuFn serial;
} L;

static void lu_setup(Bench *b) {
  long n = L.n = b->n;
  L.A0 = xalloc(n * n);
  /* Off-diagonal entries in [0, 1), diagonal n + 1: strictly diagonally
   * dominant, so LU without pivoting is stable. */
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      L.A0[i * n + j] = i == j ? n + 1.0 : (double)((i * j + 1) % n) / n;
  L.A = xdup(L.A0, n * n);
  L.serial = (LuFn)entry(open_kernel("lu"), "lu");
  snprintf(b->sizes, sizeof(b->sizes), "%ldx%ld", n, n);
  set_outputs(b, 1, L.A, (size_t)(n * n));
}
static void lu_reset(void) { memcpy(L.A, L.A0, sizeof(double) * L.n * L.n); }
static void lu_teardown(void) { free(L.A0), free(L.A); }
static void lu_cs(void) { lu_c(L.n, (double(*)[L.n])L.A); }
typedef struct {
  LuFn fn;
  Desc2 A;
} LuCall;
static void lu_thunk(void *p) {
  LuCall *c = p;
  c->fn(&c->A);
}
static void lu_vs(void) {
  LuCall c = {L.serial, desc2(L.A, L.n, L.n)};
  vrir_call(lu_thunk, &c);
}

/* ---- 2-D stencil (thesis figure 9.2) ------------------------------------ */

typedef void (*Stencil2dFn)(Desc2 *, Desc2 *);
static struct {
  long n;
  double *A, *B0, *B;
  Stencil2dFn serial, pfor, pfor_rows;
} S;

static void stencil2d_setup_common(Bench *b) {
  long n = S.n = b->n;
  S.A = xalloc(n * n);
  S.B0 = xalloc(n * n);
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      S.A[i * n + j] = (double)((i * (j + 2) + 2) % 97) / 97;
      S.B0[i * n + j] = -1.0;
    }
  S.B = xdup(S.B0, n * n);
  void *lib = open_kernel("stencil2d");
  S.serial = (Stencil2dFn)entry(lib, "stencil2d");
  S.pfor = (Stencil2dFn)entry(lib, "stencil2d_pfor");
  S.pfor_rows = (Stencil2dFn)entry(lib, "stencil2d_pfor_rows");
  snprintf(b->sizes, sizeof(b->sizes), "%ldx%ld", n, n);
  set_outputs(b, 1, S.B, (size_t)(n * n));
}
static void stencil2d_setup(Bench *b) { stencil2d_setup_common(b); }
static void stencil2d_reset(void) {
  memcpy(S.B, S.B0, sizeof(double) * S.n * S.n);
}
static void stencil2d_teardown(void) { free(S.A), free(S.B0), free(S.B); }
static void stencil2d_cs(void) {
  stencil2d_c(S.n, S.n, (double(*)[S.n])S.A, (double(*)[S.n])S.B);
}
static void stencil2d_cp(void) {
  stencil2d_c_omp(S.n, S.n, (double(*)[S.n])S.A, (double(*)[S.n])S.B);
}
typedef struct {
  Stencil2dFn fn;
  Desc2 A, B;
} Stencil2dCall;
static void stencil2d_thunk(void *p) {
  Stencil2dCall *c = p;
  c->fn(&c->A, &c->B);
}
static void stencil2d_vrir(Stencil2dFn fn) {
  Stencil2dCall c = {fn, desc2(S.A, S.n, S.n), desc2(S.B, S.n, S.n)};
  vrir_call(stencil2d_thunk, &c);
}
static void stencil2d_vs(void) { stencil2d_vrir(S.serial); }
static void stencil2d_vp(void) { stencil2d_vrir(S.pfor); }
static void stencil2d_vp_rows(void) { stencil2d_vrir(S.pfor_rows); }

/* ---- reduction ---------------------------------------------------------- */

typedef double (*SumFn)(Desc1 *);
static struct {
  long n;
  double *x;
  double result;
  SumFn serial;
} R;

static void sum_setup(Bench *b) {
  long n = R.n = b->n;
  R.x = xalloc(n);
  for (long i = 0; i < n; i++)
    R.x[i] = (double)((i * 7919) % 1000) / 1000 + 0.5;
  R.serial = (SumFn)entry(open_kernel("reduction"), "sum");
  snprintf(b->sizes, sizeof(b->sizes), "n=%ld", n);
  set_outputs(b, 1, &R.result, (size_t)1);
}
static void sum_reset(void) { R.result = 0; }
static void sum_teardown(void) { free(R.x); }
static void sum_cs(void) { R.result = sum_c(R.n, R.x); }
typedef struct {
  SumFn fn;
  Desc1 x;
  double result;
} SumCall;
static void sum_thunk(void *p) {
  SumCall *c = p;
  c->result = c->fn(&c->x);
}
static void sum_vs(void) {
  SumCall c = {R.serial, desc1(R.x, R.n), 0};
  vrir_call(sum_thunk, &c);
  R.result = c.result;
}

/* ---- the table ----------------------------------------------------------- */

static Bench benches[] = {
    {"jacobi2d",
     2000,
     10,
     0,
     jacobi2d_setup,
     jacobi2d_reset,
     jacobi2d_teardown,
     {jacobi2d_cs, jacobi2d_vs, jacobi2d_cp, jacobi2d_vp}},
    {"heat3d",
     200,
     10,
     0,
     heat3d_setup,
     heat3d_reset,
     heat3d_teardown,
     {heat3d_cs, heat3d_vs, heat3d_cp, heat3d_vp}},
    {"stencil2d",
     5000,
     1,
     0,
     stencil2d_setup,
     stencil2d_reset,
     stencil2d_teardown,
     {stencil2d_cs, stencil2d_vs, stencil2d_cp, stencil2d_vp}},
    {"stencil2d-rows",
     5000,
     1,
     0,
     stencil2d_setup,
     stencil2d_reset,
     stencil2d_teardown,
     {stencil2d_cs, stencil2d_vs, stencil2d_cp, stencil2d_vp_rows}},
    {"matmul",
     1000,
     1,
     0,
     matmul_setup,
     matmul_reset,
     matmul_teardown,
     {matmul_cs, matmul_vs, matmul_cp, matmul_vp}},
    {"gemver",
     4000,
     1,
     0,
     gemver_setup,
     gemver_reset,
     gemver_teardown,
     {gemver_cs, gemver_vs, gemver_cp, gemver_vp}},
    {"lu",
     1000,
     1,
     0,
     lu_setup,
     lu_reset,
     lu_teardown,
     {lu_cs, lu_vs, NULL, NULL}},
    {"reduction",
     32000000,
     1,
     0,
     sum_setup,
     sum_reset,
     sum_teardown,
     {sum_cs, sum_vs, NULL, NULL}},
    /* Diagnostics (-a, or by name with -k). */
    {"heat3d-contract",
     200,
     10,
     1,
     heat3d_setup,
     heat3d_reset,
     heat3d_teardown,
     {heat3d_cs, heat3d_vs, heat3d_cp, heat3d_vp}},
};
enum { NBENCH = sizeof(benches) / sizeof(benches[0]) };

/* Relative tolerance of a variant against the serial C result. The C peer
 * may contract a*b+c into an FMA (clang's default -ffp-contract=on) where
 * VRIR rounds twice, so results agree closely but not bit for bit. */
static const double kTolerance = 1e-9;

static int verify(Bench *b, int variant, double *const *reference) {
  double max_abs = 0, max_rel = 0;
  int bad = 0;
  for (int o = 0; o < b->outputs; ++o) {
    double scale = 0;
    for (size_t i = 0; i < b->out_len[o]; ++i)
      scale = fmax(scale, fabs(reference[o][i]));
    for (size_t i = 0; i < b->out_len[o]; ++i) {
      double want = reference[o][i], got = b->out[o][i];
      double diff = fabs(got - want);
      if (!(diff <= kTolerance * (fabs(want) + 1e-6 * scale)))
        bad = 1; /* also catches NaN */
      max_abs = fmax(max_abs, diff);
      if (fabs(want) > 1e-6 * scale)
        max_rel = fmax(max_rel, diff / fabs(want));
      if (isnan(got) && !isnan(want))
        max_abs = max_rel = INFINITY;
    }
  }
  b->max_abs[variant] = max_abs;
  b->max_rel[variant] = max_rel;
  if (bad)
    fprintf(stderr,
            "vrir-bench: VERIFICATION FAILED: %s: %s differs from C: max abs "
            "error %.3g, max rel error %.3g (tolerance %.1g)\n",
            b->name, variant_names[variant], max_abs, max_rel, kTolerance);
  return !bad;
}

/* Runs variant v from the kernel's initial state and checks it against the
 * serial C result. */
static void check_variant(Bench *b, int v, double *const *reference) {
  b->reset();
  b->run[v]();
  if (!verify(b, v, reference))
    b->failed = 1;
  else
    fprintf(stderr,
            "   %-9s agrees with C: max abs err %.3g, max rel err %.3g\n",
            variant_names[v], b->max_abs[v], b->max_rel[v]);
}

/* Times variants v0 and v1 alternately, `reps` runs each, every other round
 * in reverse order; each run starts from the kernel's initial state. */
static void time_pair(Bench *b, int v0, int v1, int reps,
                      double times[NVAR][reps]) {
  for (int r = 0; r < reps; ++r)
    for (int k = 0; k < 2; ++k) {
      int v = (k == 0) == (r % 2 == 0) ? v0 : v1;
      if (!b->run[v])
        continue;
      b->reset();
      double start = now_ms();
      b->run[v]();
      times[v][r] = now_ms() - start;
    }
}

static void run_bench(Bench *b, int reps) {
  b->setup(b);
  fprintf(stderr, "== %s (%s)\n", b->name, b->sizes);
  /* The serial C result is the reference for every other variant. */
  double *reference[4];
  b->reset();
  b->run[C_SER]();
  for (int o = 0; o < b->outputs; ++o)
    reference[o] = xdup(b->out[o], b->out_len[o]);
  double times[NVAR][reps];
  /* Serial variants first, parallel ones after: after a parallel region the
   * OpenMP workers spin for a while (KMP_BLOCKTIME, 200 ms by default) and
   * would disturb a serial run that follows. The pause lets the workers of
   * the previous kernel go to sleep. */
  check_variant(b, V_SER, reference);
  if (!b->failed) {
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    time_pair(b, C_SER, V_SER, reps, times);
    for (int v = C_PAR; v <= V_PAR; ++v)
      if (b->run[v])
        check_variant(b, v, reference);
  }
  if (!b->failed)
    time_pair(b, C_PAR, V_PAR, reps, times);
  for (int o = 0; o < b->outputs; ++o)
    free(reference[o]);
  if (b->failed) {
    b->teardown();
    return;
  }
  for (int v = 0; v < NVAR; ++v) {
    if (!b->run[v])
      continue;
    b->ms[v] = median(times[v], reps);
    b->min_ms[v] = b->max_ms[v] = times[v][0];
    for (int r = 1; r < reps; ++r) {
      b->min_ms[v] = fmin(b->min_ms[v], times[v][r]);
      b->max_ms[v] = fmax(b->max_ms[v], times[v][r]);
    }
    fprintf(stderr, "   %-9s median %9.2f ms  (min %9.2f, max %9.2f)\n",
            variant_names[v], b->ms[v], b->min_ms[v], b->max_ms[v]);
  }
  b->teardown();
}

static Bench *find_bench(const char *name, size_t length) {
  for (int i = 0; i < NBENCH; ++i)
    if (strlen(benches[i].name) == length &&
        strncmp(benches[i].name, name, length) == 0)
      return &benches[i];
  die("no kernel named '%.*s'", (int)length, name);
  return NULL;
}

static void set_param(const char *spec, int steps) {
  const char *eq = strchr(spec, '=');
  if (!eq)
    die("expected KERNEL=VALUE, got '%s'", spec);
  long value = atol(eq + 1);
  if (value <= 0)
    die("bad value in '%s'", spec);
  Bench *b = find_bench(spec, eq - spec);
  if (steps)
    b->steps = value;
  else
    b->n = value;
  /* Rows of one kernel (stencil2d, stencil2d-rows; heat3d,
   * heat3d-contract) share its sizes. */
  size_t stem = strcspn(b->name, "-");
  for (int i = 0; i < NBENCH; ++i)
    if (strncmp(benches[i].name, b->name, stem) == 0 &&
        strcspn(benches[i].name, "-") == stem)
      benches[i].n = b->n, benches[i].steps = b->steps;
}

static void cpu_model(char *out, size_t size) {
  snprintf(out, size, "unknown CPU");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return;
  char line[512];
  while (fgets(line, sizeof(line), f))
    if (strncmp(line, "model name", 10) == 0) {
      char *colon = strchr(line, ':');
      if (colon) {
        colon += 2;
        colon[strcspn(colon, "\n")] = 0;
        snprintf(out, size, "%s", colon);
      }
      break;
    }
  fclose(f);
}

static void fmt_ms(char *out, size_t size, const Bench *b, int v) {
  if (!b->run[v])
    snprintf(out, size, "—");
  else
    snprintf(out, size, "%.1f", b->ms[v]);
}

static void usage(void) {
  fprintf(stderr,
          "usage: vrir-bench [-a] [-d DIR] [-r REPS] [-k KERNEL,...] "
          "[-s KERNEL=N] [-t KERNEL=STEPS]\n"
          "  -d DIR  directory of the kernel .so files (default: this "
          "program's)\n"
          "  -a      also run the diagnostic rows\n"
          "  -r N    timed runs per variant (default 7); medians reported\n"
          "  -k ...  kernels to run (default all):");
  for (int i = 0; i < NBENCH; ++i)
    fprintf(stderr, " %s", benches[i].name);
  fprintf(stderr,
          "\n  -s K=N  problem size of kernel K; -t K=T time steps\n"
          "OMP_NUM_THREADS sets the threads of the parallel variants.\n");
  exit(2);
}

int main(int argc, char **argv) {
  int reps = 7;
  const char *only = NULL;
  /* Default library directory: the one holding this program. */
  ssize_t length = readlink("/proc/self/exe", lib_dir, sizeof(lib_dir) - 1);
  if (length > 0) {
    lib_dir[length] = 0;
    char *slash = strrchr(lib_dir, '/');
    if (slash)
      *slash = 0;
  } else {
    strcpy(lib_dir, ".");
  }
  int opt;
  int all = 0;
  while ((opt = getopt(argc, argv, "ad:r:k:s:t:h")) != -1) {
    switch (opt) {
    case 'a':
      all = 1;
      break;
    case 'd':
      snprintf(lib_dir, sizeof(lib_dir), "%s", optarg);
      break;
    case 'r':
      reps = atoi(optarg);
      if (reps < 1)
        die("-r wants a positive count");
      break;
    case 'k':
      only = optarg;
      break;
    case 's':
      set_param(optarg, 0);
      break;
    case 't':
      set_param(optarg, 1);
      break;
    default:
      usage();
    }
  }
  for (int i = 0; i < NBENCH; ++i)
    benches[i].selected = only == NULL && (all || !benches[i].diagnostic);
  if (only) {
    for (const char *p = only; *p;) {
      size_t len = strcspn(p, ",");
      find_bench(p, len)->selected = 1;
      p += len;
      if (*p == ',')
        ++p;
    }
  }

  char cpu[256], date[64];
  cpu_model(cpu, sizeof(cpu));
  time_t t = time(NULL);
  strftime(date, sizeof(date), "%Y-%m-%d %H:%M", localtime(&t));
  int threads = omp_get_max_threads();
  fprintf(stderr,
          "vrir-bench: %s, %d OpenMP threads, %ld CPUs online, %d runs "
          "each, libraries in %s\n",
          cpu, threads, sysconf(_SC_NPROCESSORS_ONLN), reps, lib_dir);

  install_specializer();
  int failures = 0;
  for (int i = 0; i < NBENCH; ++i)
    if (benches[i].selected) {
      run_bench(&benches[i], reps);
      failures += benches[i].failed;
    }
  print_region_stats();

  printf("Measured %s on %s (%ld CPUs online), OMP_NUM_THREADS=%d, median of "
         "%d runs.\n\n",
         date, cpu, sysconf(_SC_NPROCESSORS_ONLN), threads, reps);
  printf("| kernel | size | C ms | VRIR ms | VRIR/C | VRIR/C (min) | C-omp ms "
         "| VRIR-pfor ms | C-omp speedup | VRIR-pfor speedup | pfor/omp "
         "| max rel err |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int i = 0; i < NBENCH; ++i) {
    Bench *b = &benches[i];
    if (!b->selected)
      continue;
    if (b->failed) {
      printf(
          "| %s | %s | FAILED: results differ from C (see stderr) ||||||||||\n",
          b->name, b->sizes);
      continue;
    }
    char cs[32], vs[32], cp[32], vp[32], csp[32] = "—", vsp[32] = "—",
                                         ratio_par[32] = "—";
    fmt_ms(cs, sizeof(cs), b, C_SER);
    fmt_ms(vs, sizeof(vs), b, V_SER);
    fmt_ms(cp, sizeof(cp), b, C_PAR);
    fmt_ms(vp, sizeof(vp), b, V_PAR);
    if (b->run[C_PAR])
      snprintf(csp, sizeof(csp), "%.2fx", b->ms[C_SER] / b->ms[C_PAR]);
    if (b->run[V_PAR])
      snprintf(vsp, sizeof(vsp), "%.2fx", b->ms[V_SER] / b->ms[V_PAR]);
    if (b->run[C_PAR] && b->run[V_PAR])
      snprintf(ratio_par, sizeof(ratio_par), "%.2f",
               b->ms[V_PAR] / b->ms[C_PAR]);
    double err = 0;
    for (int v = 1; v < NVAR; ++v)
      if (b->run[v])
        err = fmax(err, b->max_rel[v]);
    printf("| %s | %s | %s | %s | %.2f | %.2f | %s | %s | %s | %s | %s | %.1e "
           "|\n",
           b->name, b->sizes, cs, vs, b->ms[V_SER] / b->ms[C_SER],
           b->min_ms[V_SER] / b->min_ms[C_SER], cp, vp, csp, vsp, ratio_par,
           err);
  }
  if (failures) {
    fprintf(stderr, "vrir-bench: %d kernel(s) FAILED verification\n", failures);
    return 1;
  }
  return 0;
}
