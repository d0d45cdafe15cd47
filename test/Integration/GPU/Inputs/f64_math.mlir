// One kernel per f64 math function: @math_NAME(x) applies math.NAME to
// each element of x in a GPU section (@math_atan2(y, x), @math_powf(x, y),
// @math_fpowi(x, k) with i64 exponents, @math_sincos(x) returns both).
// test/Integration/GPU/f64_math.py runs them on the CPU and on Vulkan,
// where GLSL.std.450 has no f64 math and vrir-gpu-expand-f64-math expands
// them, and measures their errors.

!v = !vrir.array<f64, 1, row_major>
!iv = !vrir.array<i64, 1, row_major>

module {
  func.func @math_exp(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.exp %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_exp2(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.exp2 %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_expm1(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.expm1 %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_log(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.log %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_log2(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.log2 %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_log10(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.log10 %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_log1p(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.log1p %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_sin(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.sin %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_cos(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.cos %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_tan(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.tan %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_sinh(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.sinh %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_cosh(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.cosh %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_tanh(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.tanh %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_asin(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.asin %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_acos(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.acos %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_atan(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.atan %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_asinh(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.asinh %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_acosh(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.acosh %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_atanh(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.atanh %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_erf(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.erf %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_erfc(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.erfc %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_cbrt(%x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %b = math.cbrt %a : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_atan2(%y: !v, %x: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %y[%i] : !v[index]
        %c = vrir.load %x[%i] : !v[index]
        %b = math.atan2 %a, %c : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_powf(%x: !v, %y: !v) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %c = vrir.load %y[%i] : !v[index]
        %b = math.powf %a, %c : f64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_fpowi(%x: !v, %k: !iv) -> !v {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %result = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%result : !v) {
        %a = vrir.load %x[%i] : !v[index]
        %c = vrir.load %k[%i] : !iv[index]
        %b = math.fpowi %a, %c : f64, i64
        vrir.store %b, %result[%i] : !v[index]
      }
    }
    return %result : !v
  }

  func.func @math_sincos(%x: !v) -> (!v, !v) {
    %c0 = arith.constant 0 : index
    %n = vrir.dim %x, 0 : !v
    %sines = vrir.zeros(%n) : !v
    %cosines = vrir.zeros(%n) : !v
    %all = vrir.range %c0 to %n
    vrir.gpu_section {
      vrir.pfor (%i) in %all : !vrir.range shared(%sines, %cosines : !v, !v) {
        %a = vrir.load %x[%i] : !v[index]
        %s, %c = math.sincos %a : f64
        vrir.store %s, %sines[%i] : !v[index]
        vrir.store %c, %cosines[%i] : !v[index]
      }
    }
    return %sines, %cosines : !v, !v
  }
}
