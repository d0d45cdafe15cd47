//===- VersionBoundsChecks.cpp - Hoist loop checks into one test ----------===//
//
// Thesis section 6.6: a check that cannot be proven but whose index is
// linear in the loop's counter, with everything else fixed in the loop,
// holds for the whole loop iff it holds at the first and the last counter
// value. The loop is versioned: one test before it picks a copy without
// those checks, or the original loop, which fails where it would have.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Analysis/IndexFacts.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_VERSIONBOUNDSCHECKS
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

/// One check to hoist: `expr >= 0` must hold for every counter value.
struct HoistedCheck {
  Operation *access;
  unsigned index;
  IndexFlags cleared;
  LinearExpr mustBeNonNegative;
};

struct VersionBoundsChecks
    : public vrir::impl::VersionBoundsChecksBase<VersionBoundsChecks> {
  void runOnOperation() override;
};

bool isInGpuSection(Operation *op) {
  return op->getParentOfType<GpuSectionOp>() != nullptr;
}

/// Flags and indices of a load or store.
std::optional<std::pair<ArrayAttr, OperandRange>> getAccess(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    if (!load.getFlattened())
      return std::make_pair(load.getIndexFlagsAttr(), load.getIndices());
  if (auto store = dyn_cast<StoreOp>(op))
    if (!store.getFlattened())
      return std::make_pair(store.getIndexFlagsAttr(), store.getIndices());
  return std::nullopt;
}

IndexFlags flagsAt(ArrayAttr flags, unsigned position) {
  if (!flags)
    return getDefaultIndexFlags();
  return cast<IndexFlagsAttr>(flags[position]).getValue();
}

void clearFlags(Operation *op, unsigned position, IndexFlags bits) {
  auto flags = op->getAttrOfType<ArrayAttr>("index_flags");
  unsigned count = getAccess(op)->second.size();
  SmallVector<Attribute> attrs;
  for (unsigned i = 0; i < count; ++i) {
    IndexFlags flag = flagsAt(flags, i);
    if (i == position)
      flag = flag & ~bits;
    attrs.push_back(IndexFlagsAttr::get(op->getContext(), flag));
  }
  op->setAttr("index_flags", ArrayAttr::get(op->getContext(), attrs));
}

/// `value` (an integer of at most 64 bits, or an index) as an i128: sums of
/// a few products of 64-bit numbers cannot wrap around in 128 bits.
Value widen(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    value = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
  return arith::ExtSIOp::create(b, loc, b.getIntegerType(128), value);
}

/// `expr` evaluated in i128 with the counter atom replaced by `counter`
/// (i128); atoms are values or array sizes defined before the loop.
Value materialize(OpBuilder &b, Location loc, IndexFacts &facts,
                  const LinearExpr &expr, unsigned counterAtom, Value counter) {
  Type i128 = b.getIntegerType(128);
  Value sum = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(i128, APInt(128, expr.constant, true)));
  for (auto [atom, coefficient] : expr.terms) {
    Value term;
    if (atom == counterAtom) {
      term = counter;
    } else {
      auto [value, dim] = facts.getAtomMeaning(atom);
      term = widen(b, loc,
                   dim >= 0 ? DimOp::create(b, loc, value, dim).getResult()
                            : value);
    }
    Value scale = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(i128, APInt(128, coefficient, true)));
    sum = arith::AddIOp::create(b, loc, sum,
                                arith::MulIOp::create(b, loc, term, scale));
  }
  return sum;
}
} // namespace

