//===- Npy.cpp - Reading and writing NumPy .npy files ---------------------===//

#include "Npy.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace vrir;

int64_t NpyArray::numElements() const {
  // Wrapping arithmetic: a header's shape can overflow (byteSize is what
  // validates it); signed overflow would be undefined behaviour.
  uint64_t count = 1;
  for (int64_t size : shape)
    count *= static_cast<uint64_t>(size);
  return static_cast<int64_t>(count);
}

size_t NpyArray::elementSize(llvm::StringRef dtype) {
  return llvm::StringSwitch<size_t>(dtype)
      .Case("f8", 8)
      .Case("f4", 4)
      .Case("i8", 8)
      .Case("i4", 4)
      .Case("i2", 2)
      .Case("i1", 1)
      .Case("b1", 1)
      .Case("c16", 16)
      .Case("c8", 8)
      .Default(0);
}

std::optional<uint64_t> NpyArray::byteSize(llvm::ArrayRef<int64_t> shape,
                                           size_t elementSize) {
  uint64_t bytes = elementSize;
  for (int64_t size : shape) {
    if (size < 0 ||
        __builtin_mul_overflow(bytes, static_cast<uint64_t>(size), &bytes))
      return std::nullopt;
  }
  if (bytes > static_cast<uint64_t>(INT64_MAX))
    return std::nullopt;
  return bytes;
}

static llvm::Error npyError(llvm::StringRef path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + what);
}

/// The value of `key` in the header dictionary, as raw text.
static std::optional<llvm::StringRef> findKey(llvm::StringRef header,
                                              llvm::StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t at = header.find(quoted);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  return rest.ltrim();
}

llvm::Expected<NpyArray> vrir::readNpy(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file)
    return npyError(path, "cannot open: " + file.getError().message());
  return readNpyBuffer((*file)->getBuffer(), path);
}

llvm::Expected<NpyArray> vrir::readNpyBuffer(llvm::StringRef contents,
                                             llvm::StringRef path) {
  if (contents.size() < 10 || !contents.starts_with("\x93NUMPY"))
    return npyError(path, "not a .npy file (bad magic)");
  unsigned major = static_cast<unsigned char>(contents[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(contents[8]) |
                   (static_cast<unsigned char>(contents[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (contents.size() < 12)
      return npyError(path, "truncated header");
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |=
          static_cast<size_t>(static_cast<unsigned char>(contents[8 + i]))
          << (8 * i);
    headerStart = 12;
  } else {
    return npyError(path, "unsupported .npy version " + llvm::Twine(major));
  }
  if (headerStart + headerLength > contents.size())
    return npyError(path, "truncated header");
  llvm::StringRef header = contents.substr(headerStart, headerLength);

  NpyArray array;
  auto descr = findKey(header, "descr");
  if (!descr || !descr->starts_with("'"))
    return npyError(path, "header has no 'descr'");
  llvm::StringRef type =
      descr->drop_front().take_until([](char c) { return c == '\''; });
  if (type.size() < 2 || (type[0] != '<' && type[0] != '|' && type[0] != '='))
    return npyError(path, "unsupported dtype '" + type +
                              "' (only little-endian data)");
  array.dtype = type.drop_front().str();
  if (array.dtype == "?1")
    array.dtype = "b1";
  if (NpyArray::elementSize(array.dtype) == 0)
    return npyError(path, "unsupported dtype '" + type +
                              "' (use float64, float32, int64, int32, int16, "
                              "int8, bool, "
                              "complex128 or complex64)");
  auto order = findKey(header, "fortran_order");
  if (!order)
    return npyError(path, "header has no 'fortran_order'");
  array.fortranOrder = order->starts_with("True");
  auto shape = findKey(header, "shape");
  if (!shape || !shape->starts_with("("))
    return npyError(path, "header has no 'shape'");
  llvm::StringRef dims =
      shape->drop_front().take_until([](char c) { return c == ')'; });
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    int64_t size;
    if (part.trim().getAsInteger(10, size) || size < 0)
      return npyError(path, "bad shape entry '" + part.trim() + "'");
    array.shape.push_back(size);
  }
  std::optional<uint64_t> bytes =
      NpyArray::byteSize(array.shape, NpyArray::elementSize(array.dtype));
  size_t dataStart = headerStart + headerLength;
  if (!bytes || contents.size() - dataStart < *bytes)
    return npyError(path, "file holds less data than its shape says");
  array.data.assign(contents.begin() + dataStart,
                    contents.begin() + dataStart + *bytes);
  return array;
}

llvm::Error vrir::writeNpy(llvm::StringRef path, const NpyArray &array) {
  std::string header = "{'descr': '";
  // One-byte types have no byte order.
  header += NpyArray::elementSize(array.dtype) == 1 ? "|" + array.dtype
                                                    : "<" + array.dtype;
  header += "', 'fortran_order': ";
  header += array.fortranOrder ? "True" : "False";
  // Python tuple syntax: "()", "(3,)", "(2, 3)".
  header += ", 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i)
    header += (i ? ", " : "") + std::to_string(array.shape[i]);
  if (array.shape.size() == 1)
    header += ",";
  header += ")";
  header += ", }";
  // Pad so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error)
    return npyError(path, "cannot write: " + error.message());
  out << "\x93NUMPY" << char(1) << char(0);
  out << char(header.size() & 0xff) << char((header.size() >> 8) & 0xff);
  out << header;
  out.write(array.data.data(), array.data.size());
  return llvm::Error::success();
}
