//===- ArgumentsFuzzer.cpp - Fuzz vr-run's .npy reader and arguments ------===//
//
// Input: one byte choosing what to fuzz, then bytes.
// - even byte: the rest is a .npy file for the reader;
// - odd byte: the rest is an `--arg` text for a parameter whose type the
//   byte picks (scalars of each type, arrays of each rank and layout).
// Every rejection must be an error value; generated arrays get a 1 MiB
// memory budget, which the arguments' size check must enforce.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "FuzzSupport.h"

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::vrir;

/// The types an `--arg` is matched against.
static SmallVector<Type> getParameterTypes(MLIRContext *context) {
  Builder b(context);
  Type f64 = b.getF64Type();
  SmallVector<Type> types = {f64,
                             b.getF32Type(),
                             b.getI64Type(),
                             b.getI32Type(),
                             b.getI1Type(),
                             b.getIndexType(),
                             ComplexType::get(f64),
                             ComplexType::get(b.getF32Type())};
  for (Type element : {f64, Type(b.getI32Type()), Type(b.getI1Type())})
    for (unsigned rank = 0; rank <= 3; ++rank)
      for (Layout layout :
           {Layout::RowMajor, Layout::ColMajor, Layout::Strided})
        types.push_back(ArrayType::get(context, element, rank, layout));
  return types;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  uint8_t choice = data[0];
  llvm::StringRef rest(reinterpret_cast<const char *>(data + 1), size - 1);
  if (choice % 2 == 0) {
    auto array = ::vrir::readNpyBuffer(rest, "input.npy");
    if (!array) {
      llvm::consumeError(array.takeError());
      return 0;
    }
    uint64_t expected = ::vrir::NpyArray::elementSize(array->dtype);
    for (int64_t dim : array->shape)
      expected *= dim;
    if (array->data.size() != expected) {
      llvm::errs() << "the reader's data does not match its shape\n";
      std::abort();
    }
    return 0;
  }
  static MLIRContext *context = [] {
    auto *created = new MLIRContext(MLIRContext::Threading::DISABLED);
    created->loadDialect<VRIRDialect>();
    return created;
  }();
  static SmallVector<Type> types = getParameterTypes(context);
  Type type = types[(choice / 2) % types.size()];
  std::mt19937_64 engine(42);
  // A small memory budget: larger generated arrays must be refused.
  auto value = ::vrir::makeArgument(type, 0, rest, engine,
                                    /*maxBytes=*/1 << 20);
  if (!value)
    llvm::consumeError(value.takeError());
  return 0;
}
