//===- SExprReader.h - Read S-expressions into a tree -----------*- C++ -*-===//
//
// The first stage of the VRIR S-expression import: tokens of thesis
// appendix A (names, `:attributes`, integers, floats, `%0`/`%1`, and the
// quoted strings of figure 4.2) grouped into lists, with their source
// locations. `;` starts a comment up to the end of the line (the grammar
// has no comments; lit tests need them).
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_TARGET_SEXPR_SEXPRREADER_H
#define VRIR_LIB_TARGET_SEXPR_SEXPRREADER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"

#include <string>
#include <vector>

namespace mlir {
namespace vrir {
namespace sexpr {

struct Node {
  enum class Kind { List, Symbol, Keyword, Integer, Float, Boolean, String };

  Kind kind = Kind::List;
  llvm::SMLoc loc;
  /// The spelling of symbols and keywords (with the ':'), the contents of
  /// strings.
  std::string text;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  std::vector<Node> items;

  bool isList() const { return kind == Kind::List; }
  bool isSymbol() const { return kind == Kind::Symbol; }
  bool isSymbol(StringRef spelling) const {
    return kind == Kind::Symbol && text == spelling;
  }
  /// The leading symbol of a list, "" for an atom or a list without one.
  StringRef head() const {
    if (isList() && !items.empty() && items.front().isSymbol())
      return items.front().text;
    return "";
  }
};

/// How a node is named in diagnostics: `'(plus ...)'`, `integer 3`, ...
std::string describe(const Node &node);

/// Reads every S-expression of `text`. Syntax errors (unbalanced
/// parentheses, bad tokens, nesting past `maxDepth`) go to `emitError` and
/// return failure.
FailureOr<std::vector<Node>>
readSExprs(StringRef text,
           function_ref<void(llvm::SMLoc, const Twine &)> emitError,
           unsigned maxDepth = 256);

} // namespace sexpr
} // namespace vrir
} // namespace mlir

#endif // VRIR_LIB_TARGET_SEXPR_SEXPRREADER_H
