//===- LowerRegionDispatch.cpp - Regions called through the dispatcher ----===//
//
// Thesis 6.2.4: every call of an outlined region goes through a wrapper
// that hands the facts of its arguments to the run-time dispatcher and runs
// the version it returns, or the generic region.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Conversion/Passes.h"

#include "RegionABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace vrir {
#define GEN_PASS_DEF_LOWERREGIONDISPATCH
#include "VRIR/Conversion/Passes.h.inc"
} // namespace vrir
} // namespace mlir

using namespace mlir;
using namespace mlir::vrir;

namespace {
/// The ranks of the arguments a region signature describes (see
/// VRIRRegions.h): `m<rank>:...` for arrays.
SmallVector<std::optional<unsigned>> parseRanks(StringRef signature) {
  SmallVector<std::optional<unsigned>> ranks;
  SmallVector<StringRef> entries;
  signature.split(entries, ',', -1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    unsigned rank;
    if (entry.consume_front("m") &&
        !entry.take_while([](char c) { return c >= '0' && c <= '9'; })
             .getAsInteger(10, rank))
      ranks.push_back(rank);
    else
      ranks.push_back(std::nullopt);
  }
  return ranks;
}

struct LowerRegionDispatch
    : public vrir::impl::LowerRegionDispatchBase<LowerRegionDispatch> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<LLVM::LLVMFuncOp> regions;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (function->hasAttr("vrir.region"))
        regions.push_back(function);
    for (LLVM::LLVMFuncOp region : regions)
      if (failed(lower(region, symbols)))
        return signalPassFailure();
  }

  /// Declares the runtime's `name` at the top of the module, once.
  void declareRuntimeFunction(OpBuilder &builder, Location loc,
                              SymbolTable &symbols, StringRef name,
                              LLVM::LLVMFunctionType type) {
    if (symbols.lookup(name))
      return;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(getOperation().getBody());
    symbols.insert(LLVM::LLVMFuncOp::create(builder, loc, name, type));
  }

  /// A private constant holding `text` and a NUL.
  static LLVM::GlobalOp createString(OpBuilder &builder, Location loc,
                                     SymbolTable &symbols, StringRef name,
                                     StringRef text) {
    std::string contents = text.str();
    contents.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), contents.size());
    auto global = LLVM::GlobalOp::create(
        builder, loc, type, /*isConstant=*/true, LLVM::Linkage::Private, name,
        builder.getStringAttr(contents));
    symbols.insert(global);
    return global;
  }

  LogicalResult lower(LLVM::LLVMFuncOp region, SymbolTable &symbols) {
    auto info = region->getAttrOfType<DictionaryAttr>("vrir.region");
    region->removeAttr("vrir.region");
    auto source = info ? info.getAs<StringAttr>("source") : StringAttr();
    auto signature = info ? info.getAs<StringAttr>("signature") : StringAttr();
    auto options = info ? info.getAs<StringAttr>("options") : StringAttr();
    if (!source || !signature || !options)
      return region.emitError(
          "vrir.region needs string fields source, signature and options");
    SmallVector<LoweredArgument> arguments =
        getLoweredArguments(parseRanks(signature.getValue()));
    Location loc = region.getLoc();
    MLIRContext *context = &getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    auto i64 = IntegerType::get(context, 64);
    ModuleOp module = getOperation();
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());

    // The region's descriptor: name, signature, options, source, cache.
    std::string base = ("__vrir_region_" + region.getName()).str();
    SmallVector<LLVM::GlobalOp> strings = {
        createString(builder, loc, symbols, base + "_name", region.getName()),
        createString(builder, loc, symbols, base + "_signature",
                     signature.getValue()),
        createString(builder, loc, symbols, base + "_options",
                     options.getValue()),
        createString(builder, loc, symbols, base + "_source",
                     source.getValue())};
    auto descriptorType = LLVM::LLVMStructType::getLiteral(
        context, SmallVector<Type>(5, pointer));
    auto descriptor = LLVM::GlobalOp::create(
        builder, loc, descriptorType, /*isConstant=*/false,
        LLVM::Linkage::Internal, base, Attribute());
    symbols.insert(descriptor);
    {
      Block *init = builder.createBlock(&descriptor.getInitializerRegion());
      builder.setInsertionPointToStart(init);
      Value value = LLVM::UndefOp::create(builder, loc, descriptorType);
      for (auto [index, string] : llvm::enumerate(strings)) {
        Value address = LLVM::AddressOfOp::create(builder, loc, string);
        value =
            LLVM::InsertValueOp::create(builder, loc, value, address, index);
      }
      Value null = LLVM::ZeroOp::create(builder, loc, pointer);
      value = LLVM::InsertValueOp::create(builder, loc, value, null, 4);
      LLVM::ReturnOp::create(builder, loc, value);
    }

    // The wrapper; every call of the region calls it instead.
    builder.setInsertionPointAfter(region);
    LLVM::LLVMFunctionType type = region.getFunctionType();
    auto wrapper = LLVM::LLVMFuncOp::create(
        builder, loc, (region.getName() + ".dispatch").str(), type,
        LLVM::Linkage::Internal);
    symbols.insert(wrapper);
    if (failed(SymbolTable::replaceAllSymbolUses(
            region, wrapper.getSymNameAttr(), getOperation())))
      return region.emitError("cannot redirect the calls of the region");

    Block *entry = wrapper.addEntryBlock(builder);
    Block *special = new Block(), *generic = new Block();
    wrapper.getBody().push_back(special);
    wrapper.getBody().push_back(generic);
    builder.setInsertionPointToStart(entry);
    ValueRange parameters = entry->getArguments();
    unsigned factCount = 0, parameterCount = 0;
    for (const LoweredArgument &argument : arguments) {
      // An array's facts are its parameters but the allocated pointer.
      factCount += getParameterCount(argument.rank) - (argument.rank ? 1 : 0);
      parameterCount += getParameterCount(argument.rank);
    }
    if (parameterCount != parameters.size())
      return region.emitError("the region signature ")
             << signature << " does not match the function's "
             << parameters.size() << " parameters";
    Value one = LLVM::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
    // One slot more: the dispatcher notes there when the call started.
    auto factsType = LLVM::LLVMArrayType::get(i64, factCount + 1);
    Value facts =
        LLVM::AllocaOp::create(builder, loc, pointer, factsType, one, 8);
    unsigned next = 0;
    auto store = [&](Value value) {
      Value slot = LLVM::GEPOp::create(builder, loc, pointer, i64, facts,
                                       ArrayRef<LLVM::GEPArg>{next++});
      LLVM::StoreOp::create(builder, loc, value, slot);
    };
    auto asI64 = [&](Value value) -> Value {
      Type valueType = value.getType();
      if (valueType == i64)
        return value;
      if (auto integer = dyn_cast<IntegerType>(valueType)) {
        if (integer.getWidth() == 1)
          return LLVM::ZExtOp::create(builder, loc, i64, value);
        if (integer.getWidth() < 64)
          return LLVM::SExtOp::create(builder, loc, i64, value);
      }
      if (valueType.isF64())
        return LLVM::BitcastOp::create(builder, loc, i64, value);
      if (valueType.isF32()) {
        Value bits = LLVM::BitcastOp::create(
            builder, loc, IntegerType::get(context, 32), value);
        return LLVM::ZExtOp::create(builder, loc, i64, bits);
      }
      return LLVM::ConstantOp::create(builder, loc, i64,
                                      builder.getI64IntegerAttr(0));
    };
    for (const LoweredArgument &argument : arguments) {
      if (!argument.rank) {
        store(asI64(parameters[argument.firstParameter]));
        continue;
      }
      store(LLVM::PtrToIntOp::create(builder, loc, i64,
                                     parameters[argument.alignedPointer()]));
      store(parameters[argument.offset()]);
      for (unsigned dim = 0; dim < *argument.rank; ++dim)
        store(parameters[argument.size(dim)]);
      for (unsigned dim = 0; dim < *argument.rank; ++dim)
        store(parameters[argument.stride(dim)]);
    }
    Value descriptorAddress =
        LLVM::AddressOfOp::create(builder, loc, descriptor);
    auto dispatchType =
        LLVM::LLVMFunctionType::get(pointer, {pointer, pointer});
    declareRuntimeFunction(builder, loc, symbols, "vrir_rt_region_enter",
                           dispatchType);
    Value function =
        LLVM::CallOp::create(builder, loc, dispatchType, "vrir_rt_region_enter",
                             ValueRange{descriptorAddress, facts})
            .getResult();
    Value null = LLVM::ZeroOp::create(builder, loc, pointer);
    Value missing = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                         function, null);
    LLVM::CondBrOp::create(builder, loc, missing, generic, special);

    auto exitType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(context), {pointer, pointer});
    declareRuntimeFunction(builder, loc, symbols, "vrir_rt_region_exit",
                           exitType);
    // The run time of the version that ran (an error unwinds past it: that
    // call is not counted).
    auto returnResult = [&](LLVM::CallOp call) {
      LLVM::CallOp::create(builder, loc, exitType, "vrir_rt_region_exit",
                           ValueRange{descriptorAddress, facts});
      if (type.getReturnType() == LLVM::LLVMVoidType::get(context))
        LLVM::ReturnOp::create(builder, loc, ValueRange());
      else
        LLVM::ReturnOp::create(builder, loc, call.getResult());
    };
    builder.setInsertionPointToStart(special);
    SmallVector<Value> indirectOperands = {function};
    llvm::append_range(indirectOperands, parameters);
    returnResult(LLVM::CallOp::create(builder, loc, type, indirectOperands));
    builder.setInsertionPointToStart(generic);
    returnResult(LLVM::CallOp::create(builder, loc, region, parameters));
    return success();
  }
};
} // namespace
