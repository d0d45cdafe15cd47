//===- vr-run.cpp - Compile and run a function of a VRIR module -----------===//
//
// vr-run prog.mlir --entry f --arg A=a.npy --arg n=100 --arg B=rand:512x512
//
// Lowers the module with the vrir-to-cpu pipeline, JIT-compiles it (MLIR
// ExecutionEngine, ORC) and calls `f` through its C interface. Arguments
// are matched to parameters in order; NAME= labels them for --out. Array
// arguments cross without copies when their .npy layout matches the
// parameter's. Results are printed (small ones) and written with --out.
//
// --emit-shared lib.so compiles ahead of time; --load-shared lib.so later
// runs the entry from that library without compiling (the module is only
// parsed, for the entry's signature, which the library records).
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "Npy.h"

#include "VRIR/Dialect/VRIR/IR/VRIR.h"
#include "VRIR/Driver/Driver.h"
#include "VRIR/Runtime/VRIRGPURuntime.h"
#include "VRIR/Runtime/VRIRRegions.h"
#include "VRIR/Runtime/VRIRRuntime.h"
#include "VRIR/Support/LargeStack.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::vrir;
using ::vrir::getDtype;
using ::vrir::HostValue;
using ::vrir::NpyArray;

namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<input .mlir>"));
static cl::opt<std::string> entryName("entry", cl::Required,
                                      cl::desc("Function to run"));
static cl::list<std::string>
    argValues("arg", cl::desc("Argument, in parameter order: NAME=VALUE. "
                              "VALUE is a scalar, a .npy file, or "
                              "rand|zeros|ones|arange:D0xD1x..."));
static cl::list<std::string>
    outFiles("out", cl::desc("FILE.npy: the next array result; NAME=FILE.npy: "
                             "argument NAME after the run"));
static cl::opt<bool> printTime("time", cl::desc("Report compile and run time"));
static cl::opt<unsigned> repeat("repeat", cl::init(1),
                                cl::desc("Run N times (median time)"));
static cl::opt<std::string>
    dumpIR("dump-ir", cl::desc("Write the IR after each pass and the "
                               "optimized LLVM IR into this directory"));
static cl::opt<std::string>
    emitObject("emit-object",
               cl::desc("Write the compiled module as an object file"));
static cl::opt<std::string> emitShared(
    "emit-shared",
    cl::desc("Write the compiled module as a shared library (links the "
             "object file with the VRIR runtime, libomp and OpenBLAS)"));
static cl::opt<std::string> loadShared(
    "load-shared",
    cl::desc("Run the entry from this shared library, written earlier by "
             "--emit-shared from the same module, instead of compiling"));
static cl::opt<std::string> targetCPU(
    "mcpu",
    cl::desc("Compile for this CPU (as clang's -mcpu, e.g. x86-64-v3) "
             "instead of this machine's, with that CPU's features only"));
static cl::opt<std::string> target(
    "target", cl::init(""),
    cl::desc("Where GPU sections run: cpu (inline, the default), opencl "
             "(OpenCL C kernels through the GPU runtime), vulkan (SPIR-V "
             "kernels through the GPU runtime) or opencl-spirv (SPIR-V "
             "kernels for OpenCL devices that take SPIR-V); the "
             "VRIR_TARGET environment variable sets the default"));
static cl::list<int64_t> gpuMatmulTiling(
    "gpu-matmul-tiling", cl::CommaSeparated,
    cl::desc("M,N,K,X,Y: GPU matrix products compute MxN tiles of C per "
             "work-group of XxY work-items, K deep (vrir-gpu-map-sections' "
             "matmul options)"));
static cl::opt<unsigned> gpuIndexBits(
    "gpu-index-bits", cl::init(64),
    cl::desc("Width of index arithmetic in SPIR-V kernels: 64 (the "
             "default) or 32"));
static cl::opt<bool> noOpenMP("no-openmp",
                              cl::desc("Run parallel loops serially"));
