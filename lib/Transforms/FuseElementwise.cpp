//===- FuseElementwise.cpp - Fuse element-wise array ops into vrir.map ----===//
//
// Rewrites a tree of element-wise array ops into one `vrir.map` whose body
// computes the tree per element, so that the lowering emits one loop nest
// and no temporary arrays.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Transforms/Passes.h"

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

/// Ops whose array form computes each result element from the elements at
/// the same (broadcast) position of their operands.
bool isElementwise(Operation *op) {
  return isa<UnaryOp, BinaryOp, CmpOp, SelectOp, CastOp, MapOp>(op) &&
         op->getNumResults() == 1 && isa<ArrayType>(op->getResult(0).getType());
}

/// A map that reduces its elements to a scalar.
bool isReducingMap(Operation *op) {
  auto map = dyn_cast<MapOp>(op);
  return map && map.getReduce();
}

/// The rank of the elements `consumer` computes: its result's, the rank of
/// a reduction's operand, or for a reducing map the largest input rank.
unsigned getIterationRank(Operation *consumer) {
  if (auto reduce = dyn_cast<ReduceOp>(consumer))
    return reduce.getOperand().getType().getRank();
  if (auto store = dyn_cast<StoreSliceOp>(consumer))
    return getRankOf(store.getValue().getType());
  if (!isReducingMap(consumer))
    return cast<ArrayType>(consumer->getResult(0).getType()).getRank();
  unsigned rank = 0;
  for (Type type : consumer->getOperandTypes())
    rank = std::max(rank, getRankOf(type));
  return rank;
}

/// True if no op strictly between `producer` and `consumer` (in one block)
/// may write or free memory the producer's inputs could live in.
bool nothingWritesBetween(Operation *producer, Operation *consumer) {
  for (Operation *op = producer->getNextNode(); op && op != consumer;
       op = op->getNextNode()) {
    if (isMemoryEffectFree(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return false;
    // An op that may raise does not stop fusion: the fused expression may
    // raise its own error after another's, never compute a wrong value.
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances)
      if (isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()) &&
          !isErrorStateEffect(effect))
        return false;
  }
  return true;
}

/// The element-wise op defining `value`, if it can be fused into `consumer`.
Operation *getFusableProducer(Value value, Operation *consumer) {
  Operation *producer = value.getDefiningOp();
  if (!producer || !isElementwise(producer) || !value.hasOneUse() ||
      producer->getBlock() != consumer->getBlock())
    return nullptr;
  if (cast<ArrayType>(value.getType()).getRank() != getIterationRank(consumer))
    return nullptr;
  if (!nothingWritesBetween(producer, consumer))
    return nullptr;
  return producer;
}

/// Emits the scalar computation of element-wise `op` at `builder`, given the
/// scalar (element) value of each of its inputs.
Value emitScalarForm(OpBuilder &builder, Operation *op, ValueRange elements) {
  if (auto map = dyn_cast<MapOp>(op))
    return map.cloneBody(builder, elements);
  IRMapping mapping;
  mapping.map(op->getOperands(), elements);
  Operation *scalar = builder.clone(*op, mapping);
  scalar->getResult(0).setType(getElementTypeOf(op->getResult(0).getType()));
  return scalar->getResult(0);
}

/// Replaces an element-wise op and the producers of its operands that can
/// be fused with one vrir.map. The greedy driver repeats it until whole
/// trees are one map.
struct FuseProducersIntoMap : public RewritePattern {
  FuseProducersIntoMap(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *consumer,
                                PatternRewriter &rewriter) const override {
    if (!isElementwise(consumer) && !isReducingMap(consumer))
      return failure();
    SmallVector<Operation *> producers;
    for (Value operand : consumer->getOperands())
      producers.push_back(getFusableProducer(operand, consumer));
    if (llvm::all_of(producers, [](Operation *op) { return !op; }))
      return rewriter.notifyMatchFailure(consumer, "no fusable producer");

    // The map's inputs: the consumer's unfused operands and the fused
    // producers' inputs, each value once.
    SmallVector<Value> inputs;
    llvm::DenseMap<Value, unsigned> inputIndex;
    auto addInput = [&](Value value) {
      if (inputIndex.try_emplace(value, inputs.size()).second)
        inputs.push_back(value);
    };
    for (auto [operand, producer] :
         llvm::zip_equal(consumer->getOperands(), producers)) {
      if (!producer) {
        addInput(operand);
        continue;
      }
      for (Value input : producer->getOperands())
        addInput(input);
    }

    Location loc = consumer->getLoc();
    Type resultType = consumer->getResult(0).getType();
    std::optional<ReduceKind> reduce;
    if (auto consumerMap = dyn_cast<MapOp>(consumer))
      reduce = consumerMap.getReduce();
    auto map = MapOp::create(rewriter, loc, resultType, inputs,
                             reduce ? ReduceKindAttr::get(getContext(), *reduce)
                                    : ReduceKindAttr());
    Block *body = rewriter.createBlock(&map.getBody());
    for (Value input : inputs)
      body->addArgument(getElementTypeOf(input.getType()), input.getLoc());
    auto elementOf = [&](Value input) -> Value {
      return body->getArgument(inputIndex.lookup(input));
    };

    SmallVector<Value> consumerElements;
    for (auto [operand, producer] :
         llvm::zip_equal(consumer->getOperands(), producers)) {
      if (!producer) {
        consumerElements.push_back(elementOf(operand));
        continue;
      }
      SmallVector<Value> producerElements =
          llvm::map_to_vector(producer->getOperands(), elementOf);
      consumerElements.push_back(
          emitScalarForm(rewriter, producer, producerElements));
    }
    Value result = emitScalarForm(rewriter, consumer, consumerElements);
    YieldOp::create(rewriter, loc, result);

    rewriter.replaceOp(consumer, map.getResult());
    for (Operation *producer : producers)
      if (producer)
        rewriter.eraseOp(producer);
    return success();
  }
};

