// RUN: vr-translate --gpu-to-opencl-c %s --split-input-file --verify-diagnostics

// Types and operations OpenCL C kernels cannot take are errors.

gpu.module @m {
  // expected-error @below {{'gpu.func' op argument #1 of type 'complex<f64>' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%a: f64, %z: complex<f64>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument #0 of type 'vector<4xf32>' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%v: vector<4xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument #0 of type 'memref<?x?xf64>' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%a: memref<?x?xf64>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument #0 of type 'memref<?xf64, strided<[?], offset: ?>>' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%a: memref<?xf64, strided<[?], offset: ?>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument #0 of type 'i128' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%a: i128) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument #0 of type 'memref<?xbf16>' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%a: memref<?xbf16>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<?xf64>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'memref.dim' op cannot be translated to OpenCL C}}
    %n = memref.dim %a, %c0 : memref<?xf64>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f64) kernel {
    // expected-error @below {{'math.clampf' op cannot be translated to OpenCL C}}
    %0 = math.clampf %x to [%x, %x] : f64
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i64) kernel {
    // expected-error @below {{'arith.addui_extended' op cannot be translated to OpenCL C}}
    %s, %o = arith.addui_extended %x, %x : i64, i1
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: i64) kernel {
    // expected-error @below {{'arith.trunci' op from 'i64' to 'i7' cannot be translated to OpenCL C}}
    %y = arith.trunci %x : i64 to i7
    %z = arith.addi %y, %y : i7
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f64) kernel {
    // expected-error @below {{'arith.truncf' op with a rounding mode cannot be translated to OpenCL C}}
    %y = arith.truncf %x to_nearest_away : f64 to f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<?xi16>, %v: i16, %i: index) kernel {
    // expected-error @below {{'memref.atomic_rmw' op on 'i16' elements cannot be translated to OpenCL C}}
    %old = memref.atomic_rmw addi %v, %a[%i] : (i16, memref<?xi16>) -> i16
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%a: memref<?xf64> {vrir.readonly}, %v: f64, %i: index) kernel {
    // expected-error @below {{'memref.store' op writes a kernel argument marked vrir.readonly}}
    memref.store %v, %a[%i] : memref<?xf64>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%n: index) kernel {
    // expected-error @below {{'memref.alloc' op cannot be translated to OpenCL C}}
    %a = memref.alloc(%n) : memref<?xf64>
    gpu.return
  }
}

// -----

gpu.module @m {
  llvm.func @abort()
  gpu.func @k() kernel {
    // expected-error @below {{'llvm.call' op cannot be translated to OpenCL C}}
    llvm.call @abort() : () -> ()
    gpu.return
  }
}

// -----

gpu.module @m {
  llvm.mlir.global internal constant @site("s\00") {addr_space = 0 : i32}
  llvm.func @use(!llvm.ptr)
  gpu.func @k() kernel {
    // expected-error @below {{'llvm.mlir.addressof' op used other than as the site of a call to @vrir_rt_parallel_bounds_error cannot be translated to OpenCL C}}
    %p = llvm.mlir.addressof @site : !llvm.ptr
    llvm.call @use(%p) : (!llvm.ptr) -> ()
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{'gpu.func' op name 'local' is not usable as an OpenCL C kernel name}}
  gpu.func @local() kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{'gpu.func' op with more than one block cannot be translated to OpenCL C}}
  gpu.func @k(%c: i1) kernel {
    cf.cond_br %c, ^a, ^b
  ^a:
    gpu.return
  ^b:
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument #0 of type 'bf16' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%x: bf16) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @below {{'arith.constant' op of type 'bf16' cannot be translated to OpenCL C}}
    %c = arith.constant 1.0 : bf16
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f64) kernel {
    // expected-error @below {{'arith.constant' op of type 'vector<2xf64>' cannot be translated to OpenCL C}}
    %v = arith.constant dense<1.0> : vector<2xf64>
    %n = arith.negf %v : vector<2xf64>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32, %i: index) kernel {
    %v = vector.from_elements %x, %x : vector<2xf32>
    // expected-error @below {{'vector.extract' op other than of a constant lane of a vector of numbers cannot be translated to OpenCL C}}
    %e = vector.extract %v[%i] : f32 from vector<2xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%x: f32) kernel {
    // expected-error @below {{'vector.from_elements' op of type 'vector<3xf32>' cannot be translated to OpenCL C}}
    %v = vector.from_elements %x, %x, %x : vector<3xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{argument #0 of type 'memref<?xvector<4xf32>>' cannot be passed to an OpenCL C kernel}}
  gpu.func @k(%a: memref<?xvector<4xf32>>) kernel {
    gpu.return
  }
}
