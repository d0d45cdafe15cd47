//===- SExprImporter.cpp - VRIR S-expressions: modules and statements -----===//
//
// Modules, functions, symbol tables, types and statements of thesis
// appendix A, plus the spellings of figure 4.2 (`(function "f" (fntype
// (ins) (outs)) (syntable (0 "a" int32vtype)) (args 0) (body ...))`).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "VRIR/Target/SExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::vrir;
using namespace mlir::vrir::sexpr;

const Node *Form::attribute(StringRef key) const {
  for (auto [name, value] : attributes)
    if (name->text == key)
      return value;
  return nullptr;
}

const Node *Form::child(StringRef childHead) const {
  for (const Node *node : children)
    if (node->head() == childHead)
      return node;
  return nullptr;
}

Importer::Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context)
    : sourceMgr(sourceMgr), context(context),
      bufferId(sourceMgr.getMainFileID()) {
  bufferName = StringAttr::get(
      context, sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier());
}

//===----------------------------------------------------------------------===//
// Diagnostics, forms and attributes
//===----------------------------------------------------------------------===//

Location Importer::loc(llvm::SMLoc smloc) {
  auto [line, column] = sourceMgr.getLineAndColumn(smloc, bufferId);
  return FileLineColLoc::get(bufferName, line, column);
}

LogicalResult Importer::error(const Node &node, const Twine &message) {
  emitError(loc(node)) << message << " in rule '" << currentRule << "'";
  return failure();
}

FailureOr<Form> Importer::parseForm(const Node &node, StringRef head,
                                    ArrayRef<StringRef> allowed) {
  if (!node.isList() || node.head().empty() ||
      (!head.empty() && node.head() != head))
    return error(node, "expected '(" + (head.empty() ? "name" : head) +
                           " ...)', got " + describe(node));
  Form form;
  form.node = &node;
  form.head = node.head();
  for (size_t i = 1, e = node.items.size(); i < e; ++i) {
    const Node &item = node.items[i];
    if (item.kind != Node::Kind::Keyword) {
      form.children.push_back(&item);
      continue;
    }
    if (!llvm::is_contained(allowed, item.text))
      return error(item, "unknown attribute '" + item.text + "' of '" +
                             form.head + "'");
    if (form.attribute(item.text))
      return error(item, "the attribute '" + item.text + "' is given twice");
    if (i + 1 == e || node.items[i + 1].isList() ||
        node.items[i + 1].kind == Node::Kind::Keyword)
      return error(item, "the attribute '" + item.text + "' needs a value");
    form.attributes.push_back({&item, &node.items[++i]});
  }
  return form;
}

FailureOr<std::optional<int64_t>> Importer::getOptionalInt(const Form &form,
                                                           StringRef key) {
  const Node *value = form.attribute(key);
  if (!value)
    return std::optional<int64_t>();
  if (value->kind != Node::Kind::Integer)
    return error(*value, "the attribute '" + key +
                             "' expects an integer, got " + describe(*value));
  return std::optional<int64_t>(value->intValue);
}

FailureOr<int64_t> Importer::getInt(const Form &form, StringRef key) {
  FailureOr<std::optional<int64_t>> value = getOptionalInt(form, key);
  if (failed(value))
    return failure();
  if (!*value)
    return error(*form.node,
                 "missing the attribute '" + key + "' of '" + form.head + "'");
  return **value;
}

FailureOr<std::optional<bool>> Importer::getOptionalBool(const Form &form,
                                                         StringRef key) {
  const Node *value = form.attribute(key);
  if (!value)
    return std::optional<bool>();
  if (value->kind == Node::Kind::Boolean)
    return std::optional<bool>(value->boolValue);
  if (value->isSymbol("true") || value->isSymbol("false"))
    return std::optional<bool>(value->isSymbol("true"));
  return error(*value, "the attribute '" + key +
                           "' expects a boolean (%0 or %1), got " +
                           describe(*value));
}

FailureOr<std::optional<std::string>>
Importer::getOptionalName(const Form &form, StringRef key) {
  const Node *value = form.attribute(key);
  if (!value)
    return std::optional<std::string>();
  if (value->kind != Node::Kind::Symbol && value->kind != Node::Kind::String)
    return error(*value, "the attribute '" + key + "' expects a name, got " +
                             describe(*value));
  return std::optional<std::string>(value->text);
}

FailureOr<const Node *> Importer::unwrap(const Node &node, StringRef head) {
  if (node.head() != head)
    return &node;
  if (node.items.size() != 2)
    return error(node, "'(" + head + " ...)' holds exactly one expression");
  return &node.items[1];
}

