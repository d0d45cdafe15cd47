//===- Builder.cpp - C++ API for VRIR frontends ---------------------------===//
//
// Variables are scoped: the function scope holds one slot per declared
// variable; a pfor body and an accelerated section are nested scopes that
// bind a variable on its first use. A nested binding starts as a private
// copy of the value outside (read just before the construct). When the
// construct is closed the bindings that were never rebound are replaced by
// that outside value, which for `shared(auto)` also makes them shared, and
// the rebound ones of a section are copied out. Each nested scope keeps its
// statements in an scf.execute_region, whose region may hold a CFG although
// pfor and gpu_section bodies are single blocks; it is inlined again when
// the body needed no branches.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Builder/Builder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::vrir;

void mlir::vrir::loadFrontendDialects(MLIRContext &context) {
  context.loadDialect<VRIRDialect, func::FuncDialect, arith::ArithDialect,
                      cf::ControlFlowDialect, scf::SCFDialect,
                      complex::ComplexDialect, ub::UBDialect>();
}

OwningOpRef<ModuleOp> mlir::vrir::createModule(MLIRContext *context,
                                               Location loc,
                                               const ModuleSemantics &semantics,
                                               StringRef name) {
  loadFrontendDialects(*context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(
      loc, name.empty() ? std::nullopt : std::optional<StringRef>(name));
  Builder builder(context);
  Operation *op = module->getOperation();
  op->setAttr(VRIRDialect::kIndexBaseAttrName,
              builder.getI64IntegerAttr(semantics.indexBase));
  op->setAttr(VRIRDialect::kRangeExclusiveAttrName,
              builder.getBoolAttr(semantics.rangeExclusive));
  op->setAttr(VRIRDialect::kMemoryAttrName,
              MemoryManagementAttr::get(context, semantics.memory));
  return module;
}

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

namespace {

enum class ScopeKind { Function, Pfor, Gpu };

/// What a variable denotes in one scope.
struct Binding {
  /// The variable's slot in this scope; null for a read-only binding.
  Value slot;
  /// The value of a read-only binding (a variable the pfor shares).
  Value value;
  /// The outside value the slot started with (nested scopes only).
  Value copyIn;
  bool rebound = false;
  /// The first indexed write through the variable in this scope.
  std::optional<Location> indexWrite;
};

struct LoopTargets {
  Block *continueDest;
  Block *breakDest;
};

struct Scope {
  ScopeKind kind;
  /// func.func, vrir.pfor or vrir.gpu_section.
  Operation *op;
  /// The region the statements' blocks go into: the function body or the
  /// scf.execute_region of a nested scope.
  Region *region;
  Scope *parent;
  /// Slots and their initial writes go after this op of the entry block.
  Operation *lastSlotOp = nullptr;
  /// In order of first use, so that shared lists and copy-outs are stable.
  llvm::MapVector<unsigned, Binding> bindings;
  SmallVector<LoopTargets> loops;
  bool automaticShared = false;
  SmallVector<Value> sharedValues;
};

struct VariableInfo {
  std::string name;
  Type type;
};

/// Records the value an op was replaced with by a rewrite pattern.
struct ReplacementListener : public RewriterBase::Listener {
  void notifyOperationReplaced(Operation *, ValueRange values) override {
    if (!values.empty())
      replacement = values.front();
  }
  Value replacement;
};

bool isIntegerOrIndex(Type type) {
  return type.isIndex() || (type.isSignlessInteger() && !type.isInteger(1));
}

} // namespace

struct FunctionBuilder::Impl {
  explicit Impl(func::FuncOp function)
      : builder(function.getContext()), function(function),
        scalarPatterns(function.getContext()) {}

  OpBuilder builder;
  func::FuncOp function;
  ModuleSemantics semantics;
  ErrorHandler onError;
  SmallVector<VariableInfo> variables;
  SmallVector<std::unique_ptr<Scope>> scopes;
  /// The dialect's scalar-to-arith canonicalizations of vrir.binary/cmp.
  RewritePatternSet scalarPatterns;

  MLIRContext *getContext() { return function.getContext(); }
  Scope &scope() { return *scopes.back(); }
  LogicalResult error(Location loc, const Twine &message) {
    onError(loc, message);
    return failure();
  }
  StringRef nameOf(unsigned id) { return variables[id].name; }

  bool insideGpuSection() {
    return llvm::any_of(scopes, [](const std::unique_ptr<Scope> &scope) {
      return scope->kind == ScopeKind::Gpu;
    });
  }

  /// Creates a slot for variable `id` in the entry block of `scope`, after
  /// its other slots; `initial`, if given, is written into it there.
  Value createSlot(Scope &scope, unsigned id, Location loc,
                   Value initial = {}) {
    OpBuilder::InsertionGuard guard(builder);
    if (scope.lastSlotOp)
      builder.setInsertionPointAfter(scope.lastSlotOp);
    else
      builder.setInsertionPointToStart(&scope.region->front());
    const VariableInfo &info = variables[id];
    auto slot =
        AllocaOp::create(builder, loc, VarType::get(getContext(), info.type),
                         builder.getStringAttr(info.name));
    scope.lastSlotOp = slot;
    if (initial)
      scope.lastSlotOp = WriteOp::create(builder, loc, initial, slot);
    return slot;
  }

  /// The binding of variable `id` in `scope`, created on first use.
  Binding &bind(Scope &scope, unsigned id, Location loc) {
    auto it = scope.bindings.find(id);
    if (it != scope.bindings.end())
      return it->second;
    // The function scope binds every variable when it is declared, so this
    // is a nested scope: start from the value just before the construct.
    Value outside;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(scope.op);
      outside = readIn(*scope.parent, id, loc);
    }
    Binding binding;
    binding.copyIn = outside;
    binding.slot = createSlot(scope, id, loc, outside);
    return scope.bindings.insert({id, binding}).first->second;
  }

  Value readIn(Scope &scope, unsigned id, Location loc) {
    Binding &binding = bind(scope, id, loc);
    if (binding.value)
      return binding.value;
    return ReadOp::create(builder, loc, binding.slot);
  }

  /// Replaces the reads of a slot that was never rebound by its initial
  /// value and removes the slot.
  static void replaceSlot(Value slot, Value value) {
    for (Operation *user : llvm::make_early_inc_range(slot.getUsers())) {
      if (auto read = dyn_cast<ReadOp>(user))
        read.getResult().replaceAllUsesWith(value);
      user->erase();
    }
    slot.getDefiningOp()->erase();
  }

  //===--------------------------------------------------------------------===//
  // Blocks
  //===--------------------------------------------------------------------===//

  Block *newBlock() {
    auto *block = new Block();
    scope().region->push_back(block);
    return block;
  }

  /// Continues in `block`, moved to the end of the region so that blocks
  /// appear in the order they are filled.
  void setBlock(Block *block) {
    Region::BlockListType &blocks = scope().region->getBlocks();
    blocks.splice(blocks.end(), blocks, block->getIterator());
    builder.setInsertionPointToEnd(block);
  }

  void branch(Location loc, Block *dest, ValueRange args = {}) {
    cf::BranchOp::create(builder, loc, dest, args);
  }

  /// After a jump, statements up to the end of the list are dead: they go
  /// into a block without predecessors that `eraseUnreachable` removes.
  void continueUnreachable() { setBlock(newBlock()); }

  void eraseUnreachable(Region &region) {
    IRRewriter rewriter(getContext());
    (void)eraseUnreachableBlocks(rewriter, region);
  }

  /// Ends the execute_region of a nested scope by yielding `values`, and
  /// inlines it if it has a single block. Returns the values after it.
  SmallVector<Value> closeExecuteRegion(Location loc, ValueRange values) {
    Scope &nested = scope();
    scf::YieldOp::create(builder, loc, values);
    Region &region = *nested.region;
    eraseUnreachable(region);
    auto execute = llvm::cast<scf::ExecuteRegionOp>(region.getParentOp());
    if (region.hasOneBlock()) {
      Block &body = region.front();
      Operation *yield = body.getTerminator();
      SmallVector<Value> results(yield->getOperands());
      yield->erase();
      execute->getBlock()->getOperations().splice(execute->getIterator(),
                                                  body.getOperations());
      execute.erase();
      return results;
    }
    if (values.empty())
      return {};
    builder.setInsertionPoint(execute);
    auto withResults = scf::ExecuteRegionOp::create(
        builder, loc, TypeRange(ValueRange(values)));
    withResults.getRegion().takeBody(region);
    execute.erase();
    return SmallVector<Value>(withResults.getResults());
  }

  /// Opens a nested scope for `op`, whose body block ends with `terminator`:
  /// the statements go into an scf.execute_region before it.
  void pushNestedScope(ScopeKind kind, Operation *op, Operation *terminator,
                       Location loc) {
    builder.setInsertionPoint(terminator);
    auto execute = scf::ExecuteRegionOp::create(builder, loc, TypeRange{});
    auto *entry = new Block();
    execute.getRegion().push_back(entry);
    auto nested = std::make_unique<Scope>();
    nested->kind = kind;
    nested->op = op;
    nested->region = &execute.getRegion();
    nested->parent = &scope();
    scopes.push_back(std::move(nested));
    builder.setInsertionPointToEnd(entry);
  }

  /// Leaves a nested scope; the builder continues after its op.
  void popNestedScope(Operation *op) {
    scopes.pop_back();
    builder.setInsertionPointAfter(op);
  }

  /// The test of a counted loop at `iv`. A constant step decides the
  /// direction at compile time; otherwise its sign is tested.
  Value loopTest(Location loc, Value iv, Value stop, Value step,
                 bool exclusive) {
    using Pred = arith::CmpIPredicate;
    Pred up = exclusive ? Pred::slt : Pred::sle;
    Pred down = exclusive ? Pred::sgt : Pred::sge;
    APInt constantStep;
    if (matchPattern(step, m_ConstantInt(&constantStep)))
      return arith::CmpIOp::create(
          builder, loc, constantStep.isNegative() ? down : up, iv, stop);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value positive = arith::CmpIOp::create(builder, loc, Pred::sgt, step, zero);
    Value upTest = arith::CmpIOp::create(builder, loc, up, iv, stop);
    Value downTest = arith::CmpIOp::create(builder, loc, down, iv, stop);
    return arith::SelectOp::create(builder, loc, positive, upTest, downTest);
  }

  /// `stop` moved by one step direction when `exclusive` differs from the
  /// module's convention, which vrir.range follows.
  Value adjustStop(Location loc, Value stop, Value step,
                   std::optional<bool> exclusive) {
    if (!exclusive || *exclusive == semantics.rangeExclusive)
      return stop;
    // An inclusive stop in an exclusive module goes one step further out;
    // an exclusive one in an inclusive module one step back in.
    int64_t outward = semantics.rangeExclusive ? 1 : -1;
    Value delta;
    APInt constantStep;
    if (!step) {
      delta = arith::ConstantIndexOp::create(builder, loc, outward);
    } else if (matchPattern(step, m_ConstantInt(&constantStep))) {
      delta = arith::ConstantIndexOp::create(
          builder, loc, constantStep.isNegative() ? -outward : outward);
    } else {
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value negative = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::slt, step, zero);
      delta = arith::SelectOp::create(
          builder, loc, negative,
          arith::ConstantIndexOp::create(builder, loc, -outward),
          arith::ConstantIndexOp::create(builder, loc, outward));
    }
    return arith::AddIOp::create(builder, loc, stop, delta);
  }

  /// Converts integer indices to index; `!vrir.range`s pass when
  /// `allowRanges`.
  LogicalResult convertIndices(Location loc, ValueRange indices,
                               bool allowRanges,
                               SmallVectorImpl<Value> &converted) {
    for (Value index : indices) {
      if (allowRanges && isa<RangeType>(index.getType())) {
        converted.push_back(index);
        continue;
      }
      if (!isIntegerOrIndex(index.getType()))
        return error(loc, Twine("an index must be an integer") +
                              (allowRanges ? " or a range" : "") + ", got " +
                              typeString(index.getType()));
      converted.push_back(toIndex(loc, index));
    }
    return success();
  }

  Value toIndex(Location loc, Value value) {
    if (value.getType().isIndex())
      return value;
    // A constant stays visibly constant: loop tests and the verifier's
    // checks of constant indices look for one.
    APInt constantValue;
    if (matchPattern(value, m_ConstantInt(&constantValue)))
      return arith::ConstantIndexOp::create(builder, loc,
                                            constantValue.getSExtValue());
    return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                      value);
  }

  /// Per-index flags as an attribute; null when they are the default.
  FailureOr<ArrayAttr> flagsAttr(Location loc, ArrayRef<IndexFlags> flags,
                                 size_t numIndices) {
    if (flags.empty())
      return ArrayAttr();
    if (flags.size() != numIndices)
      return error(loc, Twine(numIndices) + " indices but " +
                            Twine(flags.size()) + " index flags");
    if (llvm::all_of(flags,
                     [](IndexFlags f) { return f == getDefaultIndexFlags(); }))
      return ArrayAttr();
    SmallVector<Attribute> attrs;
    for (IndexFlags f : flags)
      attrs.push_back(IndexFlagsAttr::get(getContext(), f));
    return builder.getArrayAttr(attrs);
  }

  FailureOr<ArrayType> arrayOperand(Location loc, Value array) {
    auto type = dyn_cast<ArrayType>(array.getType());
    if (!type)
      return error(loc, "expected an array to index, got " +
                            typeString(array.getType()));
    return type;
  }

  /// Notes an indexed write through `id` (for the shared-list rules) and
  /// checks that a growing write does not rebind a shared array.
  LogicalResult noteIndexedWrite(Location loc, unsigned id, bool grows) {
    Binding &binding = bind(scope(), id, loc);
    if (!binding.indexWrite)
      binding.indexWrite = loc;
    if (grows && !binding.slot)
      return error(loc, "cannot grow the shared array '" + nameOf(id) +
                            "' inside a pfor: growth would rebind it "
                            "(thesis 4.5.1)");
    return success();
  }

  /// Applies the dialect's scalar canonicalization to a just-built
  /// vrir.binary or vrir.cmp, so that scalar code is plain arith.
  Value canonicalizeScalar(Operation *op) {
    Value result = op->getResult(0);
    if (isa<ArrayType>(result.getType()))
      return result;
    ReplacementListener listener;
    PatternRewriter rewriter(getContext());
    rewriter.setListener(&listener);
    rewriter.setInsertionPoint(op);
    for (const std::unique_ptr<RewritePattern> &pattern :
         scalarPatterns.getNativePatterns()) {
      if (pattern->getRootKind() != op->getName())
        continue;
      if (succeeded(pattern->matchAndRewrite(op, rewriter)))
        return listener.replacement;
    }
    return result;
  }

  static std::string typeString(Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return text;
  }
};

