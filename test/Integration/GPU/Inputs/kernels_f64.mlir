// The GPU sections of test/Integration/GPU/kernels.py that use f64
// operations SPIR-V for Vulkan does not have: exp (GLSL.std.450 has it for
// 16- and 32-bit floats only). A module with them does not compile for
// Vulkan, so they live apart from Inputs/kernels.mlir; kernels.py runs them
// on the CPU and on OpenCL.

!m = !vrir.array<f64, 2, row_major>
!v = !vrir.array<f64, 1, row_major>

module {
  // Whole-array operations in a section: element-wise with broadcasting
  // and math, a reduction, matmul, matvec and a transpose.
  func.func @array_ops(%A: !m, %B: !m, %x: !v) -> (!m, f64, f64, !m, !v, !m) {
    %two = arith.constant 2.0 : f64
    %r:6 = vrir.gpu_section -> (!m, f64, f64, !m, !v, !m) {
      %e = vrir.binary mul %A, %two : !m, f64 -> !m
      %f = vrir.binary add %e, %x : !m, !v -> !m
      %g = vrir.unary exp %f : !m -> !m
      %sum = vrir.reduce sum %g : !m -> f64
      %max = vrir.reduce max %A : !m -> f64
      %p = vrir.matmul %A, %B : !m, !m -> !m
      %q = vrir.matvec %A, %x : !m, !v -> !v
      %t = vrir.transpose %A : !m to !m
      vrir.yield %g, %sum, %max, %p, %q, %t : !m, f64, f64, !m, !v, !m
    }
    return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : !m, f64, f64, !m, !v, !m
  }
}