FailureOr<ArrayRef<Node>> Importer::listItems(const Node &node,
                                              StringRef head) {
  if (node.head() != head)
    return error(node, "expected '(" + head + " ...)', got " + describe(node));
  return ArrayRef<Node>(node.items).drop_front();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The scalar type of a basetype name: figure 4.2's `int32vtype`, the
/// grammar's `(int32)`, and complex spellings.
static Type getBaseType(MLIRContext *context, StringRef name) {
  Builder b(context);
  return llvm::StringSwitch<Type>(name)
      .Cases({"int32", "int32vtype"}, b.getI32Type())
      .Cases({"int64", "int64vtype"}, b.getI64Type())
      .Cases({"float32", "float32vtype"}, b.getF32Type())
      .Cases({"float64", "float64vtype"}, b.getF64Type())
      .Cases({"bool", "boolvtype"}, b.getI1Type())
      .Case("complex64vtype", ComplexType::get(b.getF32Type()))
      .Case("complex128vtype", ComplexType::get(b.getF64Type()))
      .Default(Type());
}

static bool isVoidName(StringRef name) {
  return name == "void" || name == "voidvtype";
}

static bool isScalarType(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    type = complex.getElementType();
  return type.isInteger(1) || type.isInteger(32) || type.isInteger(64) ||
         type.isF32() || type.isF64();
}

bool Importer::isTypeNode(const Node &node) {
  if (node.isSymbol())
    return isVoidName(node.text) ||
           llvm::is_contained({"int32", "int64", "float32", "float64", "bool",
                               "int32vtype", "int64vtype", "float32vtype",
                               "float64vtype", "boolvtype", "complex64vtype",
                               "complex128vtype"},
                              StringRef(node.text));
  return llvm::is_contained({"int32", "int64", "float32", "float64", "bool",
                             "void", "vtype", "arraytype", "tupletype",
                             "domaintype", "functype", "fntype"},
                            node.head());
}

void Importer::flatten(Type type, SmallVectorImpl<Type> &flat) {
  if (auto tuple = dyn_cast<TupleType>(type))
    llvm::append_range(flat, tuple.getTypes());
  else if (!isa<NoneType>(type))
    flat.push_back(type);
}

Type Importer::makeResultType(TypeRange flat) {
  if (flat.empty())
    return NoneType::get(context);
  if (flat.size() == 1)
    return flat.front();
  return TupleType::get(context, flat);
}

std::string Importer::typeName(Type type) {
  if (isa<NoneType>(type))
    return "void";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static std::optional<Layout> getLayout(StringRef name) {
  return llvm::StringSwitch<std::optional<Layout>>(name)
      .Cases({"rowmajor", "row", "row_major"}, Layout::RowMajor)
      .Cases({"colmajor", "col", "col_major", "columnmajor"}, Layout::ColMajor)
      .Cases({"strided", "stride"}, Layout::Strided)
      .Default(std::nullopt);
}

/// Ranks past this are surely mistakes; the dialect rejects them too.
static constexpr int64_t kMaxRank = 32;

FailureOr<Type> Importer::parseType(const Node &node) {
  RuleScope rule(*this, "vtype");
  if (node.isSymbol()) {
    if (isVoidName(node.text))
      return Type(NoneType::get(context));
    if (Type type = getBaseType(context, node.text))
      return type;
  }
  if (!node.isList() || !isTypeNode(node))
    return error(node, "expected a vtype, got " + describe(node));
  StringRef head = node.head();

  if (Type base = getBaseType(context, head)) {
    RuleScope vbasetype(*this, "vbasetype");
    FailureOr<Form> form = parseForm(node, head, {":ctype"});
    if (failed(form))
      return failure();
    if (!form->children.empty())
      return error(*form->children.front(),
                   "unexpected " + describe(*form->children.front()));
    FailureOr<std::optional<int64_t>> ctype = getOptionalInt(*form, ":ctype");
    if (failed(ctype))
      return failure();
    if (!ctype->value_or(0))
      return base;
    if (**ctype != 1)
      return error(*form->attribute(":ctype"),
                   "':ctype' is 0 (real) or 1 (complex)");
    if (base.isInteger(1))
      return error(node, "bool has no complex type");
    return Type(ComplexType::get(base));
  }
  if (head == "void") {
    if (node.items.size() != 1)
      return error(node, "expected '(void)'");
    return Type(NoneType::get(context));
  }
  if (head == "vtype") {
    // `(vtype :name void)`.
    FailureOr<Form> form = parseForm(node, head, {":name"});
    if (failed(form))
      return failure();
    const Node *name = form->attribute(":name");
    if (!name || !form->children.empty() || !name->isSymbol() ||
        !isVoidName(name->text))
      return error(node, "expected '(vtype :name void)'");
    return Type(NoneType::get(context));
  }
  if (head == "functype" || head == "fntype") {
    FailureOr<FunctionType> type = parseFunctionType(node, nullptr, nullptr);
    if (failed(type))
      return failure();
    return Type(*type);
  }
  if (head == "tupletype") {
    RuleScope tupletype(*this, "tupletype");
    SmallVector<Type> components;
    for (const Node &item : ArrayRef<Node>(node.items).drop_front()) {
      FailureOr<Type> component = parseType(item);
      if (failed(component))
        return failure();
      if (!isScalarType(*component) && !isa<ArrayType>(*component))
        return error(item, "a tuple component is a scalar or an array, got " +
                               typeName(*component));
      components.push_back(*component);
    }
    if (components.empty())
      return error(node, "a tupletype has at least one component");
    return Type(TupleType::get(context, components));
  }

  if (head == "domaintype") {
    RuleScope domaintype(*this, "domaintype");
    FailureOr<Form> form = parseForm(node, head, {":ndims"});
    if (failed(form))
      return failure();
    FailureOr<std::optional<int64_t>> ndims = getOptionalInt(*form, ":ndims");
    if (failed(ndims))
      return failure();
    for (const Node *child : form->children) {
      FailureOr<Type> type = parseType(*child);
      if (failed(type))
        return failure();
      if (!type->isSignlessInteger() || type->isInteger(1))
        return error(*child, "the ranges of a domain are integers, got " +
                                 typeName(*type));
    }
    int64_t rank = ndims->value_or(form->children.size());
    if (*ndims && !form->children.empty() &&
        **ndims != static_cast<int64_t>(form->children.size()))
      return error(node, "':ndims' is " + Twine(**ndims) + " but " +
                             Twine(form->children.size()) + " types are given");
    if (rank < 1 || rank > kMaxRank)
      return error(node, "a domain has 1 to " + Twine(kMaxRank) +
                             " dimensions, got " + Twine(rank));
    return Type(DomainType::get(context, rank));
  }

  // arraytype: `(arraytype :layout rowmajor :ndims 2 (float64))`, or as in
  // the thesis text `(arraytype float64vtype 2 row)`.
  RuleScope arraytype(*this, "arraytype");
  FailureOr<Form> form = parseForm(node, head, {":layout", ":ndims"});
  if (failed(form))
    return failure();
  FailureOr<std::optional<int64_t>> ndims = getOptionalInt(*form, ":ndims");
  FailureOr<std::optional<std::string>> layoutName =
      getOptionalName(*form, ":layout");
  if (failed(ndims) || failed(layoutName))
    return failure();
  std::optional<int64_t> rank = *ndims;
  std::optional<Layout> layout;
  if (*layoutName && !(layout = getLayout(**layoutName)))
    return error(*form->attribute(":layout"),
                 "':layout' is rowmajor, colmajor or strided, got '" +
                     **layoutName + "'");
  Type element;
  for (const Node *child : form->children) {
    if (child->kind == Node::Kind::Integer && !rank) {
      rank = child->intValue;
    } else if (child->isSymbol() && !layout && getLayout(child->text)) {
      layout = getLayout(child->text);
    } else if (isTypeNode(*child) && !element) {
      FailureOr<Type> type = parseType(*child);
      if (failed(type))
        return failure();
      if (!isScalarType(*type))
        return error(*child, "the element type of an array is a scalar "
                             "type, got " +
                                 typeName(*type));
      element = *type;
    } else {
      return error(*child, "unexpected " + describe(*child));
    }
  }
  if (!element)
    return error(node, "missing the element type of the array");
  if (!rank)
    return error(node, "missing ':ndims'");
  if (!layout)
    return error(node, "missing ':layout'");
  if (*rank < 0 || *rank > kMaxRank)
    return error(node, "':ndims' is between 0 and " + Twine(kMaxRank) +
                           ", got " + Twine(*rank));
  return Type(ArrayType::get(context, element, *rank, *layout));
}

FailureOr<FunctionType>
Importer::parseFunctionType(const Node &node, SmallVectorImpl<Type> *inputs,
                            SmallVectorImpl<Type> *results) {
  RuleScope rule(*this, "fntype");
  if (node.items.size() != 3 || !node.items[1].isList() ||
      !node.items[2].isList())
    return error(node, "expected '(functype (intypes vtype*) (outtypes "
                       "vtype+))'");
  // The grammar wraps the lists in `intypes`/`outtypes`; figure 4.2 does not.
  auto typeList = [&](const Node &list, StringRef wrapper,
                      SmallVectorImpl<Type> &types) -> LogicalResult {
    ArrayRef<Node> items = list.items;
    if (list.head() == wrapper)
      items = items.drop_front();
    for (const Node &item : items) {
      FailureOr<Type> type = parseType(item);
      if (failed(type))
        return failure();
      if (isa<NoneType>(*type) && !(wrapper == "outtypes" && items.size() == 1))
        return error(item, "void is only allowed as the sole result type");
      if (isa<FunctionType>(*type) && wrapper == "outtypes")
        return error(item, "a function cannot return a function");
      if (!isa<NoneType>(*type))
        types.push_back(*type);
    }
    return success();
  };
  SmallVector<Type> ins, outs;
  if (failed(typeList(node.items[1], "intypes", ins)) ||
      failed(typeList(node.items[2], "outtypes", outs)))
    return failure();
  SmallVector<Type> flatIns, flatOuts;
  for (Type type : ins)
    flatten(type, flatIns);
  for (Type type : outs)
    flatten(type, flatOuts);
  if (inputs)
    inputs->assign(ins);
  if (results)
    results->assign(outs);
  return FunctionType::get(context, flatIns, flatOuts);
}

//===----------------------------------------------------------------------===//
// Module and functions
//===----------------------------------------------------------------------===//

LogicalResult Importer::importModule(ArrayRef<Node> nodes) {
  RuleScope rule(*this, "module");
  SmallVector<const Node *> functionNodes;
  std::optional<std::string> name;
  int64_t indexing = 0;
  std::optional<bool> exclude;
  MemoryManagement memory = MemoryManagement::RefCount;
  Location moduleLoc = FileLineColLoc::get(bufferName, 1, 1);
  if (nodes.empty()) {
    emitError(moduleLoc) << "expected '(module ...)' or '(function ...)' "
                            "in rule 'module'";
    return failure();
  }
  if (nodes.size() == 1 && nodes.front().head() == "module") {
    const Node &node = nodes.front();
    moduleLoc = loc(node);
    FailureOr<Form> form = parseForm(
        node, "module", {":name", ":indexing", ":exclude", ":memory"});
    if (failed(form))
      return failure();
    FailureOr<std::optional<std::string>> nameAttr =
        getOptionalName(*form, ":name");
    FailureOr<std::optional<int64_t>> indexingAttr =
        getOptionalInt(*form, ":indexing");
    FailureOr<std::optional<bool>> excludeAttr =
        getOptionalBool(*form, ":exclude");
    FailureOr<std::optional<std::string>> memoryAttr =
        getOptionalName(*form, ":memory");
    if (failed(nameAttr) || failed(indexingAttr) || failed(excludeAttr) ||
        failed(memoryAttr))
      return failure();
    name = *nameAttr;
    indexing = indexingAttr->value_or(0);
    if (indexing != 0 && indexing != 1)
      return error(*form->attribute(":indexing"),
                   "':indexing' is 0 (zero-based) or 1 (one-based), got " +
                       Twine(indexing));
    exclude = *excludeAttr;
    if (*memoryAttr) {
      std::optional<MemoryManagement> scheme =
          symbolizeMemoryManagement(**memoryAttr);
      if (!scheme)
        return error(*form->attribute(":memory"),
                     "':memory' is refcount or gc, got '" + **memoryAttr + "'");
      memory = *scheme;
    }
    for (const Node *child : form->children) {
      if (child->head() == "function") {
        functionNodes.push_back(child);
      } else if (child->head() == "fns") {
        for (const Node &function : ArrayRef<Node>(child->items).drop_front())
          functionNodes.push_back(&function);
      } else {
        return error(*child,
                     "expected '(fns function*)', got " + describe(*child));
      }
    }
  } else {
    // A file of functions (figure 4.2) is a module with NumPy semantics.
    for (const Node &node : nodes) {
      if (node.head() != "function")
        return error(node, "expected '(module ...)' or '(function ...)', got " +
                               describe(node));
      functionNodes.push_back(&node);
    }
  }

  semantics.indexBase = indexing;
  // Python excludes the stop of a range, MATLAB includes it.
  semantics.rangeExclusive = exclude.value_or(indexing == 0);
  semantics.memory = memory;
  module = createModule(context, moduleLoc, semantics, name.value_or(""));

  // Every function is declared before any body is imported, so that calls
  // and handles can name functions defined later.
  SmallVector<FunctionInfo *> order;
  for (const Node *node : functionNodes) {
    FailureOr<FunctionInfo *> info = declareFunction(*node);
    if (failed(info))
      return failure();
    order.push_back(*info);
  }
  for (FunctionInfo *info : order)
    if (failed(importFunction(*info)))
      return failure();
  return success();
}

FailureOr<FunctionInfo *> Importer::declareFunction(const Node &node) {
  RuleScope rule(*this, "function");
  FailureOr<Form> form = parseForm(node, "function", {":name"});
  if (failed(form))
    return failure();
  FailureOr<std::optional<std::string>> nameAttr =
      getOptionalName(*form, ":name");
  if (failed(nameAttr))
    return failure();
  std::optional<std::string> name = *nameAttr;
  FunctionInfo info;
  info.node = &node;
  const Node *typeNode = nullptr;
  for (const Node *child : form->children) {
    StringRef head = child->head();
    const Node **slot = nullptr;
    if (!child->isList() && !name &&
        (child->isSymbol() || child->kind == Node::Kind::String)) {
      name = child->text;
      continue;
    }
    if (head == "functype" || head == "fntype")
      slot = &typeNode;
    else if (head == "arglist" || head == "args")
      slot = &info.arglist;
    else if (head == "body")
      slot = &info.body;
    else if (head == "symtable" || head == "syntable")
      slot = &info.symtable;
    if (!slot)
      return error(*child, "unexpected " + describe(*child) +
                               "; a function has a name, a functype, an "
                               "arglist, a body and a symtable");
    if (*slot)
      return error(*child, "a function has one " + describe(*child));
    *slot = child;
  }
  if (!name)
    return error(node, "missing the name of the function");
  if (!typeNode)
    return error(node, "missing the type '(functype ...)' of the function '" +
                           *name + "'");
  if (functions.count(*name))
    return error(node, "the function '" + *name + "' is defined twice");
  FailureOr<FunctionType> type =
      parseFunctionType(*typeNode, &info.inputs, &info.results);
  if (failed(type))
    return failure();
  info.op = FunctionBuilder::declareFunction(*module, loc(node), *name, *type);
  // StringMap entries do not move, so the pointer stays valid.
  FunctionInfo &entry = functions[*name];
  entry = std::move(info);
  return &entry;
}

LogicalResult Importer::importFunction(FunctionInfo &info) {
  RuleScope rule(*this, "function");
  // Without a body the function is a declaration of an external function.
  if (!info.body)
    return success();
  function = &info;
  symbols.clear();
  builder = std::make_unique<FunctionBuilder>(info.op);
  builder->setErrorHandler([this](Location loc, const Twine &message) {
    emitError(loc) << message << " in rule '" << currentRule << "'";
  });
  FailureOr<ArrayRef<Node>> body = listItems(*info.body, "body");
  if ((info.symtable && failed(importSymbolTable(*info.symtable))) ||
      failed(bindArguments(info)) || failed(body) ||
      failed(importStatements(*body)) ||
      failed(builder->finish(loc(*info.node))))
    return failure();
  builder.reset();
  function = nullptr;
  return success();
}

LogicalResult Importer::importSymbolTable(const Node &node) {
  RuleScope rule(*this, "symtable");
  for (const Node &entry : ArrayRef<Node>(node.items).drop_front()) {
    RuleScope sym(*this, "sym");
    std::optional<int64_t> id;
    std::optional<std::string> name;
    const Node *typeNode = nullptr;
    if (entry.isList() && !entry.items.empty() &&
        entry.items.front().kind == Node::Kind::Integer) {
      // Figure 4.2: `(0 "a" int32vtype)`.
      if (entry.items.size() != 3)
        return error(entry, "expected '(id name vtype)'");
      id = entry.items[0].intValue;
      if (entry.items[1].kind != Node::Kind::String &&
          !entry.items[1].isSymbol())
        return error(entry.items[1],
                     "expected a name, got " + describe(entry.items[1]));
      name = entry.items[1].text;
      typeNode = &entry.items[2];
    } else {
      FailureOr<Form> form = parseForm(entry, "sym", {":id", ":name"});
      if (failed(form))
        return failure();
      FailureOr<std::optional<int64_t>> idAttr = getOptionalInt(*form, ":id");
      FailureOr<std::optional<std::string>> nameAttr =
          getOptionalName(*form, ":name");
      if (failed(idAttr) || failed(nameAttr))
        return failure();
      id = *idAttr;
      name = *nameAttr;
      for (const Node *child : form->children) {
        if (child->kind == Node::Kind::Integer && !id)
          id = child->intValue;
        else if (isTypeNode(*child) && !typeNode)
          typeNode = child;
        else if ((child->kind == Node::Kind::String || child->isSymbol()) &&
                 !name)
          name = child->text;
        else
          return error(*child, "unexpected " + describe(*child));
      }
    }
    if (!id || !name || !typeNode)
      return error(entry, "a symbol has an ':id', a ':name' and a vtype");
    FailureOr<Type> type = parseType(*typeNode);
    if (failed(type))
      return failure();
    if (isa<NoneType>(*type))
      return error(*typeNode, "a variable cannot be void");
    if (symbols.count(*id))
      return error(entry, "the symbol id " + Twine(*id) + " is declared twice");
    Symbol &symbol = symbols[*id];
    symbol.id = *id;
    symbol.name = *name;
    symbol.type = *type;
    Location symbolLoc = loc(entry);
    if (auto tuple = dyn_cast<TupleType>(*type)) {
      for (auto [index, component] : llvm::enumerate(tuple.getTypes()))
        symbol.vars.push_back(builder->declareVariable(
            symbolLoc, *name + "." + std::to_string(index), component));
    } else {
      symbol.vars.push_back(builder->declareVariable(symbolLoc, *name, *type));
    }
  }
  return success();
}

FailureOr<Symbol *> Importer::lookupSymbol(const Node &at, int64_t id) {
  auto it = symbols.find(id);
  if (it == symbols.end())
    return error(at, "undefined symbol id " + Twine(id));
  return &it->second;
}

FailureOr<Symbol *> Importer::symbolReference(const Node &node) {
  if (node.kind == Node::Kind::Integer)
    return lookupSymbol(node, node.intValue);
  FailureOr<Form> form = parseForm(node, "sym", {":id"});
  if (failed(form))
    return failure();
  FailureOr<int64_t> id = getInt(*form, ":id");
  if (failed(id))
    return failure();
  if (!form->children.empty())
    return error(*form->children.front(),
                 "unexpected " + describe(*form->children.front()));
  return lookupSymbol(node, *id);
}

LogicalResult Importer::bindArguments(FunctionInfo &info) {
  RuleScope rule(*this, "arglist");
  const Node &at = info.arglist ? *info.arglist : *info.node;
  SmallVector<Symbol *> parameters;
  if (info.arglist) {
    for (const Node &item : ArrayRef<Node>(info.arglist->items).drop_front()) {
      RuleScope fnargs(*this, "fnargs");
      // `0` or `(arg :id 0)`.
      int64_t id = item.intValue;
      if (item.kind != Node::Kind::Integer) {
        FailureOr<Form> form = parseForm(item, "arg", {":id"});
        if (failed(form))
          return failure();
        FailureOr<int64_t> idAttr = getInt(*form, ":id");
        if (failed(idAttr))
          return failure();
        id = *idAttr;
      }
      FailureOr<Symbol *> symbol = lookupSymbol(item, id);
      if (failed(symbol))
        return failure();
      if (llvm::is_contained(parameters, *symbol))
        return error(item, "the symbol " + Twine((*symbol)->id) +
                               " is a parameter twice");
      parameters.push_back(*symbol);
    }
  }
  if (parameters.size() != info.inputs.size())
    return error(at, "the function type has " + Twine(info.inputs.size()) +
                         " parameters but the arglist names " +
                         Twine(parameters.size()));
  unsigned argument = 0;
  for (auto [position, symbol] : llvm::enumerate(parameters)) {
    if (symbol->type != info.inputs[position])
      return error(at, "parameter " + Twine(position) + " is the symbol " +
                           Twine(symbol->id) + " ('" + symbol->name +
                           "') of type " + typeName(symbol->type) +
                           ", but the function type says " +
                           typeName(info.inputs[position]));
    for (Variable var : symbol->vars)
      if (failed(
              builder->write(loc(at), var, builder->getArgument(argument++))))
        return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Importer::importStatements(ArrayRef<Node> statements) {
  for (const Node &statement : statements)
    if (failed(importStatement(statement)))
      return failure();
  return success();
}

LogicalResult Importer::importStatement(const Node &node) {
  RuleScope rule(*this, "statement");
  StringRef head = node.head();
  StringRef ruleName = llvm::StringSwitch<StringRef>(head)
                           .Case("assignstmt", "assignstmt")
                           .Case("stmtlist", "stmtlist")
                           .Case("forstmt", "forstmt")
                           .Case("pforstmt", "pforstmt")
                           .Case("whilestmt", "whilestmt")
                           .Case("ifstmt", "ifstmt")
                           .Cases({"break", "breakstmt"}, "breakstmt")
                           .Cases({"continue", "continuestmt"}, "continuestmt")
                           .Case("returnstmt", "returnstmt")
                           .Case("exprstmt", "exprstmt")
                           .Default("");
  if (ruleName.empty())
    return error(node, node.isList() && !head.empty()
                           ? "unknown statement '" + head + "'"
                           : "expected a statement, got " + describe(node));
  RuleScope statement(*this, ruleName);
  static const StringRef stmtlistAttributes[] = {":onGpu"};
  FailureOr<Form> form =
      parseForm(node, head,
                ruleName == "stmtlist" ? ArrayRef<StringRef>(stmtlistAttributes)
                                       : ArrayRef<StringRef>());
  if (failed(form))
    return failure();
  Location here = loc(node);
  if (ruleName == "assignstmt")
    return importAssign(*form);
  if (ruleName == "stmtlist")
    return importStmtList(*form);
  if (ruleName == "forstmt" || ruleName == "pforstmt")
    return importFor(*form, ruleName == "pforstmt");
  if (ruleName == "whilestmt")
    return importWhile(*form);
  if (ruleName == "ifstmt")
    return importIf(*form);
  if (ruleName == "returnstmt")
    return importReturn(*form);
  if (ruleName == "exprstmt") {
    if (form->children.size() != 1)
      return error(node, "expected '(exprstmt expr)'");
    return importExpr(*form->children.front());
  }
  if (!form->children.empty())
    return error(*form->children.front(),
                 "unexpected " + describe(*form->children.front()));
  return ruleName == "breakstmt" ? builder->breakLoop(here)
                                 : builder->continueLoop(here);
}

LogicalResult Importer::importAssign(const Form &form) {
  const Node *lhs = form.child("lhs");
  const Node *rhs = form.child("rhs");
  if (!lhs || !rhs || form.children.size() != 2)
    return error(*form.node, "expected '(assignstmt (lhs expr+) (rhs expr))'");
  ArrayRef<Node> targets = ArrayRef<Node>(lhs->items).drop_front();
  if (targets.empty())
    return error(*lhs, "an assignment has at least one target");
  if (rhs->items.size() != 2)
    return error(*rhs, "'(rhs ...)' holds exactly one expression");
  // The right-hand side is evaluated before the targets' indices.
  FailureOr<ExprValue> value = importExpr(rhs->items[1]);
  if (failed(value))
    return failure();
  if (targets.size() == 1)
    return assignTo(targets.front(), *value);
  // Several targets take the components of a tuple or the results of a call.
  auto tuple = dyn_cast<TupleType>(value->type);
  if (!tuple || tuple.size() != targets.size())
    return error(*lhs, Twine(targets.size()) +
                           " targets, but the right-hand side is a value of "
                           "type " +
                           typeName(value->type));
  for (auto [position, target] : llvm::enumerate(targets)) {
    ExprValue component{tuple.getType(position), {value->values[position]}};
    if (failed(assignTo(target, component)))
      return failure();
  }
  return success();
}

LogicalResult Importer::assignTo(const Node &target, const ExprValue &value) {
  StringRef head = canonicalExprHead(target.head());
  Location here = loc(target);
  if (head == "name") {
    RuleScope rule(*this, "name");
    FailureOr<Form> form = parseForm(target, target.head(), {":id"});
    FailureOr<Symbol *> symbol =
        succeeded(form) ? importNameSymbol(*form) : FailureOr<Symbol *>();
    if (failed(form) || failed(symbol))
      return failure();
    FailureOr<SmallVector<Value, 1>> values =
        coerce(target, value, (*symbol)->type);
    if (failed(values))
      return failure();
    for (auto [var, component] : llvm::zip((*symbol)->vars, *values))
      if (failed(builder->write(here, var, component)))
        return failure();
    return success();
  }
  if (head == "index") {
    RuleScope rule(*this, "indexexpr");
    FailureOr<Form> form =
        parseForm(target, target.head(), getIndexAttributes());
    if (failed(form))
      return failure();
    return importIndexWrite(*form, value);
  }
  if (head == "tupleindex") {
    RuleScope rule(*this, "tupleindex");
    FailureOr<Form> form =
        parseForm(target, target.head(), {":index", ":tupleid"});
    if (failed(form))
      return failure();
    FailureOr<std::pair<Symbol *, unsigned>> component =
        importTupleComponent(*form);
    if (failed(component))
      return failure();
    auto [symbol, position] = *component;
    Type type = cast<TupleType>(symbol->type).getType(position);
    FailureOr<SmallVector<Value, 1>> values = coerce(target, value, type);
    if (failed(values))
      return failure();
    return builder->write(here, symbol->vars[position], values->front());
  }
  return error(target, "cannot assign to " + describe(target) +
                           "; a target is a name, an index or a tupleindex");
}

LogicalResult Importer::importStmtList(const Form &form) {
  FailureOr<std::optional<bool>> onGpu = getOptionalBool(form, ":onGpu");
  if (failed(onGpu))
    return failure();
  if (form.children.size() != 1 || form.children.front()->head() != "stmts")
    return error(*form.node,
                 "expected '(stmtlist :onGpu boolval (stmts statement*))'");
  ArrayRef<Node> statements =
      ArrayRef<Node>(form.children.front()->items).drop_front();
  if (!onGpu->value_or(false))
    return importStatements(statements);
  return builder->gpuSection(loc(*form.node),
                             [&] { return importStatements(statements); });
}

FailureOr<SmallVector<Variable>> Importer::importIterVars(const Node &node) {
  RuleScope rule(*this, "itervars");
  FailureOr<ArrayRef<Node>> items = listItems(node, "itervars");
  if (failed(items))
    return failure();
  if (items->empty())
    return error(node, "a loop has at least one iteration variable");
  SmallVector<Variable> vars;
  for (const Node &item : *items) {
    RuleScope itersym(*this, "itersym");
    FailureOr<Symbol *> symbol = symbolReference(item);
    if (failed(symbol))
      return failure();
    if ((*symbol)->vars.size() != 1)
      return error(item, "the iteration variable '" + (*symbol)->name +
                             "' must be an integer, got " +
                             typeName((*symbol)->type));
    vars.push_back((*symbol)->vars.front());
  }
  return vars;
}

FailureOr<Importer::RangeBounds> Importer::importRangeBounds(const Node &node) {
  RuleScope rule(*this, "range");
  FailureOr<Form> form = parseForm(node, "range", {":exclude"});
  if (failed(form))
    return failure();
  FailureOr<std::optional<bool>> exclude = getOptionalBool(*form, ":exclude");
  if (failed(exclude))
    return failure();
  RangeBounds bounds;
  bounds.exclusive = *exclude;
  for (const Node *child : form->children) {
    StringRef head = child->head();
    Value *slot = head == "start"  ? &bounds.start
                  : head == "stop" ? &bounds.stop
                  : head == "step" ? &bounds.step
                                   : nullptr;
    if (!slot)
      return error(*child, "expected '(start expr)', '(step expr)' or "
                           "'(stop expr)', got " +
                               describe(*child));
    // The grammar's rules for the parts are range_start and so on.
    StringRef partRule = head == "start"  ? "range_start"
                         : head == "stop" ? "range_stop"
                                          : "range_step";
    RuleScope part(*this, partRule);
    if (*slot)
      return error(*child, "a range has one '(" + head + " ...)'");
    if (child->items.size() != 2)
      return error(*child, "'(" + head + " ...)' holds one expression");
    const Node *expr = &child->items[1];
    FailureOr<Value> value = importOperand(*expr);
    if (failed(value))
      return failure();
    Type type = value->getType();
    if (!type.isSignlessInteger() || type.isInteger(1))
      return error(*expr,
                   "a range bound must be an integer, got " + typeName(type));
    *slot = *value;
  }
  return bounds;
}

FailureOr<LoopBounds> Importer::importLoopRange(const Node &node) {
  FailureOr<RangeBounds> bounds = importRangeBounds(node);
  if (failed(bounds))
    return failure();
  RuleScope rule(*this, "range");
  if (!bounds->stop)
    return error(node, "the range of a loop or a domain needs a '(stop ...)'");
  LoopBounds loopBounds;
  loopBounds.start =
      bounds->start ? bounds->start
                    : builder->constantIndex(loc(node), semantics.indexBase);
  loopBounds.stop = bounds->stop;
  loopBounds.step = bounds->step;
  loopBounds.exclusive = bounds->exclusive;
  return loopBounds;
}

FailureOr<Value> Importer::importCondition(const Node &node) {
  FailureOr<Value> value = importOperand(node);
  if (failed(value))
    return failure();
  Type type = value->getType();
  if (!isScalarType(type))
    return error(node, "a test is a scalar, got " + typeName(type));
  // Like C, a number is true when it is not zero.
  return builder->cast(loc(node), *value, IntegerType::get(context, 1));
}

LogicalResult Importer::importFor(const Form &form, bool parallel) {
  const Node *itervars = form.child("itervars");
  const Node *loopdomain = form.child("loopdomain");
  const Node *body = form.child("body");
  const Node *shared = form.child("shared");
  if (!itervars || !loopdomain || !body || (parallel && !shared) ||
      form.children.size() != (parallel ? 4u : 3u))
    return error(*form.node,
                 parallel ? "expected '(pforstmt (itervars ...) (loopdomain "
                            "...) (shared ...) (body ...))'"
                          : "expected '(forstmt (itervars ...) (loopdomain "
                            "...) (body ...))'");
  FailureOr<SmallVector<Variable>> vars = importIterVars(*itervars);
  if (failed(vars))
    return failure();
  ArrayRef<Node> statements = ArrayRef<Node>(body->items).drop_front();
  auto importBody = [&] { return importStatements(statements); };
  Location here = loc(*form.node);

  if (loopdomain->items.size() != 2) {
    RuleScope rule(*this, "loopdomain");
    return error(*loopdomain, "expected '(loopdomain expr)' or '(loopdomain "
                              "range)'");
  }
  const Node &domainNode = loopdomain->items[1];
  bool isRange = domainNode.head() == "range";

  if (!parallel) {
    // A serial loop needs the ranges themselves to count.
    SmallVector<LoopBounds> bounds;
    if (isRange) {
      FailureOr<LoopBounds> range = importLoopRange(domainNode);
      if (failed(range))
        return failure();
      bounds.push_back(*range);
    } else if (canonicalExprHead(domainNode.head()) == "domain") {
      RuleScope domainRule(*this, "domain");
      FailureOr<Form> domainForm = parseForm(domainNode, domainNode.head(), {});
      if (failed(domainForm) || failed(checkDomainType(*domainForm)))
        return failure();
      for (const Node *rangeNode :
           ArrayRef<const Node *>(domainForm->children).drop_front()) {
        FailureOr<LoopBounds> range = importLoopRange(*rangeNode);
        if (failed(range))
          return failure();
        bounds.push_back(*range);
      }
    } else {
      RuleScope loopRule(*this, "loopdomain");
      return error(domainNode, "a forstmt iterates over a range or a "
                               "'(domain ...)' expression; only a pforstmt "
                               "takes a domain held in a variable");
    }
    return builder->forLoop(here, *vars, bounds, importBody);
  }

  Value domain;
  if (isRange) {
    FailureOr<LoopBounds> range = importLoopRange(domainNode);
    if (failed(range))
      return failure();
    domain = builder->range(loc(domainNode), range->start, range->stop,
                            range->step, range->exclusive);
  } else {
    FailureOr<ExprValue> value = importExpr(domainNode);
    if (failed(value))
      return failure();
    if (!isa<DomainType, RangeType>(value->type)) {
      RuleScope loopRule(*this, "loopdomain");
      return error(domainNode, "a pforstmt iterates over a range or a "
                               "domain, got " +
                                   typeName(value->type));
    }
    domain = value->values.front();
  }
  ArrayRef<Node> sharedItems = ArrayRef<Node>(shared->items).drop_front();
  std::optional<SharedList> sharedList;
  if (sharedItems.size() == 1 && sharedItems.front().isSymbol("auto")) {
    sharedList = SharedList::automatic();
  } else {
    RuleScope sharedRule(*this, "sharedvars");
    SmallVector<Variable> sharedVars;
    for (const Node &item : sharedItems) {
      if (item.kind != Node::Kind::Integer)
        return error(item,
                     "expected a symbol id or 'auto', got " + describe(item));
      FailureOr<Symbol *> symbol = lookupSymbol(item, item.intValue);
      if (failed(symbol))
        return failure();
      llvm::append_range(sharedVars, (*symbol)->vars);
    }
    sharedList = SharedList::of(sharedVars);
  }
  return builder->pfor(here, domain, *vars, *sharedList, importBody);
}

LogicalResult Importer::importWhile(const Form &form) {
  const Node *test = form.child("test");
  const Node *body = form.child("body");
  if (!test || !body || form.children.size() != 2 || test->items.size() != 2)
    return error(*form.node,
                 "expected '(whilestmt (test expr) (body statement*))'");
  ArrayRef<Node> statements = ArrayRef<Node>(body->items).drop_front();
  return builder->whileLoop(
      loc(*form.node),
      [&]() -> FailureOr<Value> {
        RuleScope rule(*this, "whilestmt");
        return importCondition(test->items[1]);
      },
      [&] { return importStatements(statements); });
}

LogicalResult Importer::importIf(const Form &form) {
  const Node *test = form.child("test");
  const Node *thenBody = form.child("if");
  const Node *elseBody = form.child("else");
  if (!test || !thenBody || test->items.size() != 2 ||
      form.children.size() != (elseBody ? 3u : 2u))
    return error(*form.node, "expected '(ifstmt (test expr) (if statement*) "
                             "(else statement*))'");
  FailureOr<Value> condition = importCondition(test->items[1]);
  if (failed(condition))
    return failure();
  auto importThen = [&] {
    return importStatements(ArrayRef<Node>(thenBody->items).drop_front());
  };
  auto importElse = [&] {
    RuleScope rule(*this, "elsetmt");
    return importStatements(ArrayRef<Node>(elseBody->items).drop_front());
  };
  return builder->ifThenElse(loc(*form.node), *condition, importThen,
                             elseBody ? FunctionBuilder::BodyFn(importElse)
                                      : nullptr);
}

LogicalResult Importer::importReturn(const Form &form) {
  const Node *exprs = form.child("exprs");
  if (form.children.size() != (exprs ? 1u : 0u) ||
      (exprs && exprs->items.size() < 2))
    return error(*form.node, "expected '(returnstmt (exprs expr+))' or "
                             "'(returnstmt)'");
  FailureOr<SmallVector<ExprValue>> imported = importExprList(exprs);
  if (failed(imported))
    return failure();
  SmallVector<ExprValue> &values = *imported;
  ArrayRef<Type> results = function->results;
  // One tuple (such as the results of a call) may stand for all results.
  if (values.size() == 1 && results.size() > 1) {
    if (auto tuple = dyn_cast<TupleType>(values.front().type);
        tuple && tuple.size() == results.size()) {
      ExprValue all = values.front();
      values.clear();
      for (auto [position, type] : llvm::enumerate(tuple.getTypes()))
        values.push_back({type, {all.values[position]}});
    }
  }
  if (values.size() != results.size())
    return error(*form.node, "the function '" + function->op.getSymName() +
                                 "' has " + Twine(results.size()) +
                                 " result(s), but the return gives " +
                                 Twine(values.size()));
  SmallVector<Value> flat;
  for (auto [position, value] : llvm::enumerate(values)) {
    // Diagnose at the expression, or at the only one for a tuple.
    const Node &at =
        exprs->items[std::min<size_t>(position + 1, exprs->items.size() - 1)];
    FailureOr<SmallVector<Value, 1>> converted =
        coerce(at, value, results[position]);
    if (failed(converted))
      return failure();
    llvm::append_range(flat, *converted);
  }
  return builder->returnValues(loc(*form.node), flat);
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Importer::run() {
  loadFrontendDialects(*context);
  StringRef text = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  FailureOr<std::vector<Node>> nodes =
      readSExprs(text, [&](llvm::SMLoc smloc, const Twine &message) {
        emitError(loc(smloc)) << message;
      });
  if (failed(nodes) || failed(importModule(*nodes)) || failed(verify(*module)))
    return nullptr;
  return std::move(module);
}

OwningOpRef<ModuleOp> mlir::vrir::importVRIRSExpr(llvm::SourceMgr &sourceMgr,
                                                  MLIRContext *context) {
  return Importer(sourceMgr, context).run();
}

void mlir::vrir::registerImportVRIRSExprTranslation() {
  TranslateToMLIRRegistration registration(
      "import-vrir-sexpr",
      "Import the S-expression form of VRIR (thesis appendix A)",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return importVRIRSExpr(sourceMgr, context);
      },
      [](DialectRegistry &registry) {
        // Only VRIR is needed up front; the builder loads the rest.
        registry.insert<VRIRDialect>();
      });
}
