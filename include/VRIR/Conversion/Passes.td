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
  }];
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

#endif // VRIR_CONVERSION_PASSES_TD
