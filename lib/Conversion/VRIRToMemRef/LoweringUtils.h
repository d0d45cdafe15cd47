//===- LoweringUtils.h - Helpers shared by the VRIR lowerings ---*- C++ -*-===//
//
// Internal to lib/Conversion/VRIRToMemRef: index arithmetic, bounds checks,
// runtime calls and allocation used by several pattern groups.
//
//===----------------------------------------------------------------------===//

#ifndef VRIR_LIB_CONVERSION_VRIRTOMEMREF_LOWERINGUTILS_H
#define VRIR_LIB_CONVERSION_VRIRTOMEMREF_LOWERINGUTILS_H

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
namespace vrir {
namespace lowering {

/// The memref type an array type lowers to.
MemRefType getMemRefType(ArrayType type);

/// `value` as an `index` (sign-extending integers).
Value toIndex(OpBuilder &b, Location loc, Value value);

/// The external `resultType name(argTypes...)` of the module around
/// `anchor`, declared on first use.
LLVM::LLVMFuncOp declareFunction(OpBuilder &b, Operation *anchor,
                                 StringRef name, Type resultType,
                                 TypeRange argTypes);

/// The external `void name(argTypes...)` (see declareFunction).
LLVM::LLVMFuncOp declareVoidFunction(OpBuilder &b, Operation *anchor,
                                     StringRef name, TypeRange argTypes);

/// Calls the runtime function `name` (declared in the module around
/// `anchor` on first use, with the types of `args`). `noReturn` marks it
/// noreturn and cold. Calls are `llvm.call`s: they carry memory effects, so
/// upstream passes (alloca-scope inlining) need not treat them as unknown.
void callRuntime(OpBuilder &b, Location loc, Operation *anchor, StringRef name,
                 ValueRange args, bool noReturn = false);

/// A `!llvm.ptr` to an internal constant global of `type` initialised with
/// `value`, named `prefix` and a hash of `bytes` (the value's bytes): one
/// global per distinct value in the module.
Value getConstantGlobal(OpBuilder &b, Location loc, Operation *anchor,
                        StringRef prefix, Type type, Attribute value,
                        ArrayRef<uint8_t> bytes, uint64_t alignment = 0);

/// A `!llvm.ptr` to a NUL-terminated constant global holding `text`
/// (one global per distinct text in the module).
Value getConstantString(OpBuilder &b, Location loc, Operation *anchor,
                        StringRef text);

/// Name of the discardable attribute in which the pass records, before
/// conversion, the site of each op that accesses an array (block arguments
/// lose their function during conversion).
constexpr StringLiteral kSiteAttrName = "vrir.site";

/// Name of the unit attribute that marks, for the GPU lowering, the
/// `vrir.gpu_section`s to keep (as `scf.execute_region`s carrying it) so
/// that `vrir-gpu-map-sections` can turn their loops into kernels.
constexpr StringLiteral kGpuSectionAttrName = VRIRDialect::kGpuSectionAttrName;

/// The marked GPU sections (`scf.execute_region`s carrying
/// kGpuSectionAttrName) under `root`, in post-order.
SmallVector<Operation *> collectGpuSections(Operation *root);

/// True when `op` is inside a GPU section that the GPU lowering keeps:
/// its loops must be parallel over their whole domain and must not call
/// host libraries.
bool isInGpuSection(Operation *op);

/// The site recorded on `op` for its array operand `array`.
std::string getArraySite(Operation *op, Value array);

/// True when `op` runs inside a parallel loop (a `vrir.pfor` or the
/// `scf.parallel` it became): errors are then recorded, not raised.
bool isInParallelLoop(Operation *op);

/// Emits a call to the runtime's `vrir_rt_error(message)` (never returns).
void emitRuntimeError(OpBuilder &b, Location loc, Operation *anchor,
                      StringRef message);

/// Emits `if (condition) vrir_rt_error(message)`.
void emitRuntimeErrorIf(OpBuilder &b, Location loc, Operation *anchor,
                        Value condition, StringRef message);

/// Turns one user index (in the module's index base) into a 0-based index
/// into a dimension of `extent` elements, following `flags`: negative wrap,
/// lower and upper checks. A failed check calls the runtime with `site`,
/// `dimension` (reported in the index base) and the user's index. In a
/// parallel loop the error is recorded and the failure is or'ed into
/// `anyFailed` (created on first use) so that the caller can skip the access.
Value lowerIndex(OpBuilder &b, Location loc, Operation *anchor, Value userIndex,
                 Value extent, IndexFlags flags, int64_t indexBase,
                 StringRef site, int64_t dimension, bool parallel,
                 Value &anyFailed);

/// The dynamic sizes of every dimension of `memref`.
SmallVector<Value> getMemRefSizes(OpBuilder &b, Location loc, Value memref);

/// Raises a run-time error when a size is negative or the array's size in
/// bytes does not fit in 64 bits.
void checkArraySizes(OpBuilder &b, Location loc, Operation *anchor,
                     ArrayType type, ValueRange sizes);

/// Allocates a new contiguous array of `type` with `sizes` (index values),
/// after checkArraySizes. Not initialized.
Value allocateArray(OpBuilder &b, Location loc, Operation *anchor,
                    ArrayType type, ValueRange sizes);

/// Fills `memref` with `value` (a scalar of its element type).
void fillArray(OpBuilder &b, Location loc, Value memref, Value value);

/// An `!llvm.ptr` to element `indices` (0-based) of `memref`, for
/// operations memref has no op for (compare-and-swap, library calls).
Value getElementPointer(OpBuilder &b, Location loc, Value memref,
                        ValueRange indices);

/// Calls (defining on first use) `__vrir_cas_iN(ptr, expected, desired)`, a
/// private function around LLVM's cmpxchg on integers of N bits that
/// returns the old value. The call carries its memory effects, which the
/// deallocation analysis needs (a bare cmpxchg has none it can read); LLVM
/// inlines it.
Value callCompareExchange(OpBuilder &b, Location loc, Operation *anchor,
                          Value pointer, Value expected, Value desired);

/// The constant 0 or 1 of a VRIR element type.
Value getZero(OpBuilder &b, Location loc, Type elementType);
Value getOne(OpBuilder &b, Location loc, Type elementType);

/// The identity of a reduction over `type`: 0, 1, or the extreme value of
/// the type (infinities for floats, so that NaN still wins). A float sum
/// starts from -0.0 with `negativeZero` (the exact identity: a sum of
/// negative zeros stays -0.0), else from 0.0 (NumPy's sum of nothing).
Value getReductionIdentity(OpBuilder &b, Location loc, ReduceKind kind,
                           Type type, bool negativeZero = false);
/// `lhs` combined with `rhs` by `kind` (float min/max propagate NaN).
Value combineReduction(OpBuilder &b, Location loc, ReduceKind kind, Value lhs,
                       Value rhs);

/// The runtime function a bounds check inside a parallel loop calls: it
/// records the error and returns (vrir-parallel-error-scopes relies on it).
inline constexpr llvm::StringLiteral kParallelBoundsErrorFunction =
    "vrir_rt_parallel_bounds_error";

/// True if a loop (LoopLikeOpInterface) is nested in `op`'s regions.
bool hasLoopInside(Operation *op);

/// Number of elements of the 0-based range [start, stop) by `step` (either
/// sign, not zero): max(0, ceil((stop - start) / step)).
Value getRangeTripCount(OpBuilder &b, Location loc, Value start, Value stop,
                        Value step);

/// Allocates an uninitialized row-major scratch buffer of `elementType`
/// with `sizes`, which are known not to be negative (the sizes of an
/// existing array), so that no check is emitted.
Value allocateTemporary(OpBuilder &b, Location loc, Type elementType,
                        ValueRange sizes);

/// Computes one result element from one element (or scalar) per operand.
using ElementFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// Fills `result` (a memref of `sizes`, any strides) with `fn` of the
/// elements of `operands` (memrefs, which broadcast to `sizes` and have been
/// checked to, or scalars) at each position, as one linalg.generic walking
/// `loopLayout`'s order. Operands whose shape is `sizes` are read through
/// their own strides (what the vectorizer needs), others through stride-0
/// views. `sizesFromOperands`: `sizes` is the operands' broadcast shape, so
/// a lone operand of that rank has it.
void fillElementwise(OpBuilder &b, Location loc, ValueRange operands,
                     ArrayRef<Value> sizes, bool sizesFromOperands,
                     Value result, Layout loopLayout, ElementFn fn);

/// An i1: whether the memory `a` and `b` (memrefs with any strides) may
/// address overlaps. Compares the byte ranges from their lowest to their
/// highest element, so views of one buffer that interleave count as
/// overlapping; an empty memref overlaps nothing.
Value mayOverlap(OpBuilder &b, Location loc, Value first, Value second);

/// An i1: whether `first` and `second` are the same view (same buffer
/// address, offset, sizes and strides), so that reading element i of one
/// and then writing element i of the other is safe.
Value isSameView(OpBuilder &b, Location loc, Value first, Value second);

/// Copies `source` into `target`, memrefs of one shape and element type
/// with any strides (negative or zero included), as a `linalg.copy`: its
/// loops need no runtime library, unlike `memref.copy` of non-contiguous
/// memrefs (which calls `memrefCopy`).
void copyMemRef(OpBuilder &b, Location loc, Value source, Value target);

} // namespace lowering
} // namespace vrir
} // namespace mlir

#endif // VRIR_LIB_CONVERSION_VRIRTOMEMREF_LOWERINGUTILS_H
