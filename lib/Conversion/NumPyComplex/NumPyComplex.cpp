//===- NumPyComplex.cpp - Complex arithmetic as NumPy computes it ---------===//
//
// convert-complex-to-standard computes sqrt, pow and the other functions of
// complex numbers in polar form: sqrt(-4-0j) is 1.2e-16-2j where NumPy (C99's
// csqrt) gives -2j, (2j)**3 is -1.5e-15-8j where NumPy multiplies, and
// 0j**(1.5+0.25j) is nan where NumPy gives 0. This pass calls what NumPy
// calls instead: libm's csqrt, cexp, clog, csin, ccos, ctan, ctanh, and the
// runtime's vrir_rt_cpow (NumPy's npy_cpow). Division is NumPy's Smith's
// method, without the recovery of infinities that upstream's adds (NumPy's
// (inf+infj) / 0.125 is nan+nanj).
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_NUMPYCOMPLEX
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {

/// The private declaration of the C function `name` in the module around
/// `op`, added on first use. complex<f64> arguments and results pass as C's
/// `double _Complex` (the LLVM lowering makes them {double, double}).
func::FuncOp getOrDeclare(PatternRewriter &rewriter, Operation *op,
                          StringRef name, FunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  auto function = func::FuncOp::create(rewriter, op->getLoc(), name, type);
  function.setPrivate();
  return function;
}

/// The real and imaginary parts of `value` as f64 (widened exactly from
/// complex<f32>).
void appendPartsAsDouble(PatternRewriter &rewriter, Location loc, Value value,
                         SmallVectorImpl<Value> &parts) {
  Type f64 = rewriter.getF64Type();
  for (bool real : {true, false}) {
    Value part = real ? complex::ReOp::create(rewriter, loc, value).getResult()
                      : complex::ImOp::create(rewriter, loc, value).getResult();
    if (!part.getType().isF64())
      part = arith::ExtFOp::create(rewriter, loc, f64, part);
    parts.push_back(part);
  }
}

/// `op` replaced by the call of `name` on `arguments`, whose complex<f64>
/// result a complex<f32> op gets rounded (exactly: the runtime's complex64
/// functions compute in single precision).
void replaceByCall(PatternRewriter &rewriter, Operation *op, StringRef name,
                   ValueRange arguments) {
  Location loc = op->getLoc();
  Type c128 = ComplexType::get(rewriter.getF64Type());
  func::FuncOp function =
      getOrDeclare(rewriter, op, name,
                   rewriter.getFunctionType(TypeRange(arguments), {c128}));
  Value result =
      func::CallOp::create(rewriter, loc, function, arguments).getResult(0);
  auto type = cast<ComplexType>(op->getResult(0).getType());
  if (type.getElementType().isF64())
    return rewriter.replaceOp(op, result);
  Type element = type.getElementType();
  Value re = arith::TruncFOp::create(
      rewriter, loc, element,
      complex::ReOp::create(rewriter, loc, result).getResult());
  Value im = arith::TruncFOp::create(
      rewriter, loc, element,
      complex::ImOp::create(rewriter, loc, result).getResult());
  rewriter.replaceOpWithNewOp<complex::CreateOp>(op, type, re, im);
}

bool isF32OrF64(Type type) {
  auto complexType = dyn_cast<ComplexType>(type);
  return complexType && (complexType.getElementType().isF32() ||
                         complexType.getElementType().isF64());
}

bool isF32(Type type) {
  return cast<ComplexType>(type).getElementType().isF32();
}

/// A one-operand complex function: libm's `name` (csqrt, ...) on
/// complex<f64>, the runtime's single-precision vrir_rt_<name>f on
/// complex<f32> (C returns `float _Complex` in one register on x86-64, where
/// LLVM returns {float, float} in two).
template <typename OpTy> struct UnaryToLibm : public OpRewritePattern<OpTy> {
  UnaryToLibm(MLIRContext *context, StringRef name)
      : OpRewritePattern<OpTy>(context), name(name) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isF32OrF64(op.getType()))
      return rewriter.notifyMatchFailure(op, "not complex<f32> or <f64>");
    if (!isF32(op.getType())) {
      replaceByCall(rewriter, op, name, op->getOperand(0));
      return success();
    }
    SmallVector<Value, 2> parts;
    appendPartsAsDouble(rewriter, op.getLoc(), op->getOperand(0), parts);
    replaceByCall(rewriter, op, "vrir_rt_" + name + "f", parts);
    return success();
  }

  std::string name;
};

