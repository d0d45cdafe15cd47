//===- RegionDetection.cpp - Potentially interesting regions --------------===//
//
// FindPIR of thesis 6.3 over SSA blocks. Each statement either joins the
// region of the statement after it (its rule applied to the facts there),
// starts a new region as its last statement (the rule applied to empty
// facts), or belongs to no region. Rules by statement kind (appendix B):
//
//   array library op        shapes += array operands - results
//   allocation              values += sizes, shapes -= result
//   element read / write    in an affine loop with affine subscripts:
//                           shapes += array, values += subscript uses;
//                           a critical read (A[B[i]]): B is a critical
//                           shape and value; a growing write elsewhere
//                           ends the region
//   slice                   shapes += array - result, values += bounds
//   gather / scatter        shapes += array + index arrays (+ value),
//                           values += index arrays
//   scalar op               critical result: values += operands if it is
//                           integer arithmetic, comparison or a cast,
//                           else the region ends; otherwise unchanged
//   dim / numel             critical result: shapes += array
//   call, variable slots    never in a region
//
// The thesis lets only additions, multiplications and comparisons define
// critical values; any integer arithmetic is accepted here, since run-time
// specialization evaluates it exactly (region shape inference propagates
// constants, not ranges). Its table B.1 adds the subscript uses of a
// critical read to the shape set; they are values and go there.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Analysis/RegionDetection.h"

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::vrir;

bool CriticalSets::merge(const CriticalSets &other) {
  bool changed = false;
  for (Value value : other.shapes)
    changed |= shapes.insert(value);
  for (Value value : other.values)
    changed |= values.insert(value);
  return changed;
}

namespace {
bool isArray(Value value) { return isa<ArrayType>(value.getType()); }

bool isConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>();
}

/// Array library operations: whole-array computations whose result shape
/// follows from their operands' shapes.
bool isLibraryOp(Operation *op) {
  return isa<UnaryOp, BinaryOp, CmpOp, SelectOp, CastOp, CopyOp, MapOp,
             MatmulOp, MatvecOp, TransposeOp, ReduceOp, PermuteOp, ExpandDimsOp,
             PartViewOp, CholeskyOp, InvOp, SolveOp, DetOp, SlogdetOp, EighOp,
             SvdOp, QrOp>(op);
}

/// A vector operation in the sense of 6.2.1: an array library op, a gather
/// or a scatter, on arrays.
bool isVectorOp(Operation *op) {
  if (!isLibraryOp(op) &&
      !isa<GatherOp, ScatterOp, StoreSliceOp, StoreMapOp>(op))
    return false;
  return llvm::any_of(op->getOperands(), isArray) ||
         llvm::any_of(op->getResults(), isArray);
}

bool isLoop(Operation *op) { return isa<scf::ForOp, scf::WhileOp, PforOp>(op); }

bool touchesArrays(Operation *loop) {
  return loop
      ->walk([](Operation *inner) {
        if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCasOp>(inner) ||
            isVectorOp(inner))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool hasGrowth(ArrayAttr flags) {
  return flags && llvm::any_of(flags, [](Attribute attr) {
           auto flag = dyn_cast<IndexFlagsAttr>(attr);
           return flag && bitEnumContainsAny(flag.getValue(), IndexFlags::Grow);
         });
}

bool isIntegerLike(Type type) { return type.isIntOrIndex(); }

/// How a subscript depends on the enclosing loops.
enum class Affinity { NotAffine, Invariant, Affine };

/// The loops (`scf.for`, `pfor`) around `op` up to the function, innermost
/// first, or an empty list if the innermost enclosing loop is another kind
/// (then no subscript in it is affine).
SmallVector<Operation *> getEnclosingAffineLoops(Operation *op) {
  SmallVector<Operation *> loops;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<FunctionOpInterface>(parent))
      break;
    if (isa<scf::ForOp, PforOp>(parent))
      loops.push_back(parent);
    else if (isa<LoopLikeOpInterface>(parent))
      return loops.empty() ? loops : SmallVector<Operation *>{};
  }
  return loops;
}

