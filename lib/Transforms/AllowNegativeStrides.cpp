//===- AllowNegativeStrides.cpp - No unsigned wrap flags on addresses -----===//
//
// memref-to-LLVM marks address arithmetic `nuw` (each index times stride is
// taken to be non-negative); VRIR strides may be negative, so the flags
// go.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_ALLOWNEGATIVESTRIDES
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;

namespace {
struct AllowNegativeStrides
    : public vrir::impl::AllowNegativeStridesBase<AllowNegativeStrides> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto gep = dyn_cast<LLVM::GEPOp>(op)) {
        auto flags = static_cast<uint32_t>(gep.getNoWrapFlags());
        flags &= ~static_cast<uint32_t>(LLVM::GEPNoWrapFlags::nuw);
        gep.setNoWrapFlags(static_cast<LLVM::GEPNoWrapFlags>(flags));
      } else if (auto arithmetic =
                     dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op)) {
        if (arithmetic.hasNoUnsignedWrap())
          arithmetic.setOverflowFlags(
              arithmetic.hasNoSignedWrap() ? LLVM::IntegerOverflowFlags::nsw
                                           : LLVM::IntegerOverflowFlags::none);
      }
    });
  }
};
} // namespace
