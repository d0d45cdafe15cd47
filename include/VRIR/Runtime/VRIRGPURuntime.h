/*===- VRIRGPURuntime.h - C ABI of the GPU runtime -------------------*- C
 *-*-===
 *
 * Generated host code calls `vrir_gpu_launch` to run one kernel of a
 * `vrir.gpu_section` on an accelerator; hosts may ask whether a device is
 * there and read transfer statistics.
 *
 * Two backends: OpenCL (OpenCL C source or SPIR-V) and Vulkan (SPIR-V
 * compute shaders). The library (libvrir_gpu_runtime.so) has no MLIR
 * dependency and links neither OpenCL nor Vulkan: it loads libOpenCL.so.1 /
 * libvulkan.so.1 with dlopen at first use, so it loads on machines without
 * them and reports an error only when a launch is attempted. Errors go
 * through the CPU runtime's channel (`vrir_rt_error` of VRIRRuntime.h);
 * every message starts with "GPU: ". One mutex serializes the launches and
 * initializations of both backends; the counters are shared.
 *
 * Environment:
 *   VRIR_OPENCL_DEVICE=P:D  OpenCL: use device D of platform P (indices from
 *                           0); default: the first GPU of any platform,
 *                           else the first device of any type.
 *   VRIR_VULKAN_DEVICE=I    Vulkan: use physical device I (index from 0, in
 *                           vkEnumeratePhysicalDevices order); default: the
 *                           first discrete GPU, else the first integrated
 *                           GPU, else the first device (lavapipe is a CPU
 *                           device). Devices need Vulkan 1.1 and a queue
 *                           family with compute.
 *   VRIR_VULKAN_STAGING=1   Vulkan: keep arrays in device-local buffers
 *                           filled and read through host-visible staging
 *                           buffers (the default for discrete GPUs, also
 *                           with resizable BAR: reading mapped VRAM from
 *                           the host is slow); 0: always map host-visible
 *                           buffers.
 *   VRIR_VULKAN_STAGING_CHUNK=BYTES  Vulkan, staging copies: arrays larger
 *                           than this (default 64 MiB) are copied in chunks
 *                           through two reused staging buffers, the host
 *                           copying one chunk while the device copies the
 *                           next.
 *   VRIR_GPU_VERBOSE=1      print the chosen devices, each compile and
 *                           each kernel left to the CPU to stderr.
 *   VRIR_GPU_CPU_FALLBACK=0 running out of device memory is an error even
 *                           where generated code has a host version of the
 *                           kernel (see vrir_gpu_fallback_begin).
 *   VRIR_GPU_COPY_ON_WRITE=0 vrir_gpu_copy copies on the host at once
 *                           (downloading the source if need be) instead of
 *                           sharing the source's device buffer.
 *   VRIR_GPU_MEMORY_LIMIT=N arrays may hold at most N bytes of device
 *                           memory at once (simulates a small device for
 *                           tests; read once, vrir_gpu_set_memory_limit
 *                           changes it at run time).
 *
 *===----------------------------------------------------------------------===*/

#ifndef VRIR_RUNTIME_VRIRGPURUNTIME_H
#define VRIR_RUNTIME_VRIRGPURUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel binary formats. */
enum {
  VRIR_GPU_FORMAT_OPENCL_C = 0,     /* OpenCL C source text */
  VRIR_GPU_FORMAT_VULKAN_SPIRV = 1, /* SPIR-V module for Vulkan compute */
  VRIR_GPU_FORMAT_OPENCL_SPIRV =
      2 /* SPIR-V for OpenCL (clCreateProgramWithIL) */
};

/* Kinds of kernel arguments. */
enum {
  VRIR_GPU_ARG_BUFFER = 0,
  VRIR_GPU_ARG_SCALAR = 1,
  /* A BUFFER given as a strided array, whose byte range the runtime works
   * out: `value` is the host address of its buffer's element 0, `size` its
   * rank r, `offset` the element offset of its origin from `value`; the next
   * r arguments are SCALARs with its sizes, then r SCALARs with its strides
   * in elements (any sign), which the kernel also receives. Generated code
   * passes arrays this way: the range needs no host code per launch. */
  VRIR_GPU_ARG_VIEW = 2
};

/* Access bits of a buffer argument. */
enum { VRIR_GPU_ACCESS_READ = 1, VRIR_GPU_ACCESS_WRITE = 2 };

/* One kernel argument, six int64 words (generated code builds an array of
 * them). */
typedef struct {
  int64_t kind;     /* VRIR_GPU_ARG_* */
  int64_t value;    /* buffer: host address of the lowest byte the kernel may
                       touch; scalar: its bits, zero-extended */
  int64_t size;     /* buffer: bytes spanned from `value` (may be 0);
                       scalar: bytes (1, 2, 4 or 8) */
  int64_t elemSize; /* buffer: bytes per element; scalar: 0 */
  int64_t offset;   /* buffer: element offset of the array's origin relative
                       to `value` (the kernel indexes buffer[offset + ...]);
                       scalar: 0 */
  int64_t access;   /* buffer: VRIR_GPU_ACCESS_* bits; scalar: 0 */
} vrir_gpu_arg;

