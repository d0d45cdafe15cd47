//===- SpecializeRegion.cpp - Run-time facts of a region as constants -----===//
//
// Thesis 6.5/6.7 at the VRIR level: the values of critical scalars that a
// specialization was compiled for become constants, before bounds-check
// elimination proves checks against them. The sizes of critical arrays
// need no rewriting: vrir::traceDimension reads them from the facts, so
// `vrir.dim`/`vrir.numel` fold and the proofs see them.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_SPECIALIZEREGION
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
struct SpecializeRegion
    : public vrir::impl::SpecializeRegionBase<SpecializeRegion> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      auto facts = function->getAttrOfType<ArrayAttr>("vrir.region_facts");
      if (!facts || function.isExternal())
        continue;
      if (facts.size() != function.getNumArguments()) {
        function.emitError("vrir.region_facts has ")
            << facts.size() << " entries for " << function.getNumArguments()
            << " arguments";
        return signalPassFailure();
      }
      OpBuilder builder(function.getBody());
      for (auto [argument, fact] :
           llvm::zip(function.getArguments(), facts.getValue())) {
        auto dictionary = dyn_cast<DictionaryAttr>(fact);
        if (!dictionary)
          continue;
        if (auto value = dictionary.getAs<IntegerAttr>("value"))
          applyValue(builder, argument, value.getInt());
      }
    }
  }

  static void applyValue(OpBuilder &builder, Value scalar, int64_t value) {
    Type type = scalar.getType();
    if (!type.isIntOrIndex() || scalar.use_empty())
      return;
    auto constant = arith::ConstantOp::create(
        builder, scalar.getLoc(), type, builder.getIntegerAttr(type, value));
    scalar.replaceAllUsesWith(constant.getResult());
  }
};
} // namespace
