//===- DialectTest.cpp - C++ API of the VRIR dialect ----------------------===//

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::vrir;

namespace {

class VRIRDialectTest : public ::testing::Test {
protected:
  VRIRDialectTest() {
    context.loadDialect<VRIRDialect, func::FuncDialect, arith::ArithDialect>();
  }
  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }
  MLIRContext context;
};

TEST_F(VRIRDialectTest, ModuleSemanticsDefaultToNumPy) {
  OwningOpRef<ModuleOp> module = parse("module {}");
  ASSERT_TRUE(module);
  ModuleSemantics semantics = getModuleSemantics(module.get());
  EXPECT_EQ(semantics.indexBase, 0);
  EXPECT_TRUE(semantics.rangeExclusive);
  EXPECT_EQ(semantics.memory, MemoryManagement::RefCount);
}

TEST_F(VRIRDialectTest, ModuleSemanticsReadFromEnclosingModule) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    module attributes {vrir.index_base = 1 : i64, vrir.range_exclusive = false,
                       vrir.memory = #vrir.memory<gc>} {
      func.func @f() { return }
    })mlir");
  ASSERT_TRUE(module);
  Operation *func = &module->getBody()->front();
  ModuleSemantics semantics = getModuleSemantics(func);
  EXPECT_EQ(semantics.indexBase, 1);
  EXPECT_FALSE(semantics.rangeExclusive);
  EXPECT_EQ(semantics.memory, MemoryManagement::GC);
}

TEST_F(VRIRDialectTest, ArrayTypeRejectsUnsupportedElements) {
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  Builder builder(&context);
  auto emitError = [&] { return mlir::emitError(builder.getUnknownLoc()); };
  Type i4 = builder.getIntegerType(4);
  Type unsignedI32 = builder.getIntegerType(32, /*isSigned=*/false);
  Type complexI32 = ComplexType::get(builder.getI32Type());
  unsigned rank = 2;
  EXPECT_FALSE(
      ArrayType::getChecked(emitError, &context, i4, rank, Layout::RowMajor));
  EXPECT_FALSE(ArrayType::getChecked(emitError, &context, unsignedI32, rank,
                                     Layout::RowMajor));
  for (unsigned width : {8, 16})
    EXPECT_TRUE(ArrayType::getChecked(emitError, &context,
                                      Type(builder.getIntegerType(width)), rank,
                                      Layout::RowMajor));
  EXPECT_TRUE(ArrayType::getChecked(emitError, &context, complexI32, rank,
                                    Layout::ColMajor));
}

TEST_F(VRIRDialectTest, BuildPforWithBuilder) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder, loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto arrayType =
      ArrayType::get(&context, builder.getF64Type(), 1, Layout::RowMajor);
  auto func = func::FuncOp::create(
      builder, loc, "fill",
      builder.getFunctionType({arrayType, builder.getIndexType()}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  Value array = entry->getArgument(0), n = entry->getArgument(1);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value range = RangeOp::create(builder, loc, zero, n, Value());
  auto pfor = PforOp::create(builder, loc, range, ValueRange{array});
  func::ReturnOp::create(builder, loc);

  builder.setInsertionPoint(pfor.getBodyBlock()->getTerminator());
  Value one = arith::ConstantFloatOp::create(builder, loc, builder.getF64Type(),
                                             llvm::APFloat(1.0));
  StoreOp::create(builder, loc, /*grown=*/Type(), one, array,
                  ValueRange{pfor.getInductionVars()[0]}, nullptr, false);
  EXPECT_TRUE(succeeded(verify(module.get())));
  EXPECT_EQ(pfor.getNumDims(), 1u);
  EXPECT_TRUE(pfor.isShared(array));
}

TEST_F(VRIRDialectTest, Mem2RegPromotesVariables) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%a: i32, %b: i32) -> i32 {
      %c = vrir.alloca "c" : !vrir.var<i32>
      %s = arith.addi %a, %b : i32
      vrir.write %s, %c : !vrir.var<i32>
      %r = vrir.read %c : !vrir.var<i32>
      return %r : i32
    })mlir");
  ASSERT_TRUE(module);
  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(createMem2Reg());
  ASSERT_TRUE(succeeded(pm.run(module.get())));
  bool anyVariableLeft = false;
  module->walk([&](Operation *op) {
    if (isa<AllocaOp, ReadOp, WriteOp>(op))
      anyVariableLeft = true;
  });
  EXPECT_FALSE(anyVariableLeft);
}

} // namespace
