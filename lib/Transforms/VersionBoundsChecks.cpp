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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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

/// True if code placed right before `op` would run inside a GPU kernel
/// (under a pfor of a GPU section), where there are no 128-bit integers.
bool isInKernel(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<PforOp>(parent) && parent->getParentOfType<GpuSectionOp>())
      return true;
  return false;
}

/// A loop to version: its counters, each running over [lb, ub) with a
/// positive step.
struct CountedLoop {
  Operation *op;
  SmallVector<Value> counters, lowerBounds, upperBounds;
};

std::optional<CountedLoop> getCountedLoop(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    if (loop.getUnsignedCmp())
      return std::nullopt;
    return CountedLoop{op,
                       {loop.getInductionVar()},
                       {loop.getLowerBound()},
                       {loop.getUpperBound()}};
  }
  auto pfor = dyn_cast<PforOp>(op);
  if (!pfor)
    return std::nullopt;
  // Reported only for exclusive ranges (see PforOp::getLoopLowerBounds).
  auto lbs = pfor.getLoopLowerBounds();
  auto ubs = pfor.getLoopUpperBounds();
  auto steps = pfor.getLoopSteps();
  auto ivs = pfor.getLoopInductionVars();
  if (!lbs || !ubs || !steps || !ivs)
    return std::nullopt;
  CountedLoop result{op, *ivs, {}, {}};
  for (auto [lb, ub, step] : llvm::zip(*lbs, *ubs, *steps)) {
    std::optional<int64_t> constantStep = getConstantIntValue(step);
    auto lbValue = dyn_cast<Value>(lb), ubValue = dyn_cast<Value>(ub);
    if (!constantStep || *constantStep <= 0 || !lbValue || !ubValue)
      return std::nullopt;
    result.lowerBounds.push_back(lbValue);
    result.upperBounds.push_back(ubValue);
  }
  return result;
}

/// `value` (an integer of at most 64 bits, or an index) as an i128: sums of
/// a few products of 64-bit numbers cannot wrap around in 128 bits.
Value widen(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    value = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
  return arith::ExtSIOp::create(b, loc, b.getIntegerType(128), value);
}

