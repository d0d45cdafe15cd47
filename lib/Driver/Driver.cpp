//===- Driver.cpp - From a VRIR module to native code ---------------------===//

#include "VRIR/Driver/Driver.h"

#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Remarks.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mlir;
using namespace mlir::vrir;

static bool hasVectorMathLibrary(const llvm::Triple &triple);

/// A timer `name` under `parent`, or one that times nothing without a parent.
static TimingScope nestTiming(TimingScope *parent, StringRef name) {
  return parent ? parent->nest(name) : TimingScope();
}

/// The environment of the linker processes: the process's, as the first
/// compile found it. Reading `environ` later, from a compile on a thread of
/// its own (tiered compilation), would race another thread's setenv, which
/// may free the array that posix_spawn is handing to the linker.
static std::vector<std::string> &linkerEnvironment() {
  static std::vector<std::string> environment;
  return environment;
}

void mlir::vrir::initializeDriver() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (char **entry = environ; entry && *entry; ++entry)
      linkerEnvironment().emplace_back(*entry);
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The pipeline names upstream and VRIR passes; parsing it needs them
    // registered.
    registerAllPasses();
    registerVRIRConversionPasses();
    registerVRIRTransformsPasses();
  });
}

/// glibc's vector math library (libmvec) is there for x86-64 Linux code:
/// the loop vectorizer then calls its versions of exp, log, pow, sin, cos
/// and tan on 2, 4 or 8 elements (at most 4 ulp from glibc's scalar
/// functions, the accuracy class of NumPy's own SIMD functions).
static bool hasVectorMathLibrary(const llvm::Triple &triple) {
  // (A copy of VRIR on a machine without the library vectorizes without.)
  static const bool present =
      *VRIR_MVEC_LIBRARY && llvm::sys::fs::exists(VRIR_MVEC_LIBRARY);
  return present && triple.getArch() == llvm::Triple::x86_64 &&
         triple.isOSLinux() && triple.isGNUEnvironment();
}

std::function<llvm::Error(llvm::Module *)>
mlir::vrir::makeLLVMOptimizer(unsigned optLevel, llvm::TargetMachine *machine) {
  static std::once_flag once;
  std::call_once(once, [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto threshold = options.find("unswitch-threshold");
    if (threshold != options.end() &&
        threshold->second->getNumOccurrences() == 0)
      (void)threshold->second->addOccurrence(0, "unswitch-threshold", "0");
  });
  return [optLevel, machine](llvm::Module *module) -> llvm::Error {
    if (optLevel > 3)
      return llvm::createStringError("invalid optimization level " +
                                     llvm::Twine(optLevel));
    const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
        llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    // From -O2 up loops are unrolled, interleaved and vectorized (also at
    // -O2, as clang does); below, the quick code of a first call is scalar.
    llvm::PipelineTuningOptions tuning;
    bool vectorize = optLevel >= 2;
    tuning.LoopUnrolling = vectorize;
    tuning.LoopInterleaving = vectorize;
    tuning.LoopVectorization = vectorize;
    tuning.SLPVectorization = vectorize;
    llvm::PassBuilder builder(machine, tuning);
    // Registered before the defaults, which then keep it.
    llvm::Triple triple = machine ? machine->getTargetTriple()
                                  : llvm::Triple(module->getTargetTriple());
    llvm::TargetLibraryInfoImpl library(triple);
    if (hasVectorMathLibrary(triple))
      library.addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                                 triple);
    functions.registerPass(
        [&] { return llvm::TargetLibraryAnalysis(library); });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    llvm::ModulePassManager passes =
        builder.buildPerModuleDefaultPipeline(levels[optLevel]);
    passes.run(*module, modules);
    return llvm::Error::success();
  };
}

