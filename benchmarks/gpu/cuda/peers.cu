// Hand-written CUDA C peers of the VRIR GPU benchmark kernels
// (benchmarks/gpu/kernels.mlir, benchmarks/gpu/README.md).
//
// Every kernel is written the obvious good way: one thread per element,
// coalesced accesses, 256-thread blocks (32x8 for 2-D kernels, the block
// shapes VRIR picks), no bounds checks beyond the grid guard. Data is
// resident on the device; a "step" is what one iteration of the host loop
// of the VRIR function does. Per kernel: `warmup` steps, then `reps`
// repetitions of `steps` steps timed with cudaEvents; the per-step time is
// (elapsed / steps), and the median and min over the repetitions are
// printed as one JSON line on stdout. Diagnostics go to stderr.
//
// Kernels (names as in kernels.mlir):
//   triad          a[i] = b[i] + s*c[i], f64
//   jacobi2d       PolyBench jacobi-2d: two 5-point sweeps A->B, B->A, f64
//   sum            whole-array f64 sum: block reduction in shared memory
//                  (grid-stride, at most 1024 blocks) + one-block second
//                  pass, and the 8-byte result copied to the host and added
//                  to a host scalar every step (what VRIR's `sum` does)
//   sum_device     the same without the per-step copy to the host (the
//                  second pass adds into a device accumulator); reference
//   matmul         C = A @ B, f64, 32x32 shared-memory tiles (1024 threads)
//   matmul_naive   C = A @ B, one thread per element of C, 32x8 blocks, no
//                  tiling (the shape of VRIR's kernels); reference
//   matmul_cublas  cublasDgemm (libcublas loaded with dlopen at run time,
//                  so the binary needs no cuBLAS to build or to run the
//                  other kernels; skipped when it cannot be loaded)
//   scale_cm       B = alpha * A, f32 column-major (flat, first index fast)
//   sgemm          C = A @ B, f32, the same 32x32 shared-memory tiles
//   sgemm_cublas   cublasSgemm, default math mode (no TF32)
//
// Build (static cudart; see build.sh):
//   nvcc -O3 -arch=sm_90 -cudart static -o build/peers cuda/peers.cu -ldl
//
// Usage:
//   peers [--sizes small|h100] [--kernels k1,k2,...|all]
//         [--n KERNEL=N]... [--steps KERNEL=S]... [--reps R] [--warmup W]
//         [--check] [--cublas-lib PATH] [--device D]
//   --n sets the problem size (triad/sum: elements; jacobi2d/matmul*: N of
//   NxN; scale_cm: N of NxN). --check compares each result with a host
//   computation (use small sizes). Exit status 1 on a CUDA error or a
//   failed check.

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "peers: CUDA error %s at %s:%d: %s\n",              \
                   cudaGetErrorName(err_), __FILE__, __LINE__,                 \
                   cudaGetErrorString(err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// Deterministic pseudo-random values in [0, 1) from an index (device init:
// no host arrays of GiBs, no transfers).
__host__ __device__ inline double hashUnit(uint64_t i, uint64_t seed) {
  uint64_t z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

__global__ void fillKernel(double *x, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    x[i] = hashUnit(i, seed);
}

__global__ void fillKernelF32(float *x, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    x[i] = (float)hashUnit(i, seed);
}

__global__ void triadKernel(double *__restrict__ a,
                            const double *__restrict__ b,
                            const double *__restrict__ c, double s,
                            int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

// One sweep of the interior: out[i][j] = 0.2 * (5-point sum of in), the
// additions in the order of kernels.mlir. x = j (contiguous), y = i.
__global__ void jacobiSweep(const double *__restrict__ in,
                            double *__restrict__ out, int64_t n) {
  int64_t j = 1 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  int64_t i = 1 + blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
  if (i < n - 1 && j < n - 1) {
    const double *row = in + i * n;
    double s = row[j] + row[j - 1];
    s = s + row[j + 1];
    s = s + row[j + n];
    s = s + row[j - n];
    out[i * n + j] = s * 0.2;
  }
}

// Block reduction of a grid-strided share; block size 256 (power of two).
template <int BLOCK>
__global__ void sumPartial(const double *__restrict__ x, int64_t n,
                           double *__restrict__ partial) {
  __shared__ double shared[BLOCK];
  double acc = 0.0;
  for (int64_t i = blockIdx.x * (int64_t)BLOCK + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * BLOCK)
    acc += x[i];
  shared[threadIdx.x] = acc;
  __syncthreads();
  for (int half = BLOCK / 2; half > 32; half /= 2) {
    if (threadIdx.x < half)
      shared[threadIdx.x] += shared[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    double v = shared[threadIdx.x] + shared[threadIdx.x + 32];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0)
      partial[blockIdx.x] = v;
  }
}

// Second pass: one block of 1024 threads over the partial sums. `add`
// accumulates into *out instead of overwriting it.
__global__ void sumFinal(const double *__restrict__ partial, int count,
                         double *__restrict__ out, int add) {
  __shared__ double shared[1024];
  double acc = 0.0;
  for (int i = threadIdx.x; i < count; i += 1024)
    acc += partial[i];
  shared[threadIdx.x] = acc;
  __syncthreads();
  for (int half = 512; half > 32; half /= 2) {
    if (threadIdx.x < half)
      shared[threadIdx.x] += shared[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    double v = shared[threadIdx.x] + shared[threadIdx.x + 32];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x == 0)
      *out = add ? *out + v : v;
  }
}

// 32x32 shared-memory tiles, one thread per element of C.
constexpr int TILE = 32;
template <typename T>
__global__ void matmulTiled(const T *__restrict__ A, const T *__restrict__ B,
                            T *__restrict__ C, int n) {
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  T acc = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = (row < n && k0 + tx < n) ? A[(int64_t)row * n + k0 + tx] : T(0);
    Bs[ty][tx] = (k0 + ty < n && col < n) ? B[(int64_t)(k0 + ty) * n + col] : T(0);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[(int64_t)row * n + col] = acc;
}

// No tiling: one thread per element of C, a serial dot product (x = j).
template <typename T>
__global__ void matmulNaive(const T *__restrict__ A, const T *__restrict__ B,
                            T *__restrict__ C, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    T acc = 0;
    for (int k = 0; k < n; ++k)
      acc += A[(int64_t)i * n + k] * B[(int64_t)k * n + j];
    C[(int64_t)i * n + j] = acc;
  }
}

// B = alpha * A on an m x n column-major f32 matrix: x = i (contiguous).
__global__ void scaleColMajor(const float *__restrict__ A,
                              float *__restrict__ B, float alpha, int64_t m,
                              int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  int64_t j = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
  if (i < m && j < n)
    B[j * m + i] = alpha * A[j * m + i];
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

namespace {

struct Options {
  std::string sizes = "h100";
  std::vector<std::string> kernels;
  std::map<std::string, int64_t> n, steps;
  int reps = 7;
  int warmup = 3;
  bool check = false;
  std::string cublasLib;
  int device = 0;
};

const char *kAllKernels[] = {"triad",        "jacobi2d",     "sum",
                             "sum_device",   "matmul",       "matmul_naive",
                             "matmul_cublas", "scale_cm",    "sgemm",
                             "sgemm_cublas"};

// Default sizes and step counts: "h100" (the benchmark) and "small".
int64_t defaultN(const std::string &sizes, const std::string &kernel) {
  bool big = sizes == "h100";
  if (kernel == "triad" || kernel == "sum" || kernel == "sum_device")
    return big ? (int64_t(1) << 27) : (int64_t(1) << 22);
  if (kernel == "jacobi2d")
    return big ? 8192 : 1024;
  if (kernel == "scale_cm")
    return big ? 16384 : 1024;
  return big ? 4096 : 512; // matmul*, sgemm*
}

int64_t defaultSteps(const std::string &sizes, const std::string &kernel) {
  if (kernel.rfind("matmul", 0) == 0 || kernel.rfind("sgemm", 0) == 0)
    return sizes == "h100" ? 5 : 10;
  return 100;
}

[[noreturn]] void usage(const char *message) {
  std::fprintf(stderr,
               "peers: %s\nusage: peers [--sizes small|h100] [--kernels "
               "k1,k2,...|all] [--n KERNEL=N]... [--steps KERNEL=S]... "
               "[--reps R] [--warmup W] [--check] [--cublas-lib PATH] "
               "[--device D]\n",
               message);
  std::exit(2);
}

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t at = text.find(sep, start);
    std::string part = text.substr(start, at - start);
    if (!part.empty())
      parts.push_back(part);
    if (at == std::string::npos)
      break;
    start = at + 1;
  }
  return parts;
}

void parseKeyValue(const std::string &text, std::map<std::string, int64_t> &into,
                   const char *option) {
  size_t eq = text.find('=');
  if (eq == std::string::npos)
    usage((std::string(option) + " expects KERNEL=VALUE").c_str());
  char *end = nullptr;
  long long value = std::strtoll(text.c_str() + eq + 1, &end, 10);
  if (*end || value <= 0)
    usage((std::string(option) + ": bad value in '" + text + "'").c_str());
  into[text.substr(0, eq)] = value;
}

Options parseOptions(int argc, char **argv) {
  Options options;
  std::string kernels = "all";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage((arg + " needs a value").c_str());
      return argv[++i];
    };
    if (arg == "--sizes")
      options.sizes = value();
    else if (arg == "--kernels")
      kernels = value();
    else if (arg == "--n")
      parseKeyValue(value(), options.n, "--n");
    else if (arg == "--steps")
      parseKeyValue(value(), options.steps, "--steps");
    else if (arg == "--reps")
      options.reps = std::atoi(value().c_str());
    else if (arg == "--warmup")
      options.warmup = std::atoi(value().c_str());
    else if (arg == "--check")
      options.check = true;
    else if (arg == "--cublas-lib")
      options.cublasLib = value();
    else if (arg == "--device")
      options.device = std::atoi(value().c_str());
    else if (arg == "-h" || arg == "--help")
      usage("help");
    else
      usage(("unknown option " + arg).c_str());
  }
  if (options.sizes != "h100" && options.sizes != "small")
    usage("--sizes must be small or h100");
  if (options.reps < 1 || options.warmup < 0)
    usage("--reps must be >= 1 and --warmup >= 0");
  if (kernels == "all")
    options.kernels.assign(std::begin(kAllKernels), std::end(kAllKernels));
  else
    options.kernels = split(kernels, ',');
  for (const std::string &k : options.kernels)
    if (std::find(std::begin(kAllKernels), std::end(kAllKernels), k) ==
        std::end(kAllKernels))
      usage(("unknown kernel " + k).c_str());
  return options;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

unsigned blocksFor(int64_t count, int block) {
  return (unsigned)((count + block - 1) / block);
}

void fill(double *x, int64_t n, uint64_t seed) {
  fillKernel<<<std::min<int64_t>(blocksFor(n, 256), 65536), 256>>>(x, n, seed);
  CHECK_CUDA(cudaGetLastError());
}

void fill(float *x, int64_t n, uint64_t seed) {
  fillKernelF32<<<std::min<int64_t>(blocksFor(n, 256), 65536), 256>>>(x, n,
                                                                       seed);
  CHECK_CUDA(cudaGetLastError());
}

template <typename T> std::vector<T> download(const T *x, int64_t n) {
  std::vector<T> host(n);
  CHECK_CUDA(
      cudaMemcpy(host.data(), x, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// Times `step` (one step, enqueued on the default stream): warm-up, then
// `reps` x `steps` steps between two events. Returns per-step ms.
template <typename Step>
std::vector<double> timeSteps(const Options &options, int64_t steps,
                              Step step) {
  for (int w = 0; w < options.warmup; ++w)
    step();
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<double> perStep;
  for (int r = 0; r < options.reps; ++r) {
    CHECK_CUDA(cudaEventRecord(start));
    for (int64_t s = 0; s < steps; ++s)
      step();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaGetLastError());
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    perStep.push_back(ms / steps);
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  return perStep;
}

struct Result {
  std::string kernel, size, note;
  int64_t n = 0, steps = 0;
  std::vector<double> perStep;
  double bytes = 0, flops = 0;
  bool checked = false, ok = true;
  double maxRelErr = 0;
};

void printResult(const Result &r, const std::string &deviceName) {
  double med = median(r.perStep);
  double mn = *std::min_element(r.perStep.begin(), r.perStep.end());
  std::printf("{\"impl\": \"cuda\", \"kernel\": \"%s\", \"size\": \"%s\", "
              "\"n\": %lld, \"steps\": %lld, \"reps\": %zu, "
              "\"ms_per_step\": %.6f, \"ms_per_step_min\": %.6f, "
              "\"bytes_per_step\": %.0f, \"flops_per_step\": %.0f, "
              "\"gb_per_s\": %.2f, \"gflop_per_s\": %.2f",
              r.kernel.c_str(), r.size.c_str(), (long long)r.n,
              (long long)r.steps, r.perStep.size(), med, mn, r.bytes, r.flops,
              r.bytes / (med * 1e6), r.flops / (med * 1e6));
  if (r.checked)
    std::printf(", \"check\": \"%s\", \"max_rel_err\": %.3e",
                r.ok ? "ok" : "FAILED", r.maxRelErr);
  if (!r.note.empty())
    std::printf(", \"note\": \"%s\"", r.note.c_str());
  std::printf(", \"device\": \"%s\"}\n", deviceName.c_str());
  std::fflush(stdout);
}

// Max relative error of `got` against `want` (relative to max |want|).
double maxRelError(const std::vector<double> &got,
                   const std::vector<double> &want) {
  double scale = 0, err = 0;
  for (double w : want)
    scale = std::max(scale, std::fabs(w));
  if (scale == 0)
    scale = 1;
  for (size_t i = 0; i < got.size(); ++i) {
    double e = std::fabs(got[i] - want[i]);
    if (!(e <= err)) // NaN-safe
      err = e;
  }
  return err / scale;
}

void finishCheck(Result &r, double err, double tolerance) {
  r.checked = true;
  r.maxRelErr = err;
  r.ok = err <= tolerance;
  if (!r.ok)
    std::fprintf(stderr, "peers: %s: check FAILED (max rel err %.3e)\n",
                 r.kernel.c_str(), err);
}

//===----------------------------------------------------------------------===//
// cuBLAS through dlopen
//===----------------------------------------------------------------------===//

// The few cuBLAS v2 entry points, by their ABI (cublas_api.h): handles are
// pointers, enums are ints, status 0 is success.
typedef int (*CublasCreate)(void **);
typedef int (*CublasDestroy)(void *);
typedef int (*CublasDgemm)(void *, int, int, int, int, int, const double *,
                           const double *, int, const double *, int,
                           const double *, double *, int);
typedef int (*CublasSgemm)(void *, int, int, int, int, int, const float *,
                           const float *, int, const float *, int,
                           const float *, float *, int);

struct Cublas {
  void *library = nullptr;
  CublasCreate create = nullptr;
  CublasDestroy destroy = nullptr;
  CublasDgemm dgemm = nullptr;
  CublasSgemm sgemm = nullptr;
  std::string error;

  int gemm(void *handle, int n, const double *A, const double *B,
           double *C) const {
    const double one = 1.0, zero = 0.0;
    return dgemm(handle, 0 /*N*/, 0 /*N*/, n, n, n, &one, B, n, A, n, &zero,
                 C, n);
  }
  int gemm(void *handle, int n, const float *A, const float *B,
           float *C) const {
    const float one = 1.0f, zero = 0.0f;
    return sgemm(handle, 0 /*N*/, 0 /*N*/, n, n, n, &one, B, n, A, n, &zero,
                 C, n);
  }
};

Cublas loadCublas(const std::string &path) {
  Cublas c;
  std::vector<std::string> names;
  if (!path.empty())
    names.push_back(path);
  for (const char *dir : {"", "/usr/local/cuda/lib64/",
                          "/usr/local/cuda/targets/x86_64-linux/lib/"})
    for (const char *base :
         {"libcublas.so.13", "libcublas.so.12", "libcublas.so"})
      names.push_back(std::string(dir) + base);
  for (const std::string &name : names) {
    c.library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (c.library)
      break;
    c.error += std::string(dlerror()) + "; ";
  }
  if (!c.library)
    return c;
  c.create = (CublasCreate)dlsym(c.library, "cublasCreate_v2");
  c.destroy = (CublasDestroy)dlsym(c.library, "cublasDestroy_v2");
  c.dgemm = (CublasDgemm)dlsym(c.library, "cublasDgemm_v2");
  c.sgemm = (CublasSgemm)dlsym(c.library, "cublasSgemm_v2");
  if (!c.create || !c.destroy || !c.dgemm || !c.sgemm) {
    c.error = "libcublas lacks cublasCreate_v2/cublasDgemm_v2/cublasSgemm_v2";
    dlclose(c.library);
    c.library = nullptr;
  }
  return c;
}

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

Result runTriad(const Options &o, int64_t n, int64_t steps) {
  Result r;
  r.kernel = "triad";
  r.n = n;
  r.steps = steps;
  r.size = std::to_string(n);
  r.bytes = 3.0 * 8 * n;
  r.flops = 2.0 * n;
  double *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, n * 8));
  CHECK_CUDA(cudaMalloc(&b, n * 8));
  CHECK_CUDA(cudaMalloc(&c, n * 8));
  fill(a, n, 1);
  fill(b, n, 2);
  fill(c, n, 3);
  const double s = 3.0;
  r.perStep = timeSteps(o, steps, [&] {
    triadKernel<<<blocksFor(n, 256), 256>>>(a, b, c, s, n);
  });
  if (o.check) {
    std::vector<double> ha = download(a, n), hb = download(b, n),
                        hc = download(c, n), want(n);
    for (int64_t i = 0; i < n; ++i)
      want[i] = hb[i] + s * hc[i];
    finishCheck(r, maxRelError(ha, want), 1e-15);
  }
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  CHECK_CUDA(cudaFree(c));
  return r;
}

void jacobiHost(std::vector<double> &A, std::vector<double> &B, int64_t n,
                int64_t steps) {
  auto sweep = [n](const std::vector<double> &in, std::vector<double> &out) {
    for (int64_t i = 1; i < n - 1; ++i)
      for (int64_t j = 1; j < n - 1; ++j) {
        const double *row = &in[i * n];
        double s = row[j] + row[j - 1];
        s = s + row[j + 1];
        s = s + row[j + n];
        s = s + row[j - n];
        out[i * n + j] = s * 0.2;
      }
  };
  for (int64_t t = 0; t < steps; ++t) {
    sweep(A, B);
    sweep(B, A);
  }
}

Result runJacobi(const Options &o, int64_t n, int64_t steps) {
  Result r;
  r.kernel = "jacobi2d";
  r.n = n;
  r.steps = steps;
  r.size = std::to_string(n) + "x" + std::to_string(n);
  // Per step two sweeps; each reads A once (n^2) and writes the interior.
  double interior = double(n - 2) * double(n - 2);
  r.bytes = 2.0 * 8 * (double(n) * n + interior);
  r.flops = 2.0 * 5 * interior;
  int64_t count = n * n;
  double *A, *B;
  CHECK_CUDA(cudaMalloc(&A, count * 8));
  CHECK_CUDA(cudaMalloc(&B, count * 8));
  fill(A, count, 4);
  fill(B, count, 5);
  std::vector<double> hostA, hostB;
  if (o.check) {
    hostA = download(A, count);
    hostB = download(B, count);
  }
  dim3 block(32, 8);
  dim3 grid(blocksFor(n - 2, 32), blocksFor(n - 2, 8));
  auto step = [&] {
    jacobiSweep<<<grid, block>>>(A, B, n);
    jacobiSweep<<<grid, block>>>(B, A, n);
  };
  r.perStep = timeSteps(o, steps, step);
  if (o.check) {
    jacobiHost(hostA, hostB, n, o.warmup + int64_t(o.reps) * steps);
    double e = std::max(maxRelError(download(A, count), hostA),
                        maxRelError(download(B, count), hostB));
    finishCheck(r, e, 1e-15);
  }
  CHECK_CUDA(cudaFree(A));
  CHECK_CUDA(cudaFree(B));
  return r;
}

Result runSum(const Options &o, int64_t n, int64_t steps, bool readback) {
  Result r;
  r.kernel = readback ? "sum" : "sum_device";
  r.note = readback ? "result copied to the host every step"
                    : "result stays on the device";
  r.n = n;
  r.steps = steps;
  r.size = std::to_string(n);
  r.bytes = 8.0 * n;
  r.flops = double(n);
  double *x, *partial, *result;
  constexpr int kBlock = 256;
  int groups = (int)std::min<int64_t>(1024, blocksFor(n, kBlock));
  CHECK_CUDA(cudaMalloc(&x, n * 8));
  CHECK_CUDA(cudaMalloc(&partial, groups * 8));
  CHECK_CUDA(cudaMalloc(&result, 8));
  CHECK_CUDA(cudaMemset(result, 0, 8));
  fill(x, n, 6);
  double *hostValue;
  CHECK_CUDA(cudaMallocHost(&hostValue, 8));
  double total = 0;
  int64_t stepsRun = 0;
  auto step = [&] {
    sumPartial<kBlock><<<groups, kBlock>>>(x, n, partial);
    sumFinal<<<1, 1024>>>(partial, groups, result, readback ? 0 : 1);
    if (readback) {
      CHECK_CUDA(cudaMemcpy(hostValue, result, 8, cudaMemcpyDeviceToHost));
      total += *hostValue;
    }
    ++stepsRun;
  };
  r.perStep = timeSteps(o, steps, step);
  if (!readback)
    CHECK_CUDA(cudaMemcpy(&total, result, 8, cudaMemcpyDeviceToHost));
  if (o.check) {
    std::vector<double> hx = download(x, n);
    long double want = 0;
    for (double v : hx)
      want += v;
    want *= stepsRun;
    double err = std::fabs((double)(total - want)) / std::fabs((double)want);
    finishCheck(r, err, 1e-12);
  }
  CHECK_CUDA(cudaFreeHost(hostValue));
  CHECK_CUDA(cudaFree(x));
  CHECK_CUDA(cudaFree(partial));
  CHECK_CUDA(cudaFree(result));
  return r;
}

template <typename T>
Result runMatmul(const Options &o, const std::string &kernel, int64_t n64,
                 int64_t steps, const Cublas *cublas) {
  Result r;
  r.kernel = kernel;
  r.n = n64;
  r.steps = steps;
  r.size = std::to_string(n64) + "x" + std::to_string(n64);
  int n = (int)n64;
  r.flops = 2.0 * double(n) * n * n;
  r.bytes = 3.0 * sizeof(T) * double(n) * n;
  int64_t count = n64 * n64;
  T *A, *B, *C;
  CHECK_CUDA(cudaMalloc(&A, count * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&B, count * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&C, count * sizeof(T)));
  fill(A, count, 7);
  fill(B, count, 8);
  CHECK_CUDA(cudaMemset(C, 0, count * sizeof(T)));
  void *handle = nullptr;
  bool single = sizeof(T) == 4;
  if (kernel == "matmul" || kernel == "sgemm") {
    dim3 block(TILE, TILE), grid(blocksFor(n, TILE), blocksFor(n, TILE));
    r.perStep = timeSteps(o, steps, [&] {
      matmulTiled<<<grid, block>>>(A, B, C, n);
    });
  } else if (kernel == "matmul_naive") {
    dim3 block(32, 8), grid(blocksFor(n, 32), blocksFor(n, 8));
    r.perStep = timeSteps(o, steps, [&] {
      matmulNaive<<<grid, block>>>(A, B, C, n);
    });
  } else {
    if (cublas->create(&handle) != 0) {
      std::fprintf(stderr, "peers: cublasCreate failed\n");
      std::exit(1);
    }
    // Row-major C = A @ B is column-major C^T = B^T @ A^T: gemm(B, A).
    r.perStep = timeSteps(o, steps, [&] {
      int status = cublas->gemm(handle, n, A, B, C);
      if (status != 0) {
        std::fprintf(stderr, "peers: cuBLAS gemm failed: status %d\n",
                     status);
        std::exit(1);
      }
    });
    r.note = single ? "cuBLAS SGEMM, default math mode (no TF32)"
                    : "cuBLAS DGEMM, default math mode";
  }
  if (o.check) {
    std::vector<T> ha = download(A, count), hb = download(B, count),
                   hc = download(C, count);
    std::vector<double> want(count, 0.0), got(hc.begin(), hc.end());
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) {
        double a = ha[(int64_t)i * n + k];
        // (sums in double: the f32 products are compared at f32's rtol)
        for (int j = 0; j < n; ++j)
          want[(int64_t)i * n + j] += a * hb[(int64_t)k * n + j];
      }
    finishCheck(r, maxRelError(got, want), single ? 1e-4 : 1e-12);
  }
  if (handle)
    cublas->destroy(handle);
  CHECK_CUDA(cudaFree(A));
  CHECK_CUDA(cudaFree(B));
  CHECK_CUDA(cudaFree(C));
  return r;
}

Result runScaleColMajor(const Options &o, int64_t n, int64_t steps) {
  Result r;
  r.kernel = "scale_cm";
  r.n = n;
  r.steps = steps;
  r.size = std::to_string(n) + "x" + std::to_string(n);
  int64_t m = n, count = m * n;
  r.bytes = 2.0 * 4 * count;
  r.flops = double(count);
  float *A, *B;
  CHECK_CUDA(cudaMalloc(&A, count * 4));
  CHECK_CUDA(cudaMalloc(&B, count * 4));
  fillKernelF32<<<std::min<int64_t>(blocksFor(count, 256), 65536), 256>>>(
      A, count, 9);
  CHECK_CUDA(cudaGetLastError());
  const float alpha = 3.0f;
  dim3 block(32, 8), grid(blocksFor(m, 32), blocksFor(n, 8));
  r.perStep = timeSteps(o, steps, [&] {
    scaleColMajor<<<grid, block>>>(A, B, alpha, m, n);
  });
  if (o.check) {
    std::vector<float> ha(count), hb(count);
    CHECK_CUDA(cudaMemcpy(ha.data(), A, count * 4, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hb.data(), B, count * 4, cudaMemcpyDeviceToHost));
    double err = 0;
    for (int64_t i = 0; i < count; ++i)
      err = std::max(err, (double)std::fabs(hb[i] - alpha * ha[i]));
    finishCheck(r, err, 0.0);
  }
  CHECK_CUDA(cudaFree(A));
  CHECK_CUDA(cudaFree(B));
  return r;
}

} // namespace

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv);
  CHECK_CUDA(cudaSetDevice(o.device));
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, o.device));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::fprintf(stderr, "peers: device %d: %s (sm_%d%d, %d SMs), driver %d, "
                       "runtime %d\n",
               o.device, prop.name, prop.major, prop.minor,
               prop.multiProcessorCount, driver, runtime);
  std::string deviceName = prop.name;

  Cublas cublas;
  bool failed = false;
  for (const std::string &k : o.kernels) {
    int64_t n = o.n.count(k) ? o.n[k] : defaultN(o.sizes, k);
    int64_t steps = o.steps.count(k) ? o.steps[k] : defaultSteps(o.sizes, k);
    Result r;
    if (k == "triad")
      r = runTriad(o, n, steps);
    else if (k == "jacobi2d")
      r = runJacobi(o, n, steps);
    else if (k == "sum" || k == "sum_device")
      r = runSum(o, n, steps, k == "sum");
    else if (k == "matmul" || k == "matmul_naive")
      r = runMatmul<double>(o, k, n, steps, nullptr);
    else if (k == "sgemm")
      r = runMatmul<float>(o, k, n, steps, nullptr);
    else if (k == "matmul_cublas" || k == "sgemm_cublas") {
      if (!cublas.library)
        cublas = loadCublas(o.cublasLib);
      if (!cublas.library) {
        std::fprintf(stderr, "peers: matmul_cublas skipped: cannot load "
                             "cuBLAS (%s)\n",
                     cublas.error.c_str());
        std::printf("{\"impl\": \"cuda\", \"kernel\": \"%s\", "
                    "\"skipped\": \"cuBLAS not loadable\"}\n",
                    k.c_str());
        std::fflush(stdout);
        continue;
      }
      r = k == "sgemm_cublas"
              ? runMatmul<float>(o, k, n, steps, &cublas)
              : runMatmul<double>(o, k, n, steps, &cublas);
    } else if (k == "scale_cm")
      r = runScaleColMajor(o, n, steps);
    printResult(r, deviceName);
    failed |= !r.ok;
  }
  return failed ? 1 : 0;
}
