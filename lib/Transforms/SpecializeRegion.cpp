//===- SpecializeRegion.cpp - Run-time facts of a region as constants -----===//
//
// Thesis 6.5/6.7 at the VRIR level: the sizes of critical arrays and the
// values of critical scalars that a specialization was compiled for become
// constants, before bounds-check elimination proves checks against them.
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
        if (auto shape = dictionary.getAs<DenseI64ArrayAttr>("shape"))
          applyShape(argument, shape.asArrayRef());
        if (auto value = dictionary.getAs<IntegerAttr>("value"))
          applyValue(builder, argument, value.getInt());
      }
    }
  }

  static void applyShape(Value array, ArrayRef<int64_t> shape) {
    for (Operation *user : llvm::make_early_inc_range(array.getUsers())) {
      OpBuilder builder(user);
      if (auto dim = dyn_cast<DimOp>(user)) {
        auto position = static_cast<int64_t>(dim.getDim());
        if (position < 0 || position >= static_cast<int64_t>(shape.size()))
          continue;
        dim.replaceAllUsesWith(arith::ConstantIndexOp::create(
                                   builder, dim.getLoc(), shape[position])
                                   .getResult());
        dim.erase();
      } else if (auto numel = dyn_cast<NumelOp>(user)) {
        int64_t count = 1;
        for (int64_t size : shape)
          count *= size;
        numel.replaceAllUsesWith(
            arith::ConstantIndexOp::create(builder, numel.getLoc(), count)
                .getResult());
        numel.erase();
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
