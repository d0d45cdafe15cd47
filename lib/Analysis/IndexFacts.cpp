//===- IndexFacts.cpp - Linear facts about array indices ------------------===//

#include "VRIR/Analysis/IndexFacts.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::vrir;
using presburger::IntegerPolyhedron;
using presburger::PresburgerSpace;

std::optional<LinearExpr> LinearExpr::plus(const LinearExpr &other,
                                           int64_t scale) const {
  LinearExpr result = *this;
  int64_t scaled;
  if (llvm::MulOverflow(other.constant, scale, scaled) ||
      llvm::AddOverflow(result.constant, scaled, result.constant))
    return std::nullopt;
  for (auto [atom, coefficient] : other.terms) {
    int64_t &sum = result.terms[atom];
    if (llvm::MulOverflow(coefficient, scale, scaled) ||
        llvm::AddOverflow(sum, scaled, sum))
      return std::nullopt;
    if (sum == 0)
      result.terms.erase(atom);
  }
  return result;
}

std::optional<LinearExpr> LinearExpr::times(int64_t scale) const {
  return LinearExpr().plus(*this, scale);
}

LogicalResult IndexFacts::runAnalyses(DataFlowSolver &solver, Operation *root) {
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  return solver.initializeAndRun(root);
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

/// Signed bounds of `value` from the integer range analysis, as 64-bit
/// numbers (values of wider types are not looked at).
static std::optional<std::pair<int64_t, int64_t>>
getSignedBounds(DataFlowSolver &solver, Value value) {
  Type type = value.getType();
  if (!type.isSignlessIntOrIndex() || type.isInteger(1))
    return std::nullopt;
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  const ConstantIntRanges &range = lattice->getValue().getValue();
  if (range.smin().getBitWidth() > 64)
    return std::nullopt;
  return std::make_pair(range.smin().getSExtValue(),
                        range.smax().getSExtValue());
}

static unsigned getWidth(Type type) {
  return type.isIndex() ? IndexType::kInternalStorageBitWidth
                        : type.getIntOrFloatBitWidth();
}

/// True if `lo..hi` (computed exactly, in 128 bits) fits `width` signed bits.
static bool fitsSigned(__int128 lo, __int128 hi, unsigned width) {
  __int128 min = -(static_cast<__int128>(1) << (width - 1));
  __int128 max = (static_cast<__int128>(1) << (width - 1)) - 1;
  return lo >= min && hi <= max;
}

/// The loop range an induction variable counts over: `lb <= iv`, `iv <= last`
/// with the step's lattice; from `scf.for` and from `vrir.pfor` ranges.
struct CountedRange {
  Value start, stop, step;
  bool inclusive;
};

static std::optional<CountedRange> getCountedRange(BlockArgument arg) {
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast<scf::ForOp>(owner)) {
    if (arg != loop.getInductionVar() || loop.getUnsignedCmp())
      return std::nullopt;
    return CountedRange{loop.getLowerBound(), loop.getUpperBound(),
                        loop.getStep(), false};
  }
  auto pfor = dyn_cast<PforOp>(owner);
  if (!pfor)
    return std::nullopt;
  Value domain = pfor.getDomain();
  Value range = domain;
  if (auto domainOp = domain.getDefiningOp<DomainOp>())
    range = domainOp.getRanges()[arg.getArgNumber()];
  else if (arg.getArgNumber() != 0)
    return std::nullopt;
  auto rangeOp = range.getDefiningOp<RangeOp>();
  if (!rangeOp)
    return std::nullopt;
  bool inclusive = !getModuleSemantics(pfor).rangeExclusive;
  return CountedRange{rangeOp.getStart(), rangeOp.getStop(), rangeOp.getStep(),
                      inclusive};
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The constant step of `range` (1 when it has none), if it is a nonzero
/// 64-bit constant.
static std::optional<int64_t> getConstantStep(const CountedRange &range) {
  if (!range.step)
    return 1;
  APInt constant;
  if (!matchPattern(range.step, m_ConstantInt(&constant)) ||
      constant.getSignificantBits() > 64 || constant.isZero())
    return std::nullopt;
  return constant.getSExtValue();
}

std::optional<std::pair<int64_t, int64_t>> IndexFacts::getBounds(Value value) {
  auto bounds = getSignedBounds(solver, value);
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return bounds;
  // The range analysis knows scf.for counters but not those of inclusive
  // (MATLAB) ranges: intersect with the range's own bounds.
  std::optional<CountedRange> range = getCountedRange(arg);
  std::optional<int64_t> step = range ? getConstantStep(*range) : std::nullopt;
  if (!step)
    return bounds;
  auto start = getBounds(range->start), stop = getBounds(range->stop);
  if (!start || !stop)
    return bounds;
  int64_t past = range->inclusive ? 0 : 1;
  std::pair<int64_t, int64_t> counted;
  if (*step > 0) {
    if (stop->second == std::numeric_limits<int64_t>::min())
      return bounds;
    counted = {start->first, stop->second - past};
  } else {
    if (stop->first == std::numeric_limits<int64_t>::max())
      return bounds;
    counted = {stop->first + past, start->second};
  }
  if (!bounds)
    return counted;
  return std::make_pair(std::max(bounds->first, counted.first),
                        std::min(bounds->second, counted.second));
}

unsigned IndexFacts::getAtom(Value value, int64_t dim) {
  auto [it, inserted] = atomIds.try_emplace({value, dim}, atoms.size());
  if (inserted)
    atoms.push_back({value, dim});
  return it->second;
}

LinearExpr IndexFacts::getExpr(Value value) {
  auto cached = exprCache.find(value);
  if (cached != exprCache.end())
    return cached->second;
  LinearExpr expr;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)) &&
      constant.getSignificantBits() <= 64 && !value.getType().isInteger(1)) {
    expr = LinearExpr::ofConstant(constant.getSExtValue());
  } else if (Operation *def = value.getDefiningOp();
             def && def->getNumResults() == 1) {
    std::optional<LinearExpr> through = lookThrough(def);
    expr = through ? *through : LinearExpr::ofAtom(getAtom(value, -1));
  } else {
    expr = LinearExpr::ofAtom(getAtom(value, -1));
  }
  exprCache[value] = expr;
  return expr;
}