static cl::opt<bool>
    keepChecks("keep-checks",
               cl::desc("Keep every bounds check the flags ask for (no "
                        "vrir-bounds-check-elim)"));
static cl::opt<bool> noAffine(
    "no-affine",
    cl::desc("Lower loops through scf only (no vrir-raise-to-affine)"));
static cl::opt<bool> specializeRegions(
    "specialize",
    cl::desc("Region specialization: outline the potentially interesting "
             "regions of each function and compile a version of each for "
             "the aliasing, or the shapes, values and aliasing, it is "
             "called with, chosen per region (VRIR_SPECIALIZE=0 runs the "
             "generic versions, =all always uses every fact, =alias "
             "aliasing only)"));
static cl::opt<bool> verifyEachPass(
    "verify-each-pass",
    cl::desc("Verify the IR after every pass of the pipeline, not only "
             "after the last one (slower; names the pass that broke it)"));
static cl::opt<unsigned> optLevel("O", cl::init(3), cl::Prefix,
                                  cl::desc("LLVM optimization level"));
static cl::opt<unsigned>
    printLimit("print-limit", cl::init(100),
               cl::desc("Print array results of at most this many elements"));
static cl::opt<unsigned> seed("seed", cl::init(42),
                              cl::desc("Seed of rand: arguments"));

namespace {

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "vr-run: error: " << message << "\n";
  std::exit(1);
}

/// Directory of the vr-run executable, to find the runtime library.
std::string getToolDirectory(const char *argv0) {
  std::string path = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&getToolDirectory));
  return llvm::sys::path::parent_path(path).str();
}

/// The build's lib/, which holds libvrir_runtime.so.
std::string getRuntimeDirectory(const char *argv0) {
  llvm::SmallString<256> path(getToolDirectory(argv0));
  llvm::sys::path::append(path, "..", "lib");
  return std::string(path);
}

//===----------------------------------------------------------------------===//
// Values crossing the C interface
//===----------------------------------------------------------------------===//

/// Size and alignment of a value of `type` in the C interface structs.
std::pair<size_t, size_t> getSizeAndAlign(Type type) {
  if (auto array = dyn_cast<ArrayType>(type))
    return {8 * (3 + 2 * array.getRank()), 8};
  size_t size = NpyArray::elementSize(getDtype(type));
  if (isa<ComplexType>(type))
    return {size, size / 2};
  return {size, size};
}

/// Fills `value.descriptor` for an array argument over its own data.
void buildDescriptor(HostValue &value) {
  NpyArray &array = value.array;
  size_t rank = array.shape.size();
  auto data = reinterpret_cast<int64_t>(array.data.data());
  std::vector<int64_t> strides(rank, 1);
  if (array.fortranOrder) {
    for (size_t d = 1; d < rank; ++d)
      strides[d] = strides[d - 1] * array.shape[d - 1];
  } else {
    for (size_t d = rank; d-- > 1;)
      strides[d - 1] = strides[d] * array.shape[d];
  }
  value.descriptor = {data, data, 0};
  value.descriptor.insert(value.descriptor.end(), array.shape.begin(),
                          array.shape.end());
  value.descriptor.insert(value.descriptor.end(), strides.begin(),
                          strides.end());
}

/// Copies an array out of a descriptor into C order.
NpyArray readDescriptor(const int64_t *descriptor, ArrayType type) {
  NpyArray array;
  array.dtype = getDtype(type.getElementType());
  size_t rank = type.getRank();
  size_t element = NpyArray::elementSize(array.dtype);
  const char *aligned = reinterpret_cast<const char *>(descriptor[1]);
  int64_t offset = descriptor[2];
  array.shape.assign(descriptor + 3, descriptor + 3 + rank);
  const int64_t *strides = descriptor + 3 + rank;
  int64_t count = array.numElements();
  array.data.resize(count * element);
  std::vector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t at = offset;
    for (size_t d = 0; d < rank; ++d)
      at += index[d] * strides[d];
    std::memcpy(&array.data[linear * element], aligned + at * element, element);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < array.shape[d])
        break;
      index[d] = 0;
    }
  }
  return array;
}

