//===- TestRegionDetection.cpp - Print the regions found ------------------===//
//
// For FileCheck tests of the RegionDetection analysis: a remark per legal
// region and per statement of a region with the critical sets before it.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Analysis/RegionDetection.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_TESTREGIONDETECTION
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
struct TestRegionDetection
    : public vrir::impl::TestRegionDetectionBase<TestRegionDetection> {
  void runOnOperation() override {
    RegionDetection detection(getOperation());
    auto print = [](llvm::raw_ostream &os, AsmState &state,
                    const CriticalSets &sets) {
      auto printValues = [&](const llvm::SetVector<Value> &values) {
        os << "[";
        bool first = true;
        for (Value value : values) {
          Operation *def = value.getDefiningOp();
          if (def && def->hasTrait<OpTrait::ConstantLike>())
            continue;
          if (!first)
            os << ", ";
          first = false;
          value.printAsOperand(os, state);
        }
        os << "]";
      };
      os << "shapes ";
      printValues(sets.shapes);
      os << " values ";
      printValues(sets.values);
    };
    unsigned number = 0;
    for (const DetectedRegion &region : detection.getLegalRegions()) {
      auto function = region.first->getParentOfType<FunctionOpInterface>();
      AsmState state(function.getOperation());
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "region " << number++ << " to '" << region.last->getName()
         << "' at " << region.last->getLoc() << ", ";
      if (region.isInteresting())
        os << "interesting (array loops " << region.arrayLoops
           << ", vector ops " << region.vectorOps << ", in loops "
           << region.vectorOpsInLoops << ", GPU sections " << region.gpuSections
           << ")";
      else
        os << "not interesting";
      os << "; critical ";
      print(os, state, region.critical);
      region.first->emitRemark() << text;
      for (Operation *op = region.first;; op = op->getNextNode()) {
        if (const CriticalSets *sets = detection.getCriticalSetsBefore(op)) {
          std::string before;
          llvm::raw_string_ostream beforeOs(before);
          beforeOs << "before: ";
          print(beforeOs, state, *sets);
          op->emitRemark() << before;
        }
        if (op == region.last)
          break;
      }
    }
  }
};
} // namespace