std::optional<LinearExpr> IndexFacts::lookThrough(Operation *op) {
  if (auto dim = dyn_cast<DimOp>(op))
    return getExtent(dim.getArray(), dim.getDim());
  Type type = op->getResult(0).getType();
  if (!type.isSignlessIntOrIndex() || type.isInteger(1))
    return std::nullopt;
  unsigned width = getWidth(type);

  // Value-preserving casts: the signed value is unchanged when the result is
  // at least as wide (sign extension) or the operand's range fits it.
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op)) {
    Value in = op->getOperand(0);
    if (getWidth(in.getType()) <= width)
      return getExpr(in);
    auto bounds = getBounds(in);
    if (bounds && fitsSigned(bounds->first, bounds->second, width))
      return getExpr(in);
    return std::nullopt;
  }
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op)) {
    Value in = op->getOperand(0);
    auto bounds = getBounds(in);
    if (bounds && bounds->first >= 0 &&
        fitsSigned(bounds->first, bounds->second, width))
      return getExpr(in);
    return std::nullopt;
  }

  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto lhsBounds = getBounds(lhs);
  auto rhsBounds = getBounds(rhs);
  if (!lhsBounds || !rhsBounds)
    return std::nullopt;
  __int128 a0 = lhsBounds->first, a1 = lhsBounds->second;
  __int128 b0 = rhsBounds->first, b1 = rhsBounds->second;
  LinearExpr lhsExpr = getExpr(lhs), rhsExpr = getExpr(rhs);
  if (isa<arith::AddIOp>(op)) {
    if (!fitsSigned(a0 + b0, a1 + b1, width))
      return std::nullopt;
    return lhsExpr.plus(rhsExpr);
  }
  if (isa<arith::SubIOp>(op)) {
    if (!fitsSigned(a0 - b1, a1 - b0, width))
      return std::nullopt;
    return lhsExpr.plus(rhsExpr, -1);
  }
  // Multiplication is linear when one side is a constant.
  __int128 products[] = {a0 * b0, a0 * b1, a1 * b0, a1 * b1};
  if (!fitsSigned(*std::min_element(products, products + 4),
                  *std::max_element(products, products + 4), width))
    return std::nullopt;
  if (rhsExpr.isConstant())
    return lhsExpr.times(rhsExpr.constant);
  if (lhsExpr.isConstant())
    return rhsExpr.times(lhsExpr.constant);
  return std::nullopt;
}

