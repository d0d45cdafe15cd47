//===- SPIRVNarrowIndices.cpp - 32-bit access-chain indices ---------------===//
//
// VRIR's SPIR-V kernels compute indices as 64-bit integers (array offsets,
// sizes and strides may exceed 2^31 on the host side). GPUs have 32-bit
// integer units: a 64-bit multiply-add is several instructions, and
// NVIDIA's Vulkan compiler keeps the width it is given. Where an index
// cannot exceed 31 bits when the access is in bounds, its arithmetic can be
// done in 32 bits: truncation commutes with addition, subtraction and
// multiplication (arithmetic modulo 2^32), so the 32-bit result is the low
// half of the 64-bit one, which is the whole value for an in-bounds index.
// An out-of-bounds access is undefined either way (VRIR's bounds checks, if
// any, compare the 64-bit values before it).
//
//===----------------------------------------------------------------------===//

#include "SPIRVNarrowIndices.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace {

/// Whether every in-bounds index of `access` fits in 31 bits.
bool hasNarrowIndices(spirv::AccessChainOp access) {
  auto base = cast<spirv::PointerType>(access.getBasePtr().getType());
  auto result = cast<spirv::PointerType>(access.getType());
  switch (base.getStorageClass()) {
  case spirv::StorageClass::Workgroup:
    // Static arrays of a few kilobytes.
    return true;
  case spirv::StorageClass::StorageBuffer: {
    Type element = result.getPointeeType();
    return element.isIntOrFloat() && element.getIntOrFloatBitWidth() >= 16;
  }
  default:
    return false;
  }
}

/// Builds 32-bit copies of 64-bit index expressions, each once.
class IndexNarrower {
public:
  explicit IndexNarrower(MLIRContext *context)
      : i32(IntegerType::get(context, 32)), builder(context) {}

  Value narrow(Value value) {
    if (Value known = narrowed.lookup(value))
      return known;
    Value result = build(value);
    narrowed[value] = result;
    return result;
  }

private:
  Value build(Value value) {
    Location loc = value.getLoc();
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant))) {
      setInsertionPointAfterValue(value);
      return spirv::ConstantOp::create(
          builder, loc, i32,
          builder.getI32IntegerAttr(
              static_cast<int32_t>(constant.getZExtValue())));
    }
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<spirv::UConvertOp, spirv::SConvertOp>(def) &&
        def->getOperand(0).getType() == i32)
      return def->getOperand(0);
    if (isa_and_nonnull<spirv::IAddOp, spirv::ISubOp, spirv::IMulOp>(def)) {
      Value lhs = narrow(def->getOperand(0));
      Value rhs = narrow(def->getOperand(1));
      builder.setInsertionPointAfter(def);
      OperationState state(loc, def->getName(), ValueRange{lhs, rhs}, {i32},
                           {});
      return builder.create(state)->getResult(0);
    }
    // A leaf (a loop variable, a parameter, a division): its low half.
    setInsertionPointAfterValue(value);
    return spirv::UConvertOp::create(builder, loc, i32, value);
  }

  /// After the definition of `value` (at the start of its block for a
  /// block argument).
  void setInsertionPointAfterValue(Value value) {
    if (Operation *def = value.getDefiningOp())
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
  }

  IntegerType i32;
  OpBuilder builder;
  llvm::DenseMap<Value, Value> narrowed;
};

} // namespace

unsigned mlir::vrir::narrowAccessChainIndices(spirv::ModuleOp module) {
  unsigned count = 0;
  module.walk([&](spirv::FuncOp function) {
    IndexNarrower narrower(module.getContext());
    function.walk([&](spirv::AccessChainOp access) {
      if (!hasNarrowIndices(access))
        return;
      for (OpOperand &index : access.getIndicesMutable()) {
        if (!index.get().getType().isInteger(64))
          continue;
        index.set(narrower.narrow(index.get()));
        ++count;
      }
    });
  });
  return count;
}
