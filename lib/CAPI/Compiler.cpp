//===- Compiler.cpp - C API of the VRIR compiler --------------------------===//

#include "VRIR-c/Compiler.h"

#include "VRIR/Driver/Driver.h"
#include "VRIR/Transforms/VerifyInput.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string_view>

using namespace mlir;

/// The directory of this library, where the build also puts the runtime.
static std::string getLibraryDirectory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&vrirCompileOptionsInit), &info) ||
      !info.dli_fname)
    return ".";
  return llvm::sys::path::parent_path(info.dli_fname).str();
}

static char *copyString(llvm::StringRef text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

void vrirCompileOptionsInit(VrirCompileOptions *options) {
  options->sourceName = nullptr;
  options->runtimeDirectory = nullptr;
  options->enableOpenMP = 1;
  options->optLevel = 3;
  options->gpuTarget = VRIR_TARGET_CPU;
  options->eliminateBoundsChecks = 1;
  options->boundsChecks = nullptr;
  options->specializeRegions = 0;
  options->timing = -1;
  options->verifyEachPass = -1;
}

/// `option` when it is 0 or 1, else whether the environment variable
/// `name` is set to something other than "" or "0".
static bool optionOrEnvironment(int option, const char *name) {
  if (option >= 0)
    return option != 0;
  const char *value = std::getenv(name);
  return value && *value && std::string_view(value) != "0";
}

void vrirInstallRegionSpecializer(const char *runtimeDirectory, int optLevel) {
  vrir::initializeDriver();
  vrir::installRegionSpecializer(
      runtimeDirectory ? std::string(runtimeDirectory) : getLibraryDirectory(),
      static_cast<unsigned>(std::clamp(optLevel, 0, 3)));
}

int vrirCompileToSharedLibrary(const char *mlirText, size_t length,
                               const char *entry, const char *outputPath,
                               const VrirCompileOptions *options,
                               char **errorMessage) {
  VrirCompileOptions defaults;
  vrirCompileOptionsInit(&defaults);
  if (!options)
    options = &defaults;
  // VRIR_TIMING=1: a report of where the compile's time went (phases, and
  // the MLIR pipeline pass by pass) on stderr when it ends.
  DefaultTimingManager timingManager;
  timingManager.setEnabled(optionOrEnvironment(options->timing, "VRIR_TIMING"));
  timingManager.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
  TimingScope rootTiming = timingManager.getRootScope();
  TimingScope setupTiming = rootTiming.nest("initialization and MLIR context");
  vrir::initializeDriver();

  DialectRegistry registry;
  vrir::registerDriverDialects(registry);
  MLIRContext context(registry);
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnosticStream);
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(mlirText, length),
          options->sourceName ? options->sourceName : "<vrir>"),
      llvm::SMLoc());

  vrir::CompileOptions compileOptions;
  compileOptions.pipeline.enableOpenMP = options->enableOpenMP != 0;
  compileOptions.pipeline.eliminateBoundsChecks =
      options->eliminateBoundsChecks != 0;
  compileOptions.pipeline.specializeRegions = options->specializeRegions != 0;
  // VRIR_VERIFY_EACH_PASS=1: verify the IR after each pass (debugging).
  compileOptions.verifyEachPass =
      optionOrEnvironment(options->verifyEachPass, "VRIR_VERIFY_EACH_PASS");
  vrir::BoundsCheckCounts counts;
  if (options->boundsChecks)
    compileOptions.boundsChecks = &counts;
  switch (options->gpuTarget) {
  case VRIR_TARGET_CPU:
    compileOptions.pipeline.gpuTarget = vrir::GPUTarget::None;
    break;
  case VRIR_TARGET_OPENCL:
    compileOptions.pipeline.gpuTarget = vrir::GPUTarget::OpenCLC;
    break;
  case VRIR_TARGET_VULKAN:
    compileOptions.pipeline.gpuTarget = vrir::GPUTarget::VulkanSPIRV;
    break;
  case VRIR_TARGET_OPENCL_SPIRV:
    compileOptions.pipeline.gpuTarget = vrir::GPUTarget::OpenCLSPIRV;
    break;
  default:
    if (errorMessage)
      *errorMessage = copyString("error: unknown GPU target " +
                                 std::to_string(options->gpuTarget));
    return 1;
  }
  compileOptions.optLevel =
      static_cast<unsigned>(std::clamp(options->optLevel, 0, 3));
  std::string runtimeDirectory = options->runtimeDirectory
                                     ? options->runtimeDirectory
                                     : getLibraryDirectory();
  if (options->specializeRegions)
    vrirInstallRegionSpecializer(runtimeDirectory.c_str(), options->optLevel);
  setupTiming.stop();
  if (timingManager.isEnabled())
    compileOptions.timing = &rootTiming;
  TimingScope parseTiming = rootTiming.nest("parsing");
  OwningOpRef<ModuleOp> module = vrir::parseInputFile(sourceMgr, &context);
  parseTiming.stop();
  if (module &&
      succeeded(vrir::compileToSharedLibrary(
          *module, entry, outputPath, compileOptions, runtimeDirectory))) {
    if (VrirBoundsCheckCounts *out = options->boundsChecks)
      *out = {static_cast<long long>(counts.checks),
              static_cast<long long>(counts.proven),
              static_cast<long long>(counts.repeated),
              static_cast<long long>(counts.hoisted),
              static_cast<long long>(counts.kept)};
    return 0;
  }
  if (errorMessage)
    *errorMessage =
        copyString(diagnostics.empty() ? "error: compilation failed"
                                       : llvm::StringRef(diagnostics).rtrim());
  return 1;
}

void vrirFreeString(char *string) { std::free(string); }
