// Run-time errors name arrays by their SSA names in MLIR text (a frontend's
// variable names come the same way, as NameLocs), with the access's file
// and line, on every backend: in a GPU section (an array the function
// made) and in the CPU code around it (an argument). Numbered values (%0)
// have no name to give.
// REQUIRES: opencl, vulkan
// RUN: not vr-run %s --entry section --arg data=zeros:3 --arg i=5 2>&1 | FileCheck %s --check-prefix=SECTION
// RUN: not vr-run %s --entry section --arg data=zeros:3 --arg i=5 --target opencl 2>&1 | FileCheck %s --check-prefix=SECTION
// RUN: not vr-run %s --entry section --arg data=zeros:3 --arg i=5 --target vulkan 2>&1 | FileCheck %s --check-prefix=SECTION
// SECTION: vrir: error: index out of bounds: array 'weights', accessed at {{.*}}array-names.mlir:[[# @LINE + 12]]:10: dimension 0, index 5, extent 3
// RUN: not vr-run %s --entry host --arg data=zeros:3 --arg i=-7 --target vulkan 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: vrir: error: index out of bounds: array 'data', accessed at {{.*}}array-names.mlir:[[# @LINE + 17]]:8: dimension 0, index -7, extent 3
// RUN: not vr-run %s --entry numbered --arg zeros:3 --arg 4 2>&1 | FileCheck %s --check-prefix=NUMBERED
// NUMBERED: vrir: error: index out of bounds: array argument #0, accessed at

!v = !vrir.array<f64, 1, row_major>

func.func @section(%data: !v, %i: index) -> !v {
  %c3 = arith.constant 3 : index
  %weights = vrir.ones(%c3) : !v
  vrir.gpu_section {
    %w = vrir.load %weights[%i] : !v[index]
    vrir.store %w, %data[%i] : !v[index]
  }
  return %data : !v
}

func.func @host(%data: !v, %i: index) -> f64 {
  %x = vrir.load %data[%i] : !v[index]
  return %x : f64
}

func.func @numbered(%0: !v, %1: index) -> f64 {
  %x = vrir.load %0[%1] : !v[index]
  return %x : f64
}