//===----------------------------------------------------------------------===//
// FunctionBuilder
//===----------------------------------------------------------------------===//

FunctionBuilder::FunctionBuilder(func::FuncOp function)
    : impl(std::make_unique<Impl>(function)) {
  assert(function.isExternal() && "the function already has a body");
  impl->semantics = getModuleSemantics(function);
  impl->onError = [](Location loc, const Twine &message) {
    emitError(loc) << message;
  };
  MLIRContext *context = function.getContext();
  BinaryOp::getCanonicalizationPatterns(impl->scalarPatterns, context);
  CmpOp::getCanonicalizationPatterns(impl->scalarPatterns, context);
  // A declaration is private; a function with a body is visible.
  function.setPublic();
  Block *entry = function.addEntryBlock();
  auto scope = std::make_unique<Scope>();
  scope->kind = ScopeKind::Function;
  scope->op = function;
  scope->region = &function.getBody();
  scope->parent = nullptr;
  impl->scopes.push_back(std::move(scope));
  impl->builder.setInsertionPointToEnd(entry);
}

FunctionBuilder::~FunctionBuilder() = default;

func::FuncOp FunctionBuilder::declareFunction(ModuleOp module, Location loc,
                                              StringRef name,
                                              FunctionType type) {
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  auto function = func::FuncOp::create(builder, loc, name, type);
  function.setPrivate();
  return function;
}