/* Runs kernel `kernelName` of `binary` (format VRIR_GPU_FORMAT_*; for OpenCL
 * C: source text of `binarySize` bytes, not necessarily NUL-terminated) on
 * grid x block work-items (global size grid*block per dimension, work-group
 * size block). Outside a scope (see below) it is synchronous: on return,
 * every buffer the kernel writes holds its results in host memory; inside
 * one, results stay on the device until the host needs them. Nothing happens
 * (not even a compile) when a grid or block dimension is 0.
 *
 * `sites` holds `numSites` NUL-terminated strings back to back: the site
 * names of the bounds checks in the kernels.
 *
 * Kernel parameters (OpenCL): for each argument in order, a BUFFER is two
 * parameters, `__global T *buffer` and `long offset`; a SCALAR is one
 * parameter of `size` bytes. One hidden last parameter follows,
 * `__global long *vrir_error`, five int64 set to 0 before the launch:
 * [0] non-zero when a bounds check failed, [1] its site number (index into
 * `sites`), [2] dimension, [3] index, [4] extent. A failed check is passed
 * on to `vrir_rt_parallel_bounds_error`; `vrir_rt_parallel_check` raises it.
 *
 * Vulkan: `binary` is a SPIR-V module (`binarySize` a multiple of 4, host
 * byte order) that may hold several kernels, each an OpEntryPoint GLCompute
 * named `kernelName`. The work-group size is the kernel's LocalSize, which
 * `block` must equal; `grid` is the number of work-groups (vkCmdDispatch),
 * at most maxComputeWorkGroupCount of the device per dimension. Parameters
 * are bindings of descriptor set 0, all storage buffers (no push
 * constants): binding k is the array of the k-th BUFFER (e.g. struct { T
 * data[]; }); the next binding is the parameter block, one int64 slot per
 * argument in order (struct { int64_t slot[]; }): a BUFFER's element
 * offset, a SCALAR's `size` bytes zero-extended (little-endian); the last
 * binding is the error buffer of five int64 (as above). A kernel may leave
 * bindings unused but may use no binding beyond these. Module needs
 * (SPIR-V version, capabilities such as Float64, Int64, Int8/Int16 and 8- or
 * 16-bit storage, Int64Atomics) are checked against the device first.
 *
 * Buffer arguments whose byte ranges overlap or touch share one device
 * buffer (views of one array see each other's writes); their kernel offsets
 * are rebased onto it, which requires the distance between their `value`s
 * to be a multiple of each one's element size.
 *
 * Errors (no device, compile failure with the build log, launch failure
 * with the OpenCL error name or Vulkan VkResult) go through vrir_rt_error,
 * which does not return. */
void vrir_gpu_launch(int64_t format, const char *binary, int64_t binarySize,
                     const char *kernelName, const char *sites,
                     int64_t numSites, int64_t gridX, int64_t gridY,
                     int64_t gridZ, int64_t blockX, int64_t blockY,
                     int64_t blockZ, int64_t numArgs, const vrir_gpu_arg *args);

/* Residency. Arrays stay on the device between the launches of a scope;
 * generated code opens one at the entry of each function with GPU
 * sections and closes it before each return.
 *
 * Inside a scope, a launch uploads an array only when the device lacks its
 * fresh copy, and leaves the arrays it writes on the device; the host must
 * call vrir_gpu_host_access before it reads or writes bytes a kernel may
 * hold (the runtime then downloads them if the device has the fresh copy,
 * and for a write forgets the device copy). Arrays freed through the CPU
 * runtime leave the table by themselves. vrir_gpu_scope_end brings every
 * array back to the host and empties the table (the innermost scope too:
 * nothing stays on the device across a function's return). A VRIR error
 * empties the table without downloads.
 *
 * Outside every scope, vrir_gpu_launch is synchronous as described above.
 * Errors (a failed download) go through vrir_rt_error. */
void vrir_gpu_scope_begin(void);
void vrir_gpu_scope_end(void);
/* `bytes` host bytes from `address` are about to be read (write == 0) or
 * written (write != 0) by the host. */
void vrir_gpu_host_access(int64_t address, int64_t bytes, int64_t write);
/* Copies `bytes` bytes from host address `from` to `to`, as memmove would,
 * for generated code's copies of whole contiguous arrays. Inside a scope,
 * when `from` is exactly an array whose fresh copy is on the device, the
 * copy is made on potential write (thesis, 7.3.2): `to` shares the device
 * buffer of `from` (its host bytes are only filled when the host copy of
 * `from` is fresh too, else when the host reads `to`), and the device copy
 * is made only when a kernel is about to write one of them; a copy that no
 * kernel writes afterwards is never made on the device, and nothing goes
 * through the host. Otherwise the host copies, after downloading `from`
 * where the device has its fresh copy. Errors go through vrir_rt_error. */
