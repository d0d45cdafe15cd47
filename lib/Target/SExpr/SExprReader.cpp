//===- SExprReader.cpp - Read S-expressions into a tree -------------------===//

#include "SExprReader.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::vrir::sexpr;

std::string mlir::vrir::sexpr::describe(const Node &node) {
  switch (node.kind) {
  case Node::Kind::List:
    if (node.items.empty())
      return "'()'";
    if (!node.head().empty())
      return "'(" + node.head().str() + " ...)'";
    return "a list";
  case Node::Kind::Symbol:
    return "name '" + node.text + "'";
  case Node::Kind::Keyword:
    return "attribute name '" + node.text + "'";
  case Node::Kind::Integer:
    return "integer " + std::to_string(node.intValue);
  case Node::Kind::Float:
    return "floating-point number " + node.text;
  case Node::Kind::Boolean:
    return node.boolValue ? "boolean %1" : "boolean %0";
  case Node::Kind::String:
    return "string \"" + node.text + "\"";
  }
  llvm_unreachable("unknown node kind");
}

namespace {

class Reader {
public:
  Reader(StringRef text,
         function_ref<void(llvm::SMLoc, const Twine &)> emitError)
      : text(text), emitError(emitError) {}

  FailureOr<std::vector<Node>> read(unsigned maxDepth);

private:
  llvm::SMLoc locAt(size_t offset) const {
    return llvm::SMLoc::getFromPointer(text.data() + offset);
  }
  LogicalResult error(size_t offset, const Twine &message) {
    emitError(locAt(offset), message);
    return failure();
  }
  void skipSpaceAndComments();
  /// Reads the atom at `pos` into `node`.
  LogicalResult readAtom(Node &node);
  LogicalResult readNumber(Node &node);

  StringRef text;
  function_ref<void(llvm::SMLoc, const Twine &)> emitError;
  size_t pos = 0;
};

bool isNameStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

} // namespace

void Reader::skipSpaceAndComments() {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++pos;
    } else if (c == ';') {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
    } else {
      return;
    }
  }
}

LogicalResult Reader::readNumber(Node &node) {
  size_t start = pos;
  if (text[pos] == '+' || text[pos] == '-')
    ++pos;
  auto digits = [&] {
    size_t first = pos;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
    return pos > first;
  };
  if (!digits())
    return error(start, "expected digits after the sign in rule 'Intval'");
  bool isFloat = false;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    isFloat = true;
    if (!digits())
      return error(start, "expected digits after the '.' in rule 'Floatval'");
  }
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    isFloat = true;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
      ++pos;
    if (!digits())
      return error(start, "expected digits in the exponent in rule 'Floatval'");
  }
  if (pos < text.size() && (isNameChar(text[pos]) || text[pos] == '.'))
    return error(start,
                 "malformed number '" + text.substr(start, pos + 1 - start) +
                     "' in rule '" + (isFloat ? "Floatval" : "Intval") + "'");
  StringRef spelling = text.substr(start, pos - start);
  node.text = spelling.str();
  if (isFloat) {
    node.kind = Node::Kind::Float;
    if (spelling.getAsDouble(node.floatValue))
      return error(start,
                   "malformed number '" + spelling + "' in rule 'Floatval'");
    return success();
  }
  node.kind = Node::Kind::Integer;
  // getAsInteger rejects a leading '+'.
  StringRef unsignedSpelling = spelling;
  unsignedSpelling.consume_front("+");
  if (unsignedSpelling.getAsInteger(10, node.intValue))
    return error(start, "the integer " + node.text +
                            " does not fit in 64 bits in rule 'Intval'");
  return success();
}

