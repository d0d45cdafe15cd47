//===- ReturnArgumentViews.cpp - Views of arguments returned as views -----===//
//
// Ownership-based deallocation clones the results a public function does
// not own; for an entry point returning a view of one of its arguments
// that clone turns NumPy's `return a[1:]` into a copy. Entry points return
// the view itself.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_RETURNARGUMENTVIEWS
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;

namespace {
/// Whether `value` is, through view-like ops and casts, an argument of
/// `function`.
bool isViewOfArgument(Value value, func::FuncOp function) {
  while (Operation *definition = value.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(definition))
      value = view.getViewSource();
    else if (auto cast = dyn_cast<memref::CastOp>(definition))
      value = cast.getSource();
    else if (auto transpose = dyn_cast<memref::TransposeOp>(definition))
      value = transpose.getIn();
    else
      return false;
  }
  auto argument = dyn_cast<BlockArgument>(value);
  return argument && argument.getOwner() == &function.getFunctionBody().front();
}

struct ReturnArgumentViews
    : public vrir::impl::ReturnArgumentViewsBase<ReturnArgumentViews> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The functions something in the module refers to (one walk).
    llvm::DenseSet<StringAttr> referenced;
    if (auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        referenced.insert(use.getSymbolRef().getRootReference());
    for (auto function : module.getOps<func::FuncOp>()) {
      if (!function.isPublic() || function.isExternal() ||
          referenced.contains(function.getSymNameAttr()))
        continue;
      function.walk([&](func::ReturnOp returnOp) {
        for (OpOperand &operand : returnOp->getOpOperands()) {
          auto clone = operand.get().getDefiningOp<bufferization::CloneOp>();
          if (!clone || !clone->hasOneUse() ||
              !isViewOfArgument(clone.getInput(), function))
            continue;
          OpBuilder builder(clone);
          Value view = clone.getInput();
          if (view.getType() != clone.getType())
            view = memref::CastOp::create(builder, clone.getLoc(),
                                          clone.getType(), view);
          operand.set(view);
          clone.erase();
        }
      });
    }
  }
};
} // namespace