/// Classifies `value` as an affine function of the counters of `loops` and
/// of values defined outside them, collecting those values (not constants)
/// in `uses`: the thesis's subscriptUses.
Affinity classifySubscript(Value value, ArrayRef<Operation *> loops,
                           SetVector<Value> &uses) {
  Operation *outermost = loops.back();
  if (isConstant(value))
    return Affinity::Invariant;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (llvm::is_contained(loops, owner)) {
      if (auto forOp = dyn_cast<scf::ForOp>(owner))
        return arg == forOp.getInductionVar() ? Affinity::Affine
                                              : Affinity::NotAffine;
      return Affinity::Affine; // a pfor index
    }
  }
  Operation *def = value.getDefiningOp();
  Operation *scope = def ? def : value.getParentBlock()->getParentOp();
  if (!outermost->isAncestor(scope)) {
    uses.insert(value);
    return Affinity::Invariant;
  }
  if (!def)
    return Affinity::NotAffine;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return classifySubscript(def->getOperand(0), loops, uses);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    Affinity lhs = classifySubscript(def->getOperand(0), loops, uses);
    Affinity rhs = classifySubscript(def->getOperand(1), loops, uses);
    if (lhs == Affinity::NotAffine || rhs == Affinity::NotAffine)
      return Affinity::NotAffine;
    if (isa<arith::MulIOp>(def) && lhs == Affinity::Affine &&
        rhs == Affinity::Affine)
      return Affinity::NotAffine;
    return lhs == Affinity::Affine || rhs == Affinity::Affine
               ? Affinity::Affine
               : Affinity::Invariant;
  }
  return Affinity::NotAffine;
}

/// True if `op` is in an affine loop and every subscript in `indices` is
/// affine there; `uses` receives the subscripts' uses.
bool hasAffineSubscripts(Operation *op, ValueRange indices,
                         SetVector<Value> &uses) {
  SmallVector<Operation *> loops = getEnclosingAffineLoops(op);
  if (loops.empty())
    return false;
  for (Value index : indices)
    if (classifySubscript(index, loops, uses) == Affinity::NotAffine)
      return false;
  return true;
}

/// Adds the facts at the entry of loop body `body` to `facts`, but the
/// body's own arguments (counters, carried values), which the loop defines.
void mergeLoopEntry(CriticalSets &facts, const CriticalSets &entry,
                    Block *body) {
  auto outside = [&](Value value) {
    auto argument = dyn_cast<BlockArgument>(value);
    return !argument || argument.getOwner() != body;
  };
  for (Value value : entry.shapes)
    if (outside(value))
      facts.shapes.insert(value);
  for (Value value : entry.values)
    if (outside(value))
      facts.values.insert(value);
}

/// Removes the results of `op` from `facts`; reports which were there.
void removeResults(Operation *op, CriticalSets &facts, bool &criticalShape,
                   bool &criticalValue) {
  criticalShape = criticalValue = false;
  for (Value result : op->getResults()) {
    criticalShape |= facts.shapes.remove(result);
    criticalValue |= facts.values.remove(result);
  }
}
} // namespace

namespace mlir {
namespace vrir {
class RegionDetector {
public:
  explicit RegionDetector(RegionDetection &out) : out(out) {}

  struct BlockResult {
    CriticalSets entry;
    /// True if every statement joined the region of the block's last
    /// statement (TestLoop's "the body is a single region").
    bool single = true;
  };

  /// FindPIR: walks `block` backward from the facts `post` at its end.
  /// With `record`, regions found are kept; otherwise it only tests.
  BlockResult findInBlock(Block &block, const CriticalSets &post, bool record);

private:
  /// The rule of `op`: turns the facts after it into the facts before it.
  /// False if `op` cannot be in a region with these facts.
  bool transfer(Operation *op, CriticalSets &facts);
  bool transferScalar(Operation *op, CriticalSets &facts);
  bool transferIf(scf::IfOp op, CriticalSets &facts);
  bool transferFor(scf::ForOp op, CriticalSets &facts);
  bool transferWhile(scf::WhileOp op, CriticalSets &facts);
  bool transferPfor(PforOp op, CriticalSets &facts);
  bool transferSection(GpuSectionOp op, CriticalSets &facts);

  /// Regions inside `op`, which belongs to no region.
  void findInside(Operation *op);
  void addRegion(Operation *first, Operation *last, const CriticalSets &entry);

  RegionDetection &out;
};
} // namespace vrir
} // namespace mlir

RegionDetector::BlockResult
RegionDetector::findInBlock(Block &block, const CriticalSets &post,
                            bool record) {
  BlockResult result;
  CriticalSets facts = post;
  Operation *last = nullptr, *first = nullptr;
  auto close = [&] {
    if (record && last)
      addRegion(first, last, facts);
    last = first = nullptr;
  };
  bool atEnd = true;
  for (Operation &op : llvm::reverse(block)) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    CriticalSets joined = facts;
    if ((last || atEnd) && transfer(&op, joined)) {
      // Joins the region after it (or, as the block's last statement,
      // starts the region the block's end belongs to).
      facts = std::move(joined);
      if (!last)
        last = &op;
    } else {
      result.single = false;
      close();
      CriticalSets fresh;
      if (transfer(&op, fresh)) {
        facts = std::move(fresh);
        last = &op;
      } else {
        facts = {};
        if (record)
          findInside(&op);
        atEnd = false;
        continue;
      }
    }
    atEnd = false;
    first = &op;
    if (record)
      out.before[&op] = facts;
  }
  result.entry = facts;
  close();
  return result;
}