void mlir::vrir::registerDriverDialects(DialectRegistry &registry) {
  registry.insert<VRIRDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

void mlir::vrir::addCInterfaces(ModuleOp module, func::FuncOp entry,
                                bool allPublic) {
  auto unit = UnitAttr::get(module.getContext());
  for (auto function : module.getOps<func::FuncOp>())
    if (function == entry ||
        (allPublic && function.isPublic() && !function.isExternal()))
      function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
}

namespace {
/// Adds up the counts the bounds-check passes report in their remarks.
class BoundsCheckCounter : public remark::detail::MLIRRemarkStreamerBase {
public:
  explicit BoundsCheckCounter(BoundsCheckCounts &counts) : counts(counts) {}
  void streamOptimizationRemark(const remark::detail::Remark &remark) override {
    if (remark.getCategoryName() != "vrir-bce")
      return;
    for (const remark::detail::Remark::Arg &arg : remark.getArgs()) {
      uint64_t value;
      if (llvm::StringRef(arg.val).getAsInteger(10, value))
        continue;
      if (arg.key == "checks")
        counts.checks += value;
      else if (arg.key == "proven")
        counts.proven += value;
      else if (arg.key == "repeated")
        counts.repeated += value;
      else if (arg.key == "kept")
        counts.kept += value;
      else if (arg.key == "hoisted") {
        // vrir-version-bounds-checks runs after the proof, which kept them.
        counts.hoisted += value;
        counts.kept -= std::min(counts.kept, value);
      }
    }
  }

private:
  BoundsCheckCounts &counts;
};
} // namespace

LogicalResult
mlir::vrir::lowerToLLVM(ModuleOp module, const CompileOptions &options,
                        function_ref<LogicalResult(PassManager &)> configure) {
  if (options.boundsChecks)
    (void)remark::enableOptimizationRemarks(
        *module->getContext(),
        std::make_unique<BoundsCheckCounter>(*options.boundsChecks),
        std::make_unique<remark::RemarkEmittingPolicyAll>(),
        remark::RemarkCategories{std::nullopt, "vrir-bce", std::nullopt,
                                 "vrir-bce", std::nullopt});
  PassManager pm(module->getContext());
  pm.enableVerifier(options.verifyEachPass);
  if (configure && failed(configure(pm)))
    return failure();
  buildVRIRPipeline(pm, options.pipeline);
  std::string pipelineName =
      ("MLIR pipeline (" + getPipelineName(options.pipeline.gpuTarget) + ")")
          .str();
  TimingScope timing = nestTiming(options.timing, pipelineName);
  if (options.timing)
    pm.enableTiming(timing);
  if (failed(pm.run(module)))
    return failure();
  if (options.verifyEachPass)
    return success();
  TimingScope verification = nestTiming(&timing, "verification");
  return verify(module);
}

llvm::Expected<llvm::orc::JITTargetMachineBuilder>
mlir::vrir::getHostTargetMachineBuilder(unsigned optLevel) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(optLevel >= 2 ? llvm::CodeGenOptLevel::Aggressive
                                            : llvm::CodeGenOptLevel::None);
  return builder;
}

// The ExecutionEngine's packing (its packFunctionArguments is not public),
// for the C interfaces only: their memref arguments are pointers to
// descriptors, so every kind of value crosses as one pointer.
void mlir::vrir::addPackedInterfaces(llvm::Module &module) {
  llvm::IRBuilder<> builder(module.getContext());
  llvm::SmallVector<llvm::Function *> interfaces;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.getName().starts_with("_mlir_ciface_"))
      interfaces.push_back(&function);
  for (llvm::Function *function : interfaces) {
    auto *type =
        llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(), false);
    auto *packed =
        llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                               "_mlir_" + function->getName(), module);
    builder.SetInsertPoint(
        llvm::BasicBlock::Create(module.getContext(), "entry", packed));
    llvm::Value *slots = packed->getArg(0);
    auto loadSlot = [&](unsigned index) {
      llvm::Value *slot =
          builder.CreateConstGEP1_64(builder.getPtrTy(), slots, index);
      return builder.CreateLoad(builder.getPtrTy(), slot);
    };
    llvm::SmallVector<llvm::Value *> args;
    for (llvm::Argument &arg : function->args())
      args.push_back(
          builder.CreateLoad(arg.getType(), loadSlot(arg.getArgNo())));
    llvm::Value *result = builder.CreateCall(function, args);
    if (!result->getType()->isVoidTy())
      builder.CreateStore(result, loadSlot(function->arg_size()));
    builder.CreateRetVoid();
  }
}

