//===- TranslateToOpenCLC.cpp - GPU kernels to OpenCL C ------------------===//
//
// Writes the kernels of a `gpu.module` as an OpenCL C 1.2 program.
//
// Every SSA value becomes a C variable declared where the value is defined
// (`vN`; kernel arguments are `aN`, workgroup/private attributions `wgN` and
// `pvN`). Region results are declared before the construct and assigned at
// its terminator: `scf.for` iteration arguments and results share one
// variable, `scf.while` is `while (1) { before; if (!cond) break; after; }`.
// Integer arithmetic wraps as `arith` does (32/64-bit additions and
// multiplications in unsigned types, since signed overflow is undefined in
// C), unsigned operations go through the unsigned C type, and i1 is `bool`
// in registers and one byte (`uchar`) in memory and kernel arguments. Float
// operations map one to one (`FP_CONTRACT OFF` keeps `a * b + c` unfused);
// NaN-propagating minimum/maximum, floor/ceil divisions, integer powers and
// float atomics are small helper functions emitted before the kernels, only
// those used. OpenCL extensions (fp64, fp16, 64-bit atomics) are enabled
// only when the program needs them.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Target/OpenCLC.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/IndentedOstream.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Bit width of an integer or index type; 0 for anything else.
unsigned intWidth(Type type) {
  if (type.isIndex())
    return 64;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth();
  return 0;
}

bool isSupportedInt(Type type) {
  switch (intWidth(type)) {
  case 1:
  case 8:
  case 16:
  case 32:
  case 64:
    return true;
  default:
    return false;
  }
}

bool isSupportedFloat(Type type) {
  return type.isF16() || type.isF32() || type.isF64();
}

/// The unsigned C type of an integer type of width 1..64.
StringRef unsignedName(Type type) {
  switch (intWidth(type)) {
  case 1:
  case 8:
    return "uchar";
  case 16:
    return "ushort";
  case 32:
    return "uint";
  default:
    return "ulong";
  }
}

enum class AddrSpace { Global, Local, Private };

StringRef addrSpaceName(AddrSpace space) {
  switch (space) {
  case AddrSpace::Global:
    return "__global";
  case AddrSpace::Local:
    return "__local";
  case AddrSpace::Private:
    return "__private";
  }
  llvm_unreachable("unknown address space");
}

/// A memref the kernel can index: an argument (a pointer), a workgroup or
/// private attribution, or a `memref.alloca` (arrays).
struct MemrefInfo {
  AddrSpace space = AddrSpace::Global;
  Type elementType;
  /// Static sizes for multi-dimensional arrays (row-major); one entry for a
  /// pointer argument.
  SmallVector<int64_t> shape;
  bool readonly = false;
};

