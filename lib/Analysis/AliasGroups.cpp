//===- AliasGroups.cpp - Flow-insensitive array alias groups --------------===//

#include "VRIR/Analysis/AliasGroups.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::vrir;

static bool isArray(Value value) { return isa<ArrayType>(value.getType()); }

bool mlir::vrir::createsNewArrays(Operation *op) {
  if (auto slice = dyn_cast<SliceOp>(op))
    return slice.getCopy();
  return isa<ZerosOp, OnesOp, EmptyOp, UnaryOp, BinaryOp, CmpOp, SelectOp,
             CastOp, CopyOp, MapOp, MatmulOp, MatvecOp, TransposeOp, ReduceOp,
             GatherOp, CholeskyOp, InvOp, SolveOp, EighOp, SvdOp, QrOp>(op);
}

void AliasGroups::join(Value a, Value b) {
  if (a && b && isArray(a) && isArray(b))
    classes.unionSets(a, b);
}

void AliasGroups::visit(Operation *op) {
  // Positional merges of structured control flow: what flows into a region
  // argument or out as a result joins it.
  auto joinAll = [&](ValueRange from, ValueRange to) {
    for (auto [a, b] : llvm::zip(from, to))
      join(a, b);
  };
  auto yieldedBy = [](Region &region) -> ValueRange {
    if (region.empty() || region.front().empty())
      return {};
    Operation *terminator = &region.back().back();
    if (!terminator->hasTrait<OpTrait::IsTerminator>())
      return {};
    return terminator->getOperands();
  };
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    joinAll(loop.getInitArgs(), loop.getRegionIterArgs());
    joinAll(loop.getRegionIterArgs(), yieldedBy(loop.getRegion()));
    joinAll(loop.getRegionIterArgs(), loop.getResults());
    return;
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    joinAll(loop.getInits(), loop.getBeforeArguments());
    ValueRange forwarded = loop.getConditionOp().getArgs();
    joinAll(forwarded, loop.getAfterArguments());
    joinAll(forwarded, loop.getResults());
    joinAll(yieldedBy(loop.getAfter()), loop.getBeforeArguments());
    return;
  }
  if (isa<scf::IfOp, scf::ExecuteRegionOp, scf::IndexSwitchOp, GpuSectionOp>(
          op)) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty() && block.back().hasTrait<OpTrait::ReturnLike>())
          joinAll(block.back().getOperands(), op->getResults());
    return;
  }
  if (auto branch = dyn_cast<BranchOpInterface>(op)) {
    for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
      SuccessorOperands operands = branch.getSuccessorOperands(i);
      Block *successor = op->getSuccessor(i);
      unsigned produced = operands.getProducedOperandCount();
      ValueRange forwarded = operands.getForwardedOperands();
      for (unsigned k = 0; k < forwarded.size(); ++k)
        join(forwarded[k], successor->getArgument(produced + k));
    }
    return;
  }
  if (auto slice = dyn_cast<SliceOp>(op)) {
    if (!slice.getCopy())
      join(slice.getResult(), slice.getArray());
    return;
  }
  if (isa<PermuteOp, ExpandDimsOp, ReshapeOp, PartViewOp>(op)) {
    join(op->getResult(0), op->getOperand(0));
    return;
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    join(store.getGrown(), store.getArray());
    return;
  }
  if (createsNewArrays(op) || isa<FunctionOpInterface, PforOp>(op))
    return;
  // Anything else (calls included): its array results may be any of its
  // array operands, and regions it has may pass them around.
  SmallVector<Value> arrays;
  for (Value value : op->getOperands())
    if (isArray(value))
      arrays.push_back(value);
  for (Value value : op->getResults())
    if (isArray(value))
      arrays.push_back(value);
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      for (BlockArgument arg : block.getArguments())
        if (isArray(arg))
          arrays.push_back(arg);
      if (!block.empty())
        for (Value value : block.back().getOperands())
          if (isArray(value))
            arrays.push_back(value);
    }
  for (size_t i = 1; i < arrays.size(); ++i)
    join(arrays[0], arrays[i]);
}

AliasGroups::AliasGroups(Operation *root) {
  root->walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (isArray(result))
        classes.insert(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isArray(arg))
            classes.insert(arg);
  });
  root->walk([&](Operation *op) {
    // A variable slot (before mem2reg) holds every array written to it.
    if (auto read = dyn_cast<ReadOp>(op))
      for (Operation *user : read.getVar().getUsers())
        if (auto write = dyn_cast<WriteOp>(user))
          join(read.getResult(), write.getValue());
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      // Arguments may alias each other.
      Value first;
      for (BlockArgument arg : function.getArguments())
        if (isArray(arg)) {
          if (first)
            join(first, arg);
          else
            first = arg;
        }
    }
    visit(op);
  });

  // Numbers in order of first appearance.
  auto number = [&](Value value) {
    if (!isArray(value))
      return;
    Value leader = classes.getLeaderValue(value);
    numbers.try_emplace(leader, numbers.size());
  };
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      for (BlockArgument arg : function.getArguments())
        if (isArray(arg))
          argumentLeaders[classes.getLeaderValue(arg)] = true;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          number(arg);
    for (Value result : op->getResults())
      number(result);
  });
}

bool AliasGroups::mayAlias(Value a, Value b) const {
  if (!classes.contains(a) || !classes.contains(b))
    return true;
  return classes.isEquivalent(a, b);
}

int64_t AliasGroups::getGroup(Value array) const {
  if (!classes.contains(array))
    return -1;
  return numbers.lookup(classes.getLeaderValue(array));
}

bool AliasGroups::holdsArgument(Value array) const {
  if (!classes.contains(array))
    return true;
  return argumentLeaders.lookup(classes.getLeaderValue(array));
}