llvm::Error
mlir::vrir::emitObjectFile(ModuleOp module,
                           llvm::orc::JITTargetMachineBuilder builder,
                           function_ref<llvm::Error(llvm::Module *)> optimize,
                           StringRef path, TimingScope *timing) {
  builder.setRelocationModel(llvm::Reloc::PIC_);
  builder.setCodeModel(llvm::CodeModel::Small);
  auto machine = builder.createTargetMachine();
  if (!machine)
    return machine.takeError();
  llvm::LLVMContext llvmContext;
  TimingScope translation = nestTiming(timing, "translation to LLVM IR");
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  addPackedInterfaces(*llvmModule);
  translation.stop();
  TimingScope optimization = nestTiming(timing, "LLVM IR optimization");
  if (llvm::Error error = optimize(llvmModule.get()))
    return error;
  optimization.stop();
  TimingScope codegen = nestTiming(timing, "code generation (object file)");
  std::error_code code;
  llvm::raw_fd_ostream out(path, code, llvm::sys::fs::OF_None);
  if (code)
    return llvm::createStringError("cannot write " + path + ": " +
                                   code.message());
  llvm::legacy::PassManager passes;
  if ((*machine)->addPassesToEmitFile(passes, out, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the target cannot emit object files");
  passes.run(*llvmModule);
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::string>>
mlir::vrir::getRuntimeLibraries(StringRef runtimeDirectory) {
  llvm::SmallString<256> runtime(runtimeDirectory);
  llvm::sys::path::append(runtime, "libvrir_runtime.so");
  std::vector<std::string> libraries = {std::string(runtime)};
  // Kernels of GPU sections launch through the GPU runtime (which loads
  // the Vulkan or OpenCL driver only when a kernel runs).
  llvm::SmallString<256> gpuRuntime(runtimeDirectory);
  llvm::sys::path::append(gpuRuntime, "libvrir_gpu_runtime.so");
  libraries.push_back(std::string(gpuRuntime));
  for (const char *library :
       {VRIR_OMP_LIBRARY, VRIR_BLAS_LIBRARY, VRIR_MLIR_RUNNER_UTILS})
    libraries.push_back(library);
  // The vector math functions of vectorized loops (makeLLVMOptimizer).
  if (hasVectorMathLibrary(llvm::Triple(llvm::sys::getProcessTriple())))
    libraries.push_back(VRIR_MVEC_LIBRARY);
  for (const std::string &library : libraries)
    if (!llvm::sys::fs::exists(library))
      return llvm::createStringError("cannot find the shared library " +
                                     library);
  return libraries;
}

/// The command `clang-22 -shared PROBE -o vrir-link-output.so` runs, as
/// CMake recorded it (empty where it could not).
static const char *const kLinkerCommand[] = {
#include VRIR_LINKER_COMMAND_INC
    nullptr};

static llvm::Error runCommand(StringRef program,
                              const std::vector<std::string> &args,
                              StringRef output) {
  std::vector<StringRef> refs(args.begin(), args.end());
  std::vector<StringRef> environment(linkerEnvironment().begin(),
                                     linkerEnvironment().end());
  std::optional<ArrayRef<StringRef>> environmentOrInherited;
  if (!environment.empty()) // (initializeDriver() ran)
    environmentOrInherited = environment;
  std::string message;
  if (llvm::sys::ExecuteAndWait(program, refs, environmentOrInherited, {}, 0, 0,
                                &message) != 0)
    return llvm::createStringError("linking " + output + " failed: " + message);
  return llvm::Error::success();
}

/// The names of the dynamic symbols that the shared library `path`
/// defines, read once per process; nullopt where it cannot be read.
static const std::optional<llvm::StringSet<>> &
getDefinedDynamicSymbols(StringRef path) {
  static std::mutex mutex;
  static llvm::StringMap<std::optional<llvm::StringSet<>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto [entry, inserted] = cache.try_emplace(path);
  if (!inserted)
    return entry->second;
  auto binary = llvm::object::createBinary(path);
  if (!binary) {
    llvm::consumeError(binary.takeError());
    return entry->second;
  }
  auto *elf = dyn_cast<llvm::object::ELFObjectFileBase>(binary->getBinary());
  if (!elf)
    return entry->second;
  llvm::StringSet<> names;
  for (const llvm::object::ELFSymbolRef &symbol :
       elf->getDynamicSymbolIterators()) {
    auto flags = symbol.getFlags();
    auto name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      return entry->second;
    }
    if (!(*flags & llvm::object::SymbolRef::SF_Undefined))
      names.insert(*name);
  }
  entry->second = std::move(names);
  return entry->second;
}

/// Whether `object` needs the shared library `library`: it refers to a
/// symbol the library defines, or either file cannot be read.
static bool needsLibrary(const std::optional<llvm::StringSet<>> &undefined,
                         StringRef library) {
  const auto &defined = getDefinedDynamicSymbols(library);
  if (!undefined || !defined)
    return true;
  return llvm::any_of(undefined->keys(),
                      [&](StringRef name) { return defined->contains(name); });
}

/// The symbols `object` refers to without defining them.
static std::optional<llvm::StringSet<>> getUndefinedSymbols(StringRef object) {
  auto file = llvm::object::ObjectFile::createObjectFile(object);
  if (!file) {
    llvm::consumeError(file.takeError());
    return std::nullopt;
  }
  llvm::StringSet<> names;
  for (const llvm::object::SymbolRef &symbol : file->getBinary()->symbols()) {
    auto flags = symbol.getFlags();
    auto name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      return std::nullopt;
    }
    if (*flags & llvm::object::SymbolRef::SF_Undefined)
      names.insert(*name);
  }
  return names;
}

llvm::Error mlir::vrir::linkSharedLibrary(StringRef object, StringRef output,
                                          StringRef runtimeDirectory) {
  auto libraries = getRuntimeLibraries(runtimeDirectory);
  if (!libraries)
    return libraries.takeError();
  // Only the libraries the object calls: the linker reads every library it
  // is given (OpenBLAS's symbol table alone), which cost ~15 ms of each
  // compile; --as-needed would only drop them from the result's needs.
  // The runtime by name, the others by path.
  std::optional<llvm::StringSet<>> undefined = getUndefinedSymbols(object);
  std::vector<std::string> linkerArgs = {
      "--as-needed", "-L" + runtimeDirectory.str(), "-lvrir_runtime"};
  for (const std::string &library : *libraries) {
    if (&library != &libraries->front()) {
      if (!needsLibrary(undefined, library))
        continue;
      linkerArgs.push_back(library);
    }
    linkerArgs.push_back("-rpath");
    linkerArgs.push_back(llvm::sys::path::parent_path(library).str());
  }
  linkerArgs.push_back("--no-as-needed");

  // The linker itself, as the driver would run it: a process of the clang
  // driver costs about 20 ms of a first call.
  if (kLinkerCommand[0] && llvm::sys::fs::can_execute(kLinkerCommand[0])) {
    std::vector<std::string> args;
    for (const char *const *arg = kLinkerCommand; *arg; ++arg) {
      if (StringRef(*arg) == VRIR_LINK_PROBE) {
        args.push_back(object.str());
        args.insert(args.end(), linkerArgs.begin(), linkerArgs.end());
      } else if (StringRef(*arg) == "vrir-link-output.so") {
        args.push_back(output.str());
      } else {
        args.push_back(*arg);
      }
    }
    llvm::Error error = runCommand(kLinkerCommand[0], args, output);
    if (!error)
      return llvm::Error::success();
    // A system changed since the build (another GCC's crt files): the
    // driver knows.
    llvm::consumeError(std::move(error));
  }

  auto compiler = llvm::sys::findProgramByName("clang-22");
  if (!compiler)
    compiler = llvm::sys::findProgramByName("cc");
  if (!compiler)
    return llvm::createStringError("no C compiler (clang-22 or cc) to link "
                                   "the shared library");
  std::vector<std::string> args = {*compiler, "-shared", object.str(), "-o",
                                   output.str()};
  for (const std::string &arg : linkerArgs)
    args.push_back("-Wl," + arg);
  return runCommand(*compiler, args, output);
}

LogicalResult mlir::vrir::compileToSharedLibrary(ModuleOp module,
                                                 StringRef entry,
                                                 StringRef output,
                                                 const CompileOptions &options,
                                                 StringRef runtimeDirectory) {
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function || function.isExternal())
    return emitError(module.getLoc(), "no function definition named '")
           << entry << "'";
  addCInterfaces(module, function, /*allPublic=*/true);
  if (failed(lowerToLLVM(module, options)))
    return failure();

  // Errors past the IR have no location.
  auto report = [&](llvm::Error error) {
    emitError(UnknownLoc::get(module.getContext()))
        << llvm::toString(std::move(error));
    return failure();
  };
  auto builder = getHostTargetMachineBuilder(options.optLevel);
  if (!builder)
    return report(builder.takeError());
  auto machine = builder->createTargetMachine();
  if (!machine)
    return report(machine.takeError());
  auto optimize = makeLLVMOptimizer(options.optLevel, machine->get());
  std::string object = (output + ".o").str();
  llvm::Error error =
      emitObjectFile(module, *builder, optimize, object, options.timing);
  if (!error) {
    TimingScope linking =
        nestTiming(options.timing, "linking the shared library");
    error = linkSharedLibrary(object, output, runtimeDirectory);
  }
  llvm::sys::fs::remove(object);
  if (error)
    return report(std::move(error));
  return success();
}
