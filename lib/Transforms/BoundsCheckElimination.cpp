//===- BoundsCheckElimination.cpp - Drop checks that cannot fail ----------===//
//
// Thesis sections 5.6 and 6.6. Checks live in the `flags` of vrir.load and
// vrir.store until the memref lowering expands them, so removing a check is
// clearing a flag bit.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Analysis/IndexFacts.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_BOUNDSCHECKELIMINATION
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

using Access = ElementAccess;

constexpr IndexFlags kChecks = IndexFlags::CheckLower | IndexFlags::CheckUpper;

unsigned countChecks(IndexFlags flags) {
  return llvm::popcount(static_cast<uint32_t>(flags & kChecks));
}

/// A failed check inside a parallel loop or GPU section records the error
/// and skips the access, so execution goes on past it.
bool isSerial(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<PforOp, GpuSectionOp>(parent))
      return false;
    if (isa<FunctionOpInterface>(parent))
      return true;
  }
  return true;
}

struct FunctionCounts {
  unsigned checks = 0, proven = 0, repeated = 0, kept = 0;
};

struct BoundsCheckElimination
    : public vrir::impl::BoundsCheckEliminationBase<BoundsCheckElimination> {
  void runOnOperation() override;

  /// The flags of `access` with every check the facts disprove removed.
  SmallVector<IndexFlags> proveInBounds(IndexFacts &facts,
                                        const Access &access);
};
} // namespace

SmallVector<IndexFlags>
BoundsCheckElimination::proveInBounds(IndexFacts &facts, const Access &access) {
  int64_t base = getModuleSemantics(access.op).indexBase;
  unsigned count = access.indices.size();
  SmallVector<LinearExpr> zeroBased, extents;
  SmallVector<LinearExpr> exprs;
  for (unsigned i = 0; i < count; ++i) {
    LinearExpr index = facts.getExpr(access.indices[i]);
    index.constant -= base; // |base| <= 1: cannot overflow a real index
    zeroBased.push_back(index);
    bool flat = access.flattened && i + 1 == count;
    extents.push_back(flat ? LinearExpr() : facts.getExtent(access.array, i));
    exprs.push_back(zeroBased.back());
    if (!flat)
      exprs.push_back(extents.back());
  }
  IndexFacts::System system = facts.buildSystem(access.op, exprs);
  SmallVector<IndexFlags> result(access.flags);
  for (unsigned i = 0; i < count; ++i) {
    IndexFlags flags = result[i];
    bool flat = access.flattened && i + 1 == count;
    bool grows = bitEnumContainsAny(flags, IndexFlags::Grow);
    const LinearExpr &index = zeroBased[i];
    auto impossible = [&](std::optional<LinearExpr> atLeastZero) {
      return atLeastZero && system.isInfeasibleWith(*atLeastZero);
    };
    // `index <= -1`, i.e. `-1 - index >= 0`.
    std::optional<LinearExpr> negative =
        LinearExpr::ofConstant(-1).plus(index, -1);
    bool wraps = bitEnumContainsAny(flags, IndexFlags::WrapNegative);
    bool checksLower = bitEnumContainsAny(flags, IndexFlags::CheckLower);
    if ((wraps || checksLower) && impossible(negative)) {
      // Never negative: wrapping is a no-op and the lower check holds.
      flags = flags & ~(IndexFlags::CheckLower | IndexFlags::WrapNegative);
    } else if (wraps && checksLower && !flat && negative) {
      // Wrapped, the lower check fails only for `index < -extent`.
      if (impossible(negative->plus(extents[i], -1)))
        flags = flags & ~IndexFlags::CheckLower;
    }
    // The upper check (after wrapping) fails only for `index >= extent`.
    if (!flat && !grows && bitEnumContainsAny(flags, IndexFlags::CheckUpper) &&
        impossible(index.plus(extents[i], -1)))
      flags = flags & ~IndexFlags::CheckUpper;
    result[i] = flags;
  }
  return result;
}