LogicalResult Reader::readAtom(Node &node) {
  size_t start = pos;
  node.loc = locAt(start);
  char c = text[pos];
  if (llvm::isDigit(c) || ((c == '+' || c == '-') && pos + 1 < text.size() &&
                           llvm::isDigit(text[pos + 1])))
    return readNumber(node);
  if (isNameStart(c)) {
    while (pos < text.size() && isNameChar(text[pos]))
      ++pos;
    node.kind = Node::Kind::Symbol;
    node.text = text.substr(start, pos - start).str();
    return success();
  }
  if (c == ':') {
    ++pos;
    if (pos >= text.size() || !isNameStart(text[pos]))
      return error(start, "expected a name after ':' in an attribute name");
    while (pos < text.size() && isNameChar(text[pos]))
      ++pos;
    node.kind = Node::Kind::Keyword;
    node.text = text.substr(start, pos - start).str();
    return success();
  }
  if (c == '%') {
    // The grammar's booleans: %0 is false, %1 true.
    if (pos + 1 >= text.size() ||
        (text[pos + 1] != '0' && text[pos + 1] != '1') ||
        (pos + 2 < text.size() && isNameChar(text[pos + 2])))
      return error(start, "expected %0 or %1 in rule 'boolval'");
    node.kind = Node::Kind::Boolean;
    node.boolValue = text[pos + 1] == '1';
    node.text = text.substr(start, 2).str();
    pos += 2;
    return success();
  }
  if (c == '"') {
    ++pos;
    std::string contents;
    while (pos < text.size() && text[pos] != '"' && text[pos] != '\n') {
      if (text[pos] == '\\' && pos + 1 < text.size())
        ++pos;
      contents.push_back(text[pos++]);
    }
    if (pos >= text.size() || text[pos] != '"')
      return error(start, "unterminated string: it needs a closing '\"' "
                          "on the same line");
    ++pos;
    node.kind = Node::Kind::String;
    node.text = std::move(contents);
    return success();
  }
  if (llvm::isPrint(c))
    return error(start, Twine("unexpected character '") + Twine(c) +
                            "': no token of the grammar starts with it");
  return error(start, "unexpected byte 0x" +
                          llvm::utohexstr(static_cast<unsigned char>(c)));
}

FailureOr<std::vector<Node>> Reader::read(unsigned maxDepth) {
  // The list being filled is the top of `open`; an explicit stack so that
  // deep nesting in bad input cannot overflow the native one.
  std::vector<Node> open(1);
  std::vector<size_t> openOffsets;
  while (true) {
    skipSpaceAndComments();
    if (pos >= text.size())
      break;
    char c = text[pos];
    if (c == '(') {
      if (openOffsets.size() >= maxDepth)
        return error(pos,
                     "lists nest deeper than " + Twine(maxDepth) + " levels");
      Node list;
      list.kind = Node::Kind::List;
      list.loc = locAt(pos);
      open.push_back(std::move(list));
      openOffsets.push_back(pos);
      ++pos;
      continue;
    }
    if (c == ')') {
      if (openOffsets.empty())
        return error(pos, "unbalanced parentheses: this ')' has no matching "
                          "'('");
      Node list = std::move(open.back());
      open.pop_back();
      openOffsets.pop_back();
      open.back().items.push_back(std::move(list));
      ++pos;
      continue;
    }
    Node atom;
    if (failed(readAtom(atom)))
      return failure();
    open.back().items.push_back(std::move(atom));
  }
  if (!openOffsets.empty()) {
    // Name the rule of the innermost open list when its head is known.
    std::string message = "unbalanced parentheses: this '(' is not closed "
                          "before the end of the input";
    if (StringRef head = open.back().head(); !head.empty())
      message += (" in rule '" + head + "'").str();
    return error(openOffsets.back(), message);
  }
  return std::move(open.front().items);
}

FailureOr<std::vector<Node>> mlir::vrir::sexpr::readSExprs(
    StringRef text, function_ref<void(llvm::SMLoc, const Twine &)> emitError,
    unsigned maxDepth) {
  return Reader(text, emitError).read(maxDepth);
}