void RegionDetector::addRegion(Operation *first, Operation *last,
                               const CriticalSets &entry) {
  DetectedRegion region;
  region.first = first;
  region.last = last;
  for (Value value : entry.shapes)
    region.critical.shapes.insert(value);
  for (Value value : entry.values)
    if (!isConstant(value))
      region.critical.values.insert(value);
  for (Operation *op = first;; op = op->getNextNode()) {
    op->walk([&](Operation *inner) {
      bool inLoop = false;
      for (Operation *parent = inner->getParentOp();
           parent != op->getParentOp(); parent = parent->getParentOp())
        inLoop |= isLoop(parent);
      if (isLoop(inner) && touchesArrays(inner))
        ++region.arrayLoops;
      else if (isVectorOp(inner))
        ++(inLoop ? region.vectorOpsInLoops : region.vectorOps);
      else if (isa<GpuSectionOp>(inner))
        ++region.gpuSections;
    });
    if (op == last)
      break;
  }
  // Found backward; kept in program order by the caller's sort.
  out.regions.push_back(std::move(region));
}

void RegionDetector::findInside(Operation *op) {
  // Loops, pfor bodies and GPU sections are whole or nothing (6.3.4); the
  // branches of a conditional may hold regions of their own (6.3.3).
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    for (Region *branch : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
      for (Block &block : *branch)
        findInBlock(block, {}, /*record=*/true);
  }
}

bool RegionDetector::transfer(Operation *op, CriticalSets &facts) {
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return transferIf(ifOp, facts);
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return transferFor(forOp, facts);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return transferWhile(whileOp, facts);
  if (auto pfor = dyn_cast<PforOp>(op))
    return transferPfor(pfor, facts);
  if (auto section = dyn_cast<GpuSectionOp>(op))
    return transferSection(section, facts);
  // Opaque computations: their results are unknown ahead of time.
  if (isa<CallOpInterface, AllocaOp, ReadOp, WriteOp>(op))
    return false;
  if (op->getNumRegions() != 0 && !isa<MapOp, StoreMapOp>(op))
    return false;

  // Ranges and domains are scalar-like: their bounds decide iteration
  // spaces.
  if (isa<RangeOp, DomainOp>(op)) {
    bool criticalShape, criticalValue;
    removeResults(op, facts, criticalShape, criticalValue);
    if (criticalValue)
      facts.values.insert(op->operand_begin(), op->operand_end());
    return true;
  }
  if (!llvm::any_of(op->getOperands(), isArray) &&
      !llvm::any_of(op->getResults(), isArray))
    return transferScalar(op, facts);

  bool criticalShape, criticalValue;
  removeResults(op, facts, criticalShape, criticalValue);
  auto addScalars = [&](ValueRange values) {
    for (Value value : values)
      if (!isArray(value))
        facts.values.insert(value);
  };
  if (isa<ZerosOp, OnesOp, EmptyOp>(op)) {
    addScalars(op->getOperands());
    return true;
  }
  if (isa<DimOp, NumelOp>(op)) {
    if (criticalValue)
      facts.shapes.insert(op->getOperand(0));
    return true;
  }
  if (auto load = dyn_cast<LoadOp>(op)) {
    if (criticalValue) {
      // A[B[i]]: the values of B decide A's subscripts.
      facts.shapes.insert(load.getArray());
      facts.values.insert(load.getArray());
      addScalars(load.getIndices());
      return true;
    }
    SetVector<Value> uses;
    if (hasAffineSubscripts(op, load.getIndices(), uses)) {
      facts.shapes.insert(load.getArray());
      facts.values.insert(uses.begin(), uses.end());
    }
    return true;
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    SetVector<Value> uses;
    bool affine = hasAffineSubscripts(op, store.getIndices(), uses);
    if (affine) {
      facts.shapes.insert(store.getArray());
      facts.values.insert(uses.begin(), uses.end());
    }
    // A growing write is kept only where it can be assumed not to grow
    // (6.5.2): affine subscripts in affine loops.
    return affine || !hasGrowth(store.getIndexFlagsAttr());
  }
  if (isa<AtomicRMWOp, AtomicCasOp>(op))
    return !criticalValue;
  if (auto slice = dyn_cast<SliceOp>(op)) {
    facts.shapes.insert(slice.getArray());
    addScalars(slice.getIndices());
    return true;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    facts.shapes.insert(reshape.getArray());
    addScalars(reshape.getSizes());
    return true;
  }
  // Arrays subscripted with arrays: the index array's values decide the
  // result's shape, or which elements a write changes.
  if (auto gather = dyn_cast<GatherOp>(op)) {
    facts.shapes.insert(gather.getArray());
    facts.shapes.insert(gather.getIndices());
    facts.values.insert(gather.getIndices());
    return true;
  }
  if (auto scatter = dyn_cast<ScatterOp>(op)) {
    if (scatter.getIndexFlags() &&
        bitEnumContainsAny(*scatter.getIndexFlags(), IndexFlags::Grow))
      return false;
    facts.shapes.insert(scatter.getArray());
    facts.shapes.insert(scatter.getIndices());
    facts.values.insert(scatter.getIndices());
    if (isArray(scatter.getValue()))
      facts.shapes.insert(scatter.getValue());
    return true;
  }
  if (auto storeSlice = dyn_cast<StoreSliceOp>(op)) {
    if (hasGrowth(storeSlice.getIndexFlagsAttr()))
      return false;
    facts.shapes.insert(storeSlice.getArray());
    if (isArray(storeSlice.getValue()))
      facts.shapes.insert(storeSlice.getValue());
    addScalars(storeSlice.getIndices());
    return true;
  }
  if (auto storeMap = dyn_cast<StoreMapOp>(op)) {
    if (hasGrowth(storeMap.getIndexFlagsAttr()))
      return false;
    facts.shapes.insert(storeMap.getArray());
    for (Value input : storeMap.getInputs())
      if (isArray(input))
        facts.shapes.insert(input);
    addScalars(storeMap.getIndices());
    return true;
  }
  if (isLibraryOp(op)) {
    for (Value operand : op->getOperands()) {
      if (isArray(operand))
        facts.shapes.insert(operand);
      // An array whose values decide shapes (an index array computed
      // element-wise) passes that on to its operands.
      if (criticalValue)
        facts.values.insert(operand);
    }
    return true;
  }
  return false;
}

