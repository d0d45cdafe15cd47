//===- Importer.h - VRIR S-expressions to the VRIR dialect ------*- C++ -*-===//
//
// The second stage of the import: walks the S-expression tree of thesis
// appendix A and builds the program with the VRIR builder API
// (VRIR/Builder/Builder.h), the same API a frontend uses directly.
// SExprImporter.cpp handles modules, functions, types and statements,
// SExprExpressions.cpp expressions.
//
// Tuples have no MLIR value form, so a tuple is a list of values, one per
// component: a tuple variable is one slot per component, and tuple
// parameters and results of functions are flattened into their components.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_TARGET_SEXPR_IMPORTER_H
#define VRIR_LIB_TARGET_SEXPR_IMPORTER_H

#include "SExprReader.h"

#include "VRIR/Builder/Builder.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <map>

namespace mlir {
namespace vrir {
namespace sexpr {

/// The value of an expression: its VRIR type and one MLIR value, or one per
/// component for a tuple (and for a call with several results, whose type
/// is the tuple of the result types), or none for void (NoneType).
struct ExprValue {
  Type type;
  SmallVector<Value, 1> values;
};

/// An entry of a function's symbol table.
struct Symbol {
  int64_t id = 0;
  std::string name;
  /// The VRIR type; a TupleType for tuples.
  Type type;
  /// One variable, or one per tuple component.
  SmallVector<Variable, 1> vars;
};

/// A list node parsed as '(' head (:attribute value)* child* ')'.
struct Form {
  const Node *node = nullptr;
  StringRef head;
  SmallVector<std::pair<const Node *, const Node *>> attributes;
  SmallVector<const Node *> children;

  /// The value of attribute `key` (with its ':'), or null.
  const Node *attribute(StringRef key) const;
  /// The first child that is a list with head `head`, or null.
  const Node *child(StringRef head) const;
};

/// A function of the module, declared before any body is imported so that
/// calls and handles can refer to functions defined later.
struct FunctionInfo {
  const Node *node = nullptr;
  func::FuncOp op;
  /// VRIR parameter and result types (tuples not flattened).
  SmallVector<Type> inputs;
  SmallVector<Type> results;
  const Node *arglist = nullptr;
  const Node *body = nullptr;
  const Node *symtable = nullptr;
};

/// One index of an index expression (thesis 4.3).
struct IndexSpec {
  enum class Kind { Scalar, Range, Array };
  Kind kind = Kind::Scalar;
  Value value;
  IndexFlags flags = IndexFlags::None;
  bool grow = false;
  /// A range without start, stop and step: the whole dimension.
  bool wholeDimension = false;
  const Node *node = nullptr;
};

/// The grammar name of an expression head: figure 4.2 writes `plusexpr`
/// and `nameexpr` where the grammar has `plus` and `name`.
StringRef canonicalExprHead(StringRef head);

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context);
  OwningOpRef<ModuleOp> run();

private:
  friend class RuleScope;

  //===--- Diagnostics ----------------------------------------------------===//
  Location loc(llvm::SMLoc smloc);
  Location loc(const Node &node) { return loc(node.loc); }
  /// Emits "<message> in rule '<current rule>'" at `node`.
  LogicalResult error(const Node &node, const Twine &message);

  //===--- Forms and attributes -------------------------------------------===//
  /// Parses `node` as a form with head `head` (any head if empty) whose
  /// attributes are among `allowed`.
  FailureOr<Form> parseForm(const Node &node, StringRef head,
                            ArrayRef<StringRef> allowed);
  FailureOr<std::optional<int64_t>> getOptionalInt(const Form &form,
                                                   StringRef key);
  FailureOr<int64_t> getInt(const Form &form, StringRef key);
  FailureOr<std::optional<bool>> getOptionalBool(const Form &form,
                                                 StringRef key);
  FailureOr<std::optional<std::string>> getOptionalName(const Form &form,
                                                        StringRef key);
  /// The single expression of a child `(head expr)`, or `node` itself if it
  /// has another head (figure 4.2 writes operands without wrappers).
  FailureOr<const Node *> unwrap(const Node &node, StringRef head);
  /// The items of a list with head `head`, after the head.
  FailureOr<ArrayRef<Node>> listItems(const Node &node, StringRef head);

  //===--- Types ----------------------------------------------------------===//
  static bool isTypeNode(const Node &node);
  FailureOr<Type> parseType(const Node &node);
  FailureOr<FunctionType> parseFunctionType(const Node &node,
                                            SmallVectorImpl<Type> *inputs,
                                            SmallVectorImpl<Type> *results);
  /// The vtype among the first children of an expression form.
  FailureOr<Type> getExprType(const Form &form, unsigned position);
  static void flatten(Type type, SmallVectorImpl<Type> &flat);
  Type makeResultType(TypeRange flat);
  std::string typeName(Type type);

  //===--- Module and functions -------------------------------------------===//
  LogicalResult importModule(ArrayRef<Node> nodes);
  FailureOr<FunctionInfo *> declareFunction(const Node &node);
  LogicalResult importFunction(FunctionInfo &function);
  LogicalResult importSymbolTable(const Node &node);
  LogicalResult bindArguments(FunctionInfo &function);
  FailureOr<Symbol *> lookupSymbol(const Node &at, int64_t id);
  /// The symbol of an `itersym` / shared-list entry: an integer or
  /// `(sym :id N)`.
  FailureOr<Symbol *> symbolReference(const Node &node);

