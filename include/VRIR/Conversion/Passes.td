//===- Passes.td - VRIR conversion passes ------------------*- tablegen -*-===//

#ifndef VRIR_CONVERSION_PASSES_TD
#define VRIR_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertVRIRToMemRef : Pass<"convert-vrir-to-memref", "::mlir::ModuleOp"> {
  let summary = "Lower VRIR to memref, scf, linalg, arith and runtime calls";
  let description = [{
    Arrays become strided `memref`s: `row_major` the identity layout,
    `col_major` unit stride in the first dimension, `strided` any strides and
    offset. Ranges and domains become (start, stop, step) index triples,
    0-based with an exclusive stop. Element access computes 0-based indices
    from the module's index base, wraps negative indices and checks bounds
    where the flags ask for it, calling the runtime's error functions with
    the array's name and source location. `pfor` becomes `scf.parallel`
    (nested ones `scf.for`), atomics `memref` atomics, a `gpu_section` runs
    inline on the CPU, whole-array operations become `linalg` on memrefs,
    and `matmul`/`matvec` on `f32`/`f64` call CBLAS.

    Variables (`vrir.alloca`) must have been promoted (`mem2reg`) except
    scalar ones, which become `memref.alloca`.

    With `gpu-sections`, each `gpu_section` becomes an `scf.execute_region`
    marked `vrir.gpu_section` instead of running inline: inside it a `pfor`
    is an `scf.parallel` over its whole domain and `matmul`/`matvec` take
    the `linalg` form, so that `vrir-gpu-map-sections` can make kernels of
    them.
  }];
  let options = [
    Option<"gpuSections", "gpu-sections", "bool", /*default=*/"false",
           "Keep gpu_section ops (as marked scf.execute_region) for the GPU "
           "lowering">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect"
  ];
}