void VersionBoundsChecks::runOnOperation() {
  Operation *root = getOperation();
  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(root)))
    return signalPassFailure();
  IndexFacts facts(solver);

  // Innermost counted loops (no loop inside), outside GPU sections (kernels
  // have no 128-bit integers).
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<LoopLikeOpInterface>(op))
        innermost = false;
    });
    if (innermost && !loop.getUnsignedCmp() && !isInGpuSection(loop))
      loops.push_back(loop);
  });

  for (scf::ForOp loop : loops) {
    Value iv = loop.getInductionVar();
    auto definedOutside = [&](Value value) {
      return loop.isDefinedOutsideOfLoop(value);
    };
    std::optional<unsigned> counterAtom;
    SmallVector<HoistedCheck> hoisted;
    loop.getBody()->walk([&](Operation *op) {
      auto access = getAccess(op);
      if (!access)
        return;
      auto [flagsAttr, indices] = *access;
      Value array = op->getOperand(isa<LoadOp>(op) ? 0 : 1);
      if (!definedOutside(array))
        return;
      int64_t base = getModuleSemantics(op).indexBase;
      for (unsigned i = 0; i < indices.size(); ++i) {
        IndexFlags flags = flagsAt(flagsAttr, i);
        if (bitEnumContainsAny(flags, IndexFlags::Grow))
          continue;
        LinearExpr index = facts.getExpr(indices[i]);
        index.constant -= base;
        LinearExpr extent = facts.getExtent(array, i);
        // Every atom but the counter must be fixed during the loop.
        bool linearInCounter = true;
        for (const LinearExpr *expr : {&index, &extent})
          for (auto [atom, coefficient] : expr->terms) {
            auto [value, dim] = facts.getAtomMeaning(atom);
            if (dim == -1 && value == iv) {
              counterAtom = atom;
              continue;
            }
            if (dim == -2 || !definedOutside(value))
              linearInCounter = false;
          }
        if (!linearInCounter)
          continue;
        bool wraps = bitEnumContainsAny(flags, IndexFlags::WrapNegative);
        if (bitEnumContainsAny(flags, IndexFlags::CheckLower)) {
          // u >= 0, or u + extent >= 0 when negative indices wrap.
          std::optional<LinearExpr> lower =
              wraps ? index.plus(extent) : std::optional<LinearExpr>(index);
          if (lower)
            hoisted.push_back({op, i, IndexFlags::CheckLower, *lower});
        }
        if (bitEnumContainsAny(flags, IndexFlags::CheckUpper)) {
          // extent - 1 - u >= 0.
          if (auto upper = extent.plus(index, -1))
            if (auto shifted = upper->plus(LinearExpr::ofConstant(1), -1))
              hoisted.push_back({op, i, IndexFlags::CheckUpper, *shifted});
        }
      }
    });
    if (hoisted.empty())
      continue;

    // cond = lb >= ub || every check holds at lb and at ub - 1.
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Type i128 = b.getIntegerType(128);
    Value lb = widen(b, loc, loop.getLowerBound());
    Value ub = widen(b, loc, loop.getUpperBound());
    Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i128, 1));
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i128, 0));
    Value last = arith::SubIOp::create(b, loc, ub, one);
    Value cond =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lb, ub);
    Value holds;
    for (const HoistedCheck &check : hoisted)
      for (Value counter : {lb, last}) {
        Value value = materialize(b, loc, facts, check.mustBeNonNegative,
                                  counterAtom.value_or(~0u), counter);
        Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                         value, zero);
        holds =
            holds ? arith::AndIOp::create(b, loc, holds, ok).getResult() : ok;
      }
    cond = arith::OrIOp::create(b, loc, cond, holds);

    // if (cond) { loop without the checks } else { loop }. Without
    // results, scf.if comes with both terminators.
    auto ifOp = scf::IfOp::create(b, loc, loop.getResultTypes(), cond,
                                  /*withElseRegion=*/true);
    bool hasResults = ifOp.getNumResults() != 0;
    IRMapping mapping;
    b.setInsertionPointToStart(ifOp.thenBlock());
    Operation *fast = b.clone(*loop, mapping);
    if (hasResults)
      scf::YieldOp::create(b, loc, fast->getResults());
    for (const HoistedCheck &check : hoisted)
      clearFlags(mapping.lookup(check.access), check.index, check.cleared);
    loop->replaceAllUsesWith(ifOp.getResults());
    loop->moveBefore(ifOp.elseBlock(), ifOp.elseBlock()->begin());
    if (hasResults) {
      b.setInsertionPointAfter(loop);
      scf::YieldOp::create(b, loc, loop.getResults());
    }
    ++numVersioned;
    numHoisted += hoisted.size();
    auto function = ifOp->getParentOfType<FunctionOpInterface>();
    remark::passed(loc, remark::RemarkOpts::name("ChecksHoisted")
                            .category("vrir-bce")
                            .function(function ? function.getName() : ""))
        << remark::add("hoisted {0} bounds checks out of the loop",
                       hoisted.size())
        << remark::metric("hoisted", static_cast<unsigned>(hoisted.size()));
  }
}
