//===- OutlineRegions.cpp - Outline PIRs behind vrir.dispatch -------------===//
//
// Thesis 6.2.4: every potentially interesting region found by region
// detection becomes a private function called through `vrir.dispatch`,
// which names the region's critical shape and value variables, so that a
// dispatcher can specialise the function on them at run time.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Analysis/AliasGroups.h"
#include "VRIR/Analysis/RegionDetection.h"
#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_OUTLINEREGIONS
#include "VRIR/Transforms/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
/// Types a value may have to cross a function boundary.
bool canCross(Type type) {
  return isa<ArrayType, IntegerType, IndexType, FloatType, ComplexType>(type);
}

/// The ops `first` to `last` of one block but constants, which stay where
/// they are (code after the region may use them) and are cloned in.
SmallVector<Operation *> getRange(const DetectedRegion &region) {
  SmallVector<Operation *> ops;
  for (Operation *op = region.first;; op = op->getNextNode()) {
    if (!op->hasTrait<OpTrait::ConstantLike>())
      ops.push_back(op);
    if (op == region.last)
      break;
  }
  return ops;
}

constexpr llvm::StringLiteral kCriticalShapes = "vrir.critical_shapes",
                              kCriticalValues = "vrir.critical_values";

/// The signature entry of an argument (include/VRIR/Runtime/VRIRRegions.h).
std::string describeArgument(Type type, bool criticalShape,
                             bool criticalValue) {
  std::string entry;
  auto bytesOf = [](Type element) -> unsigned {
    if (auto complex = dyn_cast<ComplexType>(element))
      return 2 * ((complex.getElementType().getIntOrFloatBitWidth() + 7) / 8);
    if (element.isIndex())
      return 8;
    return (element.getIntOrFloatBitWidth() + 7) / 8;
  };
  if (auto array = dyn_cast<ArrayType>(type))
    entry = "m" + std::to_string(array.getRank()) + ":" +
            std::to_string(bytesOf(array.getElementType()));
  else if (type.isIndex())
    entry = "i64";
  else if (auto integer = dyn_cast<IntegerType>(type))
    entry = "i" + std::to_string(integer.getWidth());
  else if (auto real = dyn_cast<FloatType>(type))
    entry = "f" + std::to_string(real.getWidth());
  else
    entry = "o";
  if (criticalShape)
    entry += "S";
  if (criticalValue)
    entry += "V";
  return entry;
}