std::string formatElement(const char *at, llvm::StringRef dtype) {
  char buffer[96];
  if (dtype == "f8")
    std::snprintf(buffer, sizeof(buffer), "%.17g",
                  *reinterpret_cast<const double *>(at));
  else if (dtype == "f4")
    std::snprintf(buffer, sizeof(buffer), "%.9g",
                  *reinterpret_cast<const float *>(at));
  else if (dtype == "i8")
    std::snprintf(
        buffer, sizeof(buffer), "%lld",
        static_cast<long long>(*reinterpret_cast<const int64_t *>(at)));
  else if (dtype == "i4")
    std::snprintf(buffer, sizeof(buffer), "%d",
                  *reinterpret_cast<const int32_t *>(at));
  else if (dtype == "i2")
    std::snprintf(buffer, sizeof(buffer), "%d",
                  *reinterpret_cast<const int16_t *>(at));
  else if (dtype == "i1")
    std::snprintf(buffer, sizeof(buffer), "%d",
                  *reinterpret_cast<const int8_t *>(at));
  else if (dtype == "b1")
    std::snprintf(buffer, sizeof(buffer), "%s", *at ? "true" : "false");
  else if (dtype == "c16")
    std::snprintf(buffer, sizeof(buffer), "(%.17g%+.17gj)",
                  reinterpret_cast<const double *>(at)[0],
                  reinterpret_cast<const double *>(at)[1]);
  else
    std::snprintf(buffer, sizeof(buffer), "(%.9g%+.9gj)",
                  reinterpret_cast<const float *>(at)[0],
                  reinterpret_cast<const float *>(at)[1]);
  return buffer;
}

