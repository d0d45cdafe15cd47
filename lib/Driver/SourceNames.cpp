//===- SourceNames.cpp - Parse MLIR text keeping the values' names --------===//
//
// Run-time errors name arrays by the NameLoc of their value (describeArray).
// Frontends attach those; for a module written as MLIR text the names are
// the SSA names (%A), which the parser drops. parseSourceWithValueNames
// recovers them from the parser's record of definitions (AsmParserState,
// the one the language server uses).
//
//===----------------------------------------------------------------------===//

#include "VRIR/Driver/Driver.h"
#include "VRIR/Transforms/VerifyInput.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// "A" for the definition "%A" or "%A:2"; nothing for numbered values
/// ("%0"), which say nothing to a user.
static std::optional<StringRef> getUserName(llvm::SMRange range) {
  if (!range.isValid())
    return std::nullopt;
  StringRef text(range.Start.getPointer(),
                 range.End.getPointer() - range.Start.getPointer());
  if (!text.consume_front("%"))
    return std::nullopt;
  text = text.take_until([](char c) { return c == ':' || c == '#'; });
  if (text.empty() || llvm::isDigit(text.front()))
    return std::nullopt;
  return text;
}

static Location nameLocation(StringRef name, Location loc) {
  if (isa<NameLoc>(loc))
    return loc;
  return NameLoc::get(StringAttr::get(loc.getContext(), name), loc);
}

OwningOpRef<ModuleOp>
mlir::vrir::parseSourceWithValueNames(llvm::SourceMgr &sourceMgr,
                                      MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (isBytecode(*buffer))
    return parseInputFile(sourceMgr, context);

  ParserConfig config(context, /*verifyAfterParse=*/false);
  Block block;
  AsmParserState state;
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return {};
  for (const AsmParserState::BlockDefinition &definition : state.getBlockDefs())
    for (auto [argument, argumentDefinition] :
         llvm::zip(definition.block->getArguments(), definition.arguments))
      if (auto name = getUserName(argumentDefinition.loc))
        argument.setLoc(nameLocation(*name, argument.getLoc()));
  // A result's location is its op's: name ops with one named result.
  for (const AsmParserState::OperationDefinition &definition :
       state.getOpDefs())
    if (definition.op->getNumResults() == 1 &&
        definition.resultGroups.size() == 1)
      if (auto name = getUserName(definition.resultGroups[0].definition.loc))
        definition.op->setLoc(nameLocation(*name, definition.op->getLoc()));

  Location fileLoc = FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                         /*line=*/0, /*column=*/0);
  OwningOpRef<ModuleOp> module =
      detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &block, context, fileLoc);
  if (!module || failed(verifyInput(*module)))
    return {};
  return module;
}