func::FuncOp FunctionBuilder::getFunction() const { return impl->function; }
OpBuilder &FunctionBuilder::getBuilder() { return impl->builder; }
const ModuleSemantics &FunctionBuilder::getSemantics() const {
  return impl->semantics;
}
void FunctionBuilder::setErrorHandler(ErrorHandler handler) {
  impl->onError = std::move(handler);
}
BlockArgument FunctionBuilder::getArgument(unsigned index) const {
  return impl->function.getArgument(index);
}

Variable FunctionBuilder::declareVariable(Location loc, StringRef name,
                                          Type type) {
  unsigned id = impl->variables.size();
  impl->variables.push_back({name.str(), type});
  Scope &function = *impl->scopes.front();
  Binding binding;
  binding.slot = impl->createSlot(function, id, loc);
  function.bindings.insert({id, binding});
  return Variable(id);
}

Type FunctionBuilder::getType(Variable variable) const {
  assert(variable.id < impl->variables.size() && "not a variable of this "
                                                 "function");
  return impl->variables[variable.id].type;
}
StringRef FunctionBuilder::getName(Variable variable) const {
  assert(variable.id < impl->variables.size() && "not a variable of this "
                                                 "function");
  return impl->variables[variable.id].name;
}

Value FunctionBuilder::read(Location loc, Variable variable) {
  assert(variable.id < impl->variables.size() && "not a variable of this "
                                                 "function");
  return impl->readIn(impl->scope(), variable.id, loc);
}