/// complex.pow as vrir_rt_cpow(f)(base re, base im, exponent re, exponent
/// im).
struct PowToRuntime : public OpRewritePattern<complex::PowOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(complex::PowOp op,
                                PatternRewriter &rewriter) const override {
    if (!isF32OrF64(op.getType()))
      return rewriter.notifyMatchFailure(op, "not complex<f32> or <f64>");
    SmallVector<Value, 4> parts;
    for (Value operand : {op.getLhs(), op.getRhs()})
      appendPartsAsDouble(rewriter, op.getLoc(), operand, parts);
    replaceByCall(rewriter, op,
                  isF32(op.getType()) ? "vrir_rt_cpowf" : "vrir_rt_cpow",
                  parts);
    return success();
  }
};

/// complex.div as NumPy's loop (umath/loops.c.src, complex divide): Smith's
/// method, scaled by the reciprocal of the denominator; a zero divisor
/// divides each part by |0|. Selects, so that loops still vectorize.
struct DivLikeNumPy : public OpRewritePattern<complex::DivOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(complex::DivOp op,
                                PatternRewriter &rewriter) const override {
    if (!isF32OrF64(op.getType()))
      return rewriter.notifyMatchFailure(op, "not complex<f32> or <f64>");
    Location loc = op.getLoc();
    ImplicitLocOpBuilder b(loc, rewriter);
    auto type = cast<ComplexType>(op.getType());
    Type element = type.getElementType();
    Value aRe = complex::ReOp::create(b, op.getLhs());
    Value aIm = complex::ImOp::create(b, op.getLhs());
    Value bRe = complex::ReOp::create(b, op.getRhs());
    Value bIm = complex::ImOp::create(b, op.getRhs());
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddFOp::create(b, x, y);
    };
    auto sub = [&](Value x, Value y) -> Value {
      return arith::SubFOp::create(b, x, y);
    };
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulFOp::create(b, x, y);
    };
    auto div = [&](Value x, Value y) -> Value {
      return arith::DivFOp::create(b, x, y);
    };
    auto select = [&](Value c, Value x, Value y) -> Value {
      return arith::SelectOp::create(b, c, x, y);
    };
    Value one = arith::ConstantOp::create(b, b.getFloatAttr(element, 1.0));
    Value zero = arith::ConstantOp::create(b, b.getFloatAttr(element, 0.0));
    Value absRe = math::AbsFOp::create(b, bRe);
    Value absIm = math::AbsFOp::create(b, bIm);
    // |re| >= |im|: ratio = im / re.
    Value ratio1 = div(bIm, bRe);
    Value scale1 = div(one, add(bRe, mul(bIm, ratio1)));
    Value re1 = mul(add(aRe, mul(aIm, ratio1)), scale1);
    Value im1 = mul(sub(aIm, mul(aRe, ratio1)), scale1);
    // A zero divisor: each part divided by |re| (an inf or a nan).
    Value re0 = div(aRe, absRe), im0 = div(aIm, absRe);
    Value isZero = arith::AndIOp::create(
        b, arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, absRe, zero),
        arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, absIm, zero));
    // Otherwise (|re| < |im|, or a nan): ratio = re / im.
    Value ratio2 = div(bRe, bIm);
    Value scale2 = div(one, add(bIm, mul(bRe, ratio2)));
    Value re2 = mul(add(mul(aRe, ratio2), aIm), scale2);
    Value im2 = mul(sub(mul(aIm, ratio2), aRe), scale2);
    Value first =
        arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, absRe, absIm);
    Value re = select(first, select(isZero, re0, re1), re2);
    Value im = select(first, select(isZero, im0, im1), im2);
    rewriter.replaceOpWithNewOp<complex::CreateOp>(op, type, re, im);
    return success();
  }
};

struct NumPyComplex : public vrir::impl::NumPyComplexBase<NumPyComplex> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateNumPyComplexPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::vrir::populateNumPyComplexPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<PowToRuntime, DivLikeNumPy>(context);
  patterns.add<UnaryToLibm<complex::SqrtOp>>(context, "csqrt");
  patterns.add<UnaryToLibm<complex::ExpOp>>(context, "cexp");
  patterns.add<UnaryToLibm<complex::LogOp>>(context, "clog");
  patterns.add<UnaryToLibm<complex::SinOp>>(context, "csin");
  patterns.add<UnaryToLibm<complex::CosOp>>(context, "ccos");
  patterns.add<UnaryToLibm<complex::TanOp>>(context, "ctan");
  patterns.add<UnaryToLibm<complex::TanhOp>>(context, "ctanh");
}