/// NumPy-like nested-list text of a C-order array.
void printArray(llvm::raw_ostream &os, const NpyArray &array) {
  size_t element = NpyArray::elementSize(array.dtype);
  size_t rank = array.shape.size();
  if (rank == 0) {
    os << formatElement(array.data.data(), array.dtype);
    return;
  }
  std::function<void(size_t, int64_t)> print = [&](size_t dim, int64_t at) {
    os << "[";
    int64_t stride = 1;
    for (size_t d = dim + 1; d < rank; ++d)
      stride *= array.shape[d];
    for (int64_t i = 0; i < array.shape[dim]; ++i) {
      if (i)
        os << ", ";
      if (dim + 1 == rank)
        os << formatElement(&array.data[(at + i) * element], array.dtype);
      else
        print(dim + 1, at + i * stride);
    }
    os << "]";
  };
  print(0, 0);
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

/// Counts of the bounds-check passes, for --stats.
BoundsCheckCounts boundsCheckCounts;

LogicalResult lowerToLLVM(ModuleOp module) {
  CompileOptions options;
  if (llvm::AreStatisticsEnabled())
    options.boundsChecks = &boundsCheckCounts;
  options.pipeline.enableOpenMP = !noOpenMP;
  options.pipeline.eliminateBoundsChecks = !keepChecks;
  options.pipeline.raiseToAffine = !noAffine;
  options.pipeline.specializeRegions = specializeRegions;
  options.verifyEachPass = verifyEachPass;
  if (!gpuMatmulTiling.empty() && gpuMatmulTiling.size() != 5)
    fail("--gpu-matmul-tiling takes 5 numbers: M,N,K,X,Y");
  options.pipeline.gpuMatmulTiling.assign(gpuMatmulTiling.begin(),
                                          gpuMatmulTiling.end());
  if (gpuIndexBits != 32 && gpuIndexBits != 64)
    fail("--gpu-index-bits takes 32 or 64");
  options.pipeline.gpuIndexBits = gpuIndexBits;
  std::string targetName = target;
  if (targetName.empty())
    if (const char *fromEnvironment = std::getenv("VRIR_TARGET"))
      targetName = fromEnvironment;
  if (targetName.empty() || targetName == "cpu")
    options.pipeline.gpuTarget = GPUTarget::None;
  else if (targetName == "opencl")
    options.pipeline.gpuTarget = GPUTarget::OpenCLC;
  else if (targetName == "vulkan")
    options.pipeline.gpuTarget = GPUTarget::VulkanSPIRV;
  else if (targetName == "opencl-spirv")
    options.pipeline.gpuTarget = GPUTarget::OpenCLSPIRV;
  else
    fail("unknown target '" + targetName +
         "' (expected cpu, opencl, vulkan or opencl-spirv)");
  return mlir::vrir::lowerToLLVM(module, options, [&](PassManager &pm) {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    if (!dumpIR.empty()) {
      // IR printing needs a single-threaded context.
      module->getContext()->disableMultithreading();
      pm.enableIRPrintingToFileTree([](Pass *, Operation *) { return false; },
                                    [](Pass *, Operation *) { return true; },
                                    /*printModuleScope=*/true,
                                    /*printAfterOnlyOnChange=*/true,
                                    /*printAfterOnlyOnFailure=*/false, dumpIR);
    }
    return success();
  });
}

std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// What a region's versions are compiled for, as -stats prints it.
const char *regionFactsName(int facts) {
  switch (facts) {
  case VRIR_RT_SPECIALIZE_ALL:
    return "all";
  case VRIR_RT_SPECIALIZE_ALIASING:
    return "aliasing";
  default:
    return "none";
  }
}

/// The symbol under which an ahead-of-time library records the signature of
/// function `name`, for --load-shared to check.
std::string signatureSymbol(llvm::StringRef name) {
  return ("_vrir_signature_" + name).str();
}

/// Records, as a constant string, the signature of every function that gets
/// a C interface.
void addSignatureRecords(ModuleOp module) {
  auto builder = OpBuilder::atBlockEnd(module.getBody());
  for (auto function : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (!function->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName()))
      continue;
    std::string text = typeToString(function.getFunctionType());
    text.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
    LLVM::GlobalOp::create(builder, function.getLoc(), type,
                           /*isConstant=*/true, LLVM::Linkage::External,
                           signatureSymbol(function.getName()),
                           builder.getStringAttr(text));
  }
}

using PackedFunction = void (*)(void **);

