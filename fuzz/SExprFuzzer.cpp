//===- SExprFuzzer.cpp - Fuzz the S-expression importer -------------------===//
//
// Input: thesis appendix-A S-expressions. A module the importer accepts
// must verify (the importer reports bad input itself).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "VRIR/Target/SExpr.h"

#include "mlir/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vrir_fuzz::FuzzContext context;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "input.vrir"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      mlir::vrir::importVRIRSExpr(sourceMgr, context.get());
  if (module && failed(verify(*module))) {
    llvm::errs() << "the importer accepted input that does not verify\n";
    std::abort();
  }
  return 0;
}
