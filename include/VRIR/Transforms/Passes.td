//===- Passes.td - VRIR transformation passes --------------*- tablegen -*-===//

#ifndef VRIR_TRANSFORMS_PASSES_TD
#define VRIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def InlineAllocaScopes : Pass<"vrir-inline-alloca-scopes"> {
  let summary = "Inline memref.alloca_scope regions that allocate nothing";
  let description = [{
    `convert-scf-to-openmp` wraps every parallel loop body in a
    `memref.alloca_scope` so that stack allocations are released per
    iteration. A scope whose region has no stack allocation (outside nested
    allocation scopes) does nothing and is inlined. Upstream canonicalization
    keeps such scopes when the region calls a function (it cannot tell the
    callee does not allocate on the caller's stack), and a scope must stay a
    single block, which `convert-scf-to-cf` would break.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // VRIR_TRANSFORMS_PASSES_TD