bool RegionDetector::transferScalar(Operation *op, CriticalSets &facts) {
  bool criticalShape, criticalValue;
  removeResults(op, facts, criticalShape, criticalValue);
  if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
    return false;
  if (!criticalValue)
    return true;
  // A critical value computed from integers is evaluated at run time;
  // anything else (float arithmetic, arrays) ends the region.
  if (!llvm::all_of(op->getOperandTypes(), isIntegerLike) ||
      !llvm::all_of(op->getResultTypes(), isIntegerLike))
    return false;
  facts.values.insert(op->operand_begin(), op->operand_end());
  return true;
}

bool RegionDetector::transferIf(scf::IfOp op, CriticalSets &facts) {
  CriticalSets thenPost = facts, elsePost = facts;
  bool definesCritical = false;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    bool shape = facts.shapes.contains(result),
         value = facts.values.contains(result);
    if (!shape && !value)
      continue;
    definesCritical = true;
    for (auto [post, region] : {std::pair(&thenPost, &op.getThenRegion()),
                                std::pair(&elsePost, &op.getElseRegion())}) {
      post->shapes.remove(result);
      post->values.remove(result);
      Value yielded =
          cast<scf::YieldOp>(region->front().getTerminator()).getOperand(index);
      if (shape)
        post->shapes.insert(yielded);
      if (value)
        post->values.insert(yielded);
    }
  }
  BlockResult thenResult = findInBlock(op.getThenRegion().front(), thenPost,
                                       /*record=*/false);
  BlockResult elseResult{elsePost, true};
  if (!op.getElseRegion().empty())
    elseResult = findInBlock(op.getElseRegion().front(), elsePost,
                             /*record=*/false);
  if (!thenResult.single || !elseResult.single)
    return false;
  bool criticalShape, criticalValue;
  removeResults(op, facts, criticalShape, criticalValue);
  facts.merge(thenResult.entry);
  facts.merge(elseResult.entry);
  // Which branch runs decides a critical variable: the condition is one.
  if (definesCritical)
    facts.values.insert(op.getCondition());
  return true;
}

