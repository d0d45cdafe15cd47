// Diagnostic variant of kernels/heat3d.mlir: the same kernel with
// `fastmath<contract>` on the floating-point arithmetic of the point update,
// which lets LLVM fuse a multiply and an add into an FMA -- what clang does
// for the C peer under its default -ffp-contract=on. Not part of the suite
// proper; run with `vrir-bench -k heat3d-contract`.
!t = !vrir.array<f64, 3, row_major>
module {
  func.func @heat3d_contract(%A: !t, %B: !t, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !t
    %n1 = arith.subi %n, %c1 : index
    scf.for %t = %c0 to %steps step %c1 {
      scf.for %i = %c1 to %n1 step %c1 {
        scf.for %j = %c1 to %n1 step %c1 {
          scf.for %k = %c1 to %n1 step %c1 {
            %v = func.call @point(%A, %i, %j, %k) : (!t, index, index, index) -> f64
            vrir.store %v, %B[%i, %j, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
          }
        }
      }
      scf.for %i = %c1 to %n1 step %c1 {
        scf.for %j = %c1 to %n1 step %c1 {
          scf.for %k = %c1 to %n1 step %c1 {
            %v = func.call @point(%B, %i, %j, %k) : (!t, index, index, index) -> f64
            vrir.store %v, %A[%i, %j, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
          }
        }
      }
    }
    return
  }

  func.func @heat3d_contract_pfor(%A: !t, %B: !t, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = vrir.dim %A, 0 : !t
    %n1 = arith.subi %n, %c1 : index
    %planes = vrir.range %c1 to %n1
    scf.for %t = %c0 to %steps step %c1 {
      vrir.pfor (%i) in %planes : !vrir.range shared(%A, %B : !t, !t) {
        scf.for %j = %c1 to %n1 step %c1 {
          scf.for %k = %c1 to %n1 step %c1 {
            %v = func.call @point(%A, %i, %j, %k) : (!t, index, index, index) -> f64
            vrir.store %v, %B[%i, %j, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
          }
        }
      }
      vrir.pfor (%i) in %planes : !vrir.range shared(%A, %B : !t, !t) {
        scf.for %j = %c1 to %n1 step %c1 {
          scf.for %k = %c1 to %n1 step %c1 {
            %v = func.call @point(%B, %i, %j, %k) : (!t, index, index, index) -> f64
            vrir.store %v, %A[%i, %j, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
          }
        }
      }
    }
    return
  }

  // The 7-point update of one interior point of A.
  func.func private @point(%A: !t, %i: index, %j: index, %k: index) -> f64 {
    %c1 = arith.constant 1 : index
    %eighth = arith.constant 0.125 : f64
    %two = arith.constant 2.0 : f64
    %im = arith.subi %i, %c1 : index
    %ip = arith.addi %i, %c1 : index
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %km = arith.subi %k, %c1 : index
    %kp = arith.addi %k, %c1 : index
    %a = vrir.load %A[%i, %j, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
    %a2 = arith.mulf %two, %a fastmath<contract> : f64
    %xp = vrir.load %A[%ip, %j, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
    %xm = vrir.load %A[%im, %j, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
    %yp = vrir.load %A[%i, %jp, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
    %ym = vrir.load %A[%i, %jm, %k] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
    %zp = vrir.load %A[%i, %j, %kp] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
    %zm = vrir.load %A[%i, %j, %km] flags [#vrir.index<none>, #vrir.index<none>, #vrir.index<none>] : !t[index, index, index]
    %x1 = arith.subf %xp, %a2 fastmath<contract> : f64
    %x2 = arith.addf %x1, %xm fastmath<contract> : f64
    %x3 = arith.mulf %eighth, %x2 fastmath<contract> : f64
    %y1 = arith.subf %yp, %a2 fastmath<contract> : f64
    %y2 = arith.addf %y1, %ym fastmath<contract> : f64
    %y3 = arith.mulf %eighth, %y2 fastmath<contract> : f64
    %z1 = arith.subf %zp, %a2 fastmath<contract> : f64
    %z2 = arith.addf %z1, %zm fastmath<contract> : f64
    %z3 = arith.mulf %eighth, %z2 fastmath<contract> : f64
    %s1 = arith.addf %x3, %y3 fastmath<contract> : f64
    %s2 = arith.addf %s1, %z3 fastmath<contract> : f64
    %s3 = arith.addf %s2, %a fastmath<contract> : f64
    return %s3 : f64
  }
}
