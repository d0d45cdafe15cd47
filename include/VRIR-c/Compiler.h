/*===- VRIR-c/Compiler.h - C API of the VRIR compiler -------------*- C -*-===
 *
 * Compiles a VRIR module (MLIR text) to a shared library in-process; the
 * library behind it is libVRIRCompiler.so. Hosts that cannot link C++ (the
 * Python frontend, through ctypes) use it instead of running vr-run.
 *
 * The shared library exports, for the entry and every other public
 * function NAME, the C interface `_mlir_ciface_NAME` (memref descriptors
 * by pointer, see VRIR/Runtime/VRIRRuntime.h) and its packed form
 * `void _mlir__mlir_ciface_NAME(void **args)`, the convention of MLIR's
 * ExecutionEngine::lookupPacked: `args[i]` points at the i-th argument of
 * the C interface (for an array, at a pointer to its descriptor; for
 * results returned through a pointer, the first argument, at that
 * pointer), and one result returned by value is stored where the slot after
 * the last argument points. Call it through `vrir_rt_invoke` or
 * `vrir_rt_try` of libvrir_runtime.so, which catch VRIR run-time errors.
 *
 *===----------------------------------------------------------------------===*/

#ifndef VRIR_C_COMPILER_H
#define VRIR_C_COMPILER_H

#include <stddef.h>

#define VRIR_CAPI_EXPORTED __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* What bounds-check elimination did: every checked bound of an index was
 * proven never to fail, found repeated (a dominating access checked it),
 * hoisted into one test before its loop, or kept. */
typedef struct VrirBoundsCheckCounts {
  long long checks, proven, repeated, hoisted, kept;
} VrirBoundsCheckCounts;

typedef struct VrirCompileOptions {
  /* Name of the MLIR text in diagnostics (for example the path of a copy
   * kept for debugging); NULL: "<vrir>". */
  const char *sourceName;
  /* Directory of libvrir_runtime.so, which the library links against;
   * NULL: the directory of libVRIRCompiler.so. */
  const char *runtimeDirectory;
  /* Non-zero: lower parallel loops to OpenMP; zero: run them serially. */
  int enableOpenMP;
  /* Optimization level of the LLVM IR passes, 0 to 3. */
  int optLevel;
  /* Where GPU sections run: VRIR_TARGET_CPU (inline), VRIR_TARGET_OPENCL
   * (OpenCL C kernels), VRIR_TARGET_VULKAN (SPIR-V kernels for Vulkan) or
   * VRIR_TARGET_OPENCL_SPIRV (SPIR-V kernels for OpenCL devices that take
   * SPIR-V), all launched through libvrir_gpu_runtime. */
  int gpuTarget;
  /* Non-zero: remove bounds checks proven never to fail
   * (vrir-bounds-check-elim); zero: keep every check the flags ask for. */
  int eliminateBoundsChecks;
  /* If not NULL, receives the bounds-check counts of the compiled module. */
  VrirBoundsCheckCounts *boundsChecks;
  /* Non-zero: region specialization (thesis chapter 6). The library's
   * regions are compiled again, at run time in the process that calls
   * them, for the shapes, values and aliasing of their arguments; this
   * call installs the specializer in this process (see
   * vrirInstallRegionSpecializer). */
  int specializeRegions;
  /* Non-zero: report where the compile's time went on stderr; zero: not;
   * negative (the default): as VRIR_TIMING says. The environment is read
   * by the calling thread: a caller compiling on one thread while another
   * changes the environment (setenv races getenv) passes 0 or 1. */
  int timing;
  /* Non-zero: verify the IR after each pass (debugging); zero: once after
   * the pipeline; negative (the default): as VRIR_VERIFY_EACH_PASS says. */
  int verifyEachPass;
} VrirCompileOptions;

enum {
  VRIR_TARGET_CPU = 0,
  VRIR_TARGET_OPENCL = 1,
  VRIR_TARGET_VULKAN = 2,
  VRIR_TARGET_OPENCL_SPIRV = 3
};

/* The defaults: OpenMP on, -O3, no source name, the runtime next to the
 * compiler library, GPU sections on the CPU. */
VRIR_CAPI_EXPORTED void vrirCompileOptionsInit(VrirCompileOptions *options);

/* Makes this process compile specialised versions of the regions of
 * libraries built with `specializeRegions` when they are called (a process
 * that only loads such a library runs their generic versions otherwise).
 * `runtimeDirectory` as in VrirCompileOptions (NULL: next to this library).
 * Idempotent. */
VRIR_CAPI_EXPORTED void
vrirInstallRegionSpecializer(const char *runtimeDirectory, int optLevel);

/* Parses `length` bytes of MLIR at `mlirText`, lowers the module with
 * `vrir-to-cpu`, optimizes it for the host CPU and links the shared library
 * `outputPath` (through `outputPath`.o, removed afterwards). `entry` must
 * name a function definition; `options` may be NULL for the defaults.
 *
 * Returns 0 on success. On failure returns non-zero and, if `errorMessage`
 * is not NULL, stores there the diagnostics ("NAME:LINE:COL: error: ...",
 * one or more lines) in a string to release with vrirFreeString. Never
 * aborts the process on bad input. Thread-safe: every call has its own
 * MLIR context.
 *
 * With VRIR_TIMING=1 in the environment, the call prints where its time
 * went to stderr: parsing, the MLIR pipeline pass by pass, translation to
 * LLVM IR, LLVM's optimization, code generation and linking. */
VRIR_CAPI_EXPORTED int
vrirCompileToSharedLibrary(const char *mlirText, size_t length,
                           const char *entry, const char *outputPath,
                           const VrirCompileOptions *options,
                           char **errorMessage);

/* Releases a string returned by this API (NULL is ignored). */
VRIR_CAPI_EXPORTED void vrirFreeString(char *string);

#ifdef __cplusplus
}
#endif

#endif /* VRIR_C_COMPILER_H */