def GpuCpuFallback : Pass<"vrir-gpu-cpu-fallback", "::mlir::ModuleOp"> {
  let summary = "Keep a host version of each future GPU kernel, run when "
                "the device is out of memory";
  let description = [{
    Runs after `convert-vrir-to-memref{gpu-sections=true}` and before
    `vrir-gpu-map-sections`. In each GPU section, the work that will become
    kernels (each outermost `scf.parallel`, and each `linalg` op outside
    one) is bracketed by the runtime calls `vrir_gpu_fallback_begin` and
    `vrir_gpu_fallback_end`, and followed by an `scf.if` marked
    `vrir.gpu_fallback` whose then-region is a copy of that work. The
    runtime's end call returns non-zero when a launch of the bracket found
    too little device memory for its arrays even after making room; the
    launch then did nothing, and the copy runs on the host instead, with
    the CPU's lowering of the loop (OpenMP, bounds checks, reductions) and
    the usual host-access notices, so results are the same. The `scf.if`
    yields the work's results (a reduction's value) on both paths. A
    kernel's compare-and-swap loop (`memref.generic_atomic_rmw`) becomes,
    in the copy, a loop around LLVM's `cmpxchg`, as on the CPU. The copy
    is then outlined into a private function `<function>_host_kernelN`
    marked `cold`, `noinline`, `minsize` and `optsize` (LLVM's
    `passthrough`): it rarely runs, and LLVM would otherwise optimize it
    as hard as the rest of the host code.

    Kernel mapping skips the copies, and `vrir-gpu-host-sync` keeps the
    copies' notices inside the `scf.if`, so that nothing is downloaded when
    the kernel ran on the device. `VRIR_GPU_CPU_FALLBACK=0` makes the
    runtime raise the out-of-memory error instead.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def GpuMapSections : Pass<"vrir-gpu-map-sections", "::mlir::ModuleOp"> {
  let summary = "Map the parallel loops of GPU sections to GPU grids";
  let description = [{
    Runs after `convert-vrir-to-memref{gpu-sections=true}`. In each GPU
    section (an `scf.execute_region` marked `vrir.gpu_section`), `linalg`
    ops become parallel loops (serial loops when already inside one), and
    each outermost `scf.parallel` without reductions is tiled into
    work-groups and given the `mapping` attribute that
    `convert-parallel-loops-to-gpu` reads: tiles to blocks, elements of a
    tile to threads. The dimension that most accesses walk with unit stride
    (the last of a row-major array, the first of a column-major one) goes
    on x, so that neighbouring work-items touch neighbouring elements;
    dimensions beyond the third run serially. Nested parallel loops run
    serially inside their work-item. A `linalg.matmul` (standard maps)
    becomes a tiled kernel instead: a work-group of `matmul-threads-x` x
    `matmul-threads-y` work-items per `matmul-tile-m` x `matmul-tile-n` tile
    of C, with tiles of A and B (`matmul-tile-k` deep) staged in work-group
    memory between barriers (as vectors of 16 bytes where the tiling
    allows, so that each work-item reads them with 16-byte loads; A's tile
    transposed; the next tiles loaded while the current ones are used),
    and each work-item keeping a block of the tile's sums in registers (by
    default, for `f64` 64x64 tiles 8 deep with 8x8 work-items, for other
    elements 128x128 tiles 16 deep with 16x16 work-items, 8x8 sums each: the
    fastest measured on an H200 for each type; an option set to a non-zero
    value replaces that part of both); a
    `linalg.matvec` on a matrix with unit-stride rows
    uses 32 work-items per row and a halving sum in work-group memory. A
    scalar reduction loop becomes a two-level tree
    (work-group, then final). Then the section is inlined: what is not a
    kernel runs on the host (thesis, section 5.8).
  }];
  let options = [
    Option<"blockSize1D", "block-1d", "int64_t", /*default=*/"256",
           "Work-group size of one-dimensional kernels">,
    Option<"blockSize2DX", "block-2d-x", "int64_t", /*default=*/"32",
           "Work-group x size of two-dimensional kernels">,
    Option<"blockSize2DY", "block-2d-y", "int64_t", /*default=*/"8",
           "Work-group y size of two-dimensional kernels">,
    Option<"blockSize3DX", "block-3d-x", "int64_t", /*default=*/"32",
           "Work-group x size of three-dimensional kernels">,
    Option<"blockSize3DY", "block-3d-y", "int64_t", /*default=*/"4",
           "Work-group y size of three-dimensional kernels">,
    Option<"blockSize3DZ", "block-3d-z", "int64_t", /*default=*/"2",
           "Work-group z size of three-dimensional kernels">,
    Option<"matmulTileM", "matmul-tile-m", "int64_t", /*default=*/"0",
           "Rows of C per work-group of a matrix product (0: the element type's default)">,
    Option<"matmulTileN", "matmul-tile-n", "int64_t", /*default=*/"0",
           "Columns of C per work-group of a matrix product (0: the element type's default)">,
    Option<"matmulTileK", "matmul-tile-k", "int64_t", /*default=*/"0",
           "Columns of A (rows of B) staged per step of a matrix product (0: the element type's default)">,
    Option<"matmulThreadsX", "matmul-threads-x", "int64_t", /*default=*/"0",
           "Work-group x size of a matrix product (splits tile-n) (0: the element type's default)">,
    Option<"matmulThreadsY", "matmul-threads-y", "int64_t", /*default=*/"0",
           "Work-group y size of a matrix product (splits tile-m) (0: the element type's default)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def GpuKernelABI : Pass<"vrir-gpu-kernel-abi", "::mlir::ModuleOp"> {
  let summary = "Pass arrays to outlined kernels as flat buffers";
  let description = [{
    Runs after `gpu-kernel-outlining`. Each memref argument of rank r of a
    kernel becomes 2 + 2r arguments: a 1-D buffer (`memref<?xT>`) holding
    the array's elements, the array's element offset in it, its r sizes and
    r strides (any sign). Loads, stores, atomics, `dim`, casts and views of
    the array in the kernel are rewritten on the buffer with linear
    indices; the launch passes the array's base buffer and metadata. The
    buffer argument records the array's rank (`vrir.rank`), and, where the
    kernel proves it, `vrir.readonly` (nothing writes it) and
    `vrir.noalias` (it views an allocation of the launching function that
    no other argument views): the OpenCL C emitter makes them `const` and
    `restrict`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def GpuHostSync : Pass<"vrir-gpu-host-sync", "::mlir::ModuleOp"> {
  let summary = "Tell the GPU runtime where the host touches arrays that "
                "kernels may hold";
  let description = [{
    Runs after `vrir-gpu-kernel-abi`, before `vrir-gpu-launch-to-runtime`,
    on every host function that launches kernels. Arrays then stay on the
    device between the launches of the function (thesis, chapter 7); this
    pass gives the runtime what it needs to keep the host's view right:

    - `vrir_gpu_scope_begin()` at the function's entry and
      `vrir_gpu_scope_end()` before each return (every array comes back to
      the host, nothing stays on the device);
    - `vrir_gpu_host_array(address, bytes)` for each array argument, after
      the scope opens: a kernel that uses part of an array gets all of it
      on the device, so the views of one array share a device buffer and
      the array moves once;
    - `vrir_gpu_host_access(address, bytes, write)` before each host
      operation that reads or writes an array (loads, stores, copies,
      library and runtime calls, linalg on the host, pointers taken from
      it, except an address only compared, as in the overlap tests of
      slice assignments): the bytes the array spans, and whether the
      operation may write.
      Views, `dim`, deallocation and the operations that only forward an
      array (branches, yields, returns) need none. The notice is hoisted out
      of loops and conditionals that launch no kernel and do not define the
      array, and notices at one place for one array merge;
    - `vrir_gpu_host_uninitialized(address, bytes)` after each allocation
      that a kernel uses (through views): a kernel that writes it first
      needs no upload;
    - `vrir_gpu_copy(target, source, bytes)` in place of each `memref.copy`
      of whole contiguous arrays (identity layouts), with no notices of its
      own: the runtime makes the copy on potential write (thesis, 7.3.2),
      sharing the source's device buffer until a kernel is about to write
      one of the two. Like a launch, such a copy keeps the notices of
      host-only code after it from being hoisted above it.

    The calls are those of include/VRIR/Runtime/VRIRGPURuntime.h.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def GpuExpandF64Math : Pass<"vrir-gpu-expand-f64-math", "::mlir::ModuleOp"> {
  let summary = "Expand the f64 math functions of GPU kernels into arithmetic";
  let description = [{
    GLSL.std.450, the math of Vulkan's SPIR-V, defines exp, log, sin, pow,
    ... for 16- and 32-bit floats only. In each `gpu.module`, this pass
    replaces the f64 (scalar or vector) exp, exp2, expm1, log, log2,
    log10, log1p, sin, cos, tan, sincos, sinh, cosh, tanh, asin, acos,
    atan, atan2, asinh, acosh, atanh, powf, fpowi, erf, erfc and cbrt by
    f64 arithmetic, the math operations Vulkan has for f64 (floor,
    roundeven, sqrt, absf, copysign, isnan) and i64 operations on the
    bits: fdlibm's algorithms (FreeBSD's for log2 and log10) with their
    branches as selects, and the special values of C99 and NumPy (NaN,
    infinities, -0.0, overflow to inf, underflow to 0 through subnormals).
    The largest errors seen over about 200000 inputs each, against long
    double references (test/Integration/GPU/f64_math.py), are below 0.9
    ulp for exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan,
    asin, acos, atan, erf, cbrt, powf and fpowi, 1.5 ulp for sinh, cosh
    and atan2, and 2.2 ulp for tanh, asinh, acosh, atanh and erfc. sin, cos and tan reduce by pi/2
    with fdlibm's three-part Cody-Waite reduction up to |x| = 2^20*pi/2 and
    with Payne-Hanek's (192 bits of 2/pi) beyond, in a branch that only
    work-items with such arguments take (vectors: in every element).

    `vrir-convert-gpu-to-spirv{client=vulkan}` applies the same patterns to
    the kernels it compiles; this pass shows them. The operations it
    creates have a location marked `vrir.expanded_f64_math`: the SPIR-V
    lowering decorates their float instructions NoContraction, since the
    algorithms rely on every operation being rounded as IEEE says.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def GpuToSPIRV : Pass<"vrir-convert-gpu-to-spirv", "::mlir::ModuleOp"> {
  let summary = "Compile the kernels of GPU modules to SPIR-V modules";
  let description = [{
    Runs after `vrir-gpu-kernel-abi` (and the cleanups of the GPU modules),
    before `vrir-gpu-launch-to-runtime{format=vulkan-spirv}`. Each
    `gpu.module` gets a `vrir.sites` array attribute, the names of the
    bounds-check sites of its kernels (the strings of the
    `vrir_rt_parallel_bounds_error` calls, in order of first use; the
    runtime reports site number N with the Nth string), and a copy of it
    becomes a `spirv.module @__spv__NAME` next to it. The `gpu.module`
    itself stays as it is: its launches and the argument attributes of its
    kernels describe the launch to the runtime.

    In the copy, before the upstream conversion patterns (GPU, SCF, arith,
    math, memref, func, index and ub to SPIR-V, indices as 64-bit integers,
    booleans in memory as bytes):

    - each kernel takes one more, last, argument: the runtime's error
      buffer, five int64 words (0: flag, 1: site number, 2: dimension, 3:
      index, 4: extent) seen as `memref<10xi32>`, their little-endian
      halves. Each call of `vrir_rt_parallel_bounds_error` becomes an
      atomic `or` of 1 into the low half of word 0 (no 64-bit atomics,
      which are optional in Vulkan and OpenCL); the work-item that found it
      0 (the first failure) stores the other four words.
    - `i1` scalar arguments become `i8` (the runtime passes a byte; SPIR-V
      booleans cannot live in buffers).
    - the work-group size of each kernel is the constant block size of its
      launch, fixed in the SPIR-V (`spirv.entry_point_abi`); a launch with
      a work-group size that is not a constant is an error.
    - `memref.generic_atomic_rmw` on 32- or 64-bit integers becomes a
      compare-and-swap loop.
    - a float buffer argument that float atomics update is declared as
      integers of the same width (the runtime passes bytes): its loads and
      stores bitcast, and its atomics (add, min, max, ..., compare-and-swap)
      are compare-and-swap loops on the bits, as in OpenCL C.

    Atomics are relaxed (as OpenCL 1.2's). After the conversion, the
    variables that carry `scf.for` results get their initial values before
    the loop (upstream leaves them undefined when the loop runs no
    iteration).

    With `client=vulkan`, the module's `spirv.target_env` (unless the
    `gpu.module` has one already) is Vulkan 1.1 (SPIR-V 1.3) with 64-bit
    integers and floats, 8/16-bit integers, 8/16-bit storage buffer access,
    16-bit floats and 64-bit atomics, and a work-group limit of 1024
    invocations. Kernel arguments are bound as the runtime expects:
    descriptor set 0, the buffers at bindings 0, 1, ... in order, then one
    parameter block holding every scalar argument (offsets, sizes, strides,
    scalars) in an int64 slot, the error buffer last. One block for all
    scalars keeps a kernel over five 2-D arrays within the 32 storage
    buffers that devices such as lavapipe allow. With `client=opencl` it is
    OpenCL (the Kernel capability, Physical64 addressing, SPIR-V 1.2 at
    most) with the same types: kernel parameters are the arguments in
    order (buffers as CrossWorkgroup pointers, scalars by value), the error
    buffer last, and f64 math has OpenCL.std's instructions.
    `spirv-lower-abi-attrs` and `spirv-update-vce` then run on each new
    `spirv.module`, so it declares exactly the capabilities and extensions
    its kernels use.

    With `client=vulkan`, after the conversion:

    - access chains into Workgroup arrays and into storage buffers of
      elements of 2 bytes or more take 32-bit indices: an in-bounds index
      fits in 31 bits there (a binding spans at most 2^32 - 1 bytes), and
      truncation commutes with the additions and multiplications that
      compute it, so the low halves of the 64-bit leaves (loop variables,
      parameters) give the same index. GPUs have 32-bit integer units.
      `index-bits=32` makes every index 32-bit instead (sizes, loop
      variables and comparisons too: only for arrays and launches under
      2^31 elements).
    - the variable of a buffer binding is decorated `Restrict` where the
      kernel argument is `vrir.noalias` (OpenCL C's `restrict`). Read-only
      bindings are not `NonWritable`: NVIDIA's driver (580.159) computed a
      wrong result with it (see `decorateBuffers`).

    With `client=vulkan`, the f64 math functions that GLSL.std.450 defines
    only for 16- and 32-bit floats (exp, log, sin, pow, ...) are first
    expanded into arithmetic as `vrir-gpu-expand-f64-math` does, and the
    float instructions of the expansions are decorated NoContraction.
    What the target's SPIR-V cannot express is diagnosed instead of
    producing invalid SPIR-V: for Vulkan, f64 math operations that neither
    GLSL.std.450 nor the expansion covers; for both, float atomics on
    memory other than a kernel's buffer arguments (workgroup memory).
  }];
  let options = [
    Option<"client", "client", "std::string", /*default=*/"\"vulkan\"",
           "SPIR-V client API: vulkan (the Shader capability) or opencl (the "
           "Kernel capability)">,
    Option<"indexBits", "index-bits", "unsigned", /*default=*/"64",
           "Width of `index` in the kernels: 64, or 32 (the arrays' element "
           "indices and the launch's work-item counts must then fit in 31 "
           "bits)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::spirv::SPIRVDialect"
  ];
}

def GpuLaunchToRuntime : Pass<"vrir-gpu-launch-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Translate GPU modules and launch their kernels through the "
                "VRIR GPU runtime";
  let description = [{
    Runs after `vrir-gpu-kernel-abi`. Each `gpu.module` is translated for
    `format` into a constant of the host module, with the names of its
    bounds-check sites: `opencl-c`, OpenCL C source (see `vr-translate
    --gpu-to-opencl-c`); `vulkan-spirv` and `opencl-spirv`, the serialized
    binary of the `spirv.module @__spv__NAME` that
    `vrir-convert-gpu-to-spirv{client=vulkan|opencl}` made of `gpu.module
    @NAME`, with the sites of its `vrir.sites` attribute. Each
    `gpu.launch_func` becomes a call of `vrir_gpu_launch`
    (include/VRIR/Runtime/VRIRGPURuntime.h) with a table of
    its arguments: for a buffer, the host address and byte length of the
    elements the array spans, its element size, the array's offset from the
    lowest of them and whether the kernel writes it; for a scalar, its bits
    and size. The runtime moves the data, compiles and runs the kernel, and
    records a failed bounds check for the `vrir_rt_parallel_check` that
    follows the loop. The table does not depend on the format (it is read
    from the `gpu.module`'s kernels; the SPIR-V kernels' extra error-buffer
    argument is the runtime's own binding). Then the GPU and SPIR-V modules
    are erased.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"opencl-c\"",
           "Kernel format: opencl-c, vulkan-spirv or opencl-spirv">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def SpecializeRegionLLVM : Pass<"vrir-specialize-region-llvm",
                                "::mlir::ModuleOp"> {
  let summary = "Apply a specialised region's facts to its LLVM function";
  let description = [{
    After `convert-func-to-llvm`: an `llvm.func` carrying
    `vrir.region_facts` (see `vrir-specialize-region`) gets, for each array
    argument with a `shape`, its size and stride parameters replaced by
    constants (so the address arithmetic of every access is constant-strided
    and LLVM sees the trip counts; negative strides are safe to expose once
    `vrir-allow-negative-strides` has run), and, for each array marked
    `noalias`
    (the dispatcher found that no other argument overlaps it), `noalias` on
    its aligned data pointer; the scalars with a `value` become constants.
    The attribute is removed.
  }];
}

def LowerRegionDispatch : Pass<"vrir-lower-region-dispatch",
                               "::mlir::ModuleOp"> {
  let summary = "Call outlined regions through the run-time dispatcher";
  let description = [{
    After `convert-func-to-llvm`: each `llvm.func` carrying `vrir.region`
    (from `vrir-outline-regions`) gets a dispatch wrapper of the same type,
    which every call of the region now calls. The wrapper stores the facts
    of its arguments (an array's aligned pointer, offset, sizes and strides;
    a scalar's value) and asks `vrir_rt_region_enter`
    (`include/VRIR/Runtime/VRIRRegions.h`), passing a global that holds the
    region's name, signature, pipeline options, source and cache, for a
    version specialised on those facts; it calls that version if there is
    one and the generic region otherwise, then tells `vrir_rt_region_exit`
    that the call returned (the region's run time decides whether a later
    miss waits for its compile or compiles in the background).
  }];
}

def InterruptPoints : Pass<"vrir-interrupt-points", "::mlir::ModuleOp"> {
  let summary = "Poll the Ctrl-C flag in loops of host code";
  let description = [{
    Each iteration of a while loop, and of a loop (`scf.for`, `scf.while`,
    `scf.parallel`) with loops inside it, in a `func.func` first reads
    `vrir_rt_interrupt_flag` (an atomic load of a runtime global) and calls
    `vrir_rt_raise_interrupt` when it is set. `vrir_rt_try_interruptible`
    sets it on SIGINT, so a kernel called from Python stops within one
    iteration of such a loop when the user presses Ctrl-C. Innermost counted
    loops are not polled: they end after their trip count, and a poll would
    keep them from vectorizing. Nor are loops whose inner loops are all
    counted loops of at most 128 iterations (a constant trip count, no loop
    inside): their iterations do a bounded amount of work, and once LLVM
    unrolls the inner loops the outer one vectorizes (a window sum of
    constant width, as region specialization makes it). Runs before
    `vrir-parallel-error-scopes`, for
    which a poll in a parallel loop is a call that can raise.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def ParallelErrorScopes : Pass<"vrir-parallel-error-scopes",
                               "::mlir::ModuleOp"> {
  let summary = "Let an error in one iteration of a CPU parallel loop stop "
                "the loop and reach the caller once";
  let description = [{
    Before `convert-scf-to-openmp`. An outermost `scf.parallel` of a
    function whose iterations can fail (its body calls a function or the
    runtime, or allocates) runs on OpenMP worker threads, where an error
    raised the serial way has no handler to unwind to. This pass gives such
    a loop a status on the function's stack and runs it as (at most 64)
    parallel chunks of its outermost dimension, each a serial loop:

    - each chunk registers itself with the runtime
      (`vrir_rt_parallel_enter` / `vrir_rt_parallel_leave`), so that a
      parallel bounds error is recorded in the loop's status;
    - when the body can raise (a call other than
      `vrir_rt_parallel_bounds_error`, or an allocation), the chunk calls
      `_setjmp` (`returns_twice`) on its runtime record, and a raised error
      is recorded and unwinds to the chunk's start;
    - the chunk's loop reads the status (an atomic load) before every
      iteration whose body has loops of its own, and before every block of
      64 iterations of a flat body (whose loop over the block then
      vectorizes), and ends once an iteration has failed;
    - after the loop, `vrir_rt_parallel_finish` raises the first error,
      once, on the thread that called the function.

    Loops whose bodies cannot fail are left alone (they pay nothing), as
    are loops with results (the CPU lowering makes none).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def ConvertPartViewsToLLVM : Pass<"vrir-convert-part-views-to-llvm",
                                  "::mlir::ModuleOp"> {
  let summary = "Lower vrir.memref_part_view to LLVM memref descriptors";
  let description = [{
    memref has no op that changes an element type, so the view of the real
    or imaginary parts of a complex memref (`vrir.memref_part_view`) is
    built on the LLVM descriptor: the same allocated and aligned pointers,
    offset `2 * offset` (plus 1 for the imaginary part), the same sizes and
    twice the strides. Runs before `finalize-memref-to-llvm`; the casts it
    leaves between memrefs and descriptors go in
    `reconcile-unrealized-casts`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertMemRefAccessToLLVM : Pass<"vrir-convert-memref-access-to-llvm",
                                     "::mlir::ModuleOp"> {
  let summary = "Lower multi-dimensional memref loads and stores with the "
                "contiguous index as its own address step";
  let description = [{
    Runs before `finalize-memref-to-llvm`. Upstream's lowering of a
    `memref.load`/`memref.store` adds every index times its stride into one
    offset and indexes the buffer once. Here an access of rank 2 or more
    first indexes the buffer by the other dimensions (the address of the
    element whose contiguous index is 0: the row) and then the row by the
    contiguous index: the innermost dimension with static stride 1, or the
    last dimension when none has it.

    This is how C compilers see `A[i][j][k]`, and LLVM needs it to reuse a
    load across iterations of a stencil: GVN finds that `A[i,j,k+1]` of
    one iteration is `A[i,j,k]` of the next only when both addresses are
    the same row pointer indexed by the loop's own counter (with one
    offset sum, instcombine rewrites `A[i,j,k+1]` as `&A[i,j,k] + 1`). With
    `noalias` arrays, heat-3d's vector loop then does 6 loads and a shuffle
    per 4 points instead of 7 loads.

    Both steps keep upstream's `inbounds`: when the access is in bounds, so
    is the row (an element of the same array). Alignment and `nontemporal`
    carry over. Accesses of rank 0 or 1 are left to
    `finalize-memref-to-llvm`; the casts left between memrefs and
    descriptors go in `reconcile-unrealized-casts`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NumPyComplex : Pass<"vrir-numpy-complex", "::mlir::ModuleOp"> {
  let summary = "Complex division, powers and functions as NumPy computes them";
  let description = [{
    Before `convert-complex-to-standard`, whose polar forms lose signed
    zeros and exactness (`sqrt(-4-0j)` gives `1.2e-16-2j` where NumPy gives
    `-2j`; `(2j)**3` gives `-1.5e-15-8j` where NumPy gives `-8j`; `0j **
    (1.5+0.25j)` gives `nan` where NumPy gives `0`). Replaces

    - `complex.pow` by a call of the runtime's `vrir_rt_cpow`, NumPy's
      `npy_cpow` (special cases, repeated multiplication for real integer
      exponents below 100, else libm's `cpow`);
    - `complex.sqrt`, `exp`, `log`, `sin`, `cos`, `tan`, `tanh` by calls of
      libm's `csqrt`, `cexp`, `clog`, `csin`, `ccos`, `ctan`, `ctanh` (C99
      Annex G special values, as NumPy calls them).

    - `complex.div` by NumPy's division (Smith's method scaled by the
      reciprocal of the denominator, without upstream's recovery of
      infinities: NumPy's `(inf+infj) / 0.125` is `nan+nanj`), in `arith`
      selects that vectorize.

    `complex<f32>` calls the runtime's single-precision versions
    (`vrir_rt_cpowf`, NumPy's `npy_cpowf`; `vrir_rt_csqrtf` ... around
    libm's `csqrtf` ...) with the parts widened to `f64` and rounds the
    results back, exactly: C returns `float _Complex` in one register on
    x86-64, unlike LLVM's `{float, float}`. Host code only: GPU kernels are
    compiled before it runs.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect"
  ];
}

#endif // VRIR_CONVERSION_PASSES_TD
