//===- Driver.h - From a VRIR module to native code -------------*- C++ -*-===//
//
// The steps from a parsed VRIR module to an object file or a shared library,
// shared by vr-run and the C API (libVRIRCompiler.so): lowering with
// `vrir-to-cpu`, translation to LLVM IR with packed entry points,
// optimization for the host CPU, object emission and linking.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_DRIVER_DRIVER_H
#define VRIR_DRIVER_DRIVER_H

#include "VRIR/Conversion/Passes.h"

#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class Module;
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;
class ModuleOp;
class PassManager;
namespace func {
class FuncOp;
} // namespace func

namespace vrir {

/// What bounds-check elimination did to a module: every checked bound of
/// an index (`checks`) was proven never to fail, found repeated, hoisted
/// into a test before its loop, or kept.
struct BoundsCheckCounts {
  uint64_t checks = 0, proven = 0, repeated = 0, hoisted = 0, kept = 0;
};

/// Options of a compilation to native code.
struct CompileOptions {
  PipelineOptions pipeline;
  /// Optimization level of the LLVM IR passes (0 to 3).
  unsigned optLevel = 3;
  /// If set, receives the counts of the bounds-check passes (collected from
  /// their `vrir-bce` remarks).
  BoundsCheckCounts *boundsChecks = nullptr;
  /// If set, the compile's phases (and the MLIR pipeline's passes) are timed
  /// under this scope.
  TimingScope *timing = nullptr;
  /// Verify the IR after every pass of the pipeline rather than once after
  /// the last one: a pass that breaks the IR is then named, at the price of
  /// about 40% of the pipeline's time. `vr-opt` (and so every FileCheck
  /// test of a pass) verifies after each pass whatever this says.
  bool verifyEachPass = false;
};

/// Registers the passes `vrir-to-cpu` names and initializes the native
/// target. Idempotent and thread-safe.
void initializeDriver();

/// Inserts every dialect, extension and LLVM IR translation a VRIR module
/// may use on its way to LLVM IR.
void registerDriverDialects(DialectRegistry &registry);

/// Parses the main buffer of `sourceMgr` (MLIR text or bytecode) into a
/// module. In text, the values that have SSA names (%A, not %0) keep them as
/// NameLocs, so run-time errors name them ("array 'A'") as they name a
/// frontend's variables. Errors are diagnostics; the result is then null.
OwningOpRef<ModuleOp> parseSourceWithValueNames(llvm::SourceMgr &sourceMgr,
                                                MLIRContext *context);

/// Gives `entry`, and with `allPublic` every public function definition, a C
/// interface (`_mlir_ciface_NAME`), which also gets a packed entry point
/// when the module is emitted (see addPackedInterfaces).
void addCInterfaces(ModuleOp module, func::FuncOp entry, bool allPublic);

/// Runs `vrir-to-cpu` on `module`. `configure` may instrument the pass
/// manager first (command-line options, IR dumps). Errors are diagnostics.
LogicalResult
lowerToLLVM(ModuleOp module, const CompileOptions &options,
            function_ref<LogicalResult(PassManager &)> configure = nullptr);

/// A target machine builder for the host CPU and its features. Code
/// generation matches the IR optimization level `optLevel`: aggressive from
/// 2 up, none (fast instruction selection and register allocation) below.
llvm::Expected<llvm::orc::JITTargetMachineBuilder>
getHostTargetMachineBuilder(unsigned optLevel = 3);

/// Defines `void _mlir_NAME(void **args)` for every `_mlir_ciface_NAME` in
/// `module`: the packed calling convention of ExecutionEngine::lookupPacked
/// (`args[i]` points at argument i, the slot after the last argument at
/// the storage of a result returned by value), which `vrir_rt_invoke` and
/// `vrir_rt_try` call without a per-signature thunk.
void addPackedInterfaces(llvm::Module &module);

/// Translates the LLVM-dialect `module` to LLVM IR, adds packed interfaces,
/// runs `optimize` and writes position-independent code to `path`.
llvm::Error emitObjectFile(ModuleOp module,
                           llvm::orc::JITTargetMachineBuilder builder,
                           function_ref<llvm::Error(llvm::Module *)> optimize,
                           StringRef path, TimingScope *timing = nullptr);

/// The shared libraries generated code calls: the VRIR runtime and the
/// VRIR GPU runtime in `runtimeDirectory`, libomp, OpenBLAS, MLIR's C
/// runner utilities and (x86-64 Linux) glibc's vector math library.
llvm::Expected<std::vector<std::string>>
getRuntimeLibraries(StringRef runtimeDirectory);

/// Links `object` into the shared library `output` against the VRIR runtime
/// and those other libraries of getRuntimeLibraries that define a symbol it
/// uses (with run paths to them): with the linker command that
/// `clang-22 -shared` runs (gold's where it exists), recorded when VRIR was
/// configured, or else through clang-22 (or cc) itself.
llvm::Error linkSharedLibrary(StringRef object, StringRef output,
                              StringRef runtimeDirectory);

/// LLVM's optimization pipeline at `optLevel` for `machine` (upstream
/// makeOptimizingTransformer's) with glibc's vector math library (libmvec)
/// known to the loop vectorizer on x86-64 Linux, and VRIR's defaults for
/// LLVM options the process has not set: no non-trivial loop unswitching
/// (`-unswitch-threshold=0`; O3's unswitching doubles the loops that test
/// loop-invariant conditions, bounds-check versions and overlap tests, for
/// little speed). Call after parsing the command line, if any.
std::function<llvm::Error(llvm::Module *)>
makeLLVMOptimizer(unsigned optLevel, llvm::TargetMachine *machine);

/// Lowers `module`, whose function `entry` gets C and packed interfaces
/// (as does every other public function), and writes the shared library
/// `output`. Every error is reported as a diagnostic.
LogicalResult compileToSharedLibrary(ModuleOp module, StringRef entry,
                                     StringRef output,
                                     const CompileOptions &options,
                                     StringRef runtimeDirectory);

/// Makes this process compile specialised versions of outlined regions
/// when their dispatchers ask (vrir_rt_set_specializer), JIT-linking them
/// against the runtime libraries in `runtimeDirectory` (see
/// getRuntimeLibraries) at LLVM optimization level `optLevel`.
void installRegionSpecializer(StringRef runtimeDirectory,
                              unsigned optLevel = 3);

} // namespace vrir
} // namespace mlir

#endif // VRIR_DRIVER_DRIVER_H
