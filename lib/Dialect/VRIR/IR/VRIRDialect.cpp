//===- VRIRDialect.cpp - VRIR dialect -------------------------------------===//

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::vrir;

#include "VRIR/Dialect/VRIR/IR/VRIRDialect.cpp.inc"

namespace {
/// VRIR ops have no restriction on where they are inlined: array values are
/// references and module semantics come from the module, which inlining
/// within one module preserves.
struct VRIRInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  /// A dispatch stays: its callee is meant to be specialised at run time.
  bool isLegalToInline(Operation *call, Operation *, bool) const final {
    return !isa<DispatchOp>(call);
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool,
                       IRMapping &) const final {
    // pfor, gpu_section and map bodies are single blocks: a callee with
    // unstructured control flow cannot go there.
    return src->hasOneBlock() ||
           !isa<PforOp, GpuSectionOp, MapOp, StoreMapOp>(dest->getParentOp());
  }
};
} // namespace

void VRIRDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "VRIR/Dialect/VRIR/IR/VRIROps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
  addInterfaces<VRIRInlinerInterface>();
  // Default values of promoted variables are `ub.poison`.
  getContext()->getOrLoadDialect<ub::UBDialect>();
}

Operation *VRIRDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult VRIRDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kGpuSectionAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        !(isa<GpuSectionOp>(op) ||
          op->getName().getStringRef() == "scf.execute_region"))
      return op->emitError("'")
             << name
             << "' is a unit attribute of vrir.gpu_section and of the "
                "scf.execute_region it lowers to";
    return success();
  }
  if (name == kGpuFallbackAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "scf.if")
      return op->emitError("'")
             << name
             << "' is a unit attribute of the scf.if that holds a GPU "
                "kernel's host version";
    return success();
  }
  // On a gpu.module compiled to SPIR-V (vrir-convert-gpu-to-spirv): the
  // names of its bounds-check sites.
  if (name == "vrir.sites") {
    auto sites = dyn_cast<ArrayAttr>(attr.getValue());
    if (!sites || op->getName().getStringRef() != "gpu.module" ||
        !llvm::all_of(sites,
                      [](Attribute site) { return isa<StringAttr>(site); }))
      return op->emitError("'")
             << name << "' is an array of strings on a gpu.module";
    return success();
  }
  // On an outlined region (vrir-outline-regions): what its dispatcher
  // needs; on a region being specialised: the facts of its arguments.
  bool onFunction = isa<FunctionOpInterface>(op) ||
                    op->getName().getStringRef() == "llvm.func";
  if (name == "vrir.region") {
    auto info = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!info || !onFunction ||
        !llvm::all_of(ArrayRef<StringRef>{"source", "signature", "options"},
                      [&](StringRef field) {
                        return isa_and_nonnull<StringAttr>(info.get(field));
                      }))
      return op->emitError("'")
             << name
             << "' is a dictionary of strings source, signature and options "
                "on a function";
    return success();
  }
  if (name == "vrir.region_facts") {
    auto facts = dyn_cast<ArrayAttr>(attr.getValue());
    if (!facts || !onFunction || !llvm::all_of(facts, [](Attribute fact) {
          return isa<DictionaryAttr>(fact);
        }))
      return op->emitError("'")
             << name
             << "' is an array of dictionaries (one per argument) on "
                "a function";
    return success();
  }
  if (name != kIndexBaseAttrName && name != kRangeExclusiveAttrName &&
      name != kMemoryAttrName)
    return op->emitError("unknown VRIR module attribute '") << name << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError("'")
           << name << "' is a module attribute; it is not allowed on '"
           << op->getName() << "'";
  if (name == kIndexBaseAttrName) {
    auto base = dyn_cast<IntegerAttr>(attr.getValue());
    if (!base || !base.getType().isSignlessInteger() ||
        base.getType().isInteger(1) ||
        base.getValue().getSignificantBits() > 64 ||
        (base.getInt() != 0 && base.getInt() != 1))
      return op->emitError("'")
             << name << "' must be the integer 0 or 1, got " << attr.getValue();
  } else if (name == kRangeExclusiveAttrName) {
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitError("'")
             << name << "' must be a bool, got " << attr.getValue();
  } else if (!isa<MemoryManagementAttr>(attr.getValue())) {
    return op->emitError("'")
           << name << "' must be #vrir.memory<refcount> or #vrir.memory<gc>, "
           << "got " << attr.getValue();
  }
  return success();
}

ModuleSemantics mlir::vrir::getModuleSemantics(Operation *op) {
  ModuleSemantics semantics;
  for (Operation *cur = op; cur; cur = cur->getParentOp()) {
    auto module = dyn_cast<ModuleOp>(cur);
    if (!module)
      continue;
    auto base =
        module->getAttrOfType<IntegerAttr>(VRIRDialect::kIndexBaseAttrName);
    auto exclusive =
        module->getAttrOfType<BoolAttr>(VRIRDialect::kRangeExclusiveAttrName);
    auto memory = module->getAttrOfType<MemoryManagementAttr>(
        VRIRDialect::kMemoryAttrName);
    if (!base && !exclusive && !memory)
      continue;
    if (base)
      semantics.indexBase = base.getInt();
    if (exclusive)
      semantics.rangeExclusive = exclusive.getValue();
    if (memory)
      semantics.memory = memory.getValue();
    break;
  }
  return semantics;
}