LinearExpr IndexFacts::getExtent(Value array, int64_t dim) {
  if (std::optional<DimSource> source = traceDimension(array, dim)) {
    if (source->constant)
      return LinearExpr::ofConstant(*source->constant);
    if (source->size)
      return getExpr(source->size);
    return getExtent(source->array, source->dim);
  }
  return LinearExpr::ofAtom(getAtom(array, dim));
}

//===----------------------------------------------------------------------===//
// Facts
//===----------------------------------------------------------------------===//

namespace {
using Fact =
    std::pair<LinearExpr, bool>; // (expr, isEquality): expr >= 0 / == 0

void addAtLeast(SmallVectorImpl<Fact> &facts, const LinearExpr &lhs,
                const LinearExpr &rhs, int64_t offset = 0) {
  // lhs >= rhs + offset
  if (std::optional<LinearExpr> diff = lhs.plus(rhs, -1))
    if (std::optional<LinearExpr> shifted =
            diff->plus(LinearExpr::ofConstant(offset), -1))
      facts.push_back({*shifted, false});
}
} // namespace

/// Whether `select` is a minimum (-1) or a maximum (+1) of its two values
/// (`select(x < y, x, y)` and its variants), or neither (0).
static int getMinMaxKind(arith::SelectOp select, IndexFacts &facts) {
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return 0;
  auto same = [&](Value a, Value b) {
    return facts.getExpr(a) == facts.getExpr(b);
  };
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  Value whenTrue = select.getTrueValue(), whenFalse = select.getFalseValue();
  bool picksLhs = same(whenTrue, lhs) && same(whenFalse, rhs);
  bool picksRhs = same(whenTrue, rhs) && same(whenFalse, lhs);
  if (picksLhs == picksRhs)
    return 0;
  using P = arith::CmpIPredicate;
  switch (cmp.getPredicate()) {
  case P::slt:
  case P::sle:
    return picksLhs ? -1 : 1; // lhs when lhs is the smaller
  case P::sgt:
  case P::sge:
    return picksLhs ? 1 : -1;
  default:
    return 0;
  }
}

/// The divisor `b` if `select` is Python's floor modulo as frontends write
/// it: `r = remsi(a, b)`, then `r != 0 && (r < 0) != (b < 0) ? r + b : r`.
static Value getFloorModDivisor(arith::SelectOp select) {
  auto rem = select.getFalseValue().getDefiningOp<arith::RemSIOp>();
  auto sum = select.getTrueValue().getDefiningOp<arith::AddIOp>();
  auto both = select.getCondition().getDefiningOp<arith::AndIOp>();
  if (!rem || !sum || !both)
    return {};
  Value r = rem.getResult(), b = rem.getRhs();
  if (!((sum.getLhs() == r && sum.getRhs() == b) ||
        (sum.getLhs() == b && sum.getRhs() == r)))
    return {};
  auto isCmp = [](Value value, arith::CmpIPredicate predicate, Value lhs) {
    auto cmp = value.getDefiningOp<arith::CmpIOp>();
    return cmp && cmp.getPredicate() == predicate && cmp.getLhs() == lhs &&
           matchPattern(cmp.getRhs(), m_Zero());
  };
  for (auto [nonzero, signs] : {std::pair(both.getLhs(), both.getRhs()),
                                std::pair(both.getRhs(), both.getLhs())}) {
    auto differ = signs.getDefiningOp<arith::XOrIOp>();
    if (!isCmp(nonzero, arith::CmpIPredicate::ne, r) || !differ)
      continue;
    using P = arith::CmpIPredicate;
    if ((isCmp(differ.getLhs(), P::slt, r) &&
         isCmp(differ.getRhs(), P::slt, b)) ||
        (isCmp(differ.getLhs(), P::slt, b) &&
         isCmp(differ.getRhs(), P::slt, r)))
      return b;
  }
  return {};
}

