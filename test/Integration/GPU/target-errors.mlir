// RUN: not vr-run %s --entry f --target=cuda 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: env VRIR_TARGET=metal not vr-run %s --entry f 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: vr-run %s --entry f --target=cpu | FileCheck %s --check-prefix=CPU
// RUN: %if opencl %{ vr-run %s --entry f --target=opencl | FileCheck %s --check-prefix=CPU %}
// RUN: %if opencl %{ env VRIR_TARGET=opencl vr-run %s --entry f | FileCheck %s --check-prefix=CPU %}
// RUN: %if vulkan %{ vr-run %s --entry f --target=vulkan | FileCheck %s --check-prefix=CPU %}

// NAME: vr-run: error: unknown target 'cuda' (expected cpu, opencl, vulkan or opencl-spirv)
// ENV: vr-run: error: unknown target 'metal' (expected cpu, opencl, vulkan or opencl-spirv)
// CPU: result 0: 42

func.func @f() -> i64 {
  %c = arith.constant 42 : i64
  return %c : i64
}
