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

def FuseElementwise : Pass<"vrir-fuse-elementwise"> {
  let summary = "Fuse trees of element-wise array ops into vrir.map";
  let description = [{
    An array expression such as `0.2 * (A[1:-1] + A[:-2] + A[2:])` is a tree
    of `vrir.binary` ops, each of which would allocate and fill a temporary
    array. This pass replaces an element-wise op (`unary`, `binary`, `cmp`,
    `select`, `cast` or `map`) whose array operands are produced by other
    element-wise ops with a single `vrir.map` computing the whole tree per
    element: one loop nest, no temporaries (Numba's array-expression
    rewrite, at the IR level, for every frontend).

    A producer is fused into its consumer when
    - its result has exactly one use, the consumer, in the same block;
    - its result has the consumer's rank (a lower-rank producer is
      broadcast by the consumer and would be recomputed per element);
    - nothing between the two writes or frees memory, since the fused
      expression reads the producer's inputs at the consumer.

    Broadcasting composes, so the fused map broadcasts the producer's inputs
    to the consumer's shape directly; a shape mismatch is still a run-time
    error, reported for the fused expression.
  }];
  let dependentDialects = ["::mlir::vrir::VRIRDialect"];
}

def UpliftWhileToFor : Pass<"vrir-uplift-while-to-for"> {
  let summary = "Turn counted scf.while loops into scf.for";
  let description = [{
    Frontends emit loops as branches (Python's `for i in range(...)` may
    `break` or `return`), and `lift-cf-to-scf` makes every loop an
    `scf.while`. A while loop whose condition compares an induction
    variable with a loop-invariant bound and whose body adds a constant
    step is a counted loop: as `scf.for` its induction variable has a known
    range, so integer range analysis drops the negative-index wrap-around
    and bounds checks it proves redundant, and the OpenMP and vectorizing
    lowerings see a canonical loop. Uses upstream's
    `populateUpliftWhileToForPatterns`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // VRIR_TRANSFORMS_PASSES_TD