LogicalResult FunctionBuilder::write(Location loc, Variable variable,
                                     Value value) {
  Type type = getType(variable);
  StringRef name = getName(variable);
  if (value.getType() != type)
    return impl->error(loc, "cannot assign a value of type " +
                                Impl::typeString(value.getType()) +
                                " to the variable '" + name + "' of type " +
                                Impl::typeString(type));
  if (isa<FunctionType>(type) && impl->insideGpuSection())
    return impl->error(loc, "cannot rebind the function-valued variable '" +
                                name +
                                "' inside an accelerated section (thesis "
                                "4.5.4)");
  Binding &binding = impl->bind(impl->scope(), variable.id, loc);
  if (!binding.slot)
    return impl->error(loc, "cannot assign the variable '" + name +
                                "': the enclosing pfor shares it, and shared "
                                "variables cannot be rebound (thesis 4.5.1)");
  WriteOp::create(impl->builder, loc, value, binding.slot);
  binding.rebound = true;
  return success();
}

//===----------------------------------------------------------------------===//
// Scalars, ranges and element-wise operators
//===----------------------------------------------------------------------===//

Value FunctionBuilder::constantIndex(Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(impl->builder, loc, value);
}

Value FunctionBuilder::toIndex(Location loc, Value value) {
  if (!isIntegerOrIndex(value.getType()))
    return {};
  return impl->toIndex(loc, value);
}

Value FunctionBuilder::range(Location loc, Value start, Value stop, Value step,
                             std::optional<bool> exclusive) {
  for (Value bound : {start, stop, step})
    if (bound && !isIntegerOrIndex(bound.getType())) {
      (void)impl->error(loc, "range bounds must be integers, got " +
                                 Impl::typeString(bound.getType()));
      return {};
    }
  start = impl->toIndex(loc, start);
  stop = impl->toIndex(loc, stop);
  if (step)
    step = impl->toIndex(loc, step);
  stop = impl->adjustStop(loc, stop, step, exclusive);
  return RangeOp::create(impl->builder, loc, start, stop, step);
}

Value FunctionBuilder::domain(Location loc, ArrayRef<Value> ranges) {
  return DomainOp::create(impl->builder, loc,
                          DomainType::get(impl->getContext(), ranges.size()),
                          ranges);
}

Value FunctionBuilder::binary(Location loc, BinaryFn fn, Value lhs, Value rhs,
                              Type resultType) {
  auto op = BinaryOp::create(impl->builder, loc, resultType, fn, lhs, rhs);
  return impl->canonicalizeScalar(op);
}

Value FunctionBuilder::compare(Location loc, CmpPredicate predicate, Value lhs,
                               Value rhs, Type resultType) {
  auto op = CmpOp::create(impl->builder, loc, resultType, predicate, lhs, rhs);
  return impl->canonicalizeScalar(op);
}

Value FunctionBuilder::unary(Location loc, UnaryFn fn, Value operand,
                             Type resultType) {
  return UnaryOp::create(impl->builder, loc, resultType, fn, operand);
}

