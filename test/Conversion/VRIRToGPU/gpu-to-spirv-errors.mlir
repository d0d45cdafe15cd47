// RUN: vr-opt %s --vrir-convert-gpu-to-spirv --split-input-file --verify-diagnostics

// What Vulkan SPIR-V cannot express is an error at the operation, before
// anything is converted: f64 math that neither GLSL.std.450 (16/32-bit
// floats only for most functions) nor the f64 math expansions cover (exp
// and pow are expanded), float atomics but on a kernel's buffer arguments
// (whose bits are then compared and swapped).
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf64>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf64>) workgroup(%w : memref<4xf64, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<?xf64>
      %e = math.exp %v : f64
      // expected-error @+1 {{f64 math.trunc has no Vulkan SPIR-V lowering yet (neither a GLSL.std.450 instruction for f64 nor an expansion of vrir-gpu-expand-f64-math)}}
      %t = math.trunc %e : f64
      %p = math.powf %t, %v : f64
      %a = memref.atomic_rmw addf %p, %x[%c0] : (f64, memref<?xf64>) -> f64
      // expected-error @+1 {{memref.atomic_rmw maximumf on 'f64' has no Vulkan SPIR-V lowering yet but on a kernel's buffer argument (core SPIR-V has no floating-point atomics)}}
      %m = memref.atomic_rmw maximumf %p, %w[%c0] : (f64, memref<4xf64, #gpu.address_space<workgroup>>) -> f64
      // expected-error @+1 {{memref.generic_atomic_rmw on 'f64' has no Vulkan SPIR-V lowering yet but on 32/64-bit integers and floats of a kernel's buffer argument (SPIR-V compares and swaps integers only)}}
      %g = memref.generic_atomic_rmw %w[%c0] : memref<4xf64, #gpu.address_space<workgroup>> {
      ^bb0(%cur: f64):
        %n = arith.addf %cur, %v : f64
        memref.atomic_yield %n : f64
      }
      gpu.return
    }
  }
}

// -----

// A SPIR-V kernel fixes its work-group size.
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{has a work-group size that is not a positive constant; the SPIR-V kernel fixes it}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%x : memref<?xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xf32>)
    // expected-error @+1 {{launches a kernel with another work-group size than an earlier launch}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
        args(%x : memref<?xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%x: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{is not launched: its work-group size, which the SPIR-V kernel fixes, is unknown}}
    gpu.func @k(%x: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// The work-group must fit the target's limits (1024 work-items by default).
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c64, %c1)
        args(%x : memref<?xf32>)
    return
  }
  gpu.module @kernels {
    // expected-error @+1 {{work-group of 4096 work-items exceeds the target's limit 1024}}
    gpu.func @k(%x: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Kernels call nothing but the bounds-error function.
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @kernels {
    llvm.func @abort()
    gpu.func @k() kernel {
      // expected-error @+1 {{a call of @abort cannot be compiled to SPIR-V}}
      llvm.call @abort() : () -> ()
      gpu.return
    }
  }
}

// -----

// A scalar argument wider than a parameter slot.
module attributes {gpu.container_module} {
  func.func @host(%x: memref<?xi32>, %wide: i128) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%x : memref<?xi32>, %wide : i128)
    return
  }
  gpu.module @kernels {
    // expected-error @+1 {{has argument #1 of type 'i128', which no parameter slot of 64 bits holds}}
    gpu.func @k(%x: memref<?xi32>, %wide: i128) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.trunci %wide : i128 to i32
      memref.store %v, %x[%c0] : memref<?xi32>
      gpu.return
    }
  }
}