/// The entry's packed interface in a library written by --emit-shared, after
/// checking that the library's entry has the module's signature.
PackedFunction loadPackedFunction(llvm::StringRef path,
                                  FunctionType signature) {
  // A name without a slash would make dlopen search the library path.
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  std::string error;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(absolute.c_str(), &error);
  if (!library.isValid())
    fail("--load-shared: " + error);
  auto *recorded = static_cast<const char *>(
      library.getAddressOfSymbol(signatureSymbol(entryName).c_str()));
  void *packed =
      library.getAddressOfSymbol(("_mlir__mlir_ciface_" + entryName).c_str());
  if (!recorded || !packed)
    fail("--load-shared: " + path + " has no function '" + entryName +
         "' written by vr-run --emit-shared");
  std::string expected = typeToString(signature);
  if (expected != recorded)
    fail("--load-shared: '" + entryName + "' in " + path + " has type " +
         recorded + ", but the module's '" + entryName + "' has type " +
         expected);
  return reinterpret_cast<PackedFunction>(packed);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

static int runFunction(FunctionType signature,
                       std::vector<HostValue> &arguments,
                       void (*packed)(void **), double compileMs,
                       bool compiled);

/// vr-run itself, on the large stack of main's worker thread.
static int runTool(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  initializeDriver();
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  // `--threads N` is taken before LLVM's parser, whose library registers an
  // option of that name already.
  std::vector<char *> remaining;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    std::optional<llvm::StringRef> count;
    if ((arg == "--threads" || arg == "-threads") && i + 1 < argc)
      count = argv[++i];
    else if (arg.consume_front("--threads=") || arg.consume_front("-threads="))
      count = arg;
    if (!count) {
      remaining.push_back(argv[i]);
      continue;
    }
    unsigned threads;
    if (count->getAsInteger(10, threads) || threads == 0)
      fail("--threads expects a positive integer, got '" + *count + "'");
    setenv("OMP_NUM_THREADS", count->str().c_str(), 1);
  }
  int remainingCount = static_cast<int>(remaining.size());
  cl::ParseCommandLineOptions(
      remainingCount, remaining.data(),
      "VRIR compile-and-run tool\n\n  --threads N  OpenMP threads of parallel "
      "loops\n");
  if (repeat == 0)
    fail("--repeat must be at least 1");

  DialectRegistry registry;
  registerDriverDialects(registry);
  MLIRContext context(registry);
  // Running a compiled library only parses: the parser loads what it needs.
  if (loadShared.empty())
    context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceWithValueNames(sourceMgr, &context);
  if (!module)
    return 1;

  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  if (!entry)
    fail("no function named '" + entryName + "' in " + inputFile);
  if (entry.isExternal())
    fail("'" + entryName + "' is only declared, not defined");
  FunctionType signature = entry.getFunctionType();
  for (auto [i, type] : llvm::enumerate(llvm::concat<const Type>(
           signature.getInputs(), signature.getResults()))) {
    Type element = getElementTypeOf(type);
    if (getDtype(element).empty() || isa<VarType, RangeType, DomainType>(type))
      fail("'" + entryName + "' has a parameter or result of type " +
           llvm::Twine(typeToString(type)) +
           ", which vr-run cannot pass (use arrays and scalars of i1, i32, "
           "i64, index, f32, f64, complex<f32>, complex<f64>)");
  }

  bool emitting = !emitObject.empty() || !emitShared.empty();
  if (emitting && !loadShared.empty())
    fail("--load-shared runs a compiled library: it does not go with "
         "--emit-object or --emit-shared");
  bool wantRun =
      !argValues.empty() || signature.getNumInputs() == 0 || !emitting;
  // A run compiles only what the entry reaches (a file of many kernels
  // would otherwise pay for all of them); a library keeps every function.
  if (!emitting && loadShared.empty()) {
    for (auto function : module->getOps<func::FuncOp>())
      if (function != entry && !function.isExternal())
        function.setPrivate();
    PassManager unreached(&context);
    unreached.addPass(createSymbolDCEPass());
    if (failed(unreached.run(*module)))
      return 1;
  }
  std::vector<HostValue> arguments;
  if (wantRun) {
    if (argValues.size() != signature.getNumInputs())
      fail("'" + entryName + "' takes " +
           llvm::Twine(signature.getNumInputs()) + " arguments but " +
           llvm::Twine(argValues.size()) + " --arg were given");
    std::mt19937_64 engine(seed);
    for (auto [i, type] : llvm::enumerate(signature.getInputs())) {
      auto argument = ::vrir::makeArgument(type, i, argValues[i], engine);
      if (!argument)
        fail(llvm::toString(argument.takeError()));
      arguments.push_back(std::move(*argument));
    }
  }

  // Compile. Ahead of time every public function gets a C interface
  // (`_mlir_ciface_NAME`) and records its signature; for a run, the entry.
  auto compileStart = std::chrono::steady_clock::now();
  if (!loadShared.empty()) {
    // A library built with --specialize compiles its regions' versions
    // through this process's specializer.
    if (specializeRegions)
      installRegionSpecializer(getRuntimeDirectory(argv[0]), optLevel);
    return runFunction(signature, arguments,
                       loadPackedFunction(loadShared, signature), 0.0,
                       /*compiled=*/false);
  }
  addCInterfaces(*module, entry, /*allPublic=*/emitting);
  if (emitting)
    addSignatureRecords(*module);
  if (failed(lowerToLLVM(*module)))
    return 1;

  auto targetBuilder = getHostTargetMachineBuilder(optLevel);
  if (!targetBuilder)
    fail(llvm::toString(targetBuilder.takeError()));
  if (!targetCPU.empty()) {
    targetBuilder->setCPU(targetCPU);
    targetBuilder->getFeatures() = llvm::SubtargetFeatures();
  }
  auto targetMachine = targetBuilder->createTargetMachine();
  if (!targetMachine)
    fail(llvm::toString(targetMachine.takeError()));
  if (!targetCPU.empty() &&
      !(*targetMachine)->getMCSubtargetInfo()->isCPUStringValid(targetCPU))
    fail("--mcpu: '" + targetCPU + "' is not a CPU of " +
         (*targetMachine)->getTargetTriple().str());
  auto optimize = makeLLVMOptimizer(optLevel, targetMachine->get());
  auto transformer = [&](llvm::Module *llvmModule) -> llvm::Error {
    if (llvm::Error error = optimize(llvmModule))
      return error;
    if (!dumpIR.empty()) {
      llvm::SmallString<256> path(dumpIR.getValue());
      llvm::sys::path::append(path, "optimized.ll");
      std::error_code code;
      llvm::raw_fd_ostream out(path, code);
      if (!code)
        llvmModule->print(out, nullptr);
    }
    return llvm::Error::success();
  };

  if (emitting) {
    std::string object =
        emitObject.empty() ? emitShared + ".o" : emitObject.getValue();
    if (llvm::Error error =
            emitObjectFile(*module, *targetBuilder, transformer, object))
      fail(llvm::toString(std::move(error)));
    if (!emitShared.empty()) {
      if (llvm::Error error = linkSharedLibrary(object, emitShared,
                                                getRuntimeDirectory(argv[0])))
        fail(llvm::toString(std::move(error)));
      if (emitObject.empty())
        llvm::sys::fs::remove(object);
    }
    if (!wantRun)
      return 0;
  }

  auto libraries = getRuntimeLibraries(getRuntimeDirectory(argv[0]));
  if (!libraries)
    fail(llvm::toString(libraries.takeError()));
  if (specializeRegions)
    installRegionSpecializer(getRuntimeDirectory(argv[0]), optLevel);
  std::vector<llvm::StringRef> libraryRefs(libraries->begin(),
                                           libraries->end());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  // As for a library (getHostTargetMachineBuilder): below -O2 the quick
  // code generator (fast instruction selection and register allocation).
  engineOptions.jitCodeGenOptLevel = optLevel >= 2
                                         ? llvm::CodeGenOptLevel::Aggressive
                                         : llvm::CodeGenOptLevel::None;
  engineOptions.sharedLibPaths = libraryRefs;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    fail("JIT compilation failed: " + llvm::toString(engine.takeError()));
  std::string packedName = "_mlir_ciface_" + entryName;
  auto packed = (*engine)->lookupPacked(packedName);
  if (!packed)
    fail(llvm::toString(packed.takeError()));
  double compileMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - compileStart)
                         .count();
  return runFunction(signature, arguments, *packed, compileMs,
                     /*compiled=*/true);
}

