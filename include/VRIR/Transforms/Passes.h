//===- Passes.h - VRIR transformation passes --------------------*- C++ -*-===//

#ifndef VRIR_TRANSFORMS_PASSES_H
#define VRIR_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace vrir {

#define GEN_PASS_DECL
#include "VRIR/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "VRIR/Transforms/Passes.h.inc"

} // namespace vrir
} // namespace mlir

#endif // VRIR_TRANSFORMS_PASSES_H
