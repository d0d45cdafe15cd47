//===- SExprExpressions.cpp - VRIR S-expressions: expressions -------------===//
//
// Expressions of thesis appendix A. Every expression carries its vtype;
// operands are converted to it (C conversion rules, `vrir.cast`), so that
// `(plus float64vtype (name int32) (realconst float64))` is well typed.
// Array results are new arrays and need a contiguous layout.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::sexpr;

StringRef mlir::vrir::sexpr::canonicalExprHead(StringRef head) {
  static constexpr StringLiteral heads[] = {
      "plus",      "minus",   "mult",    "div",      "lt",    "leq",
      "gt",        "geq",     "eq",      "neq",      "and",   "or",
      "not",       "name",    "fncall",  "fnhandle", "index", "domain",
      "realconst", "libcall", "alloc",   "dim",      "tuple", "tupleindex",
      "negate",    "cast",    "complex", "real",     "imag",  "dimvec"};
  if (head == "divide")
    return "div";
  StringRef base = head;
  if (base.consume_back("expr") && llvm::is_contained(heads, base))
    return base;
  return head;
}

ArrayRef<StringRef> Importer::getIndexAttributes() {
  static const StringRef attributes[] = {":arrayid", ":copyslice", ":flatten"};
  return attributes;
}

static bool isScalar(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    type = complex.getElementType();
  return type.isInteger(1) || type.isInteger(32) || type.isInteger(64) ||
         type.isF32() || type.isF64();
}

static bool isIntegerScalar(Type type) {
  return type.isInteger(32) || type.isInteger(64);
}

