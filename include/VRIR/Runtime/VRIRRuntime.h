/*===- VRIRRuntime.h - C ABI between generated code and hosts ------*- C -*-===
 *
 * Generated CPU code calls the `vrir_rt_*` error functions; a host program
 * (vr-run, the Python frontend, or any C program linking an ahead-of-time
 * compiled module) calls VRIR code through `vrir_rt_invoke`.
 *
 * Arrays cross the boundary as MLIR memref descriptors:
 *   struct { T *allocated; T *aligned; int64_t offset;
 *            int64_t sizes[rank]; int64_t strides[rank]; }
 * Strides and offset count elements. Arrays passed in are never freed by
 * VRIR code; arrays returned to the host belong to it and are released with
 * `vrir_rt_free(allocated)`, except views of an argument that an entry point
 * returns (`return a[1:]`): their `allocated` is the argument's, and they
 * are not freed.
 *
 *===----------------------------------------------------------------------===*/

#ifndef VRIR_RUNTIME_VRIRRUNTIME_H
#define VRIR_RUNTIME_VRIRRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called by generated code ------------------------------------------------ */

/* An out-of-bounds access in serial code. `site` names the array and the
 * source location; `dim`, `index` and `extent` are in the module's index
 * base. Unwinds to the innermost `vrir_rt_invoke` (or, without one, prints
 * the message and exits with status 1). Never returns. */
void vrir_rt_bounds_error(const char *site, int64_t dim, int64_t index,
                          int64_t extent);

/* The same inside a parallel loop: records the first error and returns; the
 * access is skipped. In a chunk of a CPU parallel loop (below) the error is
 * the loop's; elsewhere (a GPU kernel's error reported by the GPU runtime,
 * a parallel loop run serially) it is the thread's, and
 * `vrir_rt_parallel_check` raises it. */
void vrir_rt_parallel_bounds_error(const char *site, int64_t dim, int64_t index,
                                   int64_t extent);
void vrir_rt_parallel_check(void);

/* CPU parallel loops whose iterations can fail (vrir-parallel-error-scopes).
 * The loop's status lives on the stack of the function running it: the
 * first error's message, and a flag its iterations read before they start
 * so that one failed iteration stops the others. Each chunk of iterations
 * runs between `vrir_rt_parallel_enter` and `vrir_rt_parallel_leave`, with
 * VRIR_RT_PARALLEL_CHUNK_BYTES of stack (16-byte aligned) for the runtime;
 * with `canJump`, generated code then calls `_setjmp(chunk)`, and an error
 * raised in the chunk (vrir_rt_error, out of memory, a serial bounds error
 * in a called function) is recorded and unwinds to it. After the loop,
 * `vrir_rt_parallel_finish` raises the recorded error on the calling
 * thread, once. */
#define VRIR_RT_PARALLEL_CHUNK_BYTES 512
typedef struct vrir_rt_parallel_status {
  int64_t failed; /* read atomically by the iterations */
  char *message;
} vrir_rt_parallel_status;
void vrir_rt_parallel_enter(void *chunk, vrir_rt_parallel_status *status,
                            int32_t canJump);
void vrir_rt_parallel_leave(void *chunk);
void vrir_rt_parallel_finish(vrir_rt_parallel_status *status);

/* Any other run-time error (negative size, shapes that do not broadcast).
 * Never returns, like vrir_rt_bounds_error. */
void vrir_rt_error(const char *message);

/* Ctrl-C. Generated code reads the flag (atomically) at the start of each
 * iteration of every loop that has loops inside it, and of every while
 * loop (vrir-interrupt-points), and calls `vrir_rt_raise_interrupt` when
 * it is set; that raises "KeyboardInterrupt: interrupted" like
 * vrir_rt_error. Innermost counted loops are not polled: they end after
 * their trip count. */
extern int32_t vrir_rt_interrupt_flag;
void vrir_rt_raise_interrupt(void);

