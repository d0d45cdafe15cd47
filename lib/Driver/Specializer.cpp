//===- Specializer.cpp - Compile specialised regions at run time ----------===//
//
// Thesis 6.2.4, the compiler side of the dispatcher: given a region's
// source and the facts of a call (sizes, strides, values, which arrays
// nothing else overlaps), it compiles the region with those facts applied
// (vrir-specialize-region, bounds-check elimination against them,
// vrir-specialize-region-llvm) and JIT-links it into this process.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Driver/Driver.h"
#include "VRIR/Runtime/VRIRRegions.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::vrir;

namespace {
struct SpecializerState {
  std::mutex mutex;
  std::string runtimeDirectory;
  unsigned optLevel = 3;
  /// VRIR_SPECIALIZE_VERBOSE and VRIR_SPECIALIZE_DUMP, read when the
  /// specializer is installed: specializations compile on the runtime's
  /// background thread, where getenv would race another thread's setenv.
  bool verbose = false;
  std::string dumpDirectory;
  /// Every specialization's code stays mapped until the process ends: a
  /// version evicted from a region's cache may still be running on
  /// another thread.
  std::vector<std::unique_ptr<ExecutionEngine>> engines;
};

SpecializerState &getState() {
  // Never destroyed: tearing JIT sessions down during exit races LLVM's
  // own static destructors, and the code may run until the last moment.
  static auto *state = new SpecializerState;
  return *state;
}

/// `target:openmp:bce:affine`, as vrir-outline-regions records them.
PipelineOptions parsePipelineOptions(StringRef text) {
  PipelineOptions options;
  SmallVector<StringRef> fields;
  text.split(fields, ':');
  if (!fields.empty()) {
    options.gpuTarget = llvm::StringSwitch<GPUTarget>(fields[0])
                            .Case("opencl", GPUTarget::OpenCLC)
                            .Case("vulkan", GPUTarget::VulkanSPIRV)
                            .Case("opencl-spirv", GPUTarget::OpenCLSPIRV)
                            .Default(GPUTarget::None);
  }
  auto flag = [&](size_t index, bool fallback) {
    return fields.size() > index ? fields[index] != "0" : fallback;
  };
  options.enableOpenMP = flag(1, true);
  options.eliminateBoundsChecks = flag(2, true);
  options.raiseToAffine = flag(3, true);
  // Specialised code calls no dispatcher of its own.
  options.specializeRegions = false;
  return options;
}

void *specializeRegion(const char *source, const char *name,
                       const char *options, const char *facts,
                       vrir_rt_compile_report *report) {
  auto start = std::chrono::steady_clock::now();
  SpecializerState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  bool verbose = state.verbose;

  DialectRegistry registry;
  registerDriverDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string messages;
  llvm::raw_string_ostream messageStream(messages);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    messageStream << diagnostic.getLocation() << ": " << diagnostic << "\n";
    return success();
  });
  auto fail = [&](StringRef what) -> void * {
    if (verbose)
      llvm::errs() << "vrir: specializing " << name << " failed (" << what
                   << "); the generic version runs\n"
                   << messages;
    return nullptr;
  };

  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module)
    return fail("its source does not parse");
  auto function = module->lookupSymbol<func::FuncOp>(name);
  Attribute factsAttr = parseAttribute(facts, &context);
  if (!function || !factsAttr)
    return fail("no such function, or malformed facts");
  function->setAttr("vrir.region_facts", factsAttr);

  CompileOptions compileOptions;
  compileOptions.pipeline = parsePipelineOptions(options);
  compileOptions.optLevel = state.optLevel;
  BoundsCheckCounts counts;
  compileOptions.boundsChecks = &counts;
  if (failed(lowerToLLVM(*module, compileOptions)))
    return fail("lowering");

  auto builder = getHostTargetMachineBuilder(state.optLevel);
  if (!builder)
    return fail(llvm::toString(builder.takeError()));
  auto machine = builder->createTargetMachine();
  if (!machine)
    return fail(llvm::toString(machine.takeError()));
  auto libraries = getRuntimeLibraries(state.runtimeDirectory);
  if (!libraries)
    return fail(llvm::toString(libraries.takeError()));
  std::vector<StringRef> libraryRefs(libraries->begin(), libraries->end());
  ExecutionEngineOptions engineOptions;
  auto optimize = makeLLVMOptimizer(state.optLevel, machine->get());
  // VRIR_SPECIALIZE_DUMP=DIR keeps each version's LLVM IR as translated
  // (NAME.N.input.ll) and optimized (NAME.N.ll).
  StringRef dumpDirectory = state.dumpDirectory;
  auto dump = [&](llvm::Module *llvmModule, StringRef suffix) {
    if (dumpDirectory.empty())
      return;
    std::string path = (llvm::Twine(dumpDirectory) + "/" + name + "." +
                        llvm::Twine(state.engines.size()) + suffix)
                           .str();
    std::error_code code;
    llvm::raw_fd_ostream out(path, code);
    if (!code)
      llvmModule->print(out, nullptr);
  };
  auto transformer = [&](llvm::Module *llvmModule) -> llvm::Error {
    dump(llvmModule, ".input.ll");
    if (llvm::Error error = optimize(llvmModule))
      return error;
    dump(llvmModule, ".ll");
    return llvm::Error::success();
  };
  // A function_ref: `transformer` must outlive the engine's creation.
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.sharedLibPaths = libraryRefs;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return fail(llvm::toString(engine.takeError()));
  auto address = (*engine)->lookup(name);
  if (!address)
    return fail(llvm::toString(address.takeError()));
  state.engines.push_back(std::move(*engine));

  report->compileMs = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  report->checks = counts.checks;
  report->proven = counts.proven + counts.repeated;
  report->kept = counts.kept;
  if (verbose)
    llvm::errs() << "vrir: specialized " << name << " for " << facts << " in "
                 << llvm::format("%.1f", report->compileMs) << " ms ("
                 << report->proven << " of " << report->checks
                 << " checks proven, " << report->kept << " kept)\n";
  return *address;
}
} // namespace

void mlir::vrir::installRegionSpecializer(StringRef runtimeDirectory,
                                          unsigned optLevel) {
  SpecializerState &state = getState();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.runtimeDirectory = runtimeDirectory.str();
    state.optLevel = optLevel;
    state.verbose = std::getenv("VRIR_SPECIALIZE_VERBOSE") != nullptr;
    const char *dumpDirectory = std::getenv("VRIR_SPECIALIZE_DUMP");
    state.dumpDirectory = dumpDirectory ? dumpDirectory : "";
  }
  vrir_rt_set_specializer(specializeRegion);
}
