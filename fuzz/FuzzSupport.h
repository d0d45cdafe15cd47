//===- FuzzSupport.h - Shared pieces of the VRIR fuzz targets ---*- C++ -*-===//
//
// Each target is a libFuzzer entry point (LLVMFuzzerTestOneInput) over one
// input-facing part of VRIR. An input that the code rejects with a
// diagnostic is a pass; a crash, a sanitizer report, a leak, an assertion
// or a hang is a bug. Diagnostics are swallowed so that the fuzzer's output
// stays readable. FuzzSupport.cpp initializes the driver (passes, native
// target) for the targets that parse MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_FUZZ_FUZZSUPPORT_H
#define VRIR_FUZZ_FUZZSUPPORT_H

#include "VRIR/Driver/Driver.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace vrir_fuzz {

/// A fresh single-threaded context with every dialect a VRIR pipeline meets,
/// and a handler that drops diagnostics. A fresh one per input keeps inputs
/// independent (uniqued attributes and types do not accumulate).
class FuzzContext {
public:
  FuzzContext()
      : context(makeRegistry(), mlir::MLIRContext::Threading::DISABLED) {
    context.getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
  }
  mlir::MLIRContext *get() { return &context; }

private:
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    mlir::vrir::registerDriverDialects(registry);
    return registry;
  }
  mlir::MLIRContext context;
};

} // namespace vrir_fuzz

#endif // VRIR_FUZZ_FUZZSUPPORT_H
