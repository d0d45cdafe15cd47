# RUN: %vrir_emit %s total --args "f64[:], i64" | FileCheck %s
# RUN: %vrir_emit %s total --args "f64[:], i64" | vr-opt > /dev/null
# The VRIR of a scalar loop: variables are vrir.alloca slots, the loop a cf
# CFG, the array argument (any layout) a strided array.
import vrir


@vrir.jit
def total(x, n):
    s = 0.0
    for i in range(n):
        if x[i] < 0:
            continue
        s += x[i]
    return s

# CHECK-LABEL: func.func @total(%arg0: !vrir.array<f64, 1, strided> loc("x"({{.*}}scalar_loop.py":9:11)), %arg1: i64
# CHECK-SAME: -> (f64) attributes {llvm.emit_c_interface}
# CHECK-DAG: vrir.alloca "s" : !vrir.var<f64>
# CHECK-DAG: vrir.alloca "i" : !vrir.var<i64>
# CHECK: cf.br ^[[HEAD:bb[0-9]+]]
# CHECK: ^[[HEAD]]:
# CHECK: %[[C:.*]] = arith.cmpi slt
# CHECK: cf.cond_br %[[C]], ^{{bb[0-9]+}}, ^[[EXIT:bb[0-9]+]]
# CHECK: vrir.load %{{.*}}[%{{.*}}] flags [#vrir.index<lower|upper|negative>] : !vrir.array<f64, 1, strided>[i64] loc({{.*}}scalar_loop.py":12:12)
# CHECK: arith.cmpf olt
# CHECK: arith.addf
# CHECK: arith.addi
# CHECK: ^[[EXIT]]:
# CHECK: func.return %{{.*}} : f64
