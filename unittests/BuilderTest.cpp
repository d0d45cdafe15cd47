//===- BuilderTest.cpp - C++ builder API for VRIR frontends ---------------===//
//
// The examples of docs/Builder.md. Thesis chapter 4 gives containing
// compilers two ways to hand VRIR over: the S-expression text and a C++
// API; the first test checks that both give the same program.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Builder/Builder.h"
#include "VRIR/Target/SExpr.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::vrir;

namespace {

// [example-figure-4-2]
/// Thesis figure 4.2 through the builder API:
///   def myfunc(a: PyInt32, b: PyInt32): PyInt32
///     c = a + b
///     return c
OwningOpRef<ModuleOp> buildFigure42(MLIRContext &context) {
  Location loc = UnknownLoc::get(&context);
  // A NumPy module: 0-based, ranges exclude their stop.
  OwningOpRef<ModuleOp> module = createModule(&context, loc, ModuleSemantics());
  Builder types(&context);
  Type i32 = types.getI32Type();
  func::FuncOp myfunc = FunctionBuilder::declareFunction(
      *module, loc, "myfunc", types.getFunctionType({i32, i32}, {i32}));

  FunctionBuilder fb(myfunc);
  // The symbol table: one slot per variable.
  Variable a = fb.declareVariable(loc, "a", i32);
  Variable b = fb.declareVariable(loc, "b", i32);
  Variable c = fb.declareVariable(loc, "c", i32);
  // (args 0 1): the arguments bind a and b.
  if (failed(fb.write(loc, a, fb.getArgument(0))) ||
      failed(fb.write(loc, b, fb.getArgument(1))))
    return nullptr;
  // c = a + b
  Value sum =
      fb.binary(loc, BinaryFn::Add, fb.read(loc, a), fb.read(loc, b), i32);
  if (failed(fb.write(loc, c, sum)))
    return nullptr;
  // return c
  if (failed(fb.returnValues(loc, fb.read(loc, c))) || failed(fb.finish(loc)))
    return nullptr;
  return module;
}
// [example-figure-4-2]

// [example-loops]
/// Loops, a parallel loop and an early exit (NumPy semantics):
///   def scale_and_sum(A: float64[:, :], k: float64): float64
///     for i in PAR(range(A.shape[0]), shared=[A, k]):
///       for j in range(A.shape[1]):
///         A[i, j] = A[i, j] * k
///     s = 0.0
///     i = 0
///     while i < A.shape[0]:
///       if A[i, 0] < 0.0: break
///       s = s + A[i, 0]
///       i = i + 1
///     return s
OwningOpRef<ModuleOp> buildScaleAndSum(MLIRContext &context) {
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = createModule(&context, loc, ModuleSemantics());
  Builder types(&context);
  Type f64 = types.getF64Type(), i64 = types.getI64Type();
  Type matrix = ArrayType::get(&context, f64, 2, Layout::RowMajor);
  func::FuncOp function = FunctionBuilder::declareFunction(
      *module, loc, "scale_and_sum",
      types.getFunctionType({matrix, f64}, {f64}));

  FunctionBuilder fb(function);
  OpBuilder &b = fb.getBuilder();
  Variable A = fb.declareVariable(loc, "A", matrix);
  Variable k = fb.declareVariable(loc, "k", f64);
  Variable i = fb.declareVariable(loc, "i", i64);
  Variable j = fb.declareVariable(loc, "j", i64);
  Variable s = fb.declareVariable(loc, "s", f64);
  if (failed(fb.write(loc, A, fb.getArgument(0))) ||
      failed(fb.write(loc, k, fb.getArgument(1))))
    return nullptr;
  auto size = [&](unsigned dim) -> Value {
    return DimOp::create(b, loc, fb.read(loc, A), dim);
  };
  auto constant = [&](Type type, double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  };
  // NumPy subscripts: both bounds checked, negative indices wrap.
  IndexFlags numpy = IndexFlags::CheckLower | IndexFlags::CheckUpper |
                     IndexFlags::WrapNegative;

  Value rows = fb.range(loc, fb.constantIndex(loc, 0), size(0));
  LogicalResult parallel =
      fb.pfor(loc, rows, {i}, SharedList::of({A, k}), [&]() -> LogicalResult {
        LoopBounds columns{fb.constantIndex(loc, 0), size(1), {}, {}};
        return fb.forLoop(loc, {j}, {columns}, [&]() -> LogicalResult {
          SmallVector<Value> ij = {fb.read(loc, i), fb.read(loc, j)};
          FailureOr<Value> x =
              fb.load(loc, fb.read(loc, A), ij, {numpy, numpy});
          if (failed(x))
            return failure();
          Value scaled =
              fb.binary(loc, BinaryFn::Mul, *x, fb.read(loc, k), f64);
          return fb.store(loc, scaled, A, ij, {numpy, numpy});
        });
      });
  if (failed(parallel) || failed(fb.write(loc, s, constant(f64, 0))) ||
      failed(fb.write(
          loc, i, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0)))))
    return nullptr;

  auto firstOfRow = [&]() -> FailureOr<Value> {
    Value zero = fb.constantIndex(loc, 0);
    return fb.load(loc, fb.read(loc, A), {fb.read(loc, i), zero},
                   {numpy, numpy});
  };
  LogicalResult loop = fb.whileLoop(
      loc,
      [&]() -> FailureOr<Value> {
        Value rowCount = arith::IndexCastOp::create(b, loc, i64, size(0));
        return fb.compare(loc, CmpPredicate::LT, fb.read(loc, i), rowCount,
                          b.getI1Type());
      },
      [&]() -> LogicalResult {
        FailureOr<Value> x = firstOfRow();
        if (failed(x))
          return failure();
        Value negative = fb.compare(loc, CmpPredicate::LT, *x, constant(f64, 0),
                                    b.getI1Type());
        if (failed(fb.ifThenElse(loc, negative,
                                 [&] { return fb.breakLoop(loc); })))
          return failure();
        Value next = fb.binary(loc, BinaryFn::Add, fb.read(loc, s), *x, f64);
        Value one = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
        if (failed(fb.write(loc, s, next)))
          return failure();
        return fb.write(
            loc, i, fb.binary(loc, BinaryFn::Add, fb.read(loc, i), one, i64));
      });
  if (failed(loop) || failed(fb.returnValues(loc, fb.read(loc, s))) ||
      failed(fb.finish(loc)))
    return nullptr;
  return module;
}
// [example-loops]

