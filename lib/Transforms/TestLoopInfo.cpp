//===- TestLoopInfo.cpp - Print the loop information ----------------------===//
//
// For FileCheck tests of the LoopInfo analysis: a remark per loop with its
// place in the nest and the summary of its body.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Analysis/LoopInfo.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_TESTLOOPINFO
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
struct TestLoopInfo : public vrir::impl::TestLoopInfoBase<TestLoopInfo> {
  void runOnOperation() override {
    const LoopInfo &info = getAnalysis<LoopInfo>();
    llvm::DenseMap<Loop *, unsigned> numbers;
    for (Loop *loop : info.getLoops())
      numbers[loop] = numbers.size();
    for (Loop *loop : info.getLoops()) {
      auto function = loop->op->getParentOfType<FunctionOpInterface>();
      AsmState state(function ? function.getOperation() : loop->op);
      std::string text;
      llvm::raw_string_ostream os(text);
      auto printValues = [&](auto &&values) {
        os << "[";
        llvm::interleaveComma(
            values, os, [&](Value value) { value.printAsOperand(os, state); });
        os << "]";
      };
      os << "loop " << numbers[loop] << " (" << loop->op->getName()
         << "), depth " << loop->depth << ", parent ";
      if (loop->parent)
        os << numbers[loop->parent];
      else
        os << "none";
      os << ", children [";
      llvm::interleaveComma(loop->children, os,
                            [&](Loop *child) { os << numbers[child]; });
      os << "]; accesses [";
      llvm::interleaveComma(loop->accesses, os, [&](const ElementAccess &a) {
        os << (isa<LoadOp>(a.op) ? "load " : "store ");
        a.array.printAsOperand(os, state);
        printValues(a.indices);
      });
      os << "]; reads ";
      printValues(loop->readArrays);
      os << "; writes ";
      printValues(loop->writtenArrays);
      os << "; live-in ";
      printValues(loop->liveIn);
      os << "; calls " << loop->calls.size() << "; allocations "
         << loop->allocations.size() << "; early exit "
         << (loop->hasEarlyExit ? "yes" : "no");
      loop->op->emitRemark() << text;
    }
  }
};
} // namespace