Value FunctionBuilder::cast(Location loc, Value value, Type type) {
  OpBuilder &b = impl->builder;
  Type from = value.getType();
  if (from == type)
    return value;
  auto fromArray = dyn_cast<ArrayType>(from);
  auto toArray = dyn_cast<ArrayType>(type);
  if (!fromArray || !toArray)
    return CastOp::create(b, loc, type, value);
  // Arrays: convert the elements into a new contiguous array if needed,
  // then fix the layout. A strided target takes a whole-array view, which
  // keeps the array object (no copy).
  if (fromArray.getElementType() != toArray.getElementType()) {
    Layout layout = toArray.isContiguous()
                        ? toArray.getLayout()
                        : (fromArray.isContiguous() ? fromArray.getLayout()
                                                    : Layout::RowMajor);
    value = CastOp::create(b, loc, toArray.withLayout(layout), value);
    fromArray = llvm::cast<ArrayType>(value.getType());
  }
  if (fromArray == toArray)
    return value;
  if (!toArray.isContiguous())
    return SliceOp::create(b, loc, toArray, value, ValueRange{}, ArrayAttr(),
                           /*copy=*/false);
  return CopyOp::create(b, loc, toArray, value);
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

FailureOr<Value> FunctionBuilder::load(Location loc, Value array,
                                       ValueRange indices,
                                       ArrayRef<IndexFlags> flags,
                                       bool flattened) {
  SmallVector<Value> converted;
  FailureOr<ArrayAttr> flagsAttr;
  if (failed(impl->arrayOperand(loc, array)) ||
      failed(impl->convertIndices(loc, indices, /*allowRanges=*/false,
                                  converted)) ||
      failed(flagsAttr = impl->flagsAttr(loc, flags, indices.size())))
    return failure();
  return LoadOp::create(impl->builder, loc, array, converted, *flagsAttr,
                        flattened)
      .getResult();
}

LogicalResult FunctionBuilder::store(Location loc, Value value, Variable array,
                                     ValueRange indices,
                                     ArrayRef<IndexFlags> flags,
                                     bool flattened) {
  bool grows = llvm::any_of(flags, [](IndexFlags f) {
    return bitEnumContainsAny(f, IndexFlags::Grow);
  });
  Value arrayValue = read(loc, array);
  SmallVector<Value> converted;
  FailureOr<ArrayAttr> flagsAttr;
  FailureOr<ArrayType> type;
  if (failed(type = impl->arrayOperand(loc, arrayValue)) ||
      failed(impl->noteIndexedWrite(loc, array.id, grows)) ||
      failed(impl->convertIndices(loc, indices, /*allowRanges=*/false,
                                  converted)) ||
      failed(flagsAttr = impl->flagsAttr(loc, flags, indices.size())))
    return failure();
  auto op =
      StoreOp::create(impl->builder, loc, grows ? Type(*type) : Type(), value,
                      arrayValue, converted, *flagsAttr, flattened);
  // MATLAB arrays are values: the variable now names the grown array.
  if (grows)
    return write(loc, array, op.getGrown());
  return success();
}

FailureOr<Value> FunctionBuilder::slice(Location loc, Value array,
                                        ValueRange indices,
                                        ArrayRef<IndexFlags> flags, bool copy,
                                        std::optional<Layout> copyLayout) {
  FailureOr<ArrayType> type;
  SmallVector<Value> converted;
  FailureOr<ArrayAttr> flagsAttr;
  if (failed(type = impl->arrayOperand(loc, array)) ||
      failed(impl->convertIndices(loc, indices, /*allowRanges=*/true,
                                  converted)) ||
      failed(flagsAttr = impl->flagsAttr(loc, flags, indices.size())))
    return failure();
  if (indices.size() > type->getRank())
    return impl->error(loc, Twine(indices.size()) +
                                " indices for an array of rank " +
                                Twine(type->getRank()));
  // Integers drop their dimension; ranges and missing indices keep theirs.
  unsigned rank = type->getRank() - indices.size();
  for (Value index : converted)
    rank += isa<RangeType>(index.getType());
  if (rank == 0)
    return impl->error(loc, "a slice that selects one element is a load");
  Layout layout = Layout::Strided;
  if (copy)
    layout = copyLayout ? *copyLayout
                        : (type->isContiguous() ? type->getLayout()
                                                : Layout::RowMajor);
  auto resultType =
      ArrayType::get(impl->getContext(), type->getElementType(), rank, layout);
  return SliceOp::create(impl->builder, loc, resultType, array, converted,
                         *flagsAttr, copy)
      .getResult();
}

LogicalResult FunctionBuilder::storeSlice(Location loc, Value value,
                                          Variable array, ValueRange indices,
                                          ArrayRef<IndexFlags> flags) {
  Value arrayValue = read(loc, array);
  SmallVector<Value> converted;
  FailureOr<ArrayAttr> flagsAttr;
  if (failed(impl->arrayOperand(loc, arrayValue)) ||
      failed(impl->noteIndexedWrite(loc, array.id, /*grows=*/false)) ||
      failed(impl->convertIndices(loc, indices, /*allowRanges=*/true,
                                  converted)) ||
      failed(flagsAttr = impl->flagsAttr(loc, flags, indices.size())))
    return failure();
  StoreSliceOp::create(impl->builder, loc, value, arrayValue, converted,
                       *flagsAttr);
  return success();
}

FailureOr<Value> FunctionBuilder::gather(Location loc, Value array,
                                         Value indices, unsigned axis,
                                         std::optional<IndexFlags> flags) {
  FailureOr<ArrayType> type, indexType;
  if (failed(type = impl->arrayOperand(loc, array)) ||
      failed(indexType = impl->arrayOperand(loc, indices)))
    return failure();
  if (axis >= type->getRank())
    return impl->error(loc, "axis " + Twine(axis) +
                                " is out of range for an array of rank " +
                                Twine(type->getRank()));
  auto resultType = ArrayType::get(impl->getContext(), type->getElementType(),
                                   type->getRank() - 1 + indexType->getRank(),
                                   type->isContiguous() ? type->getLayout()
                                                        : Layout::RowMajor);
  IndexFlagsAttr flagsAttr;
  if (flags)
    flagsAttr = IndexFlagsAttr::get(impl->getContext(), *flags);
  return GatherOp::create(impl->builder, loc, resultType, array, indices, axis,
                          flagsAttr)
      .getResult();
}

LogicalResult FunctionBuilder::scatter(Location loc, Value value,
                                       Variable array, Value indices,
                                       unsigned axis,
                                       std::optional<IndexFlags> flags) {
  Value arrayValue = read(loc, array);
  if (failed(impl->arrayOperand(loc, arrayValue)) ||
      failed(impl->arrayOperand(loc, indices)) ||
      failed(impl->noteIndexedWrite(loc, array.id, /*grows=*/false)))
    return failure();
  IndexFlagsAttr flagsAttr;
  if (flags)
    flagsAttr = IndexFlagsAttr::get(impl->getContext(), *flags);
  ScatterOp::create(impl->builder, loc, value, arrayValue, indices, axis,
                    flagsAttr);
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult FunctionBuilder::forLoop(Location loc,
                                       ArrayRef<Variable> inductionVars,
                                       ArrayRef<LoopBounds> bounds,
                                       BodyFn body) {
  if (bounds.empty() || inductionVars.size() != bounds.size())
    return impl->error(loc, Twine(inductionVars.size()) +
                                " iteration variables for a loop over " +
                                Twine(bounds.size()) + " dimensions");
  for (Variable var : inductionVars)
    if (!isIntegerOrIndex(getType(var)))
      return impl->error(loc, "the iteration variable '" + getName(var) +
                                  "' must be an integer, got " +
                                  Impl::typeString(getType(var)));
  OpBuilder &b = impl->builder;
  // The bounds are evaluated once, before the loop (thesis 4.1.3).
  struct Dim {
    Value start, stop, step;
    bool exclusive;
  };
  SmallVector<Dim> dims;
  for (const LoopBounds &bound : bounds) {
    for (Value value : {bound.start, bound.stop, bound.step})
      if (value && !isIntegerOrIndex(value.getType()))
        return impl->error(loc, "loop bounds must be integers, got " +
                                    Impl::typeString(value.getType()));
    Dim dim;
    dim.start = impl->toIndex(loc, bound.start);
    dim.stop = impl->toIndex(loc, bound.stop);
    dim.step =
        bound.step ? impl->toIndex(loc, bound.step) : constantIndex(loc, 1);
    dim.exclusive = bound.exclusive.value_or(impl->semantics.rangeExclusive);
    dims.push_back(dim);
  }

  // One header per dimension; leaving dimension d goes to the latch of
  // dimension d - 1, leaving the outermost to the exit.
  Block *exit = impl->newBlock();
  SmallVector<Block *> headers, latches;
  SmallVector<Value> points;
  for (auto [d, dim] : llvm::enumerate(dims)) {
    Block *header = impl->newBlock();
    Value point = header->addArgument(b.getIndexType(), loc);
    impl->branch(loc, header, dim.start);
    impl->setBlock(header);
    Value test = impl->loopTest(loc, point, dim.stop, dim.step, dim.exclusive);
    Block *bodyBlock = impl->newBlock();
    Block *latch = impl->newBlock();
    cf::CondBranchOp::create(b, loc, test, bodyBlock, ValueRange{},
                             d == 0 ? exit : latches.back(), ValueRange{});
    headers.push_back(header);
    latches.push_back(latch);
    points.push_back(point);
    impl->setBlock(bodyBlock);
    Type type = getType(inductionVars[d]);
    Value value = type.isIndex()
                      ? point
                      : arith::IndexCastOp::create(b, loc, type, point);
    if (failed(write(loc, inductionVars[d], value)))
      return failure();
  }
  impl->scope().loops.push_back({latches.back(), exit});
  LogicalResult result = body();
  impl->scope().loops.pop_back();
  if (failed(result))
    return failure();
  impl->branch(loc, latches.back());
  for (int d = dims.size() - 1; d >= 0; --d) {
    impl->setBlock(latches[d]);
    Value next = arith::AddIOp::create(b, loc, points[d], dims[d].step);
    impl->branch(loc, headers[d], next);
  }
  impl->setBlock(exit);
  return success();
}

LogicalResult FunctionBuilder::whileLoop(Location loc, ConditionFn condition,
                                         BodyFn body) {
  Block *header = impl->newBlock();
  impl->branch(loc, header);
  impl->setBlock(header);
  FailureOr<Value> test = condition();
  if (failed(test))
    return failure();
  if (!test->getType().isInteger(1))
    return impl->error(loc, "the test of a while loop must be i1, got " +
                                Impl::typeString(test->getType()));
  Block *bodyBlock = impl->newBlock();
  Block *exit = impl->newBlock();
  cf::CondBranchOp::create(impl->builder, loc, *test, bodyBlock, ValueRange{},
                           exit, ValueRange{});
  impl->setBlock(bodyBlock);
  impl->scope().loops.push_back({header, exit});
  LogicalResult result = body();
  impl->scope().loops.pop_back();
  if (failed(result))
    return failure();
  impl->branch(loc, header);
  impl->setBlock(exit);
  return success();
}

LogicalResult FunctionBuilder::ifThenElse(Location loc, Value condition,
                                          BodyFn thenBody, BodyFn elseBody) {
  if (!condition.getType().isInteger(1))
    return impl->error(loc, "the test of an if must be i1, got " +
                                Impl::typeString(condition.getType()));
  Block *thenBlock = impl->newBlock();
  Block *elseBlock = elseBody ? impl->newBlock() : nullptr;
  Block *join = impl->newBlock();
  cf::CondBranchOp::create(impl->builder, loc, condition, thenBlock,
                           ValueRange{}, elseBlock ? elseBlock : join,
                           ValueRange{});
  impl->setBlock(thenBlock);
  if (failed(thenBody()))
    return failure();
  impl->branch(loc, join);
  if (elseBlock) {
    impl->setBlock(elseBlock);
    if (failed(elseBody()))
      return failure();
    impl->branch(loc, join);
  }
  impl->setBlock(join);
  return success();
}

/// The reason a jump cannot leave the innermost scope without a loop.
static StringRef describeJumpBarrier(ScopeKind kind) {
  switch (kind) {
  case ScopeKind::Pfor:
    return "cannot leave a pfor: its iterations run in parallel (thesis "
           "4.5.1)";
  case ScopeKind::Gpu:
    return "cannot leave an accelerated section (thesis 4.5.4)";
  case ScopeKind::Function:
    break;
  }
  return "is outside of any loop";
}

LogicalResult FunctionBuilder::breakLoop(Location loc) {
  Scope &scope = impl->scope();
  if (scope.loops.empty())
    return impl->error(loc, "'break' " + describeJumpBarrier(scope.kind));
  impl->branch(loc, scope.loops.back().breakDest);
  impl->continueUnreachable();
  return success();
}

LogicalResult FunctionBuilder::continueLoop(Location loc) {
  Scope &scope = impl->scope();
  if (scope.loops.empty())
    return impl->error(loc, "'continue' " + describeJumpBarrier(scope.kind));
  impl->branch(loc, scope.loops.back().continueDest);
  impl->continueUnreachable();
  return success();
}

LogicalResult FunctionBuilder::returnValues(Location loc, ValueRange values) {
  Scope &scope = impl->scope();
  if (scope.kind != ScopeKind::Function)
    return impl->error(loc, "'return' " + describeJumpBarrier(scope.kind));
  TypeRange expected = impl->function.getResultTypes();
  if (!llvm::equal(values.getTypes(), expected)) {
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "the function '" << impl->function.getSymName() << "' returns (";
    llvm::interleaveComma(expected, os);
    os << ") but the return gives (";
    llvm::interleaveComma(TypeRange(values), os);
    os << ")";
    return impl->error(loc, message);
  }
  func::ReturnOp::create(impl->builder, loc, values);
  impl->continueUnreachable();
  return success();
}

LogicalResult FunctionBuilder::pfor(Location loc, Value domain,
                                    ArrayRef<Variable> inductionVars,
                                    const SharedList &shared, BodyFn body) {
  unsigned dims;
  if (isa<RangeType>(domain.getType()))
    dims = 1;
  else if (auto domainType = dyn_cast<DomainType>(domain.getType()))
    dims = domainType.getRank();
  else
    return impl->error(loc, "a pfor iterates over a range or a domain, got " +
                                Impl::typeString(domain.getType()));
  if (inductionVars.size() != dims)
    return impl->error(loc, Twine(inductionVars.size()) +
                                " iteration variables for a pfor over " +
                                Twine(dims) + " dimensions");
  for (Variable var : inductionVars) {
    if (!isIntegerOrIndex(getType(var)))
      return impl->error(loc, "the iteration variable '" + getName(var) +
                                  "' must be an integer, got " +
                                  Impl::typeString(getType(var)));
    if (llvm::is_contained(shared.getVariables(), var))
      return impl->error(loc, "the iteration variable '" + getName(var) +
                                  "' cannot be shared");
  }

  OpBuilder &b = impl->builder;
  auto op = PforOp::create(b, loc, domain, ValueRange{});
  impl->pushNestedScope(ScopeKind::Pfor, op, op.getBodyBlock()->getTerminator(),
                        loc);
  Scope &scope = impl->scope();
  scope.automaticShared = shared.isAutomatic();
  // Shared variables are read once, before the loop, and are read-only in
  // the body.
  for (Variable var : shared.getVariables()) {
    if (scope.bindings.count(var.id))
      continue;
    Value outside;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(op);
      outside = impl->readIn(*scope.parent, var.id, loc);
    }
    Binding binding;
    binding.value = outside;
    scope.bindings.insert({var.id, binding});
    scope.sharedValues.push_back(outside);
  }
  // Each iteration gets its point in private variables.
  for (auto [var, point] : llvm::zip(inductionVars, op.getInductionVars())) {
    Type type = getType(var);
    Value value = point;
    if (!type.isIndex()) {
      OpBuilder::InsertionGuard guard(b);
      if (scope.lastSlotOp)
        b.setInsertionPointAfter(scope.lastSlotOp);
      else
        b.setInsertionPointToStart(&scope.region->front());
      value = arith::IndexCastOp::create(b, loc, type, point);
      scope.lastSlotOp = value.getDefiningOp();
    }
    Binding binding;
    binding.slot = impl->createSlot(scope, var.id, loc, value);
    binding.rebound = true;
    scope.bindings.insert({var.id, binding});
  }

  if (failed(body())) {
    impl->popNestedScope(op);
    return failure();
  }

  // Variables the body never rebinds need no private copy: they read the
  // value from before the loop, and with `shared(auto)` they are shared.
  for (auto &[id, binding] : scope.bindings) {
    if (!binding.slot || binding.rebound)
      continue;
    if (!scope.automaticShared && binding.indexWrite) {
      Location writeLoc = *binding.indexWrite;
      std::string message = ("the array '" + impl->nameOf(id) +
                             "' is written by index inside a pfor but is not "
                             "in its shared list (thesis 4.5.1)")
                                .str();
      impl->popNestedScope(op);
      return impl->error(writeLoc, message);
    }
    Impl::replaceSlot(binding.slot, binding.copyIn);
    binding.slot = {};
    binding.value = binding.copyIn;
    if (scope.automaticShared &&
        !llvm::is_contained(scope.sharedValues, binding.copyIn))
      scope.sharedValues.push_back(binding.copyIn);
  }
  (void)impl->closeExecuteRegion(loc, {});
  if (!scope.sharedValues.empty()) {
    b.setInsertionPoint(op);
    auto withShared = PforOp::create(b, loc, domain, scope.sharedValues);
    withShared.getBody().takeBody(op.getBody());
    op.erase();
    op = withShared;
  }
  impl->popNestedScope(op);
  return success();
}

LogicalResult FunctionBuilder::gpuSection(Location loc, BodyFn body) {
  if (impl->insideGpuSection())
    return impl->error(loc, "accelerated sections do not nest (thesis 4.5.4)");
  OpBuilder &b = impl->builder;
  auto op = GpuSectionOp::create(b, loc, TypeRange{});
  auto *block = new Block();
  op.getBody().push_back(block);
  b.setInsertionPointToEnd(block);
  auto yield = YieldOp::create(b, loc);
  impl->pushNestedScope(ScopeKind::Gpu, op, yield, loc);
  Scope &scope = impl->scope();

  if (failed(body())) {
    impl->popNestedScope(op);
    return failure();
  }

  // Variables rebound in the section are yielded and rebound after it
  // (thesis 4.5.4: values are coherent on the host at its end); the others
  // read their value from before the section.
  SmallVector<Variable> copyOut;
  SmallVector<Value> finalValues;
  for (auto &[id, binding] : scope.bindings) {
    if (!binding.slot)
      continue;
    if (!binding.rebound) {
      Impl::replaceSlot(binding.slot, binding.copyIn);
      continue;
    }
    copyOut.push_back(Variable(id));
    finalValues.push_back(ReadOp::create(b, loc, binding.slot));
  }
  SmallVector<Value> results = impl->closeExecuteRegion(loc, finalValues);
  yield->setOperands(results);
  if (!results.empty()) {
    b.setInsertionPoint(op);
    auto withResults =
        GpuSectionOp::create(b, loc, TypeRange(ValueRange(results)));
    withResults.getBody().takeBody(op.getBody());
    op.erase();
    op = withResults;
  }
  impl->popNestedScope(op);
  for (auto [var, result] : llvm::zip(copyOut, op.getResults()))
    if (failed(write(loc, var, result)))
      return failure();
  return success();
}

LogicalResult FunctionBuilder::finish(Location loc) {
  assert(impl->scopes.size() == 1 && "a nested statement is still open");
  Region &body = impl->function.getBody();
  // Is the end of the last statement reachable from the entry?
  llvm::SmallPtrSet<Block *, 16> reachable;
  SmallVector<Block *> worklist = {&body.front()};
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    if (!reachable.insert(block).second || block->empty() ||
        !block->back().hasTrait<OpTrait::IsTerminator>())
      continue;
    for (Block *successor : block->getSuccessors())
      worklist.push_back(successor);
  }
  if (reachable.contains(impl->builder.getInsertionBlock())) {
    if (impl->function.getNumResults() != 0)
      return impl->error(loc, "the end of the function '" +
                                  impl->function.getSymName() +
                                  "' is reachable, but it returns values: "
                                  "end every path with a return");
    func::ReturnOp::create(impl->builder, loc);
  }
  impl->eraseUnreachable(body);
  return success();
}