/// The smallest value of `expr` over the loop's iteration box, in i128:
/// each counter atom at its first value where its coefficient is positive,
/// at its last one otherwise. Other atoms are values or array sizes fixed
/// during the loop.
Value materializeMinimum(
    OpBuilder &b, Location loc, IndexFacts &facts, const LinearExpr &expr,
    const DenseMap<unsigned, std::pair<Value, Value>> &counterBounds,
    function_ref<Value(Value)> current) {
  Type i128 = b.getIntegerType(128);
  Value sum = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(i128, APInt(128, expr.constant, true)));
  for (auto [atom, coefficient] : expr.terms) {
    Value term;
    auto counter = counterBounds.find(atom);
    if (counter != counterBounds.end()) {
      term = coefficient > 0 ? counter->second.first : counter->second.second;
    } else {
      auto [value, dim] = facts.getAtomMeaning(atom);
      value = current(value);
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
  if (failed(IndexFacts::runAnalyses(solver, root)))
    return signalPassFailure();
  IndexFacts facts(solver);

  // Innermost counted loops (no loop inside) whose test would run on the
  // host or the CPU.
  SmallVector<Operation *> loopOps;
  root->walk([&](Operation *op) {
    if (!getCountedLoop(op) || isInKernel(op))
      return;
    bool innermost = true;
    op->getRegion(0).walk([&](Operation *inner) {
      if (isa<LoopLikeOpInterface>(inner))
        innermost = false;
    });
    if (innermost)
      loopOps.push_back(op);
  });

  // A versioned loop's results are replaced by its scf.if's; the analysis
  // (run once, before any change) still names the loop's, now inside the
  // else branch: `current` follows the replacements.
  DenseMap<Value, Value> replacedBy;
  auto current = [&](Value value) {
    for (auto it = replacedBy.find(value); it != replacedBy.end();
         it = replacedBy.find(value))
      value = it->second;
    return value;
  };

  for (Operation *loopOp : loopOps) {
    // Read the bounds now: they may be results of a loop versioned above.
    CountedLoop loop = *getCountedLoop(loopOp);
    auto loopLike = cast<LoopLikeOpInterface>(loopOp);
    auto fixedInLoop = [&](Value value) {
      return loopLike.isDefinedOutsideOfLoop(value);
    };
    DenseSet<Value> counters(loop.counters.begin(), loop.counters.end());
    DenseMap<unsigned, Value> counterOfAtom;
    SmallVector<HoistedCheck> hoisted;
    loopOp->getRegion(0).walk([&](Operation *op) {
      std::optional<ElementAccess> access = ElementAccess::get(op);
      if (!access || access->flattened)
        return;
      ValueRange indices = access->indices;
      Value array = access->array;
      if (!fixedInLoop(array))
        return;
      int64_t base = getModuleSemantics(op).indexBase;
      for (unsigned i = 0; i < indices.size(); ++i) {
        IndexFlags flags = access->flags[i];
        if (bitEnumContainsAny(flags, IndexFlags::Grow))
          continue;
        LinearExpr index = facts.getExpr(indices[i]);
        index.constant -= base;
        LinearExpr extent = facts.getExtent(array, i);
        // Linear in the counters, every other atom fixed in the loop.
        bool linearInCounters = true;
        for (const LinearExpr *expr : {&index, &extent})
          for (auto [atom, coefficient] : expr->terms) {
            auto [value, dim] = facts.getAtomMeaning(atom);
            if (dim == -1 && counters.contains(value)) {
              counterOfAtom[atom] = value;
              continue;
            }
            if (dim == -2 || !fixedInLoop(value))
              linearInCounters = false;
          }
        if (!linearInCounters)
          continue;
        // u >= 0: the lower check holds and a negative-index wrap-around is
        // a no-op, so the copy drops both. (A loop that does use negative
        // indices keeps running the checked version.)
        if (bitEnumContainsAny(flags, IndexFlags::CheckLower))
          hoisted.push_back({op, i,
                             IndexFlags::CheckLower | IndexFlags::WrapNegative,
                             index});
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

    // cond = some counter has no value || every check holds at the corner
    // of the iteration box where its expression is smallest.
    OpBuilder b(loopOp);
    Location loc = loopOp->getLoc();
    Type i128 = b.getIntegerType(128);
    Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i128, 1));
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i128, 0));
    DenseMap<Value, std::pair<Value, Value>> boundsOfCounter;
    Value empty;
    for (auto [counter, lbValue, ubValue] :
         llvm::zip(loop.counters, loop.lowerBounds, loop.upperBounds)) {
      Value lb = widen(b, loc, lbValue), ub = widen(b, loc, ubValue);
      boundsOfCounter[counter] = {lb, arith::SubIOp::create(b, loc, ub, one)};
      Value none =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lb, ub);
      empty =
          empty ? arith::OrIOp::create(b, loc, empty, none).getResult() : none;
    }
    DenseMap<unsigned, std::pair<Value, Value>> counterBounds;
    for (auto [atom, counter] : counterOfAtom)
      counterBounds[atom] = boundsOfCounter[counter];
    Value holds;
    for (const HoistedCheck &check : hoisted) {
      Value minimum = materializeMinimum(b, loc, facts, check.mustBeNonNegative,
                                         counterBounds, current);
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                       minimum, zero);
      holds = holds ? arith::AndIOp::create(b, loc, holds, ok).getResult() : ok;
    }
    Value cond = arith::OrIOp::create(b, loc, empty, holds);

    // if (cond) { loop without the checks } else { loop }. Without
    // results, scf.if comes with both terminators.
    auto ifOp = scf::IfOp::create(b, loc, loopOp->getResultTypes(), cond,
                                  /*withElseRegion=*/true);
    bool hasResults = ifOp.getNumResults() != 0;
    IRMapping mapping;
    b.setInsertionPointToStart(ifOp.thenBlock());
    Operation *fast = b.clone(*loopOp, mapping);
    if (hasResults)
      scf::YieldOp::create(b, loc, fast->getResults());
    for (const HoistedCheck &check : hoisted) {
      ElementAccess copy = *ElementAccess::get(mapping.lookup(check.access));
      SmallVector<IndexFlags> flags = copy.flags;
      flags[check.index] = flags[check.index] & ~check.cleared;
      copy.setFlags(flags);
    }
    loopOp->replaceAllUsesWith(ifOp.getResults());
    for (auto [old, replacement] :
         llvm::zip(loopOp->getResults(), ifOp.getResults()))
      replacedBy[old] = replacement;
    loopOp->moveBefore(ifOp.elseBlock(), ifOp.elseBlock()->begin());
    if (hasResults) {
      b.setInsertionPointAfter(loopOp);
      scf::YieldOp::create(b, loc, loopOp->getResults());
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