/// Parenthesized when not a plain identifier or literal.
std::string paren(StringRef expr) {
  if (llvm::all_of(expr, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return expr.str();
  return ("(" + expr + ")").str();
}

/// Whether `name` can name a kernel: an identifier that is not a keyword or
/// a type name of OpenCL C.
bool isKernelName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  if (!llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return false;
  static const llvm::StringSet<> reserved = {
      "auto",      "break",     "case",       "char",       "const",
      "continue",  "default",   "do",         "double",     "else",
      "enum",      "extern",    "float",      "for",        "goto",
      "if",        "inline",    "int",        "long",       "register",
      "restrict",  "return",    "short",      "signed",     "sizeof",
      "static",    "struct",    "switch",     "typedef",    "union",
      "unsigned",  "void",      "volatile",   "while",      "bool",
      "true",      "false",     "half",       "uchar",      "ushort",
      "uint",      "ulong",     "size_t",     "ptrdiff_t",  "intptr_t",
      "uintptr_t", "global",    "local",      "constant",   "private",
      "kernel",    "read_only", "write_only", "read_write", "image1d_t",
      "image2d_t", "image3d_t", "sampler_t",  "event_t",    "main"};
  return !reserved.contains(name) && !name.starts_with("__") &&
         !name.starts_with("vrirh_") && name != "vrir_error";
}

//===----------------------------------------------------------------------===//
// Emitter
//===----------------------------------------------------------------------===//

class OpenCLEmitter {
public:
  OpenCLEmitter(gpu::GPUModuleOp module, SmallVectorImpl<std::string> &sites)
      : module(module), sites(sites), kernelStream(kernelText),
        os(kernelStream) {}

  LogicalResult emitModule(raw_ostream &out);

private:
  using TerminatorFn = function_ref<LogicalResult(Operation *)>;

  // Types and names.
  std::string cType(Type type);
  std::string memElementType(Type type);
  std::string fresh(Value value);
  std::string fresh() { return "v" + std::to_string(nextId++); }
  const std::string &name(Value value);
  LogicalResult declare(Value value, StringRef init);
  /// Declares (uninitialized) a variable for each result of a structured
  /// op whose regions yield them; returns their names.
  FailureOr<SmallVector<std::string>> declareResults(Operation *op);
  void parallelAssign(ArrayRef<std::string> targets, ValueRange sources);

  // Literals.
  std::string intLiteral(const APInt &value, Type type);
  std::string floatLiteral(const APFloat &value, Type type);
  FailureOr<std::string> constantLiteral(Operation *op, Attribute attr,
                                         Type type);

  // Expressions.
  std::string signedView(Value value);
  std::string unsignedView(Value value);
  std::string intBinary(StringRef kind, Type type, StringRef a, StringRef b);
  std::string intCast(Type from, Type to, StringRef x, bool zeroExtend);
  std::string floatCmp(arith::CmpFPredicate pred, StringRef a, StringRef b);
  std::string intCmp(arith::CmpIPredicate pred, Value a, Value b);
  std::string combine(arith::AtomicRMWKind kind, Type type, StringRef cur,
                      StringRef val);
  std::string helper(StringRef kind, Type type);
  void addHelper(StringRef name, std::string code);

  // Memory.
  FailureOr<MemrefInfo *> memref(Operation *op, Value memrefValue);
  std::string element(const MemrefInfo &info, Value memrefValue,
                      ValueRange indices);
  FailureOr<std::string> atomicOld(Operation *op, arith::AtomicRMWKind kind,
                                   const MemrefInfo &info, StringRef ptr,
                                   StringRef val);
  FailureOr<unsigned> siteNumber(LLVM::AddressOfOp addr);

  // Statements.
  LogicalResult emitKernel(gpu::GPUFuncOp func);
  LogicalResult emitBlock(Block &block, TerminatorFn onTerminator);
  LogicalResult emitOperation(Operation &op);
  LogicalResult emitYieldTo(Operation *terminator,
                            ArrayRef<std::string> targets);
  LogicalResult emitConstant(Operation *op, Attribute attr);
  LogicalResult emitIntOp(Operation *op, StringRef kind);
  LogicalResult emitFloatBinary(Operation *op, StringRef kind);
  LogicalResult emitCast(Operation *op);
  LogicalResult emitMath(Operation *op);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitWhile(scf::WhileOp op);
  LogicalResult emitIndexSwitch(scf::IndexSwitchOp op);
  LogicalResult emitExecuteRegion(scf::ExecuteRegionOp op);
  LogicalResult emitLoad(memref::LoadOp op);
  LogicalResult emitStore(memref::StoreOp op);
  LogicalResult emitVectorExtract(vector::ExtractOp op);
  LogicalResult emitFromElements(vector::FromElementsOp op);
  LogicalResult emitAtomicRMW(memref::AtomicRMWOp op);
  LogicalResult emitGenericAtomicRMW(memref::GenericAtomicRMWOp op);
  LogicalResult emitAlloca(memref::AllocaOp op);
  LogicalResult emitBoundsError(LLVM::CallOp op);
  LogicalResult emitAddressOf(LLVM::AddressOfOp op);

  gpu::GPUModuleOp module;
  SmallVectorImpl<std::string> &sites;

  std::string kernelText;
  llvm::raw_string_ostream kernelStream;
  raw_indented_ostream os;

  /// Helper functions by name, in the order they were first needed (a
  /// helper that calls another asks for it first).
  SmallVector<std::string> helperOrder;
  llvm::StringMap<std::string> helpers;
  bool needFp64 = false, needFp16 = false;
  bool needInt64Base = false, needInt64Extended = false;

  // Per kernel.
  DenseMap<Value, std::string> names;
  DenseMap<Value, MemrefInfo> memrefs;
  unsigned nextId = 0;
};

std::string OpenCLEmitter::cType(Type type) {
  // Vectors of 2, 4, 8 or 16 numbers (bools have no vector type).
  if (auto vector = dyn_cast<VectorType>(type)) {
    int64_t lanes = vector.getRank() == 1 && !vector.isScalable()
                        ? vector.getNumElements()
                        : 0;
    if ((lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16) ||
        vector.getElementType().isInteger(1))
      return "";
    std::string element = cType(vector.getElementType());
    return element.empty() ? "" : element + std::to_string(lanes);
  }
  if (unsigned width = intWidth(type)) {
    switch (width) {
    case 1:
      return "bool";
    case 8:
      return "char";
    case 16:
      return "short";
    case 32:
      return "int";
    case 64:
      return "long";
    default:
      return "";
    }
  }
  if (type.isF64()) {
    needFp64 = true;
    return "double";
  }
  if (type.isF32())
    return "float";
  if (type.isF16()) {
    needFp16 = true;
    return "half";
  }
  return "";
}

std::string OpenCLEmitter::memElementType(Type type) {
  if (type.isInteger(1))
    return "uchar";
  return cType(type);
}

std::string OpenCLEmitter::fresh(Value value) {
  std::string result = fresh();
  names[value] = result;
  return result;
}

const std::string &OpenCLEmitter::name(Value value) {
  auto it = names.find(value);
  assert(it != names.end() && "value used before its definition was emitted");
  return it->second;
}

LogicalResult OpenCLEmitter::declare(Value value, StringRef init) {
  std::string type = cType(value.getType());
  if (type.empty())
    return emitError(value.getLoc()) << "value of type " << value.getType()
                                     << " cannot be translated to OpenCL C";
  // `init` may be another value's name, which `fresh` can move (it grows
  // the table of names).
  std::string initText = init.str();
  std::string var = fresh(value);
  os << type << " " << var;
  if (!initText.empty())
    os << " = " << initText;
  os << ";\n";
  return success();
}

FailureOr<SmallVector<std::string>>
OpenCLEmitter::declareResults(Operation *op) {
  SmallVector<std::string> vars;
  for (Value result : op->getResults()) {
    if (failed(declare(result, "")))
      return failure();
    vars.push_back(name(result));
  }
  return vars;
}

void OpenCLEmitter::parallelAssign(ArrayRef<std::string> targets,
                                   ValueRange sources) {
  SmallVector<std::pair<std::string, std::string>> moves;
  for (auto [target, source] : llvm::zip_equal(targets, sources))
    if (target != name(source))
      moves.emplace_back(target, name(source));
  // A target that another move reads is saved first (`scf.yield %b, %a`).
  llvm::StringMap<std::string> saved;
  for (auto &move : moves) {
    if (saved.contains(move.second) ||
        !llvm::is_contained(llvm::make_first_range(moves), move.second))
      continue;
    std::string temp = fresh();
    Value source = *llvm::find_if(
        sources, [&](Value v) { return name(v) == move.second; });
    os << cType(source.getType()) << " " << temp << " = " << move.second
       << ";\n";
    saved[move.second] = temp;
  }
  for (auto &[target, source] : moves) {
    auto it = saved.find(source);
    os << target << " = " << (it == saved.end() ? source : it->second) << ";\n";
  }
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

std::string OpenCLEmitter::intLiteral(const APInt &value, Type type) {
  switch (intWidth(type)) {
  case 1:
    return value.isZero() ? "false" : "true";
  case 8:
    return "(char)" + std::to_string(value.getSExtValue());
  case 16:
    return "(short)" + std::to_string(value.getSExtValue());
  case 32: {
    int64_t v = value.getSExtValue();
    if (v == INT32_MIN)
      return "(-2147483647 - 1)";
    return std::to_string(v);
  }
  default: {
    int64_t v = value.getSExtValue();
    if (v == INT64_MIN)
      return "(-9223372036854775807L - 1L)";
    return std::to_string(v) + "L";
  }
  }
}

std::string OpenCLEmitter::floatLiteral(const APFloat &value, Type type) {
  std::string ctype = cType(type);
  StringRef suffix = type.isF64() ? "" : "f";
  if (value.isInfinity())
    return (value.isNegative() ? "-" : "") + ("(" + ctype + ")INFINITY");
  if (value.isNaN()) {
    // The canonical quiet NaN is NAN; other payloads keep their bits.
    APInt bits = value.bitcastToAPInt();
    if (bits == APFloat::getQNaN(value.getSemantics()).bitcastToAPInt())
      return "(" + ctype + ")NAN";
    StringRef bitsType = type.isF64() ? "long" : type.isF32() ? "int" : "short";
    return "as_" + ctype + "((" + bitsType.str() + ")0x" +
           llvm::utohexstr(bits.getZExtValue()) + (type.isF64() ? "UL" : "U") +
           ")";
  }
  // The shortest decimal form that reads back exactly, else hexadecimal.
  // Half literals are float literals converted to half.
  const llvm::fltSemantics &parseSem =
      type.isF16() ? APFloat::IEEEsingle() : value.getSemantics();
  auto readsBack = [&](StringRef text) {
    APFloat back(parseSem);
    auto status = back.convertFromString(text, APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return false;
    }
    bool losesInfo = false;
    back.convert(value.getSemantics(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
    return back.bitcastToAPInt() == value.bitcastToAPInt();
  };
  std::string text;
  for (unsigned digits = 1; digits <= 17 && text.empty(); ++digits) {
    SmallString<32> str;
    value.toString(str, digits);
    if (!StringRef(str).contains_insensitive('e') &&
        !StringRef(str).contains('.'))
      str += ".0";
    if (readsBack(str))
      text = str.str().str();
  }
  if (text.empty()) {
    char buf[64];
    unsigned n = value.convertToHexString(buf, 0, /*UpperCase=*/false,
                                          APFloat::rmNearestTiesToEven);
    text.assign(buf, n);
  }
  text += suffix.str();
  if (type.isF16())
    return "(half)" + text;
  return text;
}

FailureOr<std::string>
OpenCLEmitter::constantLiteral(Operation *op, Attribute attr, Type type) {
  if (auto intAttr = dyn_cast<IntegerAttr>(attr);
      intAttr && isSupportedInt(type))
    return intLiteral(intAttr.getValue(), type);
  if (auto boolAttr = dyn_cast<BoolAttr>(attr))
    return std::string(boolAttr.getValue() ? "true" : "false");
  if (auto floatAttr = dyn_cast<FloatAttr>(attr);
      floatAttr && isSupportedFloat(type))
    return floatLiteral(floatAttr.getValue(), type);
  return op->emitOpError("of type ")
         << type << " cannot be translated to OpenCL C";
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

std::string OpenCLEmitter::signedView(Value value) {
  // i1 is signed in arith: true is -1.
  if (value.getType().isInteger(1))
    return "(-(int)" + name(value) + ")";
  return name(value);
}

std::string OpenCLEmitter::unsignedView(Value value) {
  return "(" + unsignedName(value.getType()).str() + ")" + name(value);
}

void OpenCLEmitter::addHelper(StringRef helperName, std::string code) {
  if (helpers.try_emplace(helperName, std::move(code)).second)
    helperOrder.push_back(helperName.str());
}

/// Returns the name of helper `kind` for `type`, emitting it on first use.
std::string OpenCLEmitter::helper(StringRef kind, Type type) {
  std::string t = cType(type);
  std::string fn = ("vrirh_" + kind + "_" + t).str();
  if (helpers.contains(fn))
    return fn;
  std::string ut = isSupportedInt(type) ? unsignedName(type).str() : "";
  std::string code;
  llvm::raw_string_ostream s(code);
  if (kind == "minimumf" || kind == "maximumf") {
    bool isMin = kind == "minimumf";
    s << "static inline " << t << " " << fn << "(" << t << " a, " << t
      << " b) {\n"
      << "  if (isnan(a) || isnan(b))\n"
      << "    return a + b;\n"
      << "  if (a == b)\n"
      << "    return signbit(a) ? " << (isMin ? "a : b" : "b : a") << ";\n"
      << "  return a " << (isMin ? "<" : ">") << " b ? a : b;\n"
      << "}\n";
  } else if (kind == "floordivsi" || kind == "ceildivsi") {
    bool floor = kind == "floordivsi";
    s << "static inline " << t << " " << fn << "(" << t << " a, " << t
      << " b) {\n"
      << "  " << t << " q = (" << t << ")(a / b);\n"
      << "  if (a % b != 0 && ((a < 0) " << (floor ? "!=" : "==")
      << " (b < 0)))\n"
      << "    q = (" << t << ")(q " << (floor ? "- 1" : "+ 1") << ");\n"
      << "  return q;\n"
      << "}\n";
  } else if (kind == "ceildivui") {
    s << "static inline " << t << " " << fn << "(" << t << " a, " << t
      << " b) {\n"
      << "  " << ut << " ua = (" << ut << ")a, ub = (" << ut << ")b;\n"
      << "  return ua == 0 ? (" << t << ")0 : (" << t
      << ")((ua - 1) / ub + 1);\n"
      << "}\n";
  } else if (kind == "ipowi") {
    // math.ipowi: wrapping repeated squaring; negative exponents give 1/b
    // truncated (b = 1: 1, b = -1: +-1, otherwise 0).
    s << "static inline " << t << " " << fn << "(" << t << " b, " << t
      << " e) {\n"
      << "  if (e < 0) {\n"
      << "    if (b == 1)\n"
      << "      return 1;\n"
      << "    if (b == -1)\n"
      << "      return (e & 1) ? (" << t << ")-1 : (" << t << ")1;\n"
      << "    return 0;\n"
      << "  }\n"
      << "  " << ut << " r = 1, x = (" << ut << ")b, n = (" << ut << ")e;\n"
      << "  while (n) {\n"
      << "    if (n & 1)\n"
      << "      r = (" << ut << ")(r * x);\n"
      << "    x = (" << ut << ")(x * x);\n"
      << "    n >>= 1;\n"
      << "  }\n"
      << "  return (" << t << ")r;\n"
      << "}\n";
  } else {
    llvm_unreachable("unknown helper");
  }
  addHelper(fn, std::move(code));
  return fn;
}

std::string OpenCLEmitter::intBinary(StringRef kind, Type type, StringRef a,
                                     StringRef b) {
  std::string t = cType(type);
  std::string ut = unsignedName(type).str();
  unsigned width = intWidth(type);
  auto u = [&](StringRef x) { return "(" + ut + ")" + x.str(); };
  auto cast = [&](const std::string &expr) {
    return "(" + t + ")(" + expr + ")";
  };
  std::string as = a.str(), bs = b.str();

  if (width == 1) {
    // Two's complement arithmetic on one bit; true is -1 when signed.
    // Divisions by false are undefined, so a / true = a and a % true = 0.
    return llvm::StringSwitch<std::string>(kind)
        .Cases({"add", "sub", "xor"}, as + " ^ " + bs)
        .Cases({"mul", "and", "maxs", "minu"}, as + " & " + bs)
        .Cases({"or", "mins", "maxu"}, as + " | " + bs)
        .Cases({"divs", "divu", "floordivs", "ceildivs", "ceildivu", "shl",
                "shrs", "shru"},
               as)
        .Cases({"rems", "remu"}, "false")
        .Default("");
  }
  bool wide = width >= 32;
  // char and short operands are promoted to int: convert the result back.
  auto narrow = [&](const std::string &expr) {
    return wide ? expr : cast(expr);
  };
  auto wrapping = [&](StringRef op) {
    // Signed overflow is undefined in C: compute in the unsigned type.
    // (char and short are promoted to int, where no overflow happens.)
    if (wide)
      return cast(u(a) + " " + op.str() + " " + u(b));
    return cast(as + " " + op.str() + " " + bs);
  };
  return llvm::StringSwitch<std::string>(kind)
      .Case("add", wrapping("+"))
      .Case("sub", wrapping("-"))
      .Case("mul", wrapping("*"))
      .Case("and", narrow(as + " & " + bs))
      .Case("or", narrow(as + " | " + bs))
      .Case("xor", narrow(as + " ^ " + bs))
      .Case("shl", cast(u(a) + " << " + u(b)))
      .Case("shrs", narrow(as + " >> " + u(b)))
      .Case("shru", cast(u(a) + " >> " + u(b)))
      .Case("divs", narrow(as + " / " + bs))
      .Case("rems", narrow(as + " % " + bs))
      .Case("divu", cast(u(a) + " / " + u(b)))
      .Case("remu", cast(u(a) + " % " + u(b)))
      .Case("mins", "min(" + as + ", " + bs + ")")
      .Case("maxs", "max(" + as + ", " + bs + ")")
      .Case("minu", "(" + t + ")min(" + u(a) + ", " + u(b) + ")")
      .Case("maxu", "(" + t + ")max(" + u(a) + ", " + u(b) + ")")
      .Default("");
}

std::string OpenCLEmitter::intCast(Type from, Type to, StringRef x,
                                   bool zeroExtend) {
  unsigned fromWidth = intWidth(from), toWidth = intWidth(to);
  std::string t = cType(to);
  if (fromWidth == toWidth)
    return x.str();
  if (toWidth == 1)
    return "(" + x.str() + " & 1) != 0";
  if (fromWidth == 1)
    return zeroExtend ? "(" + t + ")" + x.str() : "(" + t + ")-(int)" + x.str();
  if (fromWidth < toWidth && zeroExtend)
    return "(" + t + ")(" + unsignedName(from).str() + ")" + x.str();
  return "(" + t + ")" + x.str();
}

std::string OpenCLEmitter::intCmp(arith::CmpIPredicate pred, Value a, Value b) {
  using P = arith::CmpIPredicate;
  auto bin = [&](std::string x, StringRef op, std::string y) {
    return x + " " + op.str() + " " + y;
  };
  switch (pred) {
  case P::eq:
    return bin(name(a), "==", name(b));
  case P::ne:
    return bin(name(a), "!=", name(b));
  case P::slt:
    return bin(signedView(a), "<", signedView(b));
  case P::sle:
    return bin(signedView(a), "<=", signedView(b));
  case P::sgt:
    return bin(signedView(a), ">", signedView(b));
  case P::sge:
    return bin(signedView(a), ">=", signedView(b));
  case P::ult:
    return bin(unsignedView(a), "<", unsignedView(b));
  case P::ule:
    return bin(unsignedView(a), "<=", unsignedView(b));
  case P::ugt:
    return bin(unsignedView(a), ">", unsignedView(b));
  case P::uge:
    return bin(unsignedView(a), ">=", unsignedView(b));
  }
  llvm_unreachable("unknown cmpi predicate");
}

std::string OpenCLEmitter::floatCmp(arith::CmpFPredicate pred, StringRef a,
                                    StringRef b) {
  using P = arith::CmpFPredicate;
  std::string x = a.str(), y = b.str();
  // C comparisons are ordered, except != which is true on NaN.
  switch (pred) {
  case P::AlwaysFalse:
    return "false";
  case P::AlwaysTrue:
    return "true";
  case P::OEQ:
    return x + " == " + y;
  case P::OGT:
    return x + " > " + y;
  case P::OGE:
    return x + " >= " + y;
  case P::OLT:
    return x + " < " + y;
  case P::OLE:
    return x + " <= " + y;
  case P::ONE:
    return x + " < " + y + " || " + x + " > " + y;
  case P::ORD:
    return "!isnan(" + x + ") && !isnan(" + y + ")";
  case P::UEQ:
    return "!(" + x + " < " + y + " || " + x + " > " + y + ")";
  case P::UGT:
    return "!(" + x + " <= " + y + ")";
  case P::UGE:
    return "!(" + x + " < " + y + ")";
  case P::ULT:
    return "!(" + x + " >= " + y + ")";
  case P::ULE:
    return "!(" + x + " > " + y + ")";
  case P::UNE:
    return "!(" + x + " == " + y + ")";
  case P::UNO:
    return "isnan(" + x + ") || isnan(" + y + ")";
  }
  llvm_unreachable("unknown cmpf predicate");
}

/// The new value of an atomic read-modify-write of `kind` from the current
/// value `cur` and the operand `val`.
std::string OpenCLEmitter::combine(arith::AtomicRMWKind kind, Type type,
                                   StringRef cur, StringRef val) {
  using K = arith::AtomicRMWKind;
  std::string c = cur.str(), v = val.str();
  switch (kind) {
  case K::assign:
    return v;
  case K::addf:
    return c + " + " + v;
  case K::mulf:
    return c + " * " + v;
  case K::maximumf:
    return helper("maximumf", type) + "(" + c + ", " + v + ")";
  case K::minimumf:
    return helper("minimumf", type) + "(" + c + ", " + v + ")";
  case K::maxnumf:
    return "fmax(" + c + ", " + v + ")";
  case K::minnumf:
    return "fmin(" + c + ", " + v + ")";
  case K::addi:
    return intBinary("add", type, cur, val);
  case K::muli:
    return intBinary("mul", type, cur, val);
  case K::andi:
    return intBinary("and", type, cur, val);
  case K::ori:
    return intBinary("or", type, cur, val);
  case K::xori:
    return intBinary("xor", type, cur, val);
  case K::maxs:
    return intBinary("maxs", type, cur, val);
  case K::mins:
    return intBinary("mins", type, cur, val);
  case K::maxu:
    return intBinary("maxu", type, cur, val);
  case K::minu:
    return intBinary("minu", type, cur, val);
  }
  llvm_unreachable("unknown atomic kind");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

FailureOr<MemrefInfo *> OpenCLEmitter::memref(Operation *op,
                                              Value memrefValue) {
  auto it = memrefs.find(memrefValue);
  if (it == memrefs.end())
    return op->emitOpError("accesses a memref that is not a kernel argument, "
                           "an attribution or a memref.alloca; it cannot be "
                           "translated to OpenCL C");
  return &it->second;
}

std::string OpenCLEmitter::element(const MemrefInfo &info, Value memrefValue,
                                   ValueRange indices) {
  std::string index;
  if (indices.size() == 1) {
    index = name(indices[0]);
  } else {
    // Row-major linearization of a static shape, in 32-bit arithmetic when
    // the shape has fewer than 2^31 elements (work-group and private arrays
    // do): a GPU does that in one instruction, 64-bit multiplications in
    // several (the tiled matrix product indexes its tiles in every step).
    int64_t elements = 1;
    for (int64_t extent : info.shape)
      elements = extent > 0 && elements <= INT32_MAX / extent
                     ? elements * extent
                     : int64_t(INT32_MAX) + 1;
    bool narrow = elements <= INT32_MAX;
    auto indexText = [&](Value value) {
      return narrow ? "(int)" + name(value) : name(value);
    };
    // (A cast binds tighter than `*`: only sums need parentheses.)
    index = indexText(indices[0]);
    for (unsigned i = 1; i < indices.size(); ++i)
      index = (i == 1 ? index : "(" + index + ")") + " * " +
              std::to_string(info.shape[i]) + (narrow ? " + " : "L + ") +
              indexText(indices[i]);
  }
  return name(memrefValue) + "[" + index + "]";
}

FailureOr<std::string> OpenCLEmitter::atomicOld(Operation *op,
                                                arith::AtomicRMWKind kind,
                                                const MemrefInfo &info,
                                                StringRef ptr, StringRef val) {
  using K = arith::AtomicRMWKind;
  Type type = info.elementType;
  unsigned width = intWidth(type);
  bool isInt = width == 32 || width == 64;
  if (!isInt && !type.isF32() && !type.isF64())
    return op->emitOpError("on ")
           << type
           << " elements cannot be translated to OpenCL C (only 32- and "
              "64-bit integers and floats)";
  bool is64 = width == 64 || type.isF64();
  std::string as = addrSpaceName(info.space).str();
  std::string t = cType(type);
  std::string p = ptr.str(), v = val.str();
  // OpenCL 1.2 builtins on int, cl_khr_int64_* on long.
  StringRef prefix = is64 ? "atom_" : "atomic_";
  auto builtin = [&](StringRef fn, bool extended) {
    (extended ? needInt64Extended : needInt64Base) |= is64;
    return prefix.str() + fn.str();
  };
  if (isInt) {
    std::string ut = unsignedName(type).str();
    auto unsignedCall = [&](StringRef fn) {
      return "(" + t + ")" + builtin(fn, true) + "((volatile " + as + " " + ut +
             " *)" + p + ", (" + ut + ")" + v + ")";
    };
    switch (kind) {
    case K::addi:
      return builtin("add", false) + "(" + p + ", " + v + ")";
    case K::assign:
      return builtin("xchg", false) + "(" + p + ", " + v + ")";
    case K::maxs:
      return builtin("max", true) + "(" + p + ", " + v + ")";
    case K::mins:
      return builtin("min", true) + "(" + p + ", " + v + ")";
    case K::andi:
      return builtin("and", true) + "(" + p + ", " + v + ")";
    case K::ori:
      return builtin("or", true) + "(" + p + ", " + v + ")";
    case K::xori:
      return builtin("xor", true) + "(" + p + ", " + v + ")";
    case K::maxu:
      return unsignedCall("max");
    case K::minu:
      return unsignedCall("min");
    default:
      break;
    }
  } else if (kind == K::assign) {
    if (!is64)
      return "atomic_xchg(" + p + ", " + v + ")";
    return "as_double(" + builtin("xchg", false) + "((volatile " + as +
           " long *)" + p + ", as_long(" + v + ")))";
  }

  // Everything else is a compare-and-swap loop on the bits.
  std::string bits = is64 ? "long" : "int";
  std::string cmpxchg = builtin("cmpxchg", false);
  std::string fn = ("vrirh_atomic_" + arith::stringifyAtomicRMWKind(kind) +
                    "_" + t + "_" + as.substr(2))
                       .str();
  if (!helpers.contains(fn)) {
    std::string toT = isInt ? "" : "as_" + t;
    std::string toBits = isInt ? "" : "as_" + bits;
    std::string next = combine(kind, type, "cur", "v");
    std::string code;
    llvm::raw_string_ostream s(code);
    s << "static inline " << t << " " << fn << "(volatile " << as << " " << t
      << " *p, " << t << " v) {\n"
      << "  volatile " << as << " " << bits << " *q = (volatile " << as << " "
      << bits << " *)p;\n"
      << "  " << bits << " old = *q;\n"
      << "  for (;;) {\n"
      << "    " << bits << " expected = old;\n"
      << "    " << t << " cur = " << (isInt ? "expected" : toT + "(expected)")
      << ";\n"
      << "    old = " << cmpxchg << "(q, expected, "
      << (isInt ? next : toBits + "(" + next + ")") << ");\n"
      << "    if (old == expected)\n"
      << "      return cur;\n"
      << "  }\n"
      << "}\n";
    addHelper(fn, std::move(code));
  }
  return fn + "(" + p + ", " + v + ")";
}

FailureOr<unsigned> OpenCLEmitter::siteNumber(LLVM::AddressOfOp addr) {
  return mlir::vrir::getBoundsSiteNumber(addr, sites);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult OpenCLEmitter::emitBlock(Block &block,
                                       TerminatorFn onTerminator) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      if (failed(onTerminator(&op)))
        return failure();
      continue;
    }
    if (failed(emitOperation(op)))
      return failure();
  }
  return success();
}

LogicalResult OpenCLEmitter::emitYieldTo(Operation *terminator,
                                         ArrayRef<std::string> targets) {
  if (!isa<scf::YieldOp>(terminator))
    return terminator->emitOpError("cannot be translated to OpenCL C");
  parallelAssign(targets, terminator->getOperands());
  return success();
}

LogicalResult OpenCLEmitter::emitConstant(Operation *op, Attribute attr) {
  Value result = op->getResult(0);
  FailureOr<std::string> literal = constantLiteral(op, attr, result.getType());
  if (failed(literal))
    return failure();
  return declare(result, *literal);
}

LogicalResult OpenCLEmitter::emitIntOp(Operation *op, StringRef kind) {
  Type type = op->getResult(0).getType();
  if (!isSupportedInt(type))
    return op->emitOpError("on ")
           << type << " cannot be translated to OpenCL C";
  StringRef a = name(op->getOperand(0)), b = name(op->getOperand(1));
  std::string expr;
  if (intWidth(type) != 1 &&
      (kind == "floordivs" || kind == "ceildivs" || kind == "ceildivu")) {
    std::string fn = helper(kind == "floordivs"  ? "floordivsi"
                            : kind == "ceildivs" ? "ceildivsi"
                                                 : "ceildivui",
                            type);
    expr = fn + "(" + a.str() + ", " + b.str() + ")";
  } else {
    expr = intBinary(kind, type, a, b);
  }
  assert(!expr.empty() && "unknown integer operation");
  return declare(op->getResult(0), expr);
}

LogicalResult OpenCLEmitter::emitFloatBinary(Operation *op, StringRef kind) {
  Type type = op->getResult(0).getType();
  if (!isSupportedFloat(type))
    return op->emitOpError("on ")
           << type << " cannot be translated to OpenCL C";
  std::string a = name(op->getOperand(0)), b = name(op->getOperand(1));
  std::string expr = llvm::StringSwitch<std::string>(kind)
                         .Case("add", a + " + " + b)
                         .Case("sub", a + " - " + b)
                         .Case("mul", a + " * " + b)
                         .Case("div", a + " / " + b)
                         .Case("rem", "fmod(" + a + ", " + b + ")")
                         .Case("minnum", "fmin(" + a + ", " + b + ")")
                         .Case("maxnum", "fmax(" + a + ", " + b + ")")
                         .Default("");
  if (kind == "minimum" || kind == "maximum")
    expr = helper(kind.str() + "f", type) + "(" + a + ", " + b + ")";
  return declare(op->getResult(0), expr);
}

LogicalResult OpenCLEmitter::emitCast(Operation *op) {
  Value in = op->getOperand(0), out = op->getResult(0);
  Type from = in.getType(), to = out.getType();
  bool intIn = isSupportedInt(from), intOut = isSupportedInt(to);
  bool floatIn = isSupportedFloat(from), floatOut = isSupportedFloat(to);
  if (!(intIn || floatIn) || !(intOut || floatOut))
    return op->emitOpError("from ")
           << from << " to " << to << " cannot be translated to OpenCL C";
  std::string x = name(in);
  std::string t = cType(to);
  std::string expr;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op))
    expr = intCast(from, to, x, /*zeroExtend=*/false);
  else if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
    expr = intCast(from, to, x, /*zeroExtend=*/true);
  else if (isa<arith::SIToFPOp>(op))
    expr = "(" + t + ")" + signedView(in);
  else if (isa<arith::UIToFPOp>(op))
    expr = "(" + t + ")" + unsignedView(in);
  else if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    if (to.isInteger(1))
      expr = x + " != 0";
    else if (isa<arith::FPToSIOp>(op))
      expr = "(" + t + ")" + x;
    else
      expr = "(" + t + ")(" + unsignedName(to).str() + ")" + x;
  } else if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
    expr = "(" + t + ")" + x;
  } else if (isa<arith::BitcastOp>(op)) {
    if (from == to || (intIn && intOut))
      expr = x;
    else if (to.isInteger(1) || from.isInteger(1))
      return op->emitOpError("on i1 cannot be translated to OpenCL C");
    else
      expr = "as_" + t + "(" + x + ")";
  }
  assert(!expr.empty() && "unknown cast");
  return declare(out, expr);
}

LogicalResult OpenCLEmitter::emitMath(Operation *op) {
  StringRef opName = op->getName().stripDialect();
  // Float functions with an OpenCL builtin of the same meaning.
  StringRef builtin =
      llvm::StringSwitch<StringRef>(opName)
          .Cases({"sqrt", "rsqrt", "exp",   "exp2",  "expm1", "log",
                  "log2", "log10", "log1p", "sin",   "cos",   "tan",
                  "asin", "acos",  "atan",  "atan2", "sinh",  "cosh",
                  "tanh", "asinh", "acosh", "atanh"},
                 opName)
          .Cases({"floor", "ceil", "round", "trunc", "fma", "copysign", "erf",
                  "erfc", "cbrt"},
                 opName)
          .Case("powf", "pow")
          .Case("absf", "fabs")
          .Case("roundeven", "rint")
          .Cases({"isnan", "isinf", "isfinite", "isnormal"}, opName)
          .Default("");
  auto operandNames = [&]() {
    return llvm::join(
        llvm::map_range(op->getOperands(), [&](Value v) { return name(v); }),
        ", ");
  };
  if (!builtin.empty()) {
    if (!isSupportedFloat(op->getOperand(0).getType()))
      return op->emitOpError("on ") << op->getOperand(0).getType()
                                    << " cannot be translated to OpenCL C";
    return declare(op->getResult(0),
                   builtin.str() + "(" + operandNames() + ")");
  }
  if (auto sincos = dyn_cast<math::SincosOp>(op)) {
    if (!isSupportedFloat(op->getOperand(0).getType()))
      return op->emitOpError("on ") << op->getOperand(0).getType()
                                    << " cannot be translated to OpenCL C";
    std::string x = name(op->getOperand(0));
    if (failed(declare(op->getResult(0), "sin(" + x + ")")))
      return failure();
    return declare(op->getResult(1), "cos(" + x + ")");
  }

  Type type = op->getResult(0).getType();
  if (opName == "fpowi") {
    Type expType = op->getOperand(1).getType();
    if (!isSupportedFloat(type) || !isSupportedInt(expType) ||
        intWidth(expType) == 1)
      return op->emitOpError("cannot be translated to OpenCL C");
    std::string t = cType(type), et = cType(expType);
    std::string fn = "vrirh_fpowi_" + t + "_" + et;
    if (!helpers.contains(fn)) {
      std::string ut = unsignedName(expType).str();
      std::string code;
      llvm::raw_string_ostream s(code);
      s << "static inline " << t << " " << fn << "(" << t << " b, " << et
        << " e) {\n"
        << "  " << ut << " n = e < 0 ? (" << ut << ")(0 - (" << ut << ")e) : ("
        << ut << ")e;\n"
        << "  " << t << " r = 1;\n"
        << "  while (n) {\n"
        << "    if (n & 1)\n"
        << "      r *= b;\n"
        << "    b *= b;\n"
        << "    n >>= 1;\n"
        << "  }\n"
        << "  return e < 0 ? 1 / r : r;\n"
        << "}\n";
      addHelper(fn, std::move(code));
    }
    return declare(op->getResult(0), fn + "(" + operandNames() + ")");
  }

  // Integer functions.
  if (!isSupportedInt(type) || intWidth(type) == 1)
    return op->emitOpError("on ")
           << type << " cannot be translated to OpenCL C";
  std::string t = cType(type), ut = unsignedName(type).str();
  std::string x = name(op->getOperand(0));
  std::string expr;
  if (opName == "absi")
    expr = "(" + t + ")abs(" + x + ")";
  else if (opName == "ctlz")
    expr = "(" + t + ")clz(" + x + ")";
  else if (opName == "ctpop")
    expr = "(" + t + ")popcount(" + x + ")";
  else if (opName == "cttz")
    // ~x & (x - 1) has a one for every trailing zero of x (all ones for 0).
    expr = "(" + t + ")popcount((" + ut + ")(~(" + ut + ")" + x + " & ((" + ut +
           ")" + x + " - 1)))";
  else if (opName == "ipowi")
    expr = helper("ipowi", type) + "(" + operandNames() + ")";
  else
    return op->emitOpError("cannot be translated to OpenCL C");
  return declare(op->getResult(0), expr);
}

LogicalResult OpenCLEmitter::emitFor(scf::ForOp op) {
  SmallVector<std::string> vars;
  for (auto [result, init, iterArg] : llvm::zip_equal(
           op.getResults(), op.getInitArgs(), op.getRegionIterArgs())) {
    if (failed(declare(result, name(init))))
      return failure();
    // Copied first: inserting into `names` may move the names it holds.
    std::string resultName = name(result);
    names[iterArg] = resultName;
    vars.push_back(std::move(resultName));
  }
  Value iv = op.getInductionVar();
  std::string type = cType(iv.getType());
  if (type.empty() || intWidth(iv.getType()) == 1)
    return op.emitOpError("with an induction variable of type ")
           << iv.getType() << " cannot be translated to OpenCL C";
  std::string var = fresh(iv);
  std::string cond =
      op.getUnsignedCmp()
          ? unsignedView(iv) + " < " + unsignedView(op.getUpperBound())
          : var + " < " + name(op.getUpperBound());
  os << "for (" << type << " " << var << " = " << name(op.getLowerBound())
     << "; " << cond << "; " << var << " += " << name(op.getStep()) << ") {\n";
  os.indent();
  if (failed(emitBlock(*op.getBody(), [&](Operation *terminator) {
        return emitYieldTo(terminator, vars);
      })))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult OpenCLEmitter::emitIf(scf::IfOp op) {
  FailureOr<SmallVector<std::string>> vars = declareResults(op);
  if (failed(vars))
    return failure();
  auto onYield = [&](Operation *terminator) {
    return emitYieldTo(terminator, *vars);
  };
  os << "if (" << name(op.getCondition()) << ") {\n";
  os.indent();
  if (failed(emitBlock(op.getThenRegion().front(), onYield)))
    return failure();
  os.unindent();
  if (!op.getElseRegion().empty()) {
    os << "} else {\n";
    os.indent();
    if (failed(emitBlock(op.getElseRegion().front(), onYield)))
      return failure();
    os.unindent();
  }
  os << "}\n";
  return success();
}

LogicalResult OpenCLEmitter::emitWhile(scf::WhileOp op) {
  SmallVector<std::string> beforeVars, resultVars;
  for (auto [init, arg] :
       llvm::zip_equal(op.getInits(), op.getBeforeArguments())) {
    if (failed(declare(arg, name(init))))
      return failure();
    beforeVars.push_back(name(arg));
  }
  for (auto [result, arg] :
       llvm::zip_equal(op.getResults(), op.getAfterArguments())) {
    if (failed(declare(result, "")))
      return failure();
    std::string resultName = name(result);
    names[arg] = resultName;
    resultVars.push_back(std::move(resultName));
  }
  os << "while (1) {\n";
  os.indent();
  if (failed(emitBlock(
          *op.getBeforeBody(), [&](Operation *terminator) -> LogicalResult {
            auto condition = dyn_cast<scf::ConditionOp>(terminator);
            if (!condition)
              return terminator->emitOpError(
                  "cannot be translated to OpenCL C");
            parallelAssign(resultVars, condition.getArgs());
            os << "if (!" << name(condition.getCondition()) << ")\n";
            os << "  break;\n";
            return success();
          })))
    return failure();
  if (failed(emitBlock(*op.getAfterBody(), [&](Operation *terminator) {
        return emitYieldTo(terminator, beforeVars);
      })))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult OpenCLEmitter::emitIndexSwitch(scf::IndexSwitchOp op) {
  FailureOr<SmallVector<std::string>> vars = declareResults(op);
  if (failed(vars))
    return failure();
  auto onYield = [&](Operation *terminator) {
    return emitYieldTo(terminator, *vars);
  };
  auto emitCase = [&](Region &region) {
    os.indent();
    if (failed(emitBlock(region.front(), onYield)))
      return failure();
    os << "break;\n";
    os.unindent();
    os << "}\n";
    return success();
  };
  os << "switch (" << name(op.getArg()) << ") {\n";
  for (auto [value, region] :
       llvm::zip_equal(op.getCases(), op.getCaseRegions())) {
    os << "case "
       << intLiteral(APInt(64, value, /*isSigned=*/true), op.getArg().getType())
       << ": {\n";
    if (failed(emitCase(region)))
      return failure();
  }
  os << "default: {\n";
  if (failed(emitCase(op.getDefaultRegion())))
    return failure();
  os << "}\n";
  return success();
}

LogicalResult OpenCLEmitter::emitExecuteRegion(scf::ExecuteRegionOp op) {
  if (!op.getRegion().hasOneBlock())
    return op.emitOpError(
        "with more than one block cannot be translated to OpenCL C");
  FailureOr<SmallVector<std::string>> vars = declareResults(op);
  if (failed(vars))
    return failure();
  os << "{\n";
  os.indent();
  if (failed(emitBlock(op.getRegion().front(), [&](Operation *terminator) {
        return emitYieldTo(terminator, *vars);
      })))
    return failure();
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult OpenCLEmitter::emitLoad(memref::LoadOp op) {
  FailureOr<MemrefInfo *> info = memref(op, op.getMemRef());
  if (failed(info))
    return failure();
  std::string access = element(**info, op.getMemRef(), op.getIndices());
  if ((*info)->elementType.isInteger(1))
    access += " != 0";
  return declare(op.getResult(), access);
}

LogicalResult OpenCLEmitter::emitStore(memref::StoreOp op) {
  FailureOr<MemrefInfo *> info = memref(op, op.getMemRef());
  if (failed(info))
    return failure();
  if ((*info)->readonly)
    return op.emitOpError("writes a kernel argument marked vrir.readonly");
  std::string value = name(op.getValueToStore());
  if ((*info)->elementType.isInteger(1))
    value += " ? 1 : 0";
  os << element(**info, op.getMemRef(), op.getIndices()) << " = " << value
     << ";\n";
  return success();
}

LogicalResult OpenCLEmitter::emitVectorExtract(vector::ExtractOp op) {
  std::optional<int64_t> position;
  if (op.getDynamicPosition().empty() && op.getStaticPosition().size() == 1)
    position = op.getStaticPosition().front();
  if (!position || cType(op.getSource().getType()).empty())
    return op.emitOpError("other than of a constant lane of a vector of "
                          "numbers cannot be translated to OpenCL C");
  return declare(op.getResult(),
                 name(op.getSource()) + ".s" + llvm::utohexstr(*position));
}

LogicalResult OpenCLEmitter::emitFromElements(vector::FromElementsOp op) {
  std::string type = cType(op.getType());
  if (type.empty())
    return op.emitOpError("of type ")
           << op.getType() << " cannot be translated to OpenCL C";
  std::string value = "(" + type + ")(";
  for (auto [i, element] : llvm::enumerate(op.getElements()))
    value += (i ? ", " : "") + name(element);
  return declare(op.getResult(), value + ")");
}

LogicalResult OpenCLEmitter::emitAtomicRMW(memref::AtomicRMWOp op) {
  FailureOr<MemrefInfo *> info = memref(op, op.getMemref());
  if (failed(info))
    return failure();
  if ((*info)->readonly)
    return op.emitOpError("writes a kernel argument marked vrir.readonly");
  std::string access = element(**info, op.getMemref(), op.getIndices());
  Type type = (*info)->elementType;
  if ((*info)->space == AddrSpace::Private) {
    // Private memory is not shared: no atomicity needed.
    if (failed(declare(op.getResult(), access)))
      return failure();
    os << access << " = "
       << combine(op.getKind(), type, name(op.getResult()), name(op.getValue()))
       << ";\n";
    return success();
  }
  FailureOr<std::string> old =
      atomicOld(op, op.getKind(), **info, "&" + access, name(op.getValue()));
  if (failed(old))
    return failure();
  return declare(op.getResult(), *old);
}

LogicalResult
OpenCLEmitter::emitGenericAtomicRMW(memref::GenericAtomicRMWOp op) {
  FailureOr<MemrefInfo *> infoOr = memref(op, op.getMemref());
  if (failed(infoOr))
    return failure();
  MemrefInfo &info = **infoOr;
  if (info.readonly)
    return op.emitOpError("writes a kernel argument marked vrir.readonly");
  Type type = info.elementType;
  std::string access = element(info, op.getMemref(), op.getIndices());
  Block &body = op.getRegion().front();
  if (failed(declare(op.getResult(), "")))
    return failure();
  std::string result = name(op.getResult());

  if (info.space == AddrSpace::Private) {
    os << "{\n";
    os.indent();
    if (failed(declare(op.getCurrentValue(), access)))
      return failure();
    if (failed(emitBlock(body, [&](Operation *terminator) -> LogicalResult {
          auto yield = dyn_cast<memref::AtomicYieldOp>(terminator);
          if (!yield)
            return terminator->emitOpError("cannot be translated to OpenCL C");
          os << access << " = " << name(yield.getResult()) << ";\n";
          return success();
        })))
      return failure();
    os << result << " = " << name(op.getCurrentValue()) << ";\n";
    os.unindent();
    os << "}\n";
    return success();
  }

  unsigned width = intWidth(type);
  bool isInt = width == 32 || width == 64;
  if (!isInt && !type.isF32() && !type.isF64())
    return op.emitOpError("on ")
           << type
           << " elements cannot be translated to OpenCL C (only 32- and "
              "64-bit integers and floats)";
  bool is64 = width == 64 || type.isF64();
  needInt64Base |= is64;
  std::string bits = is64 ? "long" : "int";
  std::string as = addrSpaceName(info.space).str();
  std::string t = cType(type);
  std::string ptr = fresh(), old = fresh(), expected = fresh();
  os << "{\n";
  os.indent();
  os << "volatile " << as << " " << bits << " *" << ptr << " = (volatile " << as
     << " " << bits << " *)&" << access << ";\n";
  os << bits << " " << old << " = *" << ptr << ";\n";
  os << "for (;;) {\n";
  os.indent();
  os << bits << " " << expected << " = " << old << ";\n";
  if (failed(declare(op.getCurrentValue(),
                     isInt ? expected : "as_" + t + "(" + expected + ")")))
    return failure();
  if (failed(emitBlock(body, [&](Operation *terminator) -> LogicalResult {
        auto yield = dyn_cast<memref::AtomicYieldOp>(terminator);
        if (!yield)
          return terminator->emitOpError("cannot be translated to OpenCL C");
        std::string next = name(yield.getResult());
        if (!isInt)
          next = "as_" + bits + "(" + next + ")";
        os << old << " = " << (is64 ? "atom_cmpxchg" : "atomic_cmpxchg") << "("
           << ptr << ", " << expected << ", " << next << ");\n";
        return success();
      })))
    return failure();
  os << "if (" << old << " == " << expected << ") {\n";
  os << "  " << result << " = " << name(op.getCurrentValue()) << ";\n";
  os << "  break;\n";
  os << "}\n";
  os.unindent();
  os << "}\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult OpenCLEmitter::emitAlloca(memref::AllocaOp op) {
  MemRefType type = op.getType();
  std::string elem = memElementType(type.getElementType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      elem.empty() || !op.getDynamicSizes().empty())
    return op.emitOpError("of type ")
           << type << " cannot be translated to OpenCL C";
  MemrefInfo info;
  info.space = AddrSpace::Private;
  info.elementType = type.getElementType();
  info.shape.assign(type.getShape().begin(), type.getShape().end());
  std::string var = fresh(op.getResult());
  os << elem << " " << var << "[" << std::max<int64_t>(type.getNumElements(), 1)
     << "];\n";
  memrefs[op.getResult()] = std::move(info);
  return success();
}

LogicalResult OpenCLEmitter::emitBoundsError(LLVM::CallOp op) {
  std::optional<StringRef> callee = op.getCallee();
  if (!callee || *callee != vrir::kParallelBoundsErrorCallee ||
      op.getNumOperands() != 4 || op.getNumResults() != 0)
    return op.emitOpError("cannot be translated to OpenCL C");
  auto addr = op.getOperand(0).getDefiningOp<LLVM::AddressOfOp>();
  if (!addr)
    return op.emitOpError("site must be an llvm.mlir.addressof of a string "
                          "constant to be translated to OpenCL C");
  FailureOr<unsigned> site = siteNumber(addr);
  if (failed(site))
    return failure();
  for (Value operand : op.getOperands().drop_front())
    if (!isSupportedInt(operand.getType()))
      return op.emitOpError("operand of type ")
             << operand.getType() << " cannot be translated to OpenCL C";
  needInt64Base = true;
  addHelper("vrirh_report",
            "static void vrirh_report(__global long *err, long site, long "
            "dim, long index,\n"
            "                        long extent) {\n"
            "  if (atom_cmpxchg((volatile __global long *)err, 0L, 1L) == "
            "0L) {\n"
            "    err[1] = site;\n"
            "    err[2] = dim;\n"
            "    err[3] = index;\n"
            "    err[4] = extent;\n"
            "  }\n"
            "}\n");
  os << "vrirh_report(vrir_error, " << *site << ", " << name(op.getOperand(1))
     << ", " << name(op.getOperand(2)) << ", " << name(op.getOperand(3))
     << ");\n";
  return success();
}

LogicalResult OpenCLEmitter::emitAddressOf(LLVM::AddressOfOp op) {
  // Only the site operand of bounds-error calls, which name the site by
  // number.
  for (OpOperand &use : op->getUses()) {
    auto call = dyn_cast<LLVM::CallOp>(use.getOwner());
    if (!call || call.getCallee() != vrir::kParallelBoundsErrorCallee ||
        use.getOperandNumber() != 0)
      return op.emitOpError("used other than as the site of a call to @")
             << vrir::kParallelBoundsErrorCallee
             << " cannot be translated to OpenCL C";
  }
  return success();
}

template <typename OpTy>
static std::string dimensionCall(OpTy op, StringRef builtin) {
  return "(long)" + builtin.str() + "(" +
         std::to_string(static_cast<unsigned>(op.getDimension())) + ")";
}

LogicalResult OpenCLEmitter::emitOperation(Operation &op) {
  auto intOp = [&](StringRef kind) { return emitIntOp(&op, kind); };
  auto floatOp = [&](StringRef kind) { return emitFloatBinary(&op, kind); };
  // Arithmetic rounding modes other than the default are not expressible.
  if (auto mode = op.getAttrOfType<arith::RoundingModeAttr>("roundingmode"))
    if (mode.getValue() != arith::RoundingMode::to_nearest_even)
      return op.emitOpError(
          "with a rounding mode cannot be translated to OpenCL C");

  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      // arith
      .Case([&](arith::ConstantOp c) { return emitConstant(c, c.getValue()); })
      .Case([&](arith::AddIOp) { return intOp("add"); })
      .Case([&](arith::SubIOp) { return intOp("sub"); })
      .Case([&](arith::MulIOp) { return intOp("mul"); })
      .Case([&](arith::DivSIOp) { return intOp("divs"); })
      .Case([&](arith::DivUIOp) { return intOp("divu"); })
      .Case([&](arith::RemSIOp) { return intOp("rems"); })
      .Case([&](arith::RemUIOp) { return intOp("remu"); })
      .Case([&](arith::FloorDivSIOp) { return intOp("floordivs"); })
      .Case([&](arith::CeilDivSIOp) { return intOp("ceildivs"); })
      .Case([&](arith::CeilDivUIOp) { return intOp("ceildivu"); })
      .Case([&](arith::AndIOp) { return intOp("and"); })
      .Case([&](arith::OrIOp) { return intOp("or"); })
      .Case([&](arith::XOrIOp) { return intOp("xor"); })
      .Case([&](arith::ShLIOp) { return intOp("shl"); })
      .Case([&](arith::ShRSIOp) { return intOp("shrs"); })
      .Case([&](arith::ShRUIOp) { return intOp("shru"); })
      .Case([&](arith::MinSIOp) { return intOp("mins"); })
      .Case([&](arith::MaxSIOp) { return intOp("maxs"); })
      .Case([&](arith::MinUIOp) { return intOp("minu"); })
      .Case([&](arith::MaxUIOp) { return intOp("maxu"); })
      .Case([&](arith::AddFOp) { return floatOp("add"); })
      .Case([&](arith::SubFOp) { return floatOp("sub"); })
      .Case([&](arith::MulFOp) { return floatOp("mul"); })
      .Case([&](arith::DivFOp) { return floatOp("div"); })
      .Case([&](arith::RemFOp) { return floatOp("rem"); })
      .Case([&](arith::MinimumFOp) { return floatOp("minimum"); })
      .Case([&](arith::MaximumFOp) { return floatOp("maximum"); })
      .Case([&](arith::MinNumFOp) { return floatOp("minnum"); })
      .Case([&](arith::MaxNumFOp) { return floatOp("maxnum"); })
      .Case([&](arith::NegFOp n) -> LogicalResult {
        if (!isSupportedFloat(n.getType()))
          return n.emitOpError("on ")
                 << n.getType() << " cannot be translated to OpenCL C";
        return declare(n.getResult(), "-" + name(n.getOperand()));
      })
      .Case([&](arith::CmpIOp c) -> LogicalResult {
        if (!isSupportedInt(c.getLhs().getType()))
          return c.emitOpError("on ")
                 << c.getLhs().getType() << " cannot be translated to OpenCL C";
        return declare(c.getResult(),
                       intCmp(c.getPredicate(), c.getLhs(), c.getRhs()));
      })
      .Case([&](arith::CmpFOp c) -> LogicalResult {
        if (!isSupportedFloat(c.getLhs().getType()))
          return c.emitOpError("on ")
                 << c.getLhs().getType() << " cannot be translated to OpenCL C";
        return declare(
            c.getResult(),
            floatCmp(c.getPredicate(), name(c.getLhs()), name(c.getRhs())));
      })
      .Case([&](arith::SelectOp s) -> LogicalResult {
        if (!s.getCondition().getType().isInteger(1))
          return s.emitOpError("on vectors cannot be translated to OpenCL C");
        return declare(s.getResult(), name(s.getCondition()) + " ? " +
                                          name(s.getTrueValue()) + " : " +
                                          name(s.getFalseValue()));
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::FPToSIOp, arith::FPToUIOp, arith::ExtFOp, arith::TruncFOp,
            arith::BitcastOp>([&](Operation *cast) { return emitCast(cast); })
      // math
      .Case<math::AbsIOp, math::SqrtOp, math::RsqrtOp, math::ExpOp,
            math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op,
            math::Log10Op, math::Log1pOp, math::SinOp, math::CosOp, math::TanOp,
            math::AsinOp, math::AcosOp, math::AtanOp, math::Atan2Op,
            math::SinhOp, math::CoshOp, math::TanhOp, math::AsinhOp,
            math::AcoshOp, math::AtanhOp, math::PowFOp, math::FPowIOp,
            math::IPowIOp, math::AbsFOp, math::FloorOp, math::CeilOp,
            math::RoundOp, math::RoundEvenOp, math::TruncOp, math::FmaOp,
            math::CopySignOp, math::ErfOp, math::ErfcOp, math::CbrtOp,
            math::CountLeadingZerosOp, math::CountTrailingZerosOp,
            math::CtPopOp, math::IsNaNOp, math::IsInfOp, math::IsFiniteOp,
            math::IsNormalOp, math::SincosOp>(
          [&](Operation *m) { return emitMath(m); })
      // scf
      .Case([&](scf::ForOp f) { return emitFor(f); })
      .Case([&](scf::IfOp i) { return emitIf(i); })
      .Case([&](scf::WhileOp w) { return emitWhile(w); })
      .Case([&](scf::IndexSwitchOp s) { return emitIndexSwitch(s); })
      .Case([&](scf::ExecuteRegionOp e) { return emitExecuteRegion(e); })
      // memref
      .Case([&](memref::LoadOp l) { return emitLoad(l); })
      .Case([&](memref::StoreOp s) { return emitStore(s); })
      .Case([&](memref::AtomicRMWOp a) { return emitAtomicRMW(a); })
      .Case(
          [&](memref::GenericAtomicRMWOp a) { return emitGenericAtomicRMW(a); })
      .Case([&](memref::AllocaOp a) { return emitAlloca(a); })
      // vector
      .Case([&](vector::ExtractOp e) { return emitVectorExtract(e); })
      .Case([&](vector::FromElementsOp f) { return emitFromElements(f); })
      // gpu
      .Case([&](gpu::ThreadIdOp o) {
        return declare(o, dimensionCall(o, "get_local_id"));
      })
      .Case([&](gpu::BlockIdOp o) {
        return declare(o, dimensionCall(o, "get_group_id"));
      })
      .Case([&](gpu::BlockDimOp o) {
        return declare(o, dimensionCall(o, "get_local_size"));
      })
      .Case([&](gpu::GridDimOp o) {
        return declare(o, dimensionCall(o, "get_num_groups"));
      })
      .Case([&](gpu::GlobalIdOp o) {
        return declare(o, dimensionCall(o, "get_global_id"));
      })
      .Case([&](gpu::BarrierOp) {
        os << "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
        return success();
      })
      // ub, llvm
      .Case([&](ub::PoisonOp p) {
        // Any value refines poison.
        return declare(p.getResult(), "0");
      })
      .Case([&](LLVM::ConstantOp c) { return emitConstant(c, c.getValue()); })
      .Case([&](LLVM::CallOp c) { return emitBoundsError(c); })
      .Case([&](LLVM::AddressOfOp a) { return emitAddressOf(a); })
      .Default([&](Operation *other) -> LogicalResult {
        return other->emitOpError("cannot be translated to OpenCL C");
      });
}

LogicalResult OpenCLEmitter::emitKernel(gpu::GPUFuncOp func) {
  names.clear();
  memrefs.clear();
  nextId = 0;
  StringRef kernelName = func.getName();
  if (!isKernelName(kernelName))
    return func.emitOpError("name '")
           << kernelName << "' is not usable as an OpenCL C kernel name";
  if (!func.getBody().hasOneBlock())
    return func.emitOpError(
        "with more than one block cannot be translated to OpenCL C");

  SmallVector<std::string> params;
  SmallVector<std::string> boolArgs;
  unsigned numArgs = func.getFunctionType().getNumInputs();
  for (unsigned i = 0; i < numArgs; ++i) {
    BlockArgument arg = func.getArgument(i);
    Type type = arg.getType();
    std::string argName = "a" + std::to_string(i);
    names[arg] = argName;
    auto error = [&]() {
      return func.emitOpError("argument #")
             << i << " of type " << type
             << " cannot be passed to an OpenCL C kernel";
    };
    if (auto memrefType = dyn_cast<MemRefType>(type)) {
      auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(memrefType.getMemorySpace());
      bool globalSpace =
          !memrefType.getMemorySpace() ||
          (space && space.getValue() == gpu::AddressSpace::Global);
      std::string elem = memElementType(memrefType.getElementType());
      // The runtime passes buffers of numbers and scalar numbers only.
      if (memrefType.getRank() != 1 || !memrefType.getLayout().isIdentity() ||
          !globalSpace || elem.empty() ||
          isa<VectorType>(memrefType.getElementType()))
        return error();
      MemrefInfo info;
      info.space = AddrSpace::Global;
      info.elementType = memrefType.getElementType();
      info.shape.push_back(memrefType.getDimSize(0));
      info.readonly = static_cast<bool>(func.getArgAttr(i, "vrir.readonly"));
      bool noalias = static_cast<bool>(func.getArgAttr(i, "vrir.noalias"));
      params.push_back("__global " +
                       std::string(info.readonly ? "const " : "") + elem +
                       " *" + (noalias ? "restrict " : "") + argName);
      memrefs[arg] = std::move(info);
      continue;
    }
    std::string scalar = cType(type);
    if (scalar.empty() || isa<VectorType>(type))
      return error();
    if (type.isInteger(1)) {
      // bool is not a valid kernel argument type.
      params.push_back("uchar " + argName + "_");
      boolArgs.push_back(argName);
      continue;
    }
    params.push_back(scalar + " " + argName);
  }
  params.push_back("__global long *vrir_error");

  // The parameters, wrapped at 80 columns.
  std::string header = ("__kernel void " + kernelName + "(").str();
  size_t column = header.size(), align = header.size();
  for (auto [i, param] : llvm::enumerate(params)) {
    std::string piece = param + (i + 1 == params.size() ? ") {" : ",");
    if (i != 0) {
      if (column + 1 + piece.size() > 80) {
        header += "\n" + std::string(align, ' ');
        column = align;
      } else {
        header += " ";
        ++column;
      }
    }
    header += piece;
    column += piece.size();
  }
  os << header << "\n";
  os.indent();
  for (const std::string &arg : boolArgs)
    os << "bool " << arg << " = " << arg << "_ != 0;\n";

  auto declareArray = [&](BlockArgument arg, AddrSpace space, StringRef prefix,
                          unsigned index) -> LogicalResult {
    auto type = dyn_cast<MemRefType>(arg.getType());
    std::string elem = type ? memElementType(type.getElementType()) : "";
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        elem.empty())
      return func.emitOpError("attribution of type ")
             << arg.getType() << " cannot be translated to OpenCL C";
    MemrefInfo info;
    info.space = space;
    info.elementType = type.getElementType();
    info.shape.assign(type.getShape().begin(), type.getShape().end());
    std::string var = prefix.str() + std::to_string(index);
    names[arg] = var;
    memrefs[arg] = std::move(info);
    os << (space == AddrSpace::Local ? "__local " : "") << elem << " " << var
       << "[" << std::max<int64_t>(type.getNumElements(), 1) << "]";
    // Aligned to 16 bytes, consecutive aligned loads (a run of a tile's
    // row) can become one wide load: device compilers only raise the
    // alignment of private arrays themselves.
    if (space == AddrSpace::Local)
      os << " __attribute__((aligned(16)))";
    os << ";\n";
    return success();
  };
  for (auto [i, arg] : llvm::enumerate(func.getWorkgroupAttributions()))
    if (failed(declareArray(arg, AddrSpace::Local, "wg", i)))
      return failure();
  for (auto [i, arg] : llvm::enumerate(func.getPrivateAttributions()))
    if (failed(declareArray(arg, AddrSpace::Private, "pv", i)))
      return failure();

  if (failed(emitBlock(func.getBody().front(),
                       [&](Operation *terminator) -> LogicalResult {
                         // The end of the kernel: nothing to write.
                         if (!isa<gpu::ReturnOp>(terminator))
                           return terminator->emitOpError(
                               "cannot be translated to OpenCL C");
                         return success();
                       })))
    return failure();
  os.unindent();
  os << "}\n\n";
  return success();
}

LogicalResult OpenCLEmitter::emitModule(raw_ostream &out) {
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      // Device functions are not called by translatable kernels.
      if (func.isKernel() && failed(emitKernel(func)))
        return failure();
      continue;
    }
    if (isa<LLVM::GlobalOp, LLVM::LLVMFuncOp, func::FuncOp>(op) ||
        op.hasTrait<OpTrait::IsTerminator>())
      continue;
    return op.emitOpError("in a gpu.module cannot be translated to OpenCL C");
  }

  out << "// OpenCL C 1.2, translated from gpu.module @" << module.getName()
      << " by VRIR.\n";
  out << "#pragma OPENCL FP_CONTRACT OFF\n";
  if (needFp64)
    out << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  if (needFp16)
    out << "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  if (needInt64Base)
    out << "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n";
  if (needInt64Extended)
    out << "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n";
  out << "\n";
  for (const std::string &helperName : helperOrder)
    out << helpers[helperName] << "\n";
  os.flush();
  out << kernelText;
  return success();
}

} // namespace

LogicalResult
mlir::vrir::translateGPUModuleToOpenCLC(gpu::GPUModuleOp module,
                                        raw_ostream &os,
                                        SmallVectorImpl<std::string> &sites) {
  OpenCLEmitter emitter(module, sites);
  return emitter.emitModule(os);
}

void mlir::vrir::registerGPUToOpenCLCTranslation() {
  TranslateFromMLIRRegistration registration(
      "gpu-to-opencl-c",
      "translate the kernels of every gpu.module to OpenCL C",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        SmallVector<std::string> sites;
        WalkResult result = op->walk([&](gpu::GPUModuleOp module) {
          output << "// gpu.module @" << module.getName() << "\n";
          if (failed(translateGPUModuleToOpenCLC(module, output, sites)))
            return WalkResult::interrupt();
          return WalkResult::advance();
        });
        if (result.wasInterrupted())
          return failure();
        output << "// sites:\n";
        for (auto [i, site] : llvm::enumerate(sites)) {
          output << "//   " << i << ": \"";
          llvm::printEscapedString(site, output);
          output << "\"\n";
        }
        return success();
      },
      [](DialectRegistry &registry) {
        // The host code around the GPU modules, as the GPU pipeline
        // leaves it before the translation, parses too.
        registry.insert<
            affine::AffineDialect, arith::ArithDialect, cf::ControlFlowDialect,
            func::FuncDialect, gpu::GPUDialect, linalg::LinalgDialect,
            LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
            scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
      });
}

FailureOr<unsigned>
mlir::vrir::getBoundsSiteNumber(LLVM::AddressOfOp addr,
                                SmallVectorImpl<std::string> &sites) {
  StringRef globalName = addr.getGlobalName();
  Operation *symbol = nullptr;
  for (Operation *scope = addr->getParentOp(); scope && !symbol;
       scope = scope->getParentOp())
    if (scope->hasTrait<OpTrait::SymbolTable>())
      symbol = SymbolTable::lookupSymbolIn(scope, globalName);
  auto global = dyn_cast_or_null<LLVM::GlobalOp>(symbol);
  if (!global)
    return addr.emitOpError("refers to @")
           << globalName << ", which is not an llvm.mlir.global";
  auto text = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
  if (!text)
    return addr.emitOpError("refers to @")
           << globalName << ", which is not a string constant";
  StringRef site = text.getValue();
  if (site.ends_with(StringRef("\0", 1)))
    site = site.drop_back();
  auto it = llvm::find(sites, site);
  if (it != sites.end())
    return static_cast<unsigned>(it - sites.begin());
  sites.push_back(site.str());
  return static_cast<unsigned>(sites.size() - 1);
}
