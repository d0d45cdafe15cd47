//===- SpecializeRegionLLVM.cpp - Region facts on the LLVM function -------===//
//
// Thesis 6.7: in a specialised region, the sizes and strides of its
// critical arrays are constants and arrays that nothing else overlaps are
// `noalias`, which is what lets LLVM vectorise and hoist as it would for
// `restrict` C.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "RegionABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_SPECIALIZEREGIONLLVM
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
struct SpecializeRegionLLVM
    : public vrir::impl::SpecializeRegionLLVMBase<SpecializeRegionLLVM> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto facts = function->getAttrOfType<ArrayAttr>("vrir.region_facts");
      if (!facts)
        continue;
      function->removeAttr("vrir.region_facts");
      if (function.isExternal())
        continue;
      SmallVector<std::optional<unsigned>> ranks;
      for (Attribute fact : facts) {
        auto dictionary = dyn_cast<DictionaryAttr>(fact);
        auto rank =
            dictionary ? dictionary.getAs<IntegerAttr>("rank") : IntegerAttr();
        ranks.push_back(rank ? std::optional<unsigned>(rank.getInt())
                             : std::nullopt);
      }
      SmallVector<LoweredArgument> lowered = getLoweredArguments(ranks);
      unsigned parameters = 0;
      for (std::optional<unsigned> rank : ranks)
        parameters += getParameterCount(rank);
      if (parameters != function.getNumArguments()) {
        function.emitError("vrir.region_facts describes ")
            << parameters << " parameters, the function has "
            << function.getNumArguments();
        return signalPassFailure();
      }
      Block &entry = function.getBody().front();
      OpBuilder builder(&entry, entry.begin());
      auto replaceWithConstant = [&](unsigned parameter, int64_t value) {
        BlockArgument argument = entry.getArgument(parameter);
        if (argument.use_empty())
          return;
        auto constant = LLVM::ConstantOp::create(
            builder, function.getLoc(), argument.getType(),
            builder.getIntegerAttr(argument.getType(), value));
        argument.replaceAllUsesWith(constant);
      };
      for (auto [argument, fact] : llvm::zip(lowered, facts)) {
        auto dictionary = dyn_cast<DictionaryAttr>(fact);
        if (!dictionary)
          continue;
        if (auto value = dictionary.getAs<IntegerAttr>("value"))
          if (isa<IntegerType>(
                  entry.getArgument(argument.firstParameter).getType()))
            replaceWithConstant(argument.firstParameter, value.getInt());
        if (!argument.rank)
          continue;
        auto shape = dictionary.getAs<DenseI64ArrayAttr>("shape");
        auto strides = dictionary.getAs<DenseI64ArrayAttr>("strides");
        if (shape && strides && shape.size() == *argument.rank &&
            strides.size() == *argument.rank) {
          for (unsigned dim = 0; dim < *argument.rank; ++dim) {
            replaceWithConstant(argument.size(dim), shape[dim]);
            replaceWithConstant(argument.stride(dim), strides[dim]);
          }
        }
        if (dictionary.get("noalias"))
          function.setArgAttr(argument.alignedPointer(),
                              LLVM::LLVMDialect::getNoAliasAttrName(),
                              builder.getUnitAttr());
      }
    }
  }
};
} // namespace