void vrir_gpu_copy(int64_t to, int64_t from, int64_t bytes);
/* `bytes` host bytes from `address` are one array (generated code declares
 * each array argument of a function with GPU sections when its scope
 * opens): a launch that uses part of it gets it whole on the device, so the
 * views of one array share a device buffer and the array is uploaded and
 * downloaded once, not once per different range that kernels touch.
 * Declarations last until the scope that made them ends; overlapping ones
 * merge. Ignored outside a scope. */
void vrir_gpu_host_array(int64_t address, int64_t bytes);
/* `bytes` host bytes from `address` were just allocated (their contents do
 * not matter): a kernel that needs them gets device memory without an
 * upload. Ignored outside a scope. */
void vrir_gpu_host_uninitialized(int64_t address, int64_t bytes);

/* Running out of device memory. Generated code brackets the launches of
 * each kernel of a GPU section (two for a reduction) with these calls and
 * keeps a host version of the kernel's work:
 *
 *   vrir_gpu_fallback_begin(); vrir_gpu_launch(...)...;
 *   if (vrir_gpu_fallback_end()) { the same work on the host }
 *
 * Inside the bracket, a launch whose arrays do not fit in device memory even
 * after the runtime made room (arrays the launch does not use moved back to
 * the host, pending kernels finished, reusable buffers freed), or that has
 * an array larger than the device can allocate or bind (OpenCL's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE, Vulkan's maxStorageBufferRange), or a grid
 * larger than it can launch (Vulkan's maxComputeWorkGroupCount), does nothing
 * and raises nothing; later launches of the bracket do nothing either, and
 * vrir_gpu_fallback_end returns 1. The host version then runs, reading and
 * writing host memory through vrir_gpu_host_access like any host code, so
 * it sees every earlier kernel's results. Outside a bracket, or with
 * VRIR_GPU_CPU_FALLBACK=0 in the environment, running out of device memory
 * is an error (vrir_rt_error). The bracket is per thread; a VRIR error
 * closes it. */
void vrir_gpu_fallback_begin(void);
int64_t vrir_gpu_fallback_end(void);

/* 1 when a device of `format` can be used (OpenCL C: an OpenCL platform
 * with a device; OpenCL SPIR-V: such a device that takes SPIR-V; Vulkan
 * SPIR-V: a Vulkan 1.1 device with a compute queue), else 0. Never raises. */
int vrir_gpu_available(int64_t format);

/* "PLATFORM: DEVICE" of the OpenCL device used for `format` ("Vulkan:
 * DEVICE" for Vulkan), or "" when none. The string lives as long as the
 * process. */
const char *vrir_gpu_device_name(int64_t format);

/* Counters since the start of the process or the last reset. `uploads` and
 * `downloads` count host<->device copies of arrays (not the runtime's own
 * error word); `waits` counts the times the host blocked until the device
 * was done; `compiles` counts program builds, successful or not (Vulkan:
 * one per pipeline, i.e. per kernel of a module, and one per module that
 * cannot be loaded), and `compileSeconds` their time; `diskCacheHits`
 * counts OpenCL programs loaded from the disk cache instead (Vulkan
 * pipelines are built from the driver's pipeline cache, kept on disk the
 * same way, and counted as compiles).
 *
 * Compiled programs are kept in $VRIR_CACHE_DIR/gpu (default
 * $XDG_CACHE_HOME/vrir/gpu, else ~/.cache/vrir/gpu), keyed by driver,
 * device and kernel text; VRIR_GPU_DISK_CACHE=0 turns that off. */
typedef struct {
  int64_t kernels, uploads, downloads, bytesUploaded, bytesDownloaded, compiles;
  double compileSeconds;
  int64_t waits, diskCacheHits;
  int64_t evictions;    /* times device memory ran out and arrays not in use
                           were moved back to the host to make room */
  int64_t fallbacks;    /* kernels whose work ran on the host because the
                           device could not take them (memory, an array or
                           grid beyond its limits) */
  double waitSeconds;   /* the time the host spent in those waits */
  int64_t sharedCopies; /* vrir_gpu_copy calls answered by sharing the
                           source's device buffer (no copy made then) */
  int64_t deviceCopies; /* device-to-device copies made when a kernel was
                           about to write such a shared buffer */
} vrir_gpu_stats;

void vrir_gpu_get_stats(vrir_gpu_stats *stats);
void vrir_gpu_reset_stats(void);

/* Sets the device memory limit of VRIR_GPU_MEMORY_LIMIT from inside the
 * process (tests inject out-of-memory this way: setenv races with the
 * getenv calls of the OpenCL and Vulkan drivers' threads). bytes > 0 is a
 * limit, 0 none, a negative value the environment's setting again. */
void vrir_gpu_set_memory_limit(int64_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* VRIR_RUNTIME_VRIRGPURUNTIME_H */
