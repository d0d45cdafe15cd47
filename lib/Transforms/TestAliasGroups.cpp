//===- TestAliasGroups.cpp - Print the array alias groups -----------------===//
//
// For FileCheck tests of the AliasGroups analysis: every array value gets a
// remark with its group number.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Analysis/AliasGroups.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_TESTALIASGROUPS
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
struct TestAliasGroups
    : public vrir::impl::TestAliasGroupsBase<TestAliasGroups> {
  void runOnOperation() override {
    const AliasGroups &groups = getAnalysis<AliasGroups>();
    auto describe = [&](Value array) {
      return "group " + std::to_string(groups.getGroup(array)) +
             (groups.holdsArgument(array) ? " (arguments)" : "");
    };
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto function = dyn_cast<FunctionOpInterface>(op)) {
        for (BlockArgument arg : function.getArguments())
          if (isa<ArrayType>(arg.getType()))
            op->emitRemark()
                << "argument #" << arg.getArgNumber() << ": " << describe(arg);
        return;
      }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (isa<ArrayType>(arg.getType()))
              op->emitRemark() << "region argument #" << arg.getArgNumber()
                               << ": " << describe(arg);
      for (Value result : op->getResults())
        if (isa<ArrayType>(result.getType()))
          op->emitRemark() << "result #"
                           << cast<OpResult>(result).getResultNumber() << ": "
                           << describe(result);
    });
  }
};
} // namespace
