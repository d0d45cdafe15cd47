//===- Arguments.cpp - vr-run's command-line arguments --------------------===//

#include "Arguments.h"

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <unistd.h>

using namespace mlir;
using mlir::vrir::ArrayType;
using mlir::vrir::Layout;

namespace vrir {

static llvm::Error argumentError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string getDtype(Type type) {
  if (type.isF64())
    return "f8";
  if (type.isF32())
    return "f4";
  if (type.isInteger(64) || type.isIndex())
    return "i8";
  if (type.isInteger(32))
    return "i4";
  if (type.isInteger(16))
    return "i2";
  if (type.isInteger(8))
    return "i1";
  if (type.isInteger(1))
    return "b1";
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (complex.getElementType().isF64())
      return "c16";
    if (complex.getElementType().isF32())
      return "c8";
  }
  return "";
}

std::vector<char> reorder(const NpyArray &array, bool toFortran) {
  size_t element = NpyArray::elementSize(array.dtype);
  std::vector<char> out(array.data.size());
  size_t rank = array.shape.size();
  std::vector<int64_t> index(rank, 0);
  int64_t count = array.numElements();
  for (int64_t linear = 0; linear < count; ++linear) {
    // `index` walks the C order; compute the Fortran position.
    int64_t cPos = 0, fPos = 0, cStride = 1, fStride = 1;
    for (size_t d = rank; d-- > 0;) {
      cPos += index[d] * cStride;
      cStride *= array.shape[d];
    }
    for (size_t d = 0; d < rank; ++d) {
      fPos += index[d] * fStride;
      fStride *= array.shape[d];
    }
    int64_t from = toFortran ? cPos : fPos, to = toFortran ? fPos : cPos;
    std::memcpy(&out[to * element], &array.data[from * element], element);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < array.shape[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text,
                                                llvm::StringRef context) {
  std::vector<int64_t> shape;
  if (text.empty())
    return shape;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, 'x');
  for (llvm::StringRef part : parts) {
    int64_t size;
    if (part.getAsInteger(10, size) || size < 0)
      return argumentError("bad shape '" + text + "' in " + context);
    shape.push_back(size);
  }
  return shape;
}

/// Physical memory of this machine in bytes (0 if unknown).
static uint64_t getPhysicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0 ? static_cast<uint64_t>(pages) * pageSize
                                   : 0;
}

/// Refuses a generated array whose bytes overflow or exceed the machine's
/// memory: allocating it would crash or bring in the OOM killer.
static llvm::Error checkGeneratedSize(llvm::ArrayRef<int64_t> shape,
                                      llvm::StringRef dtype,
                                      llvm::StringRef context,
                                      uint64_t maxBytes) {
  std::optional<uint64_t> bytes =
      NpyArray::byteSize(shape, NpyArray::elementSize(dtype));
  std::string shapeText;
  for (int64_t size : shape)
    shapeText += (shapeText.empty() ? "" : "x") + std::to_string(size);
  if (!bytes)
    return argumentError(context + ": an array of shape " + shapeText +
                         " has more bytes than 64 bits can count");
  uint64_t memory = maxBytes ? maxBytes : getPhysicalMemory();
  if (memory && *bytes > memory)
    return argumentError(llvm::formatv(
        "{0}: out of memory: an array of shape {1} ({2}) needs {3:F1} GiB, "
        "more than the {4:F1} GiB of memory available",
        context, shapeText, dtype, *bytes / double(1ull << 30),
        memory / double(1ull << 30)));
  return llvm::Error::success();
}

/// Fills an array argument from a generator spec: rand|zeros|ones|arange.
static llvm::Expected<NpyArray>
generate(llvm::StringRef kind, std::vector<int64_t> shape,
         const std::string &dtype, llvm::StringRef context,
         std::mt19937_64 &engine, uint64_t maxBytes) {
  if (kind != "rand" && kind != "zeros" && kind != "ones" && kind != "arange")
    return argumentError("unknown generator '" + kind + "' in " + context +
                         " (use rand, zeros, ones or arange)");
  if (llvm::Error error = checkGeneratedSize(shape, dtype, context, maxBytes))
    return std::move(error);
  NpyArray array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  int64_t count = array.numElements();
  array.data.resize(count * NpyArray::elementSize(dtype));
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int64_t i = 0; i < count; ++i) {
    double value;
    if (kind == "rand")
      value = uniform(engine);
    else if (kind == "zeros")
      value = 0;
    else if (kind == "ones")
      value = 1;
    else
      value = static_cast<double>(i);
    char *at = &array.data[i * NpyArray::elementSize(dtype)];
    if (dtype == "f8" || dtype == "c16")
      *reinterpret_cast<double *>(at) = value;
    else if (dtype == "f4" || dtype == "c8")
      *reinterpret_cast<float *>(at) = static_cast<float>(value);
    else if (dtype == "i8")
      *reinterpret_cast<int64_t *>(at) =
          kind == "rand" ? static_cast<int64_t>(value * 100) : value;
    else if (dtype == "i4")
      *reinterpret_cast<int32_t *>(at) =
          kind == "rand" ? static_cast<int32_t>(value * 100) : value;
    else if (dtype == "i2")
      *reinterpret_cast<int16_t *>(at) = static_cast<int16_t>(
          kind == "rand" ? static_cast<int64_t>(value * 100) : value);
    else if (dtype == "i1")
      *reinterpret_cast<int8_t *>(at) = static_cast<int8_t>(
          kind == "rand" ? static_cast<int64_t>(value * 100) : value);
    else
      *at = kind == "rand" ? value < 0.5 : value != 0;
  }
  return array;
}

