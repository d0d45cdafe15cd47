//===- VRIRDialect.td - VRIR dialect definition ------------*- tablegen -*-===//
//
// The VRIR dialect: a typed IR for the numerical core of array languages
// (NumPy, MATLAB), after Velociraptor (Garg, McGill 2015), chapter 4.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_DIALECT_VRIR_IR_VRIRDIALECT_TD
#define VRIR_DIALECT_VRIR_IR_VRIRDIALECT_TD

include "mlir/IR/OpBase.td"

def VRIR_Dialect : Dialect {
  let name = "vrir";
  let cppNamespace = "::mlir::vrir";
  let summary = "Arrays, indexing, parallel loops and GPU sections of array "
                "languages";
  let description = [{
    VRIR holds the numerical core of NumPy- and MATLAB-style programs: typed
    multi-dimensional arrays whose sizes are not part of the type, the full
    set of indexing modes of both languages (0/1-based, negative, flattened,
    slicing as view or copy, gather/scatter, growth on write, per-dimension
    bounds-check flags), whole-array operators, parallel loops over domains
    with explicit shared values, atomics, and accelerated (GPU) sections.

    Scalars and control flow reuse upstream dialects (`arith`, `math`,
    `complex`, `scf`, `cf`, `func`). Language semantics that differ between
    NumPy and MATLAB are attributes of the enclosing `builtin.module`:

    * `vrir.index_base` (integer, 0 or 1; default 0),
    * `vrir.range_exclusive` (bool; default true: `a:b` excludes `b`),
    * `vrir.memory` (`#vrir.memory<refcount>` or `#vrir.memory<gc>`;
      default `refcount`).

    The defaults are NumPy's.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// Names of the module-level semantics attributes.
    static constexpr ::llvm::StringLiteral kIndexBaseAttrName = "vrir.index_base";
    static constexpr ::llvm::StringLiteral kRangeExclusiveAttrName = "vrir.range_exclusive";
    static constexpr ::llvm::StringLiteral kMemoryAttrName = "vrir.memory";
    /// Marks a GPU section that the GPU lowering keeps (on `vrir.gpu_section`
    /// and on the `scf.execute_region` it becomes).
    static constexpr ::llvm::StringLiteral kGpuSectionAttrName = "vrir.gpu_section";
    /// Marks the `scf.if` holding the host version of a GPU kernel, run when
    /// the device has no memory for it (`vrir-gpu-cpu-fallback`).
    static constexpr ::llvm::StringLiteral kGpuFallbackAttrName = "vrir.gpu_fallback";
  private:
    void registerTypes();
    void registerAttributes();
  public:
  }];
}

class VRIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<VRIR_Dialect, mnemonic, traits>;

#endif // VRIR_DIALECT_VRIR_IR_VRIRDIALECT_TD
