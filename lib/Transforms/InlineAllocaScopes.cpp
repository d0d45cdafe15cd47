//===- InlineAllocaScopes.cpp - Drop alloca scopes that allocate nothing --===//

#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_INLINEALLOCASCOPES
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;

namespace {

/// True if `scope` allocates on the stack outside nested allocation scopes.
bool allocatesOnStack(memref::AllocaScopeOp scope) {
  return scope
      ->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == scope)
          return WalkResult::advance();
        if (isa<memref::AllocaOp, LLVM::AllocaOp>(op))
          return WalkResult::interrupt();
        if (op->hasTrait<OpTrait::AutomaticAllocationScope>())
          return WalkResult::skip();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

struct InlineAllocaScopesPass
    : public vrir::impl::InlineAllocaScopesBase<InlineAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      if (!allocatesOnStack(scope))
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block *body = &scope.getBodyRegion().front();
      auto terminator =
          cast<memref::AllocaScopeReturnOp>(body->getTerminator());
      SmallVector<Value> results(terminator.getResults());
      rewriter.eraseOp(terminator);
      rewriter.inlineBlockBefore(body, scope);
      rewriter.replaceOp(scope, results);
    }
  }
};

} // namespace
