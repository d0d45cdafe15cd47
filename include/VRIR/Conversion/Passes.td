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
    serially inside their work-item. Then the section is inlined: what is
    not a kernel runs on the host (thesis, section 5.8).
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
           "Work-group z size of three-dimensional kernels">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
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

def GpuLaunchToRuntime : Pass<"vrir-gpu-launch-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Translate GPU modules and launch their kernels through the "
                "VRIR GPU runtime";
  let description = [{
    Runs after `vrir-gpu-kernel-abi`. Each `gpu.module` is translated for
    `format` (`opencl-c`: OpenCL C source, see `vr-translate
    --gpu-to-opencl-c`) into a constant of the host module, with the names
    of its bounds-check sites. Each `gpu.launch_func` becomes a call of
    `vrir_gpu_launch` (include/VRIR/Runtime/VRIRGPURuntime.h) with a table of
    its arguments: for a buffer, the host address and byte length of the
    elements the array spans, its element size, the array's offset from the
    lowest of them and whether the kernel writes it; for a scalar, its bits
    and size. The runtime moves the data, compiles and runs the kernel, and
    records a failed bounds check for the `vrir_rt_parallel_check` that
    follows the loop. Then the GPU modules are erased.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"opencl-c\"",
           "Kernel format: opencl-c">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

#endif // VRIR_CONVERSION_PASSES_TD