static bool isNumeric(Type type) {
  return isScalar(type) || isa<ArrayType>(type);
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::coerceSingle(const Node &at, Value value,
                                        Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  auto fromArray = dyn_cast<ArrayType>(from);
  auto toArray = dyn_cast<ArrayType>(type);
  if ((isScalar(from) && isScalar(type)) ||
      (fromArray && toArray && fromArray.getRank() == toArray.getRank()))
    return builder->cast(loc(at), value, type);
  return error(at, "expected a value of type " + typeName(type) + ", got " +
                       typeName(from));
}

FailureOr<SmallVector<Value, 1>>
Importer::coerce(const Node &at, const ExprValue &value, Type type) {
  if (value.type == type)
    return value.values;
  auto fromTuple = dyn_cast<TupleType>(value.type);
  auto toTuple = dyn_cast<TupleType>(type);
  if (isa<NoneType>(value.type) || isa<NoneType>(type) ||
      !fromTuple != !toTuple ||
      (fromTuple && fromTuple.size() != toTuple.size()))
    return error(at, "expected a value of type " + typeName(type) + ", got " +
                         typeName(value.type));
  SmallVector<Value, 1> converted;
  for (auto [position, component] : llvm::enumerate(value.values)) {
    FailureOr<Value> result =
        coerceSingle(at, component, toTuple ? toTuple.getType(position) : type);
    if (failed(result))
      return failure();
    converted.push_back(*result);
  }
  return converted;
}

Value Importer::convertElements(Location loc, Value value, Type element) {
  Type type = value.getType();
  if (getElementTypeOf(type) == element)
    return value;
  if (auto array = dyn_cast<ArrayType>(type))
    return builder->cast(loc, value,
                         ArrayType::get(context, element, array.getRank(),
                                        array.isContiguous()
                                            ? array.getLayout()
                                            : Layout::RowMajor));
  return builder->cast(loc, value, element);
}

/// Order of the real scalar types for promotion.
static int getPromotionRank(Type type) {
  if (type.isInteger(1))
    return 0;
  if (type.isInteger(32))
    return 1;
  if (type.isInteger(64))
    return 2;
  if (type.isF32())
    return 3;
  return 4;
}

Type Importer::promote(Type lhs, Type rhs) {
  if (lhs == rhs)
    return lhs;
  bool complex = isa<ComplexType>(lhs) || isa<ComplexType>(rhs);
  auto realPart = [](Type type) {
    if (auto c = dyn_cast<ComplexType>(type))
      return c.getElementType();
    return type;
  };
  Type a = realPart(lhs), b = realPart(rhs);
  Type real = getPromotionRank(a) >= getPromotionRank(b) ? a : b;
  // As in NumPy, an integer meets a float in float64.
  if ((isa<FloatType>(a) && b.isSignlessInteger() && !b.isInteger(1)) ||
      (isa<FloatType>(b) && a.isSignlessInteger() && !a.isInteger(1)))
    real = Float64Type::get(lhs.getContext());
  if (complex && real.isInteger(1))
    real = IntegerType::get(lhs.getContext(), 32);
  return complex ? Type(ComplexType::get(real)) : real;
}

Value Importer::constant(Location loc, Type type, double value) {
  OpBuilder &b = builder->getBuilder();
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type part = complex.getElementType();
    auto attr = [&](double v) -> Attribute {
      if (isa<FloatType>(part))
        return b.getFloatAttr(part, v);
      return b.getIntegerAttr(part, static_cast<int64_t>(v));
    };
    return complex::ConstantOp::create(b, loc, complex,
                                       b.getArrayAttr({attr(value), attr(0)}));
  }
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  if (type.isIndex())
    return builder->constantIndex(loc, static_cast<int64_t>(value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::importOperand(const Node &node) {
  FailureOr<ExprValue> value = importExpr(node);
  if (failed(value))
    return failure();
  if (!isNumeric(value->type))
    return error(node,
                 "expected a scalar or an array, got " + typeName(value->type));
  return value->values.front();
}

FailureOr<Type> Importer::getExprType(const Form &form, unsigned position) {
  if (form.children.size() <= position)
    return error(*form.node, "expected the vtype of '" + form.head + "'");
  const Node &node = *form.children[position];
  if (!isTypeNode(node))
    return error(node, "expected the vtype of '" + form.head + "', got " +
                           describe(node));
  return parseType(*form.children[position]);
}

FailureOr<ExprValue> Importer::importExpr(const Node &node) {
  RuleScope rule(*this, "expr");
  StringRef head = canonicalExprHead(node.head());
  if (head.empty())
    return error(node, "expected an expression, got " + describe(node));

  struct ExprRule {
    StringRef head, rule;
    ArrayRef<StringRef> attributes;
  };
  static const StringRef id[] = {":id"};
  static const StringRef fnname[] = {":fnname"};
  static const StringRef libfunc[] = {":libfunc"};
  static const StringRef func[] = {":func"};
  static const StringRef dim[] = {":arrayid", ":dimid"};
  static const StringRef tupleindex[] = {":index", ":tupleid"};
  static const StringRef realconst[] = {":ival", ":dval"};
  static const ExprRule rules[] = {{"plus", "plus", {}},
                                   {"minus", "minus", {}},
                                   {"mult", "mult", {}},
                                   {"div", "divide", {}},
                                   {"lt", "lt", {}},
                                   {"leq", "leq", {}},
                                   {"gt", "gt", {}},
                                   {"geq", "geq", {}},
                                   {"eq", "eq", {}},
                                   {"neq", "neq", {}},
                                   {"and", "andexpr", {}},
                                   {"or", "orexpr", {}},
                                   {"not", "notexpr", {}},
                                   {"negate", "negate", {}},
                                   {"name", "name", id},
                                   {"fncall", "fncall", fnname},
                                   {"fnhandle", "fnhandle", fnname},
                                   {"index", "indexexpr", getIndexAttributes()},
                                   {"domain", "domain", {}},
                                   {"realconst", "realconst", realconst},
                                   {"libcall", "libcall", libfunc},
                                   {"alloc", "alloc", func},
                                   {"dim", "dim", dim},
                                   {"tuple", "tuple", {}},
                                   {"tupleindex", "tupleindex", tupleindex},
                                   {"cast", "cast", {}},
                                   {"complex", "complexexpr", {}},
                                   {"real", "realexpr", id},
                                   {"imag", "imagexpr", id},
                                   {"dimvec", "dimvec", id}};
  const ExprRule *match = llvm::find_if(
      rules, [&](const ExprRule &candidate) { return candidate.head == head; });
  if (match == std::end(rules))
    return error(node, "unknown expression '" + node.head() + "'");
  RuleScope exprRule(*this, match->rule);
  FailureOr<Form> form = parseForm(node, node.head(), match->attributes);
  if (failed(form))
    return failure();

  if (llvm::is_contained({"plus", "minus", "mult", "div", "lt", "leq", "gt",
                          "geq", "eq", "neq", "and", "or"},
                         head))
    return importBinary(*form, head);
  if (head == "not")
    return importUnaryOperator(*form, UnaryFn::Not);
  if (head == "negate")
    return importUnaryOperator(*form, UnaryFn::Neg);
  if (head == "name")
    return importName(*form);
  if (head == "fncall")
    return importCall(*form);
  if (head == "fnhandle")
    return importHandle(*form);
  if (head == "index")
    return importIndexRead(*form);
  if (head == "domain")
    return importDomain(*form);
  if (head == "realconst")
    return importConstant(*form);
  if (head == "libcall")
    return importLibCall(*form);
  if (head == "alloc")
    return importAlloc(*form);
  if (head == "dim")
    return importDim(*form);
  if (head == "tuple")
    return importTuple(*form);
  if (head == "tupleindex")
    return importTupleIndex(*form);
  if (head == "cast")
    return importCast(*form);
  if (head == "complex")
    return importComplex(*form);
  if (head == "real")
    return importComplexPart(*form, UnaryFn::Real);
  if (head == "imag")
    return importComplexPart(*form, UnaryFn::Imag);
  return importDimVec(*form);
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

/// Checks the vtype of an element-wise operator against its operands: a
/// scalar for scalar operands, else a contiguous array of their largest rank.
static LogicalResult
checkElementwiseType(Type type, ArrayRef<Value> operands,
                     function_ref<LogicalResult(const Twine &)> error,
                     const std::string &typeText) {
  unsigned rank = 0;
  for (Value operand : operands)
    rank = std::max(rank, getRankOf(operand.getType()));
  auto array = dyn_cast<ArrayType>(type);
  if (!isNumeric(type))
    return error("the vtype must be a scalar or an array type, got " +
                 typeText);
  if (getRankOf(type) != rank || (rank > 0) != static_cast<bool>(array))
    return error("the operands have rank " + Twine(rank) + " but the vtype " +
                 typeText + " has rank " + Twine(getRankOf(type)));
  if (array && !array.isContiguous())
    return error("the result is a new array, so its vtype " + typeText +
                 " cannot have strided layout");
  return success();
}

FailureOr<ExprValue> Importer::importBinary(const Form &form, StringRef kind) {
  if (form.children.size() != 3)
    return error(*form.node,
                 "expected '(" + form.head + " vtype (lhs expr) (rhs expr))'");
  FailureOr<Type> type = getExprType(form, 0);
  FailureOr<const Node *> lhsNode, rhsNode;
  if (failed(type) || failed(lhsNode = unwrap(*form.children[1], "lhs")) ||
      failed(rhsNode = unwrap(*form.children[2], "rhs")))
    return failure();
  FailureOr<Value> lhs = importOperand(**lhsNode);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = importOperand(**rhsNode);
  if (failed(rhs))
    return failure();
  auto fail = [&](const Twine &message) { return error(*form.node, message); };
  if (failed(checkElementwiseType(*type, {*lhs, *rhs}, fail, typeName(*type))))
    return failure();
  Location here = loc(*form.node);
  Type element = getElementTypeOf(*type);

  std::optional<CmpPredicate> predicate =
      llvm::StringSwitch<std::optional<CmpPredicate>>(kind)
          .Case("lt", CmpPredicate::LT)
          .Case("leq", CmpPredicate::LE)
          .Case("gt", CmpPredicate::GT)
          .Case("geq", CmpPredicate::GE)
          .Case("eq", CmpPredicate::EQ)
          .Case("neq", CmpPredicate::NE)
          .Default(std::nullopt);
  if (predicate) {
    if (!element.isInteger(1))
      return fail("a comparison gives bool values; its vtype must be bool or "
                  "an array of bool, got " +
                  typeName(*type));
    Type common = promote(getElementTypeOf(lhs->getType()),
                          getElementTypeOf(rhs->getType()));
    if (isa<ComplexType>(common) && *predicate != CmpPredicate::EQ &&
        *predicate != CmpPredicate::NE)
      return fail("complex values are only compared by eq and neq");
    Value result =
        builder->compare(here, *predicate, convertElements(here, *lhs, common),
                         convertElements(here, *rhs, common), *type);
    return ExprValue{*type, {result}};
  }

  BinaryFn fn = llvm::StringSwitch<BinaryFn>(kind)
                    .Case("plus", BinaryFn::Add)
                    .Case("minus", BinaryFn::Sub)
                    .Case("mult", BinaryFn::Mul)
                    .Case("div", BinaryFn::Div)
                    .Case("and", BinaryFn::And)
                    .Default(BinaryFn::Or);
  bool logical = fn == BinaryFn::And || fn == BinaryFn::Or;
  if (logical && !element.isSignlessInteger())
    return fail("'" + form.head + "' needs a bool or integer vtype, got " +
                typeName(*type));
  if (!logical && element.isInteger(1))
    return fail("arithmetic needs a numeric vtype, got " + typeName(*type));
  Value result = builder->binary(here, fn, convertElements(here, *lhs, element),
                                 convertElements(here, *rhs, element), *type);
  return ExprValue{*type, {result}};
}

FailureOr<ExprValue> Importer::importUnaryOperator(const Form &form,
                                                   UnaryFn fn) {
  if (form.children.size() != 2)
    return error(*form.node, "expected '(" + form.head + " vtype expr)'");
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  FailureOr<Value> operand = importOperand(*form.children[1]);
  if (failed(operand))
    return failure();
  auto fail = [&](const Twine &message) { return error(*form.node, message); };
  if (failed(checkElementwiseType(*type, {*operand}, fail, typeName(*type))))
    return failure();
  Type element = getElementTypeOf(*type);
  if (fn == UnaryFn::Not && !element.isSignlessInteger())
    return fail("'not' needs a bool or integer vtype, got " + typeName(*type));
  if (fn == UnaryFn::Neg && element.isInteger(1))
    return fail("'negate' needs a numeric vtype, got " + typeName(*type));
  Location here = loc(*form.node);
  Value result =
      builder->unary(here, fn, convertElements(here, *operand, element), *type);
  return ExprValue{*type, {result}};
}

//===----------------------------------------------------------------------===//
// Names, constants, calls
//===----------------------------------------------------------------------===//

FailureOr<Symbol *> Importer::importNameSymbol(const Form &form) {
  FailureOr<std::optional<int64_t>> idAttr = getOptionalInt(form, ":id");
  if (failed(idAttr))
    return failure();
  std::optional<int64_t> id = *idAttr;
  const Node *typeNode = nullptr;
  for (const Node *child : form.children) {
    if (child->kind == Node::Kind::Integer && !id)
      id = child->intValue;
    else if (isTypeNode(*child) && !typeNode)
      typeNode = child;
    else
      return error(*child, "unexpected " + describe(*child));
  }
  if (!id)
    return error(*form.node,
                 "missing the attribute ':id' of '" + form.head + "'");
  FailureOr<Symbol *> symbol = lookupSymbol(*form.node, *id);
  if (failed(symbol))
    return failure();
  if (typeNode) {
    FailureOr<Type> type = parseType(*typeNode);
    if (failed(type))
      return failure();
    if (*type != (*symbol)->type)
      return error(*typeNode, "the symbol " + Twine(*id) + " ('" +
                                  (*symbol)->name + "') has type " +
                                  typeName((*symbol)->type) +
                                  " in the symbol table, but " +
                                  typeName(*type) + " here");
  }
  return symbol;
}

FailureOr<ExprValue> Importer::importName(const Form &form) {
  FailureOr<Symbol *> symbol = importNameSymbol(form);
  if (failed(symbol))
    return failure();
  ExprValue value{(*symbol)->type, {}};
  for (Variable var : (*symbol)->vars)
    value.values.push_back(builder->read(loc(*form.node), var));
  return value;
}

FailureOr<ExprValue> Importer::importConstant(const Form &form) {
  const Node *ival = form.attribute(":ival");
  const Node *dval = form.attribute(":dval");
  const Node *typeNode = nullptr;
  const Node *literal = ival ? ival : dval;
  for (const Node *child : form.children) {
    bool isNumber =
        child->kind == Node::Kind::Integer || child->kind == Node::Kind::Float;
    if (isNumber && !literal)
      literal = child;
    else if (isTypeNode(*child) && !typeNode)
      typeNode = child;
    else
      return error(*child, "unexpected " + describe(*child));
  }
  if ((ival && dval) || !literal)
    return error(*form.node, "a realconst has one ':ival' or ':dval'");
  if (!typeNode)
    return error(*form.node, "expected the vtype of 'realconst'");
  if (ival && ival->kind != Node::Kind::Integer)
    return error(*ival, "the attribute ':ival' expects an integer, got " +
                            describe(*ival));
  if (literal->kind != Node::Kind::Integer &&
      literal->kind != Node::Kind::Float)
    return error(*literal, "the attribute ':dval' expects a number, got " +
                               describe(*literal));
  FailureOr<Type> type = parseType(*typeNode);
  if (failed(type))
    return failure();
  if (!isScalar(*type))
    return error(*typeNode, "a realconst is a scalar, got " + typeName(*type));
  bool isInteger = literal->kind == Node::Kind::Integer;
  Location here = loc(*form.node);
  OpBuilder &b = builder->getBuilder();
  Type part = getElementTypeOf(*type);
  if (auto complex = dyn_cast<ComplexType>(*type))
    part = complex.getElementType();
  Value result;
  if (part.isSignlessInteger() && !part.isInteger(1)) {
    if (!isInteger)
      return error(*literal, "the integer vtype " + typeName(*type) +
                                 " needs an integer value, got " +
                                 describe(*literal));
    if (!llvm::isIntN(part.getIntOrFloatBitWidth(), literal->intValue))
      return error(*literal, "the constant " + Twine(literal->intValue) +
                                 " does not fit in " + typeName(part));
  }
  double number =
      isInteger ? static_cast<double>(literal->intValue) : literal->floatValue;
  if (part.isSignlessInteger() && !isa<ComplexType>(*type))
    result = arith::ConstantOp::create(
        b, here,
        b.getIntegerAttr(part, part.isInteger(1)
                                   ? static_cast<int64_t>(number != 0)
                                   : literal->intValue));
  else
    result = constant(here, *type, number);
  return ExprValue{*type, {result}};
}

/// Splits a value into one single-valued part per component.
static SmallVector<ExprValue> getParts(const ExprValue &value) {
  SmallVector<ExprValue> parts;
  auto tuple = dyn_cast<TupleType>(value.type);
  for (auto [position, component] : llvm::enumerate(value.values))
    parts.push_back(
        {tuple ? tuple.getType(position) : value.type, {component}});
  return parts;
}

FailureOr<ExprValue> Importer::importCall(const Form &form) {
  FailureOr<std::optional<std::string>> name = getOptionalName(form, ":fnname");
  if (failed(name))
    return failure();
  if (!*name)
    return error(*form.node, "missing the attribute ':fnname' of 'fncall'");
  const Node *typeNode = nullptr;
  const Node *argsNode = nullptr;
  for (const Node *child : form.children) {
    if (isTypeNode(*child) && !typeNode)
      typeNode = child;
    else if (child->head() == "args" && !argsNode)
      argsNode = child;
    else
      return error(*child, "unexpected " + describe(*child));
  }
  std::optional<Type> type;
  if (typeNode) {
    FailureOr<Type> parsed = parseType(*typeNode);
    if (failed(parsed))
      return failure();
    type = *parsed;
  }
  ArrayRef<Node> argNodes;
  if (argsNode)
    argNodes = ArrayRef<Node>(argsNode->items).drop_front();
  FailureOr<SmallVector<ExprValue>> argValues = importExprList(argsNode);
  if (failed(argValues))
    return failure();
  SmallVector<ExprValue> &args = *argValues;
  Location here = loc(*form.node);
  OpBuilder &b = builder->getBuilder();

  // Name lookup (thesis 4.1.2): a local function handle, a function of the
  // module, the standard library.
  Value callee;
  FunctionType calleeType;
  func::FuncOp target;
  for (auto &[id, symbol] : symbols) {
    if (symbol.name == **name && isa<FunctionType>(symbol.type)) {
      callee = builder->read(here, symbol.vars.front());
      calleeType = cast<FunctionType>(symbol.type);
      break;
    }
  }
  if (!callee) {
    auto it = functions.find(**name);
    if (it == functions.end()) {
      if (!type)
        return error(*form.node, "unknown function '" + **name + "'");
      return callLibrary(*form.node, **name, *type, args);
    }
    target = it->second.op;
    calleeType = target.getFunctionType();
  }
  // Tuple arguments pass their components.
  SmallVector<Value> operands;
  SmallVector<std::pair<ExprValue, const Node *>> parts;
  for (auto [value, node] : llvm::zip(args, argNodes))
    for (ExprValue &part : getParts(value))
      parts.push_back({part, &node});
  if (parts.size() != calleeType.getNumInputs())
    return error(*form.node, "the function '" + **name + "' has " +
                                 Twine(calleeType.getNumInputs()) +
                                 " parameter(s), but the call gives " +
                                 Twine(parts.size()));
  for (auto [part, input] : llvm::zip(parts, calleeType.getInputs())) {
    FailureOr<Value> operand =
        coerceSingle(*part.second, part.first.values.front(), input);
    if (failed(operand))
      return failure();
    operands.push_back(*operand);
  }
  ValueRange results =
      target ? func::CallOp::create(b, here, target, operands).getResults()
             : func::CallIndirectOp::create(b, here, callee, operands)
                   .getResults();
  Type resultType = makeResultType(calleeType.getResults());
  if (type && *type != resultType)
    return error(*typeNode, "the function '" + **name + "' returns " +
                                typeName(resultType) +
                                ", but the vtype of the call is " +
                                typeName(*type));
  return ExprValue{resultType, llvm::to_vector<1>(results)};
}

FailureOr<ExprValue> Importer::importHandle(const Form &form) {
  FailureOr<std::optional<std::string>> name = getOptionalName(form, ":fnname");
  if (failed(name))
    return failure();
  if (!*name)
    return error(*form.node, "missing the attribute ':fnname' of 'fnhandle'");
  auto it = functions.find(**name);
  if (it == functions.end())
    return error(*form.node, "'" + **name +
                                 "' is not a function of this module; "
                                 "handles name module functions");
  FunctionType type = it->second.op.getFunctionType();
  if (form.children.size() > 1)
    return error(*form.children[1],
                 "unexpected " + describe(*form.children[1]));
  if (!form.children.empty()) {
    FailureOr<Type> declared = getExprType(form, 0);
    if (failed(declared))
      return failure();
    if (*declared != type)
      return error(*form.children.front(),
                   "the function '" + **name + "' has type " + typeName(type) +
                       ", but the vtype of the handle is " +
                       typeName(*declared));
  }
  Value handle =
      func::ConstantOp::create(builder->getBuilder(), loc(*form.node), type,
                               FlatSymbolRefAttr::get(context, **name));
  return ExprValue{type, {handle}};
}

//===----------------------------------------------------------------------===//
// Domains, allocation, shapes
//===----------------------------------------------------------------------===//

LogicalResult Importer::checkDomainType(const Form &form) {
  if (form.children.size() < 2 || !isTypeNode(*form.children.front()))
    return error(*form.node, "expected '(domain domaintype range+)'");
  FailureOr<Type> type = parseType(*form.children.front());
  if (failed(type))
    return failure();
  auto domain = dyn_cast<DomainType>(*type);
  if (!domain)
    return error(*form.children.front(),
                 "expected a domaintype, got " + typeName(*type));
  if (domain.getRank() != form.children.size() - 1)
    return error(*form.node, "the domaintype has " + Twine(domain.getRank()) +
                                 " dimensions but " +
                                 Twine(form.children.size() - 1) +
                                 " ranges are given");
  return success();
}

FailureOr<ExprValue> Importer::importDomain(const Form &form) {
  if (failed(checkDomainType(form)))
    return failure();
  SmallVector<Value> ranges;
  for (const Node *node : ArrayRef<const Node *>(form.children).drop_front()) {
    FailureOr<LoopBounds> bounds = importLoopRange(*node);
    if (failed(bounds))
      return failure();
    ranges.push_back(builder->range(loc(*node), bounds->start, bounds->stop,
                                    bounds->step, bounds->exclusive));
  }
  Value domain = builder->domain(loc(*form.node), ranges);
  return ExprValue{domain.getType(), {domain}};
}

FailureOr<ExprValue> Importer::importAlloc(const Form &form) {
  FailureOr<std::optional<std::string>> kind = getOptionalName(form, ":func");
  if (failed(kind))
    return failure();
  if (!*kind ||
      !llvm::is_contained({"zeros", "ones", "empty"}, StringRef(**kind)))
    return error(*form.node, "':func' of 'alloc' is zeros, ones or empty");
  const Node *argsNode = form.child("args");
  if (form.children.size() != 2 || !argsNode)
    return error(*form.node, "expected '(alloc :func zeros vtype (args "
                             "expr+))'");
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  FailureOr<SmallVector<ExprValue>> sizes = importExprList(argsNode);
  if (failed(sizes))
    return failure();
  return allocate(*form.node, **kind, *type, *sizes);
}

FailureOr<ExprValue> Importer::allocate(const Node &at, StringRef kind,
                                        Type type, ArrayRef<ExprValue> sizes) {
  auto array = dyn_cast<ArrayType>(type);
  if (!array || !array.isContiguous())
    return error(at, "'" + kind +
                         "' creates an array of rowmajor or colmajor layout, "
                         "but the vtype is " +
                         typeName(type));
  // zeros(n) of a matrix is n-by-n, as in MATLAB.
  if (sizes.size() != array.getRank() &&
      !(sizes.size() == 1 && array.getRank() > 1))
    return error(at, "an array of rank " + Twine(array.getRank()) +
                         " needs one size per dimension, got " +
                         Twine(sizes.size()));
  SmallVector<Value> indices;
  for (const ExprValue &size : sizes) {
    if (!isIntegerScalar(size.type))
      return error(at,
                   "an array size is an integer, got " + typeName(size.type));
    indices.push_back(builder->toIndex(loc(at), size.values.front()));
  }
  indices.resize(array.getRank(), indices.empty() ? Value() : indices.front());
  OpBuilder &b = builder->getBuilder();
  Location here = loc(at);
  Value result;
  if (kind == "zeros")
    result = ZerosOp::create(b, here, array, indices);
  else if (kind == "ones")
    result = OnesOp::create(b, here, array, indices);
  else
    result = EmptyOp::create(b, here, array, indices);
  return ExprValue{type, {result}};
}

FailureOr<Symbol *> Importer::arraySymbol(const Form &form, StringRef key) {
  FailureOr<int64_t> id = getInt(form, key);
  if (failed(id))
    return failure();
  FailureOr<Symbol *> symbol = lookupSymbol(*form.attribute(key), *id);
  if (failed(symbol))
    return failure();
  if (!isa<ArrayType>((*symbol)->type))
    return error(*form.attribute(key), "the symbol " + Twine(*id) + " ('" +
                                           (*symbol)->name +
                                           "') is not an array, it has type " +
                                           typeName((*symbol)->type));
  return symbol;
}

FailureOr<unsigned> Importer::getDimension(const Form &form, StringRef key,
                                           unsigned rank) {
  FailureOr<int64_t> number = getInt(form, key);
  if (failed(number))
    return failure();
  int64_t dimension = *number - semantics.indexBase;
  if (dimension < 0 || dimension >= rank)
    return error(*form.attribute(key),
                 "'" + key + "' " + Twine(*number) +
                     " is out of range for an array of rank " + Twine(rank) +
                     " (dimensions are numbered from the module's index "
                     "base, " +
                     Twine(semantics.indexBase) + ")");
  return static_cast<unsigned>(dimension);
}

/// The size of dimension `dimension` of `array` as a value of `type`.
static Value getSize(OpBuilder &b, Location loc, Value array,
                     unsigned dimension, Type type) {
  Value size = DimOp::create(b, loc, array, dimension);
  if (type.isIndex())
    return size;
  return arith::IndexCastOp::create(b, loc, type, size);
}

FailureOr<ExprValue> Importer::importDim(const Form &form) {
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  if (form.children.size() != 1)
    return error(*form.children[1],
                 "unexpected " + describe(*form.children[1]));
  if (!isIntegerScalar(*type))
    return error(*form.children.front(),
                 "a size is an int32 or int64, got " + typeName(*type));
  FailureOr<Symbol *> symbol = arraySymbol(form, ":arrayid");
  if (failed(symbol))
    return failure();
  auto arrayType = cast<ArrayType>((*symbol)->type);
  FailureOr<unsigned> dimension =
      getDimension(form, ":dimid", arrayType.getRank());
  if (failed(dimension))
    return failure();
  Location here = loc(*form.node);
  Value array = builder->read(here, (*symbol)->vars.front());
  return ExprValue{
      *type, {getSize(builder->getBuilder(), here, array, *dimension, *type)}};
}

FailureOr<ExprValue> Importer::importDimVec(const Form &form) {
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  FailureOr<Symbol *> symbol = arraySymbol(form, ":id");
  if (failed(symbol))
    return failure();
  unsigned rank = cast<ArrayType>((*symbol)->type).getRank();
  Location here = loc(*form.node);
  OpBuilder &b = builder->getBuilder();
  Value array = builder->read(here, (*symbol)->vars.front());
  // A tuple of the sizes, or a one-dimensional integer array of them.
  if (auto tuple = dyn_cast<TupleType>(*type)) {
    if (tuple.size() != rank ||
        !llvm::all_of(tuple.getTypes(), isIntegerScalar))
      return error(*form.children.front(), "the dimvec of an array of rank " +
                                               Twine(rank) + " is a tuple of " +
                                               Twine(rank) + " integers, not " +
                                               typeName(*type));
    ExprValue value{*type, {}};
    for (auto [dimension, part] : llvm::enumerate(tuple.getTypes()))
      value.values.push_back(getSize(b, here, array, dimension, part));
    return value;
  }
  auto vector = dyn_cast<ArrayType>(*type);
  if (!vector || vector.getRank() != 1 || !vector.isContiguous() ||
      !isIntegerScalar(vector.getElementType()))
    return error(*form.children.front(),
                 "the vtype of a dimvec is a tupletype of integers or a "
                 "one-dimensional integer array, got " +
                     typeName(*type));
  Value sizes = EmptyOp::create(b, here, vector,
                                ValueRange{builder->constantIndex(here, rank)});
  auto unchecked =
      b.getArrayAttr({IndexFlagsAttr::get(context, IndexFlags::None)});
  for (unsigned dimension = 0; dimension < rank; ++dimension) {
    Value position =
        builder->constantIndex(here, dimension + semantics.indexBase);
    StoreOp::create(b, here, Type(),
                    getSize(b, here, array, dimension, vector.getElementType()),
                    sizes, ValueRange{position}, unchecked);
  }
  return ExprValue{*type, {sizes}};
}

//===----------------------------------------------------------------------===//
// Tuples, casts, complex numbers
//===----------------------------------------------------------------------===//

FailureOr<ExprValue> Importer::importTuple(const Form &form) {
  const Node *elements =
      form.child("elems") ? form.child("elems") : form.child("elms");
  if (form.children.size() != 2 || !elements)
    return error(*form.node, "expected '(tuple vtype (elems expr+))'");
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  auto tuple = dyn_cast<TupleType>(*type);
  ArrayRef<Node> items = ArrayRef<Node>(elements->items).drop_front();
  if (!tuple || tuple.size() != items.size())
    return error(*form.children.front(),
                 "a tuple of " + Twine(items.size()) +
                     " elements has a tupletype of as many components, got " +
                     typeName(*type));
  ExprValue value{*type, {}};
  for (auto [item, component] : llvm::zip(items, tuple.getTypes())) {
    FailureOr<Value> element = importOperand(item);
    if (failed(element))
      return failure();
    FailureOr<Value> converted = coerceSingle(item, *element, component);
    if (failed(converted))
      return failure();
    value.values.push_back(*converted);
  }
  return value;
}

FailureOr<std::pair<Symbol *, unsigned>>
Importer::importTupleComponent(const Form &form) {
  FailureOr<int64_t> id = getInt(form, ":tupleid");
  FailureOr<int64_t> index =
      succeeded(id) ? getInt(form, ":index") : FailureOr<int64_t>();
  if (failed(id) || failed(index))
    return failure();
  FailureOr<Symbol *> symbol = lookupSymbol(*form.attribute(":tupleid"), *id);
  if (failed(symbol))
    return failure();
  auto tuple = dyn_cast<TupleType>((*symbol)->type);
  if (!tuple)
    return error(*form.attribute(":tupleid"), "the symbol " + Twine(*id) +
                                                  " ('" + (*symbol)->name +
                                                  "') is not a tuple");
  // Tuple components are numbered from the module's index base.
  int64_t position = *index - semantics.indexBase;
  if (position < 0 || position >= static_cast<int64_t>(tuple.size()))
    return error(*form.attribute(":index"), "':index' " + Twine(*index) +
                                                " is out of range for a tuple "
                                                "of " +
                                                Twine(tuple.size()) +
                                                " components");
  return std::make_pair(*symbol, static_cast<unsigned>(position));
}

FailureOr<ExprValue> Importer::importTupleIndex(const Form &form) {
  FailureOr<std::pair<Symbol *, unsigned>> component =
      importTupleComponent(form);
  if (failed(component))
    return failure();
  auto [symbol, position] = *component;
  Type type = cast<TupleType>(symbol->type).getType(position);
  Value value = builder->read(loc(*form.node), symbol->vars[position]);
  if (form.children.empty())
    return ExprValue{type, {value}};
  FailureOr<Type> declared = getExprType(form, 0);
  if (failed(declared))
    return failure();
  FailureOr<Value> converted = coerceSingle(*form.node, value, *declared);
  if (failed(converted))
    return failure();
  return ExprValue{*declared, {*converted}};
}

FailureOr<ExprValue> Importer::importCast(const Form &form) {
  if (form.children.size() != 2)
    return error(*form.node, "expected '(cast vtype expr)'");
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  FailureOr<Value> operand = importOperand(*form.children[1]);
  if (failed(operand))
    return failure();
  FailureOr<Value> converted = coerceSingle(*form.node, *operand, *type);
  if (failed(converted))
    return failure();
  return ExprValue{*type, {*converted}};
}

FailureOr<ExprValue> Importer::importComplex(const Form &form) {
  if (form.children.size() != 3)
    return error(*form.node, "expected '(complex vtype expr expr)'");
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  FailureOr<Value> real = importOperand(*form.children[1]);
  if (failed(real))
    return failure();
  FailureOr<Value> imag = importOperand(*form.children[2]);
  if (failed(imag))
    return failure();
  auto fail = [&](const Twine &message) { return error(*form.node, message); };
  auto complex = dyn_cast<ComplexType>(getElementTypeOf(*type));
  if (!complex)
    return fail("the vtype of a complexexpr is complex, got " +
                typeName(*type));
  if (failed(
          checkElementwiseType(*type, {*real, *imag}, fail, typeName(*type))))
    return failure();
  Location here = loc(*form.node);
  Type part = complex.getElementType();
  if (!isa<ArrayType>(*type) && isa<FloatType>(part)) {
    Value result = complex::CreateOp::create(
        builder->getBuilder(), here, complex,
        convertElements(here, *real, part), convertElements(here, *imag, part));
    return ExprValue{*type, {result}};
  }
  // Arrays and integer complex numbers: re + im * i.
  Value i = complex::ConstantOp::create(
      builder->getBuilder(), here, complex,
      builder->getBuilder().getArrayAttr(
          {isa<FloatType>(part) ? Attribute(FloatAttr::get(part, 0))
                                : IntegerAttr::get(part, 0),
           isa<FloatType>(part) ? Attribute(FloatAttr::get(part, 1))
                                : IntegerAttr::get(part, 1)}));
  Value realPart = convertElements(here, *real, complex);
  Value imagPart = convertElements(here, *imag, complex);
  Type imagType = imagPart.getType();
  Value scaled = builder->binary(here, BinaryFn::Mul, imagPart, i, imagType);
  Value result = builder->binary(here, BinaryFn::Add, realPart, scaled, *type);
  return ExprValue{*type, {result}};
}

FailureOr<ExprValue> Importer::importComplexPart(const Form &form, UnaryFn fn) {
  if (form.children.size() != 1)
    return error(*form.node, "expected '(" + form.head + " :id N vtype)'");
  FailureOr<Type> type = getExprType(form, 0);
  FailureOr<int64_t> id =
      succeeded(type) ? getInt(form, ":id") : FailureOr<int64_t>();
  if (failed(type) || failed(id))
    return failure();
  FailureOr<Symbol *> symbol = lookupSymbol(*form.attribute(":id"), *id);
  if (failed(symbol))
    return failure();
  Type operandType = (*symbol)->type;
  Type expected = getElementTypeOf(operandType);
  if (auto complex = dyn_cast<ComplexType>(expected))
    expected = complex.getElementType();
  if (auto array = dyn_cast<ArrayType>(operandType))
    expected =
        array.isContiguous()
            ? array.withElementType(expected)
            : array.withElementType(expected).withLayout(Layout::RowMajor);
  if (!isNumeric(operandType) || *type != expected)
    return error(*form.node,
                 "the " + form.head + " part of the symbol " + Twine(*id) +
                     " of type " + typeName(operandType) + " has type " +
                     typeName(expected) + ", not " + typeName(*type));
  Location here = loc(*form.node);
  Value value = builder->read(here, (*symbol)->vars.front());
  return ExprValue{*type, {builder->unary(here, fn, value, *type)}};
}

//===----------------------------------------------------------------------===//
// Library calls
//===----------------------------------------------------------------------===//

FailureOr<ExprValue> Importer::importLibCall(const Form &form) {
  FailureOr<std::optional<std::string>> name =
      getOptionalName(form, ":libfunc");
  if (failed(name))
    return failure();
  const Node *argsNode = form.child("args");
  if (!*name || form.children.size() != 2 || !argsNode)
    return error(*form.node,
                 "expected '(libcall :libfunc name vtype (args expr+))'");
  FailureOr<Type> type = getExprType(form, 0);
  if (failed(type))
    return failure();
  FailureOr<SmallVector<ExprValue>> args = importExprList(argsNode);
  if (failed(args))
    return failure();
  return callLibrary(*form.node, **name, *type, *args);
}

FailureOr<ExprValue> Importer::callLibrary(const Node &at, StringRef name,
                                           Type type,
                                           ArrayRef<ExprValue> args) {
  Location here = loc(at);
  OpBuilder &b = builder->getBuilder();
  auto fail = [&](const Twine &message) { return error(at, message); };
  auto expectArgs = [&](size_t count) -> LogicalResult {
    if (args.size() != count)
      return fail("'" + name + "' takes " + Twine(count) +
                  " argument(s), not " + Twine(args.size()));
    for (const ExprValue &arg : args)
      if (!isNumeric(arg.type))
        return fail("the arguments of '" + name +
                    "' are scalars or arrays, got " + typeName(arg.type));
    return success();
  };
  auto result = [&](Value value) { return ExprValue{type, {value}}; };
  auto checkResultType = [&](ArrayRef<Value> operands) {
    return checkElementwiseType(type, operands, fail, typeName(type));
  };
  Type element = getElementTypeOf(type);

  if (llvm::is_contained({"zeros", "ones", "empty"}, name))
    return allocate(at, name, type, args);

  // Reductions (thesis 4.5.3): over all elements, or along an axis that is
  // a constant in the module's index base.
  std::optional<ReduceKind> reduceKind = symbolizeReduceKind(name);
  if (reduceKind && (args.size() == 1 || ((*reduceKind == ReduceKind::Sum ||
                                           *reduceKind == ReduceKind::Prod) &&
                                          args.size() == 2))) {
    for (const ExprValue &arg : args)
      if (!isNumeric(arg.type))
        return fail("the arguments of '" + name +
                    "' are scalars or arrays, got " + typeName(arg.type));
    auto operandType = dyn_cast<ArrayType>(args[0].type);
    if (!operandType)
      return fail("'" + name + "' reduces an array, got " +
                  typeName(args[0].type));
    std::optional<int64_t> axis;
    if (args.size() == 2) {
      APInt value;
      if (!matchPattern(args[1].values.front(), m_ConstantInt(&value)))
        return fail("the axis of '" + name + "' is a constant integer");
      axis = value.getSExtValue() - semantics.indexBase;
      if (*axis < 0 || *axis >= operandType.getRank())
        return fail("the axis " + Twine(value.getSExtValue()) +
                    " is out of range for an array of rank " +
                    Twine(operandType.getRank()));
    } else if (isa<ArrayType>(type)) {
      axis = 0;
    }
    Value operand = convertElements(here, args[0].values.front(), element);
    IntegerAttr axisAttr = axis ? b.getI64IntegerAttr(*axis) : IntegerAttr();
    return result(
        ReduceOp::create(b, here, type, *reduceKind, operand, axisAttr));
  }

  if (std::optional<UnaryFn> fn = symbolizeUnaryFn(name)) {
    if (failed(expectArgs(1)))
      return failure();
    Value operand = args[0].values.front();
    if (failed(checkResultType({operand})))
      return failure();
    // real, imag and abs of a complex number give its part type.
    bool keepsComplex =
        (*fn == UnaryFn::Real || *fn == UnaryFn::Imag || *fn == UnaryFn::Abs) &&
        isa<ComplexType>(getElementTypeOf(operand.getType()));
    if (!keepsComplex)
      operand = convertElements(here, operand, element);
    return result(builder->unary(here, *fn, operand, type));
  }

  std::optional<BinaryFn> binaryFn =
      llvm::StringSwitch<std::optional<BinaryFn>>(name)
          .Case("mod", BinaryFn::Rem)
          .Case("power", BinaryFn::Pow)
          .Default(symbolizeBinaryFn(name));
  if (binaryFn) {
    if (failed(expectArgs(2)))
      return failure();
    Value lhs = args[0].values.front(), rhs = args[1].values.front();
    if (failed(checkResultType({lhs, rhs})))
      return failure();
    return result(builder->binary(here, *binaryFn,
                                  convertElements(here, lhs, element),
                                  convertElements(here, rhs, element), type));
  }

  if (llvm::is_contained({"matmul", "matvec", "mmult", "mtimes"}, name)) {
    if (failed(expectArgs(2)))
      return failure();
    Value lhs = convertElements(here, args[0].values.front(), element);
    Value rhs = convertElements(here, args[1].values.front(), element);
    // A matrix times a matrix or a vector has the rank of the right side.
    unsigned rhsRank = getRankOf(rhs.getType());
    if (getRankOf(lhs.getType()) != 2 || (rhsRank != 1 && rhsRank != 2) ||
        !isa<ArrayType>(type) || getRankOf(type) != rhsRank)
      return fail("'" + name +
                  "' multiplies a matrix by a matrix or a "
                  "vector, giving a matrix or a vector");
    if (getRankOf(rhs.getType()) == 2)
      return result(MatmulOp::create(b, here, type, lhs, rhs));
    return result(MatvecOp::create(b, here, type, lhs, rhs));
  }

  if (name == "transpose" || name == "copy") {
    if (failed(expectArgs(1)))
      return failure();
    Value operand = convertElements(here, args[0].values.front(), element);
    if (!isa<ArrayType>(operand.getType()) ||
        failed(checkResultType({operand})))
      return fail("'" + name +
                  "' takes an array and gives an array of its "
                  "rank");
    if (name == "copy")
      return result(CopyOp::create(b, here, type, operand));
    return result(TransposeOp::create(b, here, type, operand));
  }

  if (name == "numel") {
    if (failed(expectArgs(1)))
      return failure();
    if (!isa<ArrayType>(args[0].type) || !isIntegerScalar(type))
      return fail("'numel' takes an array and gives an int32 or int64");
    Value count = NumelOp::create(b, here, args[0].values.front());
    return result(arith::IndexCastOp::create(b, here, type, count));
  }

  if (name == "where" || name == "select") {
    if (failed(expectArgs(3)))
      return failure();
    Value condition = args[0].values.front();
    Value onTrue = args[1].values.front(), onFalse = args[2].values.front();
    if (!getElementTypeOf(condition.getType()).isInteger(1))
      return fail("the condition of '" + name + "' is bool");
    if (failed(checkResultType({condition, onTrue, onFalse})))
      return failure();
    return result(SelectOp::create(b, here, type, condition,
                                   convertElements(here, onTrue, element),
                                   convertElements(here, onFalse, element)));
  }

  // Atomics (thesis 4.5.2): atomic_cas(A, i..., expected, desired) and
  // atomic_<add|min|max|and|or|xor|xchg>(A, i..., value).
  if (name.starts_with("atomic_")) {
    StringRef kindName = name.drop_front(strlen("atomic_"));
    std::optional<AtomicKind> kind = symbolizeAtomicKind(kindName);
    bool cas = kindName == "cas";
    if (!cas && !kind)
      return fail("unknown library function '" + name + "'");
    size_t operands = cas ? 2 : 1;
    auto array = args.empty() ? ArrayType() : dyn_cast<ArrayType>(args[0].type);
    if (!array || args.size() != 1 + array.getRank() + operands)
      return fail("'" + name +
                  "' takes an array, one index per dimension and " +
                  Twine(operands) + (cas ? " values" : " value"));
    if (type != array.getElementType())
      return fail("'" + name + "' gives the old element, of type " +
                  typeName(array.getElementType()));
    SmallVector<Value> indices;
    for (const ExprValue &index : args.slice(1, array.getRank())) {
      if (!isIntegerScalar(index.type))
        return fail("an index is an integer, got " + typeName(index.type));
      indices.push_back(builder->toIndex(here, index.values.front()));
    }
    SmallVector<Value> values;
    for (const ExprValue &value : args.take_back(operands)) {
      if (!isScalar(value.type))
        return fail("the operands of '" + name + "' are scalars");
      values.push_back(convertElements(here, value.values.front(), element));
    }
    Value arrayValue = args[0].values.front();
    if (cas)
      return result(AtomicCasOp::create(b, here, arrayValue, indices, values[0],
                                        values[1]));
    return result(
        AtomicRMWOp::create(b, here, *kind, arrayValue, indices, values[0]));
  }
  return fail("unknown library function '" + name + "'");
}

//===----------------------------------------------------------------------===//
// Index expressions (thesis 4.3)
//===----------------------------------------------------------------------===//

FailureOr<IndexSpec> Importer::importIndex(const Node &node,
                                           function_ref<Value()> getArray,
                                           unsigned dimension, bool isWrite) {
  RuleScope rule(*this, "aindex");
  FailureOr<Form> form = parseForm(
      node, "index",
      {":boundscheck", ":maxbounds", ":minbounds", ":negative", ":grow"});
  if (failed(form))
    return failure();
  FailureOr<std::optional<bool>> boundscheck, maxbounds, minbounds, negative,
      grow;
  if (failed(boundscheck = getOptionalBool(*form, ":boundscheck")) ||
      failed(maxbounds = getOptionalBool(*form, ":maxbounds")) ||
      failed(minbounds = getOptionalBool(*form, ":minbounds")) ||
      failed(negative = getOptionalBool(*form, ":negative")) ||
      failed(grow = getOptionalBool(*form, ":grow")))
    return failure();
  if (*boundscheck && (*maxbounds || *minbounds))
    return error(node, "':boundscheck' sets both bounds; it excludes "
                       "':maxbounds' and ':minbounds'");
  if (form->children.size() != 1)
    return error(node, "an index holds one expression or range");
  IndexSpec spec;
  spec.node = &node;
  spec.grow = grow->value_or(false);
  if (spec.grow && !isWrite)
    return error(*form->attribute(":grow"),
                 "':grow' applies to assignment targets only");
  // Unless the attributes say otherwise, both bounds are checked.
  if (boundscheck->value_or(minbounds->value_or(true)))
    spec.flags = spec.flags | IndexFlags::CheckLower;
  if (boundscheck->value_or(maxbounds->value_or(true)))
    spec.flags = spec.flags | IndexFlags::CheckUpper;
  if (negative->value_or(false))
    spec.flags = spec.flags | IndexFlags::WrapNegative;
  if (spec.grow)
    spec.flags = spec.flags | IndexFlags::Grow;

  const Node &base = *form->children.front();
  Location here = loc(base);
  if (base.head() == "range") {
    FailureOr<RangeBounds> bounds = importRangeBounds(base);
    if (failed(bounds))
      return failure();
    RuleScope rangeRule(*this, "range");
    spec.kind = IndexSpec::Kind::Range;
    spec.wholeDimension = !bounds->start && !bounds->stop && !bounds->step;
    APInt step;
    if (bounds->step && (!bounds->start || !bounds->stop) &&
        (!matchPattern(bounds->step, m_ConstantInt(&step)) ||
         !step.isStrictlyPositive()))
      return error(base, "a range whose step is not a positive constant "
                         "needs a start and a stop");
    // Missing bounds span the dimension, in the module's convention.
    std::optional<bool> exclusive = bounds->exclusive;
    Value start = bounds->start
                      ? bounds->start
                      : builder->constantIndex(here, semantics.indexBase);
    Value stop = bounds->stop;
    if (!stop) {
      OpBuilder &b = builder->getBuilder();
      Value size = DimOp::create(b, here, getArray(), dimension);
      int64_t offset = semantics.indexBase - (semantics.rangeExclusive ? 0 : 1);
      stop = arith::AddIOp::create(b, here, size,
                                   builder->constantIndex(here, offset));
      exclusive = std::nullopt;
    }
    spec.value = builder->range(here, start, stop, bounds->step, exclusive);
    return spec;
  }
  FailureOr<Value> value = importOperand(base);
  if (failed(value))
    return failure();
  Type type = value->getType();
  if (isIntegerScalar(type)) {
    spec.kind = IndexSpec::Kind::Scalar;
  } else if (auto indexArray = dyn_cast<ArrayType>(type);
             indexArray && isIntegerScalar(indexArray.getElementType())) {
    spec.kind = IndexSpec::Kind::Array;
  } else {
    return error(base, "an index is an integer, a range or an integer array, "
                       "got " +
                           typeName(type));
  }
  spec.value = *value;
  return spec;
}

FailureOr<Symbol *>
Importer::importIndexAccess(const Form &form, bool isWrite, Value &array,
                            SmallVectorImpl<IndexSpec> &indices) {
  FailureOr<Symbol *> symbol = arraySymbol(form, ":arrayid");
  if (failed(symbol))
    return failure();
  const Node *indicesNode = form.child("indices");
  if (!indicesNode || indicesNode->items.size() < 2)
    return error(*form.node, "expected '(indices aindex+)'");
  auto type = cast<ArrayType>((*symbol)->type);
  ArrayRef<Node> items = ArrayRef<Node>(indicesNode->items).drop_front();
  if (items.size() > type.getRank())
    return error(*indicesNode, Twine(items.size()) +
                                   " indices for an array of rank " +
                                   Twine(type.getRank()));
  // The array is read when a range needs its sizes, or for a read.
  auto getArray = [&] {
    if (!array)
      array = builder->read(loc(*form.node), (*symbol)->vars.front());
    return array;
  };
  for (auto [dimension, item] : llvm::enumerate(items)) {
    FailureOr<IndexSpec> spec = importIndex(item, getArray, dimension, isWrite);
    if (failed(spec))
      return failure();
    indices.push_back(*spec);
  }
  return symbol;
}

/// The position of the one index array among `indices`, whose other
/// indices must be whole dimensions (np.take along an axis).
static FailureOr<unsigned>
getGatherAxis(ArrayRef<IndexSpec> indices,
              function_ref<LogicalResult(const Node &, const Twine &)> error) {
  std::optional<unsigned> axis;
  for (auto [position, index] : llvm::enumerate(indices)) {
    if (index.kind == IndexSpec::Kind::Array && !axis)
      axis = position;
    else if (!index.wholeDimension)
      return error(*index.node, "an index array selects along one "
                                "dimension; the other indices must be "
                                "whole ranges");
  }
  return *axis;
}

FailureOr<ExprValue> Importer::importIndexRead(const Form &form) {
  FailureOr<std::optional<bool>> copySlice =
      getOptionalBool(form, ":copyslice");
  FailureOr<std::optional<bool>> flattenAttr =
      getOptionalBool(form, ":flatten");
  if (failed(copySlice) || failed(flattenAttr))
    return failure();
  if (form.children.size() != 2 || !isTypeNode(*form.children.front()))
    return error(*form.node, "expected '(index :arrayid N vtype (indices "
                             "aindex+))'");
  FailureOr<Type> type = parseType(*form.children.front());
  if (failed(type))
    return failure();
  Value array;
  SmallVector<IndexSpec> indices;
  FailureOr<Symbol *> symbol =
      importIndexAccess(form, /*isWrite=*/false, array, indices);
  if (failed(symbol))
    return failure();
  if (!array)
    array = builder->read(loc(*form.node), (*symbol)->vars.front());
  auto arrayType = cast<ArrayType>(array.getType());
  Location here = loc(*form.node);
  auto errorAt = [&](const Node &node, const Twine &message) {
    return error(node, message);
  };
  SmallVector<Value> values;
  SmallVector<IndexFlags> flags;
  for (const IndexSpec &index : indices) {
    values.push_back(index.value);
    flags.push_back(index.flags);
  }

  auto isKind = [&](IndexSpec::Kind kind) {
    return llvm::any_of(
        indices, [&](const IndexSpec &index) { return index.kind == kind; });
  };
  if (isKind(IndexSpec::Kind::Array)) {
    FailureOr<unsigned> axis = getGatherAxis(indices, errorAt);
    if (failed(axis))
      return failure();
    FailureOr<Value> gathered = builder->gather(
        here, array, indices[*axis].value, *axis, indices[*axis].flags);
    if (failed(gathered))
      return failure();
    FailureOr<Value> converted = coerceSingle(*form.node, *gathered, *type);
    if (failed(converted))
      return failure();
    return ExprValue{*type, {*converted}};
  }

  bool anyRange = isKind(IndexSpec::Kind::Range);
  bool partial = indices.size() < arrayType.getRank();
  // Fewer integer indices than dimensions: MATLAB flattens the rest, NumPy
  // takes them whole (thesis 4.3.3).
  bool flattened =
      !anyRange && partial && flattenAttr->value_or(semantics.indexBase == 1);
  if (!anyRange && (!partial || flattened)) {
    FailureOr<Value> element =
        builder->load(here, array, values, flags, flattened);
    if (failed(element))
      return failure();
    if (!isScalar(*type))
      return error(*form.children.front(),
                   "this index expression reads one element, so its vtype "
                   "is a scalar, got " +
                       typeName(*type));
    FailureOr<Value> converted = coerceSingle(*form.node, *element, *type);
    if (failed(converted))
      return failure();
    return ExprValue{*type, {*converted}};
  }

  auto resultType = dyn_cast<ArrayType>(*type);
  if (!resultType)
    return error(*form.children.front(),
                 "this index expression selects a slice, so its vtype is an "
                 "array type, got " +
                     typeName(*type));
  // Without :copyslice the vtype decides: a strided result is a view.
  bool copy = copySlice->value_or(resultType.isContiguous());
  FailureOr<Value> slice =
      builder->slice(here, array, values, flags, copy,
                     copy && resultType.isContiguous()
                         ? std::optional<Layout>(resultType.getLayout())
                         : std::nullopt);
  if (failed(slice))
    return failure();
  if (slice->getType() != *type && !copy)
    return error(*form.children.front(),
                 "the slice is a view (no ':copyslice') of type " +
                     typeName(slice->getType()) + ", but its vtype is " +
                     typeName(*type));
  FailureOr<Value> converted = coerceSingle(*form.node, *slice, *type);
  if (failed(converted))
    return failure();
  return ExprValue{*type, {*converted}};
}

LogicalResult Importer::importIndexWrite(const Form &form,
                                         const ExprValue &value) {
  FailureOr<std::optional<bool>> flattenAttr =
      getOptionalBool(form, ":flatten");
  if (failed(flattenAttr) || failed(getOptionalBool(form, ":copyslice")))
    return failure();
  // The vtype of a target, if given, is the type of the selection; the
  // value is converted to the array's element type anyway.
  for (const Node *child : form.children)
    if (child->head() != "indices" && !isTypeNode(*child))
      return error(*child, "unexpected " + describe(*child));
  Value array;
  SmallVector<IndexSpec> indices;
  FailureOr<Symbol *> symbol =
      importIndexAccess(form, /*isWrite=*/true, array, indices);
  if (failed(symbol))
    return failure();
  if (value.values.size() != 1 || !isNumeric(value.type))
    return error(*form.node, "an indexed assignment stores a scalar or an "
                             "array, got " +
                                 typeName(value.type));
  Variable var = (*symbol)->vars.front();
  auto arrayType = cast<ArrayType>((*symbol)->type);
  Type element = arrayType.getElementType();
  Location here = loc(*form.node);
  Value stored = value.values.front();
  SmallVector<Value> values;
  SmallVector<IndexFlags> flags;
  const IndexSpec *growing = nullptr;
  for (const IndexSpec &index : indices) {
    values.push_back(index.value);
    flags.push_back(index.flags);
    if (index.grow && !growing)
      growing = &index;
  }
  auto isKind = [&](IndexSpec::Kind kind) {
    return llvm::any_of(
        indices, [&](const IndexSpec &index) { return index.kind == kind; });
  };
  bool anyRange = isKind(IndexSpec::Kind::Range);
  bool partial = indices.size() < arrayType.getRank();
  bool flattened =
      !anyRange && partial && flattenAttr->value_or(semantics.indexBase == 1);
  bool elementWrite =
      !anyRange && !isKind(IndexSpec::Kind::Array) && (!partial || flattened);
  if (growing && !elementWrite)
    return error(*growing->node, "':grow' applies to the write of one "
                                 "element only");

  if (isKind(IndexSpec::Kind::Array)) {
    auto errorAt = [&](const Node &node, const Twine &message) {
      return error(node, message);
    };
    FailureOr<unsigned> axis = getGatherAxis(indices, errorAt);
    if (failed(axis))
      return failure();
    return builder->scatter(here, convertElements(here, stored, element), var,
                            indices[*axis].value, *axis, indices[*axis].flags);
  }
  if (elementWrite) {
    if (!isScalar(value.type))
      return error(*form.node, "the write of one element stores a scalar, "
                               "got " +
                                   typeName(value.type));
    return builder->store(here, convertElements(here, stored, element), var,
                          values, flags, flattened);
  }
  return builder->storeSlice(here, convertElements(here, stored, element), var,
                             values, flags);
}

FailureOr<SmallVector<ExprValue>> Importer::importExprList(const Node *list) {
  SmallVector<ExprValue> values;
  if (!list)
    return values;
  for (const Node &item : ArrayRef<Node>(list->items).drop_front()) {
    FailureOr<ExprValue> value = importExpr(item);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }
  return values;
}
