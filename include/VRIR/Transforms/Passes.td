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

    A whole-array `vrir.reduce` (no axis, or a 1-D operand) of such a tree
    becomes a reducing map (`vrir.map ... reduce(kind)`), under the same
    conditions: `np.dot(A[i, :j], A[j, :j])` and `np.sum(a * b)` are one
    loop that stores no element. An op that may raise an error between a
    producer and its consumer does not stop fusion: the fused expression
    then raises its own error after that op's, never a wrong value.
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

def BoundsCheckElimination : Pass<"vrir-bounds-check-elim"> {
  let summary = "Remove array bounds checks that can never fail";
  let description = [{
    Clears the `lower`/`upper` check flags (and the `negative` wrap-around)
    of `vrir.load` and `vrir.store` indices that are proven in bounds, the
    thesis's bounds-check elimination (sections 5.6 and 6.6):

    - **Exact test.** Each index is written as a linear expression over
      atoms: induction variables of `scf.for` and `vrir.pfor` loops, array
      extents (`vrir.dim`, allocation sizes, through shape-preserving ops)
      and other integer values. The loops around the access (`lb <= i <
      ub`, with the step's lattice), the conditions of enclosing `scf.if`s
      and of the `scf.while` whose body forwards a value, minimum and
      maximum (`arith.minsi`/`maxsi`, a select between the two values it
      compares), Python's floor modulo by a non-negative number (`0 <= x % n
      < n`), and the integer ranges of the atoms give a system of linear
      constraints; a check is dropped when the system plus "this check
      fails" (`index < 0`, `index >= extent`, or `index < -extent` when
      negative indices wrap) has no integer solution, decided by the
      upstream Presburger library. Triangular nests, symbolic bounds such as
      `dim` of another array, strides and the module's index base are
      handled; an `arith` op is looked through only when integer range
      analysis proves it cannot wrap around, so the test is exact for
      64-bit arithmetic.
    - **Repeated checks.** In serial code (a failed check stops the
      function), an access dominated by one with the same array value, the
      same index values and at least its checks needs no checks of its own
      (`A[i] += x` reads and writes the same element).

    `negative` is dropped when the index is proven non-negative. Growing
    indices keep their growth; flattened (MATLAB linear) indices have only
    their lower bound analysed. Each check kept is reported as a missed
    optimization remark in category `vrir-bce` (`vr-opt
    --remarks-filter=vrir-bce`), naming the array, the index and the
    access's position; every function gets an analysis remark with its
    counts.
  }];
  let dependentDialects = ["::mlir::vrir::VRIRDialect"];
  let statistics = [
    Statistic<"numChecks", "checks",
              "Bounds checks seen (one per checked bound of an index)">,
    Statistic<"numProven", "proven",
              "Bounds checks removed: proven never to fail">,
    Statistic<"numRepeated", "repeated",
              "Bounds checks removed: a dominating access checked the same "
              "index">,
    Statistic<"numKept", "kept", "Bounds checks kept">,
    Statistic<"numWrapsRemoved", "wraps-removed",
              "Negative-index wrap-arounds removed (index proven "
              "non-negative)">
  ];
}

def VersionBoundsChecks : Pass<"vrir-version-bounds-checks"> {
  let summary = "Hoist loop bounds checks into one test before the loop";
  let description = [{
    The thesis's hoisting (section 6.6) for checks that
    `vrir-bounds-check-elim` could not prove. In an innermost counted loop
    (an `scf.for`, or a `vrir.pfor` over exclusive ranges with positive
    constant steps, every dimension), a check of a `vrir.load`/`vrir.store`
    index whose index and extent are linear in the loop's counters, with
    every other term (values, array sizes) fixed during the loop, holds in
    every iteration if and only if it holds at the corner of the iteration
    box where its expression is smallest (each counter at its first or
    last value, by the sign of its coefficient). The loop becomes

    ```mlir
    scf.if %empty_or_all_hold {
      // the loop without those checks
    } else {
      // the loop as it was, which reports the error where it occurs
    }
    ```

    The test is computed in 128-bit integers, so it cannot wrap around. It
    runs on the host: a `pfor` of a GPU section is versioned (two kernels,
    one launched), loops inside kernels are not. `for j in range(k + 1,
    n): A[i, j]` with `n` the row count of `A` pays one test per outer
    iteration (`n - 1 < A.shape[1]`) instead of one per access.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vrir::VRIRDialect"];
  let statistics = [
    Statistic<"numVersioned", "loops", "Loops versioned">,
    Statistic<"numHoisted", "checks", "Bounds checks hoisted out of loops">
  ];
}

def TestAliasGroups : Pass<"vrir-test-alias-groups"> {
  let summary = "Report the array alias group of every array value";
  let description = [{
    A remark per array value (function and region arguments, op results)
    naming its group in the `AliasGroups` analysis
    (`include/VRIR/Analysis/AliasGroups.h`, thesis section 5.4); values in
    different groups never share memory. For tests of the analysis.
  }];
}

def RaiseToAffine : Pass<"vrir-raise-to-affine", "func::FuncOp"> {
  let summary = "Turn affine scf.for loops and memref accesses into affine ops";
  let description = [{
    The CPU route through `affine`: an `scf.for` (index or i64 counter) whose
    bounds are affine in enclosing affine counters and in values fixed in
    the function (arguments, extents, constants) and whose step is a
    positive constant becomes an `affine.for`; a `memref.load`/`store` whose
    subscripts are affine the same way becomes an `affine.load`/`store`.
    Outer loops are raised first, so triangular nests raise whole. The
    `arith.index_cast`s between i64 and index that frontends emit are looked
    through, and i64 values fixed in the function get an index cast next to
    their definition. Loops and accesses that do not qualify (bounds read
    from memory, subscripts from a `scf.parallel` counter, non-constant
    steps) are left as they are.

    Integer arithmetic is modelled without wrap-around, as the affine
    analyses assume: subscripts that reach memory were checked or proven in
    bounds first.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect"];
}

def TestLoopInfo : Pass<"vrir-test-loop-info"> {
  let summary = "Report the loop information of every loop";
  let description = [{
    A remark per loop (`scf.for`, `scf.while`, `vrir.pfor`) from the
    `LoopInfo` analysis (`include/VRIR/Analysis/LoopInfo.h`, thesis section
    5.5): its number in program order, depth, parent and children, the
    element accesses directly in its body with their subscripts, the arrays
    read and written in it, the values it uses from outside (constants
    left out), the calls and allocations in it, and whether it can exit
    early. For tests of the analysis.
  }];
}

def TestRegionDetection : Pass<"vrir-test-region-detection"> {
  let summary = "Report the regions found by region detection";
  let description = [{
    For tests of the `RegionDetection` analysis
    (`include/VRIR/Analysis/RegionDetection.h`, thesis 6.2-6.3 and appendix
    B): a remark on the first op of every legal region with its number, its
    last op, whether it is interesting (and why) and its critical shape and
    value variables at entry; and a remark on every statement of a region
    with the critical sets just before it (constants left out).
  }];
}

def OutlineRegions : Pass<"vrir-outline-regions", "ModuleOp"> {
  let summary = "Outline potentially interesting regions behind vrir.dispatch";
  let description = [{
    Thesis 6.2.4 and 6.4, the first phase of region specialization: region
    detection finds the potentially interesting regions of every function
    (loop nests on arrays, two or more array operations, array operations
    in loops, GPU sections, together with the statements around them that
    compute their shapes), and each moves into a private function
    `@<function>_region<N>` whose arguments are the values it uses from
    outside (constants are cloned in) and whose results are the values
    used after it. At its place a `vrir.dispatch` calls it and lists which
    arguments are critical shape and critical value variables.

    A region is left in place when one of the values it uses has a type
    that cannot cross a call (a range, a domain, a variable slot), or when
    a view of one of its inputs would leave it.

    Each region function gets a `vrir.region` attribute for its dispatcher
    (`vrir-lower-region-dispatch`): `source`, the region function (public)
    and every function it references, as a VRIR module with the original
    module's attributes; `signature`, one entry per argument (see
    `include/VRIR/Runtime/VRIRRegions.h`); and `options`, the pipeline
    options the specialised versions are compiled with (the pass option
    `pipeline-options`).
  }];
  let options = [
    Option<"pipelineOptions", "pipeline-options", "std::string",
           /*default=*/"\"cpu:1:1:1\"",
           "Pipeline of the specialised versions: target:openmp:bce:affine "
           "(target cpu, opencl, vulkan or opencl-spirv)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::vrir::VRIRDialect"];
}

def SpecializeRegion : Pass<"vrir-specialize-region", "ModuleOp"> {
  let summary = "Apply the run-time facts of a region being specialised";
  let description = [{
    Thesis 6.5 and 6.7, at the VRIR level: a function carrying
    `vrir.region_facts` (one dictionary per argument, set by the run-time
    specializer: `shape`/`strides` for a critical array, `value` for a
    critical integer) gets its facts as constants: uses of such a scalar
    become constants, and `vrir.dim`/`vrir.numel` of such an array fold
    to its sizes (`vrir::traceDimension` reads them from the facts), so
    canonicalization folds the loop bounds and sizes that follow; bounds-check elimination, which runs next, proves checks
    against the concrete extents. Functions without facts are left alone.
    `vrir-specialize-region-llvm` applies the same facts (and `noalias`)
    after lowering.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AllowNegativeStrides : Pass<"vrir-allow-negative-strides"> {
  let summary = "Drop the unsigned no-wrap flags of lowered address arithmetic";
  let description = [{
    Runs right after `finalize-memref-to-llvm`. MLIR's memref-to-LLVM
    lowering computes an element's address as `base + offset` and then
    `getelementptr inbounds|nuw` by `index * stride + ...` with `nuw` on
    the products and sums, which says each of them is non-negative. VRIR
    arrays may have negative strides (NumPy's reversed views, slices with
    negative steps), and then those values are negative: the flags make
    the access poison. Once LLVM sees the sign (a constant stride, a
    branch on it, a fully unrolled copy loop) it folds such accesses
    wrongly; a reversed vector packed for BLAS read one element four
    times. This pass clears `nuw` on every `llvm.getelementptr` and on the
    integer arithmetic of the LLVM dialect (keeping `inbounds` and `nsw`,
    which hold).
  }];
}

def Inline : Pass<"vrir-inline"> {
  let summary = "Inline calls to small functions, and every call in a "
                "GPU section or parallel loop";
  let description = [{
    The thesis's inlining (section 5.3) on upstream MLIR's inliner: a call
    is inlined when its callee has at most `max-callee-size` operations
    (the thesis bounds callees at 300 statements), and always inside a
    `vrir.gpu_section` (kernels cannot call host functions) or a
    `vrir.pfor` (one body per iteration, as the parallel lowerings
    expect). Like upstream's `inline`, it works bottom-up over the call
    graph, simplifies inlined bodies with the canonicalizer, and never
    inlines a self-recursive function into itself. Runs on an op with a
    symbol table (a module).
  }];
  let options = [
    Option<"maxCalleeSize", "max-callee-size", "unsigned", /*default=*/"300",
           "Inline calls outside sections and parallel loops only to "
           "callees with at most this many operations">
  ];
}

def ReturnArgumentViews : Pass<"vrir-return-argument-views", "ModuleOp"> {
  let summary = "Return views of arguments as views, not copies";
  let description = [{
    Runs right after `buffer-deallocation-pipeline`. To make every memref
    a public function returns owned by its caller, ownership-based
    deallocation clones results it does not own; a NumPy function that
    returns `a[1:]` or `a.T` would then return a copy, and writes through
    the result would not reach `a`. VRIR arrays are references (the
    thesis, 4.3): a view of an argument is what such a function returns.
    For each public function that nothing in the module calls (an entry
    point: a caller in the module would deallocate the result), a returned
    `bufferization.clone` whose source is, through view-like ops, a
    function argument is replaced by its source. The caller then gets a
    result whose allocated pointer is the argument's: vr-run does not free
    it, and the Python frontend makes it a NumPy view of the argument.
    Results that are views of an argument only on some paths keep their
    (conditional) copies.

    ```mlir
    %v = memref.subview %arg0[1] [%n] [1] : ...
    %c = bufferization.clone %v : ...
    return %c : ...
    // becomes
    return %v : ...
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def VerifyInput : Pass<"vrir-verify-input"> {
  let summary = "Verify IR read from a user, guarding upstream verifiers "
                "that crash on malformed input";
  let description = [{
    Runs the verifier on the op it is given and everything nested in it,
    after checking the facts some upstream verifiers assume without
    checking (malformed input that breaks them crashes the verifier rather
    than failing it): in LLVM 22, an input indexing map of `linalg.matmul`
    without results. `vr-opt` parses with verification off and runs this
    pass first, so bad input gets a diagnostic; `vr-run`, the C API and the
    fuzzers call the same check (`VRIR/Transforms/VerifyInput.h`).
  }];
}

#endif // VRIR_TRANSFORMS_PASSES_TD