void IndexFacts::addModuloFacts(Value value, const LinearExpr &self,
                                SmallVectorImpl<Fact> &facts) {
  // x mod b lies in [0, b) when b > 0: Python's floor modulo for any x, the
  // remainder for x >= 0. b is never 0 where the op runs (remsi by zero is
  // undefined; frontends raise before), so b >= 0 means b >= 1.
  Value divisor;
  if (auto select = value.getDefiningOp<arith::SelectOp>()) {
    divisor = getFloorModDivisor(select);
  } else if (auto rem = value.getDefiningOp<arith::RemSIOp>()) {
    auto bounds = getBounds(rem.getLhs());
    if (bounds && bounds->first >= 0)
      divisor = rem.getRhs();
  }
  if (!divisor)
    return;
  auto bounds = getBounds(divisor);
  if (!bounds || bounds->first < 0)
    return;
  addAtLeast(facts, self, LinearExpr::ofConstant(0));
  addAtLeast(facts, getExpr(divisor), self, 1);
}

void IndexFacts::addMinMaxFacts(Value value, const LinearExpr &self,
                                SmallVectorImpl<Fact> &facts) {
  Operation *def = value.getDefiningOp();
  int kind = 0;
  if (isa_and_nonnull<arith::MinSIOp>(def))
    kind = -1;
  else if (isa_and_nonnull<arith::MaxSIOp>(def))
    kind = 1;
  else if (auto select = dyn_cast_or_null<arith::SelectOp>(def))
    kind = getMinMaxKind(select, *this);
  if (!kind)
    return;
  // The minimum is at most each operand, the maximum at least each.
  for (Value operand : def->getOperands().take_back(2)) {
    LinearExpr expr = getExpr(operand);
    if (kind < 0)
      addAtLeast(facts, expr, self);
    else
      addAtLeast(facts, self, expr);
  }
}

void IndexFacts::addAtomFacts(unsigned atom, SmallVectorImpl<Fact> &facts) {
  Atom info = atoms[atom];
  LinearExpr self = LinearExpr::ofAtom(atom);
  if (info.dim >= 0) {
    addAtLeast(facts, self, LinearExpr::ofConstant(0));
    return;
  }
  if (info.dim == -2) { // the trip counter of a strided induction variable
    addAtLeast(facts, self, LinearExpr::ofConstant(0));
    return;
  }
  if (auto bounds = getBounds(info.value)) {
    addAtLeast(facts, self, LinearExpr::ofConstant(bounds->first));
    addAtLeast(facts, LinearExpr::ofConstant(bounds->second), self);
  }
  addMinMaxFacts(info.value, self, facts);
  addModuloFacts(info.value, self, facts);
  auto arg = dyn_cast<BlockArgument>(info.value);
  if (!arg)
    return;
  // The body of a while loop (Python loops with `break` or `return`) runs
  // with the values its condition forwarded, after the condition held.
  if (auto loop = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp());
      loop && arg.getOwner()->getParent() == &loop.getAfter()) {
    scf::ConditionOp condition = loop.getConditionOp();
    LinearExpr forwarded = getExpr(condition.getArgs()[arg.getArgNumber()]);
    if (std::optional<LinearExpr> same = self.plus(forwarded, -1))
      facts.push_back({*same, true});
    addConditionFacts(condition.getCondition(), /*holds=*/true, facts);
    return;
  }
  std::optional<CountedRange> range = getCountedRange(arg);
  if (!range)
    return;
  std::optional<int64_t> constantStep = getConstantStep(*range);
  if (!constantStep)
    return;
  int64_t step = *constantStep;
  LinearExpr start = getExpr(range->start), stop = getExpr(range->stop);
  // Visited with step > 0: start <= iv < stop (<= stop when inclusive);
  // step < 0: stop < iv <= start (stop <= iv).
  int64_t past = range->inclusive ? 0 : 1;
  if (step > 0) {
    addAtLeast(facts, self, start);
    addAtLeast(facts, stop, self, past);
  } else {
    addAtLeast(facts, start, self);
    addAtLeast(facts, self, stop, past);
  }
  if (step == 1 || step == -1)
    return;
  // iv = start + step * k for a counter k >= 0.
  LinearExpr counter = LinearExpr::ofAtom(getAtom(info.value, -2));
  if (std::optional<LinearExpr> diff = self.plus(start, -1))
    if (std::optional<LinearExpr> lattice = diff->plus(counter, -step))
      facts.push_back({*lattice, true});
}