/* Complex powers, NumPy's npy_cpow: a zero exponent gives 1, a zero base 0
 * (a positive real part of the exponent) or nan; a real integer exponent
 * below 100 in magnitude multiplies (exact where the result is: -8j for
 * (2j)**3); others go through libm's cpow. vrir_rt_cpowf is npy_cpowf, in
 * single precision. Generated code calls them with a {double, double}
 * result, which the C ABIs return as they return this struct; complex64
 * values pass widened to double (exactly). */
typedef struct {
  double re, im;
} vrir_rt_complex128;
vrir_rt_complex128 vrir_rt_cpow(double baseRe, double baseIm, double expRe,
                                double expIm);
vrir_rt_complex128 vrir_rt_cpowf(double baseRe, double baseIm, double expRe,
                                 double expIm);
/* complex64 csqrtf, cexpf, clogf, csinf, ccosf, ctanf, ctanhf (as NumPy
 * computes them), through doubles: C returns `float _Complex` in one
 * register on x86-64, where LLVM returns {float, float} in two. */
vrir_rt_complex128 vrir_rt_csqrtf(double re, double im);
vrir_rt_complex128 vrir_rt_cexpf(double re, double im);
vrir_rt_complex128 vrir_rt_clogf(double re, double im);
vrir_rt_complex128 vrir_rt_csinf(double re, double im);
vrir_rt_complex128 vrir_rt_ccosf(double re, double im);
vrir_rt_complex128 vrir_rt_ctanf(double re, double im);
vrir_rt_complex128 vrir_rt_ctanhf(double re, double im);

/* Array memory: the generic allocation functions of MLIR's memref-to-LLVM
 * lowering, backed by malloc with a cache of large freed blocks. */
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *pointer);

/* Hooks of the GPU runtime (libvrir_gpu_runtime.so installs them when it
 * loads): `onFree` is called with each array block before it is freed or
 * reused, `onError` after vrir_rt_invoke / vrir_rt_try caught an error.
 * NULL removes a hook. */
typedef void (*vrir_rt_free_hook)(void *pointer, size_t bytes);
typedef void (*vrir_rt_error_hook)(void);
void vrir_rt_set_gpu_hooks(vrir_rt_free_hook onFree,
                           vrir_rt_error_hook onError);

/* Called by hosts --------------------------------------------------------- */

/* Calls a packed entry point `void fn(void **args)` (the `_mlir_<name>`
 * wrapper of MLIR's ExecutionEngine, or `_mlir__mlir_ciface_<name>` in an
 * ahead-of-time object). Returns 0 on success, non-zero when the code
 * raised an error; the message is then in vrir_rt_last_error(). */
int vrir_rt_invoke(void (*fn)(void **), void **args);

/* Calls `fn(context)` with the error channel armed: for example the packed
 * entry point `_mlir__mlir_ciface_NAME` of an ahead-of-time library with
 * its `void **` arguments, or a host's own thunk around `_mlir_ciface_NAME`.
 * Returns 0 on success, non-zero on a VRIR error. */
int vrir_rt_try(void (*fn)(void *), void *context);

/* vrir_rt_try, interruptible with Ctrl-C when called on the process's main
 * thread (and SIGINT is not ignored): for the call's duration SIGINT sets
 * vrir_rt_interrupt_flag, so that the code stops at its next poll with an
 * error "KeyboardInterrupt: interrupted"; afterwards the host's handler is
 * back and, if the signal came, receives it (in Python: KeyboardInterrupt),
 * whether or not the code had finished. */
int vrir_rt_try_interruptible(void (*fn)(void *), void *context);

/* Message of the last error raised on this thread, "" if none. */
const char *vrir_rt_last_error(void);

/* Releases an array returned by VRIR code (its `allocated` pointer, which
 * comes from _mlir_memref_to_llvm_alloc: not to be passed to free()). */
void vrir_rt_free(void *allocated);

#ifdef __cplusplus
}
#endif

#endif /* VRIR_RUNTIME_VRIRRUNTIME_H */