  //===--- Statements -----------------------------------------------------===//
  LogicalResult importStatements(ArrayRef<Node> statements);
  LogicalResult importStatement(const Node &node);
  LogicalResult importAssign(const Form &form);
  LogicalResult assignTo(const Node &target, const ExprValue &value);
  LogicalResult importStmtList(const Form &form);
  LogicalResult importFor(const Form &form, bool parallel);
  LogicalResult importWhile(const Form &form);
  LogicalResult importIf(const Form &form);
  LogicalResult importReturn(const Form &form);
  FailureOr<SmallVector<Variable>> importIterVars(const Node &node);
  /// A `(range ...)`: bounds as values, unset start/stop/step as null.
  struct RangeBounds {
    Value start, stop, step;
    std::optional<bool> exclusive;
  };
  FailureOr<RangeBounds> importRangeBounds(const Node &node);
  /// The range of a loop or a domain: a missing start is the index base.
  FailureOr<LoopBounds> importLoopRange(const Node &node);
  FailureOr<Value> importCondition(const Node &node);

  //===--- Expressions ----------------------------------------------------===//
  FailureOr<ExprValue> importExpr(const Node &node);
  /// The expressions after the head of `list` (`(args e1 e2 ...)`); none
  /// when `list` is null.
  FailureOr<SmallVector<ExprValue>> importExprList(const Node *list);
  /// An expression that must have a single scalar or array value.
  FailureOr<Value> importOperand(const Node &node);
  FailureOr<ExprValue> importBinary(const Form &form, StringRef kind);
  FailureOr<ExprValue> importUnaryOperator(const Form &form, UnaryFn fn);
  FailureOr<ExprValue> importName(const Form &form);
  /// The symbol of `(name :id N vtype?)` or `(nameexpr N vtype)`.
  FailureOr<Symbol *> importNameSymbol(const Form &form);
  /// The tuple symbol and component of `(tupleindex :index i :tupleid N)`.
  FailureOr<std::pair<Symbol *, unsigned>>
  importTupleComponent(const Form &form);
  /// Checks that a `(domain domaintype range+)` has as many ranges as its
  /// domaintype has dimensions.
  LogicalResult checkDomainType(const Form &form);
  static ArrayRef<StringRef> getIndexAttributes();
  FailureOr<ExprValue> importConstant(const Form &form);
  FailureOr<ExprValue> importCall(const Form &form);
  FailureOr<ExprValue> importHandle(const Form &form);
  FailureOr<ExprValue> importDomain(const Form &form);
  FailureOr<ExprValue> importLibCall(const Form &form);
  FailureOr<ExprValue> callLibrary(const Node &at, StringRef name, Type type,
                                   ArrayRef<ExprValue> args);
  FailureOr<ExprValue> importAlloc(const Form &form);
  FailureOr<ExprValue> allocate(const Node &at, StringRef kind, Type type,
                                ArrayRef<ExprValue> sizes);
  FailureOr<ExprValue> importDim(const Form &form);
  FailureOr<ExprValue> importTuple(const Form &form);
  FailureOr<ExprValue> importTupleIndex(const Form &form);
  FailureOr<ExprValue> importCast(const Form &form);
  FailureOr<ExprValue> importComplex(const Form &form);
  FailureOr<ExprValue> importComplexPart(const Form &form, UnaryFn fn);
  FailureOr<ExprValue> importDimVec(const Form &form);
  FailureOr<ExprValue> importIndexRead(const Form &form);
  LogicalResult importIndexWrite(const Form &form, const ExprValue &value);
  /// The array symbol and parsed indices of an index expression; `array`
  /// is the array read if the indices needed it, else null.
  FailureOr<Symbol *> importIndexAccess(const Form &form, bool isWrite,
                                        Value &array,
                                        SmallVectorImpl<IndexSpec> &indices);
  FailureOr<IndexSpec> importIndex(const Node &node,
                                   function_ref<Value()> getArray,
                                   unsigned dimension, bool isWrite);
  FailureOr<Symbol *> arraySymbol(const Form &form, StringRef key);
  /// The attribute `key` of `form` read as a constant dimension or axis
  /// number in the module's index base, checked against `rank`.
  FailureOr<unsigned> getDimension(const Form &form, StringRef key,
                                   unsigned rank);

  //===--- Conversions ----------------------------------------------------===//
  /// `value` converted to `type` (implicit conversions: scalars to any
  /// scalar type, arrays to another element type or layout of one rank).
  FailureOr<SmallVector<Value, 1>> coerce(const Node &at,
                                          const ExprValue &value, Type type);
  FailureOr<Value> coerceSingle(const Node &at, Value value, Type type);
  /// `value` (scalar or array) with element type `element`.
  Value convertElements(Location loc, Value value, Type element);
  /// The type both operands of a comparison are converted to.
  static Type promote(Type lhs, Type rhs);
  /// A constant of scalar `type` with the value `value`.
  Value constant(Location loc, Type type, double value);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  unsigned bufferId;
  StringAttr bufferName;
  StringRef currentRule = "module";
  ModuleSemantics semantics;
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<FunctionInfo> functions;
  /// The function being imported.
  FunctionInfo *function = nullptr;
  std::unique_ptr<FunctionBuilder> builder;
  std::map<int64_t, Symbol> symbols;
};

/// Names the grammar rule that diagnostics refer to while it is imported.
class RuleScope {
public:
  RuleScope(Importer &importer, StringRef rule)
      : importer(importer), saved(importer.currentRule) {
    importer.currentRule = rule;
  }
  ~RuleScope() { importer.currentRule = saved; }

private:
  Importer &importer;
  StringRef saved;
};

} // namespace sexpr
} // namespace vrir
} // namespace mlir

#endif // VRIR_LIB_TARGET_SEXPR_IMPORTER_H