/// The distinct operands of `producer`, in order: the inputs of the op that
/// takes its place.
SmallVector<Value> getDistinctOperands(Operation *producer) {
  SmallVector<Value> inputs;
  for (Value input : producer->getOperands())
    if (!llvm::is_contained(inputs, input))
      inputs.push_back(input);
  return inputs;
}

/// Fills `region` with one block that takes an element of each of `inputs`
/// and yields `producer`'s scalar form of them.
void buildScalarBody(PatternRewriter &rewriter, Location loc, Region &region,
                     ArrayRef<Value> inputs, Operation *producer) {
  Block *body = rewriter.createBlock(&region);
  for (Value input : inputs)
    body->addArgument(getElementTypeOf(input.getType()), input.getLoc());
  SmallVector<Value> elements;
  for (Value operand : producer->getOperands())
    elements.push_back(
        body->getArgument(llvm::find(inputs, operand) - inputs.begin()));
  YieldOp::create(rewriter, loc, emitScalarForm(rewriter, producer, elements));
}

/// A whole-array reduction of an element-wise op's result becomes a
/// reducing map over that op's inputs: `np.dot(x[:k], y[:k])` or
/// `np.sum(a * b)` is one loop that stores no element.
struct FuseIntoReduction : public OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    ArrayType operandType = reduce.getOperand().getType();
    if (reduce.getAxis() && operandType.getRank() > 1)
      return rewriter.notifyMatchFailure(reduce, "reduces one axis");
    Operation *producer = getFusableProducer(reduce.getOperand(), reduce);
    if (!producer)
      return rewriter.notifyMatchFailure(reduce, "no fusable producer");
    SmallVector<Value> inputs = getDistinctOperands(producer);
    Location loc = reduce.getLoc();
    auto map =
        MapOp::create(rewriter, loc, reduce.getType(), inputs,
                      ReduceKindAttr::get(getContext(), reduce.getKind()));
    buildScalarBody(rewriter, loc, map.getBody(), inputs, producer);
    rewriter.replaceOp(reduce, map.getResult());
    rewriter.eraseOp(producer);
    return success();
  }
};

/// A slice assignment of an element-wise op's result becomes a store_map:
/// the elements go straight into the slice (`C[i, :k] += x * A[:k, j]` is
/// one loop, no temporary array). Applied once the expression trees are
/// whole maps.
struct FuseIntoSliceAssignment : public OpRewritePattern<StoreSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(StoreSliceOp store,
                                PatternRewriter &rewriter) const override {
    if (!isa<ArrayType>(store.getValue().getType()))
      return rewriter.notifyMatchFailure(store, "assigns a scalar");
    Operation *producer = getFusableProducer(store.getValue(), store);
    if (!producer)
      return rewriter.notifyMatchFailure(store, "no fusable producer");
    SmallVector<Value> inputs = getDistinctOperands(producer);
    if (llvm::none_of(inputs, [](Value input) {
          return isa<ArrayType>(input.getType());
        }))
      return rewriter.notifyMatchFailure(store, "no array input");
    Location loc = store.getLoc();
    auto fused =
        StoreMapOp::create(rewriter, loc, inputs, store.getArray(),
                           store.getIndices(), store.getIndexFlagsAttr());
    // (The verifier makes the value's element type the array's.)
    buildScalarBody(rewriter, loc, fused.getBody(), inputs, producer);
    rewriter.eraseOp(store);
    rewriter.eraseOp(producer);
    return success();
  }
};

struct FuseElementwisePass
    : public vrir::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseProducersIntoMap, FuseIntoReduction>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    RewritePatternSet assignments(&getContext());
    assignments.add<FuseIntoSliceAssignment>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(assignments))))
      signalPassFailure();
  }
};

} // namespace