/// mem2reg builds SSA from the slots; lift-cf-to-scf structures the CFG.
LogicalResult toStructuredSSA(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createMem2Reg());
  pm.addPass(createLiftControlFlowToSCFPass());
  pm.addPass(createCanonicalizerPass());
  return pm.run(module);
}

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

class BuilderTest : public ::testing::Test {
protected:
  BuilderTest() { loadFrontendDialects(context); }
  MLIRContext context;
};

TEST_F(BuilderTest, Figure42MatchesTheSExpressionImport) {
  OwningOpRef<ModuleOp> built = buildFigure42(context);
  ASSERT_TRUE(built);
  ASSERT_TRUE(succeeded(verify(*built)));

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(R"(
    (function "myfunc"
      (fntype (int32vtype int32vtype) (int32vtype))
      (syntable (0 "a" int32vtype) (1 "b" int32vtype) (2 "c" int32vtype))
      (args 0 1)
      (body
        (assignstmt (lhs (nameexpr 2 int32vtype))
                    (rhs (plusexpr int32vtype (nameexpr 0 int32vtype)
                                              (nameexpr 1 int32vtype))))
        (returnstmt (exprs (nameexpr 2 int32vtype))))))",
                                                                "fig4_2.vrir"),
                               llvm::SMLoc());
  OwningOpRef<ModuleOp> imported = importVRIRSExpr(sourceMgr, &context);
  ASSERT_TRUE(imported);
  // Locations differ (the import points into the text); the IR does not.
  EXPECT_EQ(print(*built), print(*imported));
}

TEST_F(BuilderTest, Figure42PromotesToSSA) {
  OwningOpRef<ModuleOp> module = buildFigure42(context);
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(toStructuredSSA(*module)));
  auto myfunc = module->lookupSymbol<func::FuncOp>("myfunc");
  ASSERT_TRUE(myfunc);
  // c = a + b; return c  is one addition of the arguments.
  Block &body = myfunc.getBody().front();
  ASSERT_EQ(body.getOperations().size(), 2u);
  auto add = dyn_cast<arith::AddIOp>(body.front());
  ASSERT_TRUE(add);
  EXPECT_EQ(add.getLhs(), myfunc.getArgument(0));
  EXPECT_EQ(add.getRhs(), myfunc.getArgument(1));
  auto ret = cast<func::ReturnOp>(body.back());
  EXPECT_EQ(ret.getOperand(0), add.getResult());
}

TEST_F(BuilderTest, LoopsBecomeStructuredSSA) {
  OwningOpRef<ModuleOp> module = buildScaleAndSum(context);
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(verify(*module)));
  // Before: a CFG over slots; the pfor shares A and k.
  bool hasBranches = false;
  module->walk([&](cf::CondBranchOp) { hasBranches = true; });
  EXPECT_TRUE(hasBranches);
  PforOp pfor;
  module->walk([&](PforOp op) { pfor = op; });
  ASSERT_TRUE(pfor);
  EXPECT_EQ(pfor.getShared().size(), 2u);

  ASSERT_TRUE(succeeded(toStructuredSSA(*module)));
  ASSERT_TRUE(succeeded(verify(*module)));
  // After: no slots and no branches are left.
  unsigned slots = 0, branches = 0, loops = 0;
  module->walk([&](Operation *op) {
    slots += isa<AllocaOp, ReadOp, WriteOp>(op);
    branches += isa<cf::BranchOp, cf::CondBranchOp>(op);
    loops += isa<scf::WhileOp>(op);
  });
  EXPECT_EQ(slots, 0u);
  EXPECT_EQ(branches, 0u);
  EXPECT_EQ(loops, 2u);
}

TEST_F(BuilderTest, ForbiddenStatementsAreReported) {
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = createModule(&context, loc, ModuleSemantics());
  Builder types(&context);
  Type i64 = types.getI64Type();
  func::FuncOp function = FunctionBuilder::declareFunction(
      *module, loc, "f", types.getFunctionType({}, {}));
  FunctionBuilder fb(function);
  std::vector<std::string> errors;
  fb.setErrorHandler(
      [&](Location, const Twine &message) { errors.push_back(message.str()); });
  Variable i = fb.declareVariable(loc, "i", i64);
  Variable n = fb.declareVariable(loc, "n", i64);
  EXPECT_TRUE(failed(fb.breakLoop(loc)));
  Value range =
      fb.range(loc, fb.constantIndex(loc, 0), fb.constantIndex(loc, 4));
  EXPECT_TRUE(failed(fb.pfor(loc, range, {i}, SharedList::of({n}), [&] {
    return fb.write(loc, n, fb.read(loc, i));
  })));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("'break' is outside of any loop"),
            std::string::npos);
  EXPECT_NE(errors[1].find("shared variables cannot be rebound"),
            std::string::npos);
}

} // namespace
