//===- ParseFuzzer.cpp - Fuzz the VRIR parser and verifiers ---------------===//
//
// Input: MLIR text or bytecode. The parser runs every VRIR type, attribute
// and op parser and then the verifiers (verifyInput, as the tools do); a
// module that verifies is printed and parsed again (the printers and parsers
// must agree).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "VRIR/Transforms/VerifyInput.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vrir_fuzz::FuzzContext context;
  // Tools read files into null-terminated buffers, which MLIR's lexer
  // relies on: give the parser the same (a std::string's data is).
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      mlir::vrir::parseInputString(text, context.get());
  if (!module)
    return 0;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  OwningOpRef<ModuleOp> reparsed =
      mlir::vrir::parseInputString(printed, context.get());
  if (!reparsed) {
    llvm::errs() << "a verified module does not parse once printed:\n"
                 << printed << "\n";
    std::abort();
  }
  return 0;
}