void BoundsCheckElimination::runOnOperation() {
  Operation *root = getOperation();
  DataFlowSolver solver;
  if (failed(IndexFacts::runAnalyses(solver, root)))
    return signalPassFailure();
  IndexFacts facts(solver);
  DominanceInfo dominance(root);

  // Per array value, the serial accesses seen so far with their flags as
  // written: each one that executed had its indices in bounds, checked or
  // proven.
  DenseMap<Value, SmallVector<Access>> serialAccesses;
  llvm::MapVector<Operation *, FunctionCounts> counts;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::optional<Access> access = Access::get(op);
    if (!access)
      return;
    auto function = op->getParentOfType<FunctionOpInterface>();
    FunctionCounts &functionCounts = counts[function];
    Access original = *access;
    unsigned before = 0;
    for (unsigned i = 0; i < access->flags.size(); ++i) {
      IndexFlags flags = access->flags[i];
      // The upper bound of a growing index is growth, not a check.
      if (bitEnumContainsAny(flags, IndexFlags::Grow))
        flags = flags & ~IndexFlags::CheckUpper;
      before += countChecks(flags);
    }
    functionCounts.checks += before;
    numChecks += before;

    SmallVector<IndexFlags> proven = proveInBounds(facts, *access);
    unsigned afterProof = 0, wrapsRemoved = 0;
    for (unsigned i = 0; i < proven.size(); ++i) {
      IndexFlags flags = proven[i];
      if (bitEnumContainsAny(flags, IndexFlags::Grow))
        flags = flags & ~IndexFlags::CheckUpper;
      afterProof += countChecks(flags);
      wrapsRemoved +=
          bitEnumContainsAny(access->flags[i], IndexFlags::WrapNegative) &&
          !bitEnumContainsAny(proven[i], IndexFlags::WrapNegative);
    }
    numWrapsRemoved += wrapsRemoved;

    // Repeated checks: a dominating serial access of the same array value
    // with the same index values and flags at least as strong.
    SmallVector<IndexFlags> remaining = proven;
    unsigned repeated = 0;
    if (isSerial(op) && !access->flattened) {
      for (const Access &earlier : serialAccesses.lookup(access->array)) {
        if (earlier.flattened ||
            earlier.indices.size() != access->indices.size() ||
            !dominance.properlyDominates(earlier.op, op))
          continue;
        for (unsigned i = 0; i < remaining.size(); ++i) {
          IndexFlags mine = remaining[i] & kChecks;
          IndexFlags theirs = earlier.flags[i];
          // As written, both wrap negative indices or neither does (the
          // proof drops a wrap only where it is a no-op).
          if (mine == IndexFlags::None ||
              earlier.indices[i] != access->indices[i] ||
              bitEnumContainsAny(original.flags[i] ^ theirs,
                                 IndexFlags::WrapNegative) ||
              (theirs & mine) != mine ||
              bitEnumContainsAny(remaining[i], IndexFlags::Grow))
            continue;
          repeated += countChecks(mine);
          remaining[i] = remaining[i] & ~kChecks;
        }
      }
      serialAccesses[access->array].push_back(original);
    }

    unsigned provenCount = before - afterProof;
    unsigned kept = afterProof - repeated;
    functionCounts.proven += provenCount;
    functionCounts.repeated += repeated;
    functionCounts.kept += kept;
    numProven += provenCount;
    numRepeated += repeated;
    numKept += kept;
    if (remaining != access->flags)
      access->setFlags(remaining);

    if (!kept)
      return;
    StringRef functionName = function ? function.getName() : StringRef();
    std::string site = describeArraySite(access->array, op->getLoc());
    for (unsigned i = 0; i < remaining.size(); ++i) {
      IndexFlags flags = remaining[i];
      if (bitEnumContainsAny(flags, IndexFlags::Grow))
        flags = flags & ~IndexFlags::CheckUpper;
      if (!countChecks(flags))
        continue;
      StringRef which = flags == kChecks ? "both bounds"
                        : bitEnumContainsAny(flags, IndexFlags::CheckLower)
                            ? "the lower bound"
                            : "the upper bound";
      remark::missed(op->getLoc(), remark::RemarkOpts::name("CheckKept")
                                       .category("vrir-bce")
                                       .function(functionName))
          << remark::add("kept the check of {0} of index {1} of {2}", which, i,
                         site);
    }
  });

  for (auto &[function, functionCounts] : counts) {
    if (!function)
      continue;
    auto callable = cast<FunctionOpInterface>(function);
    remark::analysis(function->getLoc(),
                     remark::RemarkOpts::name("BoundsChecks")
                         .category("vrir-bce")
                         .function(callable.getName()))
        << remark::add("{0} bounds checks: {1} proven, {2} repeated, {3} kept",
                       functionCounts.checks, functionCounts.proven,
                       functionCounts.repeated, functionCounts.kept)
        << remark::metric("checks", functionCounts.checks)
        << remark::metric("proven", functionCounts.proven)
        << remark::metric("repeated", functionCounts.repeated)
        << remark::metric("kept", functionCounts.kept);
  }
}