/// Calls the entry `repeat` times, prints and writes its results and the
/// statistics. `compiled`: the counts of the bounds-check passes are this
/// process's.
static int runFunction(FunctionType signature,
                       std::vector<HostValue> &arguments,
                       void (*packed)(void **), double compileMs,
                       bool compiled) {
  // The C interface returns several results, or one array, through a
  // struct whose address is the first argument; one scalar comes back
  // through the last packed slot.
  TypeRange resultTypes = signature.getResults();
  bool resultThroughPointer =
      resultTypes.size() > 1 ||
      (resultTypes.size() == 1 && isa<ArrayType, ComplexType>(resultTypes[0]));
  std::vector<size_t> resultOffsets;
  size_t resultSize = 0;
  for (Type type : resultTypes) {
    auto [size, align] = getSizeAndAlign(type);
    resultSize = (resultSize + align - 1) / align * align;
    resultOffsets.push_back(resultSize);
    resultSize += size;
  }
  std::vector<int64_t> resultStorage((resultSize + 7) / 8 + 1, 0);
  void *resultPointer = resultStorage.data();

  std::vector<void *> descriptorPointers(arguments.size());
  std::vector<void *> packedArgs;
  if (resultThroughPointer)
    packedArgs.push_back(&resultPointer);
  for (auto [i, argument] : llvm::enumerate(arguments)) {
    if (isa<ArrayType>(argument.type)) {
      buildDescriptor(argument);
      descriptorPointers[i] = argument.descriptor.data();
      packedArgs.push_back(&descriptorPointers[i]);
    } else {
      packedArgs.push_back(argument.scalar.data());
    }
  }
  if (!resultThroughPointer && !resultTypes.empty())
    packedArgs.push_back(resultPointer);

  // Results may share a buffer (a temporary returned with a view of it):
  // each allocation is freed once. A view of an argument (its allocation is
  // the argument's) is not the kernel's to free.
  auto freeResults = [&] {
    llvm::SmallPtrSet<void *, 4> freed;
    for (HostValue &argument : arguments)
      if (isa<ArrayType>(argument.type))
        freed.insert(reinterpret_cast<void *>(argument.descriptor[0]));
    for (auto [type, offset] : llvm::zip(resultTypes, resultOffsets)) {
      if (!isa<ArrayType>(type))
        continue;
      void *allocated = *reinterpret_cast<void **>(
          reinterpret_cast<char *>(resultPointer) + offset);
      if (freed.insert(allocated).second)
        vrir_rt_free(allocated);
    }
  };
  std::vector<double> runTimes;
  for (unsigned run = 0; run < repeat; ++run) {
    auto start = std::chrono::steady_clock::now();
    int status = vrir_rt_invoke(packed, packedArgs.data());
    runTimes.push_back(std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - start)
                           .count());
    if (status != 0) {
      llvm::errs() << "vrir: error: " << vrir_rt_last_error() << "\n";
      return 1;
    }
    if (run + 1 == repeat)
      break;
    // Release the results of all but the last run.
    freeResults();
  }

  // Results.
  unsigned nextOut = 0;
  auto nextResultFile = [&]() -> std::string {
    while (nextOut < outFiles.size()) {
      llvm::StringRef spec = outFiles[nextOut++];
      if (!spec.contains('='))
        return spec.str();
    }
    return "";
  };
  for (auto [i, type, offset] : llvm::enumerate(resultTypes, resultOffsets)) {
    const char *at = reinterpret_cast<const char *>(resultPointer) + offset;
    llvm::outs() << "result " << i << ": ";
    if (auto arrayType = dyn_cast<ArrayType>(type)) {
      NpyArray array =
          readDescriptor(reinterpret_cast<const int64_t *>(at), arrayType);
      if (array.numElements() <= static_cast<int64_t>(printLimit)) {
        printArray(llvm::outs(), array);
      } else {
        llvm::outs() << "array of shape (";
        llvm::interleaveComma(array.shape, llvm::outs());
        llvm::outs() << ")";
      }
      llvm::outs() << "\n";
      std::string path = nextResultFile();
      if (!path.empty())
        if (llvm::Error error = ::vrir::writeNpy(path, array))
          fail(llvm::toString(std::move(error)));
    } else {
      llvm::outs() << formatElement(at, getDtype(type)) << "\n";
    }
  }
  // Only once all are written: results may share a buffer.
  freeResults();
  // Arguments written in place: --out NAME=FILE.npy.
  for (llvm::StringRef spec : outFiles) {
    llvm::StringRef label, path;
    std::tie(label, path) = spec.split('=');
    if (path.empty())
      continue;
    auto found = llvm::find_if(arguments, [&](const HostValue &value) {
      return value.label == label;
    });
    if (found == arguments.end() || !isa<ArrayType>(found->type))
      fail("--out " + spec + ": no array argument labeled '" + label + "'");
    NpyArray array =
        readDescriptor(found->descriptor.data(), cast<ArrayType>(found->type));
    if (llvm::Error error = ::vrir::writeNpy(path, array))
      fail(llvm::toString(std::move(error)));
  }

  // `--stats` (LLVM's option, which also enables LLVM's statistics): the GPU
  // runtime's counters over all runs.
  if (llvm::AreStatisticsEnabled()) {
    llvm::outs().flush(); // the results first
    if (compiled)
      llvm::errs() << llvm::format(
          "bounds checks: checks=%llu proven=%llu repeated=%llu hoisted=%llu "
          "kept=%llu\n",
          static_cast<unsigned long long>(boundsCheckCounts.checks),
          static_cast<unsigned long long>(boundsCheckCounts.proven),
          static_cast<unsigned long long>(boundsCheckCounts.repeated),
          static_cast<unsigned long long>(boundsCheckCounts.hoisted),
          static_cast<unsigned long long>(boundsCheckCounts.kept));
    // The GPU runtime is one of the libraries the execution engine loaded.
    vrir_gpu_stats stats = {};
    if (auto *getStats = reinterpret_cast<void (*)(vrir_gpu_stats *)>(
            llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
                "vrir_gpu_get_stats")))
      getStats(&stats);
    llvm::errs() << llvm::format(
        "gpu stats: kernels=%lld uploads=%lld downloads=%lld "
        "bytes_uploaded=%lld bytes_downloaded=%lld compiles=%lld "
        "compile_ms=%.1f waits=%lld disk_cache_hits=%lld evictions=%lld "
        "fallbacks=%lld wait_ms=%.1f shared_copies=%lld device_copies=%lld\n",
        static_cast<long long>(stats.kernels),
        static_cast<long long>(stats.uploads),
        static_cast<long long>(stats.downloads),
        static_cast<long long>(stats.bytesUploaded),
        static_cast<long long>(stats.bytesDownloaded),
        static_cast<long long>(stats.compiles), stats.compileSeconds * 1e3,
        static_cast<long long>(stats.waits),
        static_cast<long long>(stats.diskCacheHits),
        static_cast<long long>(stats.evictions),
        static_cast<long long>(stats.fallbacks), stats.waitSeconds * 1e3,
        static_cast<long long>(stats.sharedCopies),
        static_cast<long long>(stats.deviceCopies));
    for (int region = 0; region < vrir_rt_region_count(); ++region) {
      vrir_rt_region_stats regionStats;
      if (vrir_rt_region_get_stats(region, &regionStats))
        continue;
      llvm::errs() << llvm::format(
          "region %s: calls=%llu hits=%llu misses=%llu generic=%llu "
          "compile_failures=%llu compile_ms=%.1f checks=%llu proven=%llu "
          "cached=%llu compiles=%llu facts=%s background=%llu\n",
          regionStats.name, static_cast<unsigned long long>(regionStats.calls),
          static_cast<unsigned long long>(regionStats.hits),
          static_cast<unsigned long long>(regionStats.misses),
          static_cast<unsigned long long>(regionStats.generic),
          static_cast<unsigned long long>(regionStats.compileFailures),
          regionStats.compileMs,
          static_cast<unsigned long long>(regionStats.checks),
          static_cast<unsigned long long>(regionStats.proven),
          static_cast<unsigned long long>(regionStats.cached),
          static_cast<unsigned long long>(regionStats.compiles),
          regionFactsName(regionStats.facts),
          static_cast<unsigned long long>(regionStats.backgroundCompiles));
    }
  }
  if (printTime) {
    if (compiled)
      llvm::errs() << llvm::format("compile: %.1f ms\n", compileMs);
    llvm::errs() << llvm::format(
        "run: median %.3f ms, min %.3f ms over %u runs\n", median(runTimes),
        *std::min_element(runTimes.begin(), runTimes.end()),
        static_cast<unsigned>(runTimes.size()));
  }
  return 0;
}

int main(int argc, char **argv) {
  exitWithLargeStack([&] { return runTool(argc, argv); });
}