struct OutlineRegions : public vrir::impl::OutlineRegionsBase<OutlineRegions> {
  using OutlineRegionsBase::OutlineRegionsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      if (function.isExternal())
        continue;
      RegionDetection detection(function);
      AliasGroups aliases(function);
      // Last region first: outlining a region replaces its outputs, which
      // later regions' critical sets name; earlier regions' sets only name
      // values defined before them.
      SmallVector<DetectedRegion> regions = detection.getInterestingRegions();
      SmallVector<func::FuncOp> callees(regions.size());
      for (unsigned number = regions.size(); number-- > 0;)
        callees[number] =
            outline(function, regions[number], aliases, number, symbols);
      // Region functions follow their function, in program order.
      Operation *previous = function;
      for (func::FuncOp callee : callees)
        if (callee) {
          callee->moveAfter(previous);
          previous = callee;
        }
    }
    // What the dispatcher needs, once every region is outlined (a region's
    // source holds the final form of the functions it calls).
    for (func::FuncOp callee : outlined)
      describeForDispatcher(callee, symbols);
  }

  /// Outlines `region` as region `number` of `function`; a null function
  /// if it stays in place.
  func::FuncOp outline(func::FuncOp function, const DetectedRegion &region,
                       const AliasGroups &aliases, unsigned number,
                       SymbolTable &symbols) {
    SmallVector<Operation *> ops = getRange(region);
    if (ops.empty())
      return {};
    llvm::SmallPtrSet<Operation *, 16> inRange(ops.begin(), ops.end());
    Block *block = region.first->getBlock();
    // The statement of the range that holds `op`, or nullptr.
    auto rangeStatement = [&](Operation *op) -> Operation * {
      while (op && op->getBlock() != block)
        op = op->getParentOp();
      return op && inRange.contains(op) ? op : nullptr;
    };
    auto isInside = [&](Value value) {
      Operation *scope = value.getDefiningOp();
      if (!scope)
        scope = value.getParentBlock()->getParentOp();
      return rangeStatement(scope) != nullptr;
    };

    // Inputs: values from outside used inside; constants are cloned in.
    llvm::SetVector<Value> inputs;
    SmallVector<Operation *> constants;
    llvm::SmallPtrSet<Operation *, 8> constantSet;
    for (Operation *op : ops)
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands()) {
          if (isInside(operand))
            continue;
          Operation *def = operand.getDefiningOp();
          if (def && def->hasTrait<OpTrait::ConstantLike>()) {
            if (constantSet.insert(def).second)
              constants.push_back(def);
            continue;
          }
          inputs.insert(operand);
        }
      });
    // Outputs: results used after the range.
    SmallVector<Value> outputs;
    for (Operation *op : ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !rangeStatement(user);
            }))
          outputs.push_back(result);
    if (!llvm::all_of(inputs, [](Value v) { return canCross(v.getType()); }) ||
        !llvm::all_of(outputs, [](Value v) { return canCross(v.getType()); }))
      return {};
    // An array returned from a function is the caller's own array (the
    // deallocation pipeline copies views it returns), so a view of an
    // input must not leave the region: writes through it after the region
    // would miss the input.
    // Likewise two results that may share memory (an array and a view of
    // it) would come back as separate arrays.
    auto arrays = [](Value a, Value b) {
      return isa<ArrayType>(a.getType()) && isa<ArrayType>(b.getType());
    };
    for (auto [position, output] : llvm::enumerate(outputs)) {
      for (Value input : inputs)
        if (arrays(output, input) && aliases.mayAlias(output, input))
          return {};
      for (Value other : ArrayRef<Value>(outputs).drop_front(position + 1))
        if (arrays(output, other) && aliases.mayAlias(output, other))
          return {};
    }

    // The region function.
    SmallVector<Type> inputTypes, outputTypes;
    for (Value input : inputs)
      inputTypes.push_back(input.getType());
    for (Value output : outputs)
      outputTypes.push_back(output.getType());
    OpBuilder builder(function);
    builder.setInsertionPointAfter(function);
    auto type = builder.getFunctionType(inputTypes, outputTypes);
    auto callee = func::FuncOp::create(
        builder, region.first->getLoc(),
        (function.getName() + "_region" + Twine(number)).str(), type);
    callee.setPrivate();
    symbols.insert(callee);
    outlined.push_back(callee);
    Block *entry = callee.addEntryBlock();
    // Errors inside the region name arrays as the caller knows them.
    for (auto [position, input] : llvm::enumerate(inputs)) {
      entry->getArgument(position).setLoc(input.getLoc());
      if (isa<ArrayType>(input.getType()))
        callee.setArgAttr(position, kArrayDescriptionAttrName,
                          builder.getStringAttr(describeArray(input)));
    }

    // The dispatch, at the region's place.
    SmallVector<int64_t> shapePositions, valuePositions;
    for (auto [position, input] : llvm::enumerate(inputs)) {
      if (region.critical.shapes.contains(input))
        shapePositions.push_back(position);
      if (region.critical.values.contains(input))
        valuePositions.push_back(position);
    }
    callee->setAttr(kCriticalShapes,
                    builder.getDenseI64ArrayAttr(shapePositions));
    callee->setAttr(kCriticalValues,
                    builder.getDenseI64ArrayAttr(valuePositions));
    builder.setInsertionPoint(ops.front());
    auto dispatch = DispatchOp::create(
        builder, ops.front()->getLoc(), outputTypes,
        FlatSymbolRefAttr::get(callee), inputs.getArrayRef(),
        builder.getDenseI64ArrayAttr(shapePositions),
        builder.getDenseI64ArrayAttr(valuePositions), /*arg_attrs=*/nullptr,
        /*res_attrs=*/nullptr);
    for (auto [output, result] : llvm::zip(outputs, dispatch.getResults()))
      output.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !rangeStatement(use.getOwner());
      });

    // Move the statements in, then rewire inputs and constants.
    builder.setInsertionPointToStart(entry);
    SmallVector<Operation *> clones;
    for (Operation *constant : constants)
      clones.push_back(builder.clone(*constant));
    for (Operation *op : ops)
      op->moveBefore(entry, entry->end());
    builder.setInsertionPointToEnd(entry);
    func::ReturnOp::create(builder, region.last->getLoc(), outputs);
    auto insideCallee = [&](OpOperand &use) {
      return callee->isProperAncestor(use.getOwner());
    };
    for (auto [input, argument] : llvm::zip(inputs, entry->getArguments()))
      Value(input).replaceUsesWithIf(argument, insideCallee);
    for (auto [constant, clone] : llvm::zip(constants, clones))
      constant->replaceUsesWithIf(clone->getResults(), insideCallee);
    return callee;
  }

  /// Sets `vrir.region` on `callee`: its source (it and every function it
  /// references, as a module with the original's attributes), signature
  /// and the pipeline options of its specialised versions.
  void describeForDispatcher(func::FuncOp callee, SymbolTable &symbols) {
    auto shapes = callee->getAttrOfType<DenseI64ArrayAttr>(kCriticalShapes);
    auto values = callee->getAttrOfType<DenseI64ArrayAttr>(kCriticalValues);
    callee->removeAttr(kCriticalShapes);
    callee->removeAttr(kCriticalValues);
    std::string signature;
    for (auto [position, type] : llvm::enumerate(callee.getArgumentTypes())) {
      if (position)
        signature += ",";
      signature += describeArgument(
          type, llvm::is_contained(shapes.asArrayRef(), position),
          llvm::is_contained(values.asArrayRef(), position));
    }

    ModuleOp module = getOperation();
    OpBuilder builder(module.getContext());
    OwningOpRef<ModuleOp> source = ModuleOp::create(callee.getLoc());
    for (NamedAttribute attribute : module->getAttrs())
      if (attribute.getName() != SymbolTable::getSymbolAttrName())
        (*source)->setAttr(attribute.getName(), attribute.getValue());
    llvm::SetVector<Operation *> functions;
    functions.insert(callee);
    for (unsigned next = 0; next < functions.size(); ++next) {
      auto uses = SymbolTable::getSymbolUses(functions[next]);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses)
        if (Operation *symbol = symbols.lookup(
                use.getSymbolRef().getRootReference().getValue()))
          functions.insert(symbol);
    }
    builder.setInsertionPointToEnd(source->getBody());
    for (Operation *function : functions) {
      Operation *copy = builder.clone(*function);
      copy->removeAttr("vrir.region");
      if (auto copied = dyn_cast<func::FuncOp>(copy))
        copied.setVisibility(function == callee.getOperation()
                                 ? SymbolTable::Visibility::Public
                                 : SymbolTable::Visibility::Private);
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    // Locations kept: errors in specialised code name the user's lines.
    source->print(os, OpPrintingFlags().enableDebugInfo());

    callee->setAttr(
        "vrir.region",
        builder.getDictionaryAttr(
            {builder.getNamedAttr("source", builder.getStringAttr(text)),
             builder.getNamedAttr("signature",
                                  builder.getStringAttr(signature)),
             builder.getNamedAttr("options",
                                  builder.getStringAttr(pipelineOptions))}));
  }

  SmallVector<func::FuncOp> outlined;
};
} // namespace