bool RegionDetector::transferFor(scf::ForOp op, CriticalSets &facts) {
  Block *body = op.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  CriticalSets bodyPost = facts;
  llvm::SmallSetVector<unsigned, 4> carriedShapes;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    // A loop-carried scalar that decides shapes changes every iteration:
    // region shape inference could not follow it.
    if (facts.values.contains(result))
      return false;
    if (bodyPost.shapes.remove(result)) {
      bodyPost.shapes.insert(yield.getOperand(index));
      carriedShapes.insert(index);
    }
  }
  BlockResult result;
  for (;;) {
    result = findInBlock(*body, bodyPost, /*record=*/false);
    if (!result.single)
      return false;
    CriticalSets next;
    for (auto [index, arg] : llvm::enumerate(op.getRegionIterArgs())) {
      if (result.entry.values.contains(arg))
        return false;
      if (result.entry.shapes.contains(arg)) {
        next.shapes.insert(yield.getOperand(index));
        carriedShapes.insert(index);
      }
    }
    if (!bodyPost.merge(next))
      break;
  }
  bool criticalShape, criticalValue;
  removeResults(op, facts, criticalShape, criticalValue);
  mergeLoopEntry(facts, result.entry, body);
  for (unsigned index : carriedShapes)
    facts.shapes.insert(op.getInitArgs()[index]);
  // loopBoundParams: the bounds decide the iteration space.
  facts.values.insert(op.getLowerBound());
  facts.values.insert(op.getUpperBound());
  facts.values.insert(op.getStep());
  return true;
}

bool RegionDetector::transferWhile(scf::WhileOp op, CriticalSets &facts) {
  // The trip count is data-dependent: no bound parameters, and values
  // carried around the loop must not be critical.
  for (Value result : op.getResults())
    if (facts.shapes.contains(result) || facts.values.contains(result))
      return false;
  BlockResult after = findInBlock(op.getAfter().front(), facts, false);
  if (!after.single)
    return false;
  for (Value arg : op.getAfterArguments())
    if (after.entry.shapes.contains(arg) || after.entry.values.contains(arg))
      return false;
  BlockResult before = findInBlock(op.getBefore().front(), after.entry, false);
  if (!before.single)
    return false;
  for (Value arg : op.getBeforeArguments())
    if (before.entry.shapes.contains(arg) || before.entry.values.contains(arg))
      return false;
  facts.merge(before.entry);
  return true;
}

bool RegionDetector::transferPfor(PforOp op, CriticalSets &facts) {
  for (Value result : op.getResults())
    if (facts.values.contains(result))
      return false;
  Block *body = op.getBodyBlock();
  BlockResult result = findInBlock(*body, facts, /*record=*/false);
  if (!result.single)
    return false;
  mergeLoopEntry(facts, result.entry, body);
  facts.values.insert(op.getDomain());
  return true;
}

bool RegionDetector::transferSection(GpuSectionOp op, CriticalSets &facts) {
  Block &body = op.getBody().front();
  CriticalSets bodyPost = facts;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    Value yielded = body.getTerminator()->getOperand(index);
    if (bodyPost.shapes.remove(result))
      bodyPost.shapes.insert(yielded);
    if (bodyPost.values.remove(result))
      bodyPost.values.insert(yielded);
  }
  BlockResult result = findInBlock(body, bodyPost, /*record=*/false);
  if (!result.single)
    return false;
  bool criticalShape, criticalValue;
  removeResults(op, facts, criticalShape, criticalValue);
  facts.merge(result.entry);
  return true;
}

RegionDetection::RegionDetection(Operation *root) {
  RegionDetector detector(*this);
  auto analyse = [&](FunctionOpInterface function) {
    if (function.isExternal())
      return;
    size_t begin = regions.size();
    for (Block &block : function.getFunctionBody())
      detector.findInBlock(block, {}, /*record=*/true);
    // Regions were found backward, inner ones (in excluded branches)
    // before the statement holding them: sort into program order.
    llvm::DenseMap<Operation *, unsigned> order;
    function->walk<WalkOrder::PreOrder>(
        [&](Operation *op) { order[op] = order.size(); });
    llvm::sort(regions.begin() + begin, regions.end(),
               [&](const DetectedRegion &a, const DetectedRegion &b) {
                 return order.lookup(a.first) < order.lookup(b.first);
               });
  };
  if (auto function = dyn_cast<FunctionOpInterface>(root))
    analyse(function);
  else
    root->walk([&](FunctionOpInterface function) { analyse(function); });
}

SmallVector<DetectedRegion> RegionDetection::getInterestingRegions() const {
  SmallVector<DetectedRegion> result;
  for (const DetectedRegion &region : regions)
    if (region.isInteresting())
      result.push_back(region);
  return result;
}
