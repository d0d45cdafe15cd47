// RUN: not vr-opt %s --vrir-gpu-launch-to-runtime=format=ptx 2>&1 | FileCheck %s

// CHECK: error: vrir-gpu-launch-to-runtime: unknown format 'ptx' (expected opencl-c, vulkan-spirv or opencl-spirv)
module {
}
