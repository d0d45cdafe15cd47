// RUN: not vr-opt %s --vrir-convert-gpu-to-spirv=client=metal 2>&1 | FileCheck %s

// CHECK: error: vrir-convert-gpu-to-spirv: unknown client 'metal' (expected vulkan or opencl)
module {
}