void IndexFacts::addConditionFacts(Value condition, bool holds,
                                   SmallVectorImpl<Fact> &facts) {
  Operation *def = condition.getDefiningOp();
  if (!def)
    return;
  // and(a, b) holds: both hold; or(a, b) fails: both fail.
  if ((holds && isa<arith::AndIOp>(def)) ||
      (!holds && isa<arith::OrIOp>(def))) {
    addConditionFacts(def->getOperand(0), holds, facts);
    addConditionFacts(def->getOperand(1), holds, facts);
    return;
  }
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp)
    return;
  arith::CmpIPredicate predicate = cmp.getPredicate();
  if (!holds)
    predicate = arith::invertPredicate(predicate);
  LinearExpr lhs = getExpr(cmp.getLhs()), rhs = getExpr(cmp.getRhs());
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt:
    addAtLeast(facts, rhs, lhs, 1);
    break;
  case P::sle:
    addAtLeast(facts, rhs, lhs);
    break;
  case P::sgt:
    addAtLeast(facts, lhs, rhs, 1);
    break;
  case P::sge:
    addAtLeast(facts, lhs, rhs);
    break;
  case P::eq:
    if (std::optional<LinearExpr> diff = lhs.plus(rhs, -1))
      facts.push_back({*diff, true});
    break;
  default: // ne and unsigned comparisons: not a convex fact
    break;
  }
}

IndexFacts::System IndexFacts::buildSystem(Operation *at,
                                           ArrayRef<LinearExpr> exprs) {
  SmallVector<Fact> facts;
  // Conditions of the scf.if branches `at` is in.
  for (Operation *child = at, *parent = at->getParentOp(); parent;
       child = parent, parent = parent->getParentOp()) {
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      bool inThen = child->getParentRegion() == &ifOp.getThenRegion();
      addConditionFacts(ifOp.getCondition(), inThen, facts);
    }
    if (isa<FunctionOpInterface>(parent))
      break;
  }

  // Atoms of the expressions, then of every fact added, until closed.
  System system;
  SmallVector<unsigned> worklist;
  auto visit = [&](const LinearExpr &expr) {
    for (auto [atom, coefficient] : expr.terms)
      if (system.columns.try_emplace(atom, system.columns.size()).second)
        worklist.push_back(atom);
  };
  for (const LinearExpr &expr : exprs)
    visit(expr);
  for (size_t i = 0; i < facts.size(); ++i)
    visit(facts[i].first);
  while (!worklist.empty()) {
    unsigned atom = worklist.pop_back_val();
    size_t first = facts.size();
    addAtomFacts(atom, facts);
    for (size_t i = first; i < facts.size(); ++i)
      visit(facts[i].first);
  }

  system.polyhedron.emplace(
      PresburgerSpace::getSetSpace(system.columns.size()));
  for (const Fact &fact : facts) {
    SmallVector<int64_t> row = system.toRow(fact.first);
    if (fact.second)
      system.polyhedron->addEquality(row);
    else
      system.polyhedron->addInequality(row);
  }
  return system;
}

SmallVector<int64_t> IndexFacts::System::toRow(const LinearExpr &expr) const {
  SmallVector<int64_t> row(columns.size() + 1, 0);
  for (auto [atom, coefficient] : expr.terms)
    row[columns.lookup(atom)] = coefficient;
  row.back() = expr.constant;
  return row;
}

bool IndexFacts::System::isInfeasibleWith(const LinearExpr &expr) const {
  for (auto [atom, coefficient] : expr.terms)
    if (!columns.count(atom))
      return false; // an atom the system knows nothing about
  IntegerPolyhedron query = *polyhedron;
  query.addInequality(toRow(expr));
  return query.isIntegerEmpty();
}