/// An array argument: a .npy file or a generator spec.
static llvm::Error makeArray(HostValue &value, ArrayType arrayType,
                             llvm::StringRef spec, const std::string &context,
                             std::mt19937_64 &engine, uint64_t maxBytes) {
  std::string dtype = getDtype(arrayType.getElementType());
  if (dtype.empty())
    return argumentError(
        context + ": vr-run cannot pass arrays of " +
        llvm::Twine(arrayType.getElementType().getAbstractType().getName()));
  auto [kind, rest] = spec.split(':');
  if (spec.ends_with(".npy")) {
    auto loaded = readNpy(spec);
    if (!loaded)
      return argumentError(context + ": " + toString(loaded.takeError()));
    value.array = std::move(*loaded);
    if (value.array.dtype != dtype)
      return argumentError(context + ": the file holds dtype '" +
                           value.array.dtype + "' but the parameter needs '" +
                           dtype + "'");
  } else if (spec.contains(':')) {
    auto [shapeText, dtypeText] = rest.split(':');
    if (!dtypeText.empty() && dtypeText != "f64" && dtypeText != dtype &&
        dtypeText != "f32" && dtypeText != "i64" && dtypeText != "i32")
      return argumentError(context + ": unknown element type '" + dtypeText +
                           "'");
    auto shape = parseShape(shapeText, context);
    if (!shape)
      return shape.takeError();
    auto generated =
        generate(kind, std::move(*shape), dtype, context, engine, maxBytes);
    if (!generated)
      return generated.takeError();
    value.array = std::move(*generated);
  } else {
    return argumentError(context +
                         ": expected a .npy file or GENERATOR:SHAPE for an "
                         "array parameter, got '" +
                         spec + "'");
  }
  if (value.array.shape.size() != arrayType.getRank())
    return argumentError(context + ": the array has rank " +
                         llvm::Twine(value.array.shape.size()) +
                         " but the parameter has rank " +
                         llvm::Twine(arrayType.getRank()));
  // Contiguous parameters need their layout; strided ones take either.
  bool wantFortran = arrayType.getLayout() == Layout::ColMajor;
  if (arrayType.getLayout() != Layout::Strided &&
      value.array.fortranOrder != wantFortran && value.array.shape.size() > 1) {
    value.array.data = reorder(value.array, wantFortran);
    value.array.fortranOrder = wantFortran;
  }
  return llvm::Error::success();
}

/// A scalar argument: an integer, a boolean, or "re[,im]".
static llvm::Error makeScalar(HostValue &value, Type type, llvm::StringRef spec,
                              const std::string &context) {
  std::string dtype = getDtype(type);
  if (dtype.empty())
    return argumentError(context + ": vr-run cannot pass a value of this type");
  value.scalar.resize(16, 0);
  char *at = value.scalar.data();
  if (type.isInteger(1)) {
    if (spec == "true" || spec == "1" || spec == "True")
      *at = 1;
    else if (spec == "false" || spec == "0" || spec == "False")
      *at = 0;
    else
      return argumentError(context + ": expected true or false, got '" + spec +
                           "'");
  } else if (type.isIntOrIndex()) {
    int64_t parsed;
    if (spec.getAsInteger(10, parsed))
      return argumentError(context + ": expected an integer, got '" + spec +
                           "'");
    if (type.isInteger(32))
      *reinterpret_cast<int32_t *>(at) = static_cast<int32_t>(parsed);
    else if (type.isInteger(16))
      *reinterpret_cast<int16_t *>(at) = static_cast<int16_t>(parsed);
    else if (type.isInteger(8))
      *reinterpret_cast<int8_t *>(at) = static_cast<int8_t>(parsed);
    else
      *reinterpret_cast<int64_t *>(at) = parsed;
  } else {
    auto [reText, imText] = spec.split(',');
    double re = 0, im = 0;
    if (reText.trim().getAsDouble(re) ||
        (!imText.empty() && imText.trim().getAsDouble(im)))
      return argumentError(context + ": expected a number, got '" + spec + "'");
    if (dtype == "f8" || dtype == "c16") {
      reinterpret_cast<double *>(at)[0] = re;
      reinterpret_cast<double *>(at)[1] = im;
    } else {
      reinterpret_cast<float *>(at)[0] = static_cast<float>(re);
      reinterpret_cast<float *>(at)[1] = static_cast<float>(im);
    }
  }
  return llvm::Error::success();
}

llvm::Expected<HostValue> makeArgument(Type type, unsigned position,
                                       llvm::StringRef text,
                                       std::mt19937_64 &engine,
                                       uint64_t maxBytes) {
  HostValue value;
  value.type = type;
  auto [label, spec] = text.split('=');
  if (spec.empty() && !text.contains('='))
    spec = label;
  value.label = label.str();
  std::string context =
      ("argument #" + llvm::Twine(position) + " ('" + label + "')").str();
  llvm::Error error = isa<ArrayType>(type)
                          ? makeArray(value, cast<ArrayType>(type), spec,
                                      context, engine, maxBytes)
                          : makeScalar(value, type, spec, context);
  if (error)
    return std::move(error);
  return value;
}

} // namespace vrir
