# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t/cpu
# The same spec on each GPU backend is its own lit test, so that lit runs
# them side by side: kernels-opencl.test, kernels-vulkan.test,
# kernels-vulkan32.test (32-bit index arithmetic) and kernels-fallback.test
# (no device memory: the CPU versions).
# GPU sections (test/Integration/GPU/Inputs/kernels.mlir) on the CPU and on
# each GPU backend, against NumPy: stencils, CSR, column-major data,
# atomics, whole-array operations (with f64 exp), views with negative and
# non-unit strides, f32 in 3-D, an empty domain and a bounds error in a
# kernel. (f64_math.py measures each f64 math function.)
import numpy as np

SOURCE = "Inputs/kernels.mlir"
rng = np.random.default_rng(7)

# Jacobi 2-D, 4 sweeps.
A = rng.random((40, 37))
A = A[:, :37].copy()
A = rng.random((37, 37))
B = A.copy()
Aj, Bj = A.copy(), B.copy()
for _ in range(4):
    Bj[1:-1, 1:-1] = 0.2 * (Aj[1:-1, 1:-1] + Aj[:-2, 1:-1] + Aj[2:, 1:-1]
                            + Aj[1:-1, :-2] + Aj[1:-1, 2:])
    Aj[1:-1, 1:-1] = Bj[1:-1, 1:-1]

# CSR sparse matrix.
dense = rng.random((300, 150)) * (rng.random((300, 150)) < 0.1)
rows, cols = np.nonzero(dense)
indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=300))])
xs = rng.random(150)

# One n-body step.
nb_pos, nb_vel, nb_mass = rng.random((300, 3)), rng.random((300, 3)) - 0.5, rng.random(300)
nb_dt, nb_eps2 = 0.01, 0.05
diff = nb_pos[None, :, :] - nb_pos[:, None, :]
dist2 = (diff ** 2).sum(axis=2) + nb_eps2
nb_vel_after = nb_vel + nb_dt * (nb_mass[None, :, None] * diff
                                 / (dist2 * np.sqrt(dist2))[:, :, None]).sum(axis=1)
nb_pos_after = nb_pos + nb_dt * nb_vel_after

cm = np.asfortranarray(rng.random((45, 71)))
# Matrix products: 45x71 @ 71x33 and 65x64 @ 64x97 (tile edges).
mA = rng.random((71, 33))
mC, mD = rng.random((65, 64)), np.asfortranarray(rng.random((64, 97)))
values = rng.integers(0, 16, 5000)
xv = rng.random(1000) - 0.5

P, Q = rng.random((33, 33)), rng.random((33, 33))
px = rng.random(33)
py = (rng.random(50) * 4 - 2).astype(np.float32)

views_in = rng.random(101)
views_out = views_in.copy()
views_out[::2] *= 10
views_out[::-1] += np.arange(101)

cube = (np.arange(9 ** 3, dtype=np.float32) * np.float32(0.5)).reshape(9, 9, 9)

S = rng.random((6, 7))

# Matrix products of f32 (sums of 20 small integers: exact), i32, i16.
tA = rng.integers(-8, 8, (150, 20)).astype(np.float32)
tB = rng.integers(-8, 8, (20, 131)).astype(np.float32)
iC = rng.integers(-1000, 1000, (70, 45)).astype(np.int32)
iD = rng.integers(-1000, 1000, (45, 66)).astype(np.int32)
hE = rng.integers(-5, 5, (33, 17)).astype(np.int16)
hF = rng.integers(-5, 5, (17, 40)).astype(np.int16)

# Reductions over more elements than one level of work-groups covers.
RA = rng.random((700, 501))
RB = np.asfortranarray(rng.integers(-1000, 1000, (97, 33)))

# Reduction pfors.
gx = rng.integers(-10 ** 9, 10 ** 9, 5000)
gidx = rng.integers(0, 5000, 20000)

s8 = rng.integers(-128, 128, 1000).astype(np.int8)
s16 = rng.integers(-32768, 32768, 1000).astype(np.int16)

CASES = [
    Case("jacobi2d", [("A", A), ("B", B), ("steps", 4)],
         inplace={"A": Aj, "B": Bj}),
    Case("spmv", [("indptr", indptr.astype(np.int64)),
                  ("indices", cols.astype(np.int64)),
                  ("data", dense[rows, cols]), ("x", xs)],
         results=[dense @ xs]),
    Case("nbody_step", [("pos", nb_pos), ("vel", nb_vel), ("mass", nb_mass),
                        ("dt", nb_dt), ("eps2", nb_eps2)],
         inplace={"pos": nb_pos_after, "vel": nb_vel_after}, rtol=1e-11),
    Case("matmul_mixed", [("A", cm), ("B", mA), ("C", mC), ("D", mD)],
         results=[cm @ mA, mC @ mD], rtol=1e-11),
    # Other tilings of the matrix-product kernel: 8x8 sums per work-item
    # (128x128 tiles), and tiles of A whose rows do not split evenly among
    # the work-items (32x24 over 16x8 work-items).
    Case("matmul_mixed", [("A", cm), ("B", mA), ("C", mC), ("D", mD)],
         results=[cm @ mA, mC @ mD], rtol=1e-11,
         extra=["--gpu-matmul-tiling=128,128,8,16,16"]),
    Case("matmul_mixed", [("A", cm), ("B", mA), ("C", mC), ("D", mD)],
         results=[cm @ mA, mC @ mD], rtol=1e-11,
         extra=["--gpu-matmul-tiling=32,64,24,16,8"]),
    Case("matmul_mixed", [("A", cm[:1, :1]), ("B", mA[:1, :1]),
                          ("C", mC[:, :0]), ("D", mD[:0, :])],
         results=[cm[:1, :1] @ mA[:1, :1], mC[:, :0] @ mD[:0, :]]),
    # f32 tiles of 128x128 (the first group inside, the others at the
    # edges; 20 deep: whole, then partial tiles of A and B), i32 and i16.
    Case("matmul_types", [("A", tA), ("B", tB), ("C", iC), ("D", iD),
                          ("E", hE), ("F", hF)],
         results=[tA @ tB, iC @ iD, hE @ hF], rtol=1e-5),
    Case("matvec_mixed", [("A", mC), ("x", mD[:, 0].copy()), ("C", cm),
                          ("z", mA[:, 0].copy())],
         results=[mC @ mD[:, 0], cm @ mA[:, 0]], rtol=1e-11),
    Case("matvec_mixed", [("A", mA[:9, :1]), ("x", mA[:1, 0].copy()),
                          ("C", cm[:0, :3]), ("z", mA[:3, 0].copy())],
         results=[mA[:9, :1] @ mA[:1, 0], cm[:0, :3] @ mA[:3, 0]]),
    Case("transpose_loops", [("A", cm)], results=[cm.T]),
    Case("scale_cm", [("A", cm), ("alpha", 3.0)], results=[3.0 * cm]),
    Case("histogram", [("values", values.astype(np.int64)), ("bins", 16)],
         results=[np.bincount(values, minlength=16)]),
    Case("max_cas", [("values", values.astype(np.int64) * 7 - 3)],
         results=[(values * 7 - 3).max()]),
    Case("atomic_sum_max", [("x", xv)], results=[xv.sum(), xv.max()],
         rtol=1e-9),
    Case("array_ops", [("A", P), ("B", Q), ("x", px)],
         results=[np.exp(2 * P + px), np.exp(2 * P + px).sum(), P.max(),
                  P @ Q, P @ px, P.T], rtol=1e-11),
    Case("array_ops_portable", [("A", P), ("B", Q), ("x", px), ("y", py)],
         results=[2 * P + px, P @ Q, P @ px, P.T, np.exp(py)], rtol=1e-6),
    Case("reductions", [("A", RA), ("B", RB)],
         results=[RA.sum(), RA.min(), RB.sum(), RB.max()], rtol=1e-10),
    Case("reductions", [("A", RA[:1, :1]), ("B", RB[:1, :1])],
         results=[RA[0, 0], RA[0, 0], RB[0, 0], RB[0, 0]]),
    Case("views", [("x", views_in)], inplace={"x": views_out}),
    Case("cube", [("n", 9)], results=[cube]),
    Case("threshold", [("x", 100 * xv), ("t", 7.5)],
         results=[100 * xv > 7.5,
                  np.where(100 * xv > 7.5, (100 * xv * 7.5).astype(np.int32), 1)]),
    Case("empty", [("x", np.zeros(0))], results=[np.zeros(0)]),
    Case("empty", [("x", xv)], results=[xv]),
    # The full-domain stencil reads A[m, j] at i = m-1.
    Case("stencil", [("A", S), ("B", np.zeros((6, 7)))],
         error="dimension 0, index 6, extent 6 (in a parallel loop)"),
    # Over the first m-1 rows it is in bounds; A[-1, j] wraps.
    Case("stencil", [("A", S), ("B", np.zeros((5, 7)))],
         inplace={"B": (S[:5] + np.roll(S, 1, axis=0)[:5] + S[1:6]) / 5}),
    Case("histogram", [("values", values.astype(np.int64)), ("bins", 15)],
         error="index 15, extent 15 (in a parallel loop)"),
    Case("pfor_sum", [("A", RA), ("s0", 1.5)], results=[1.5 + (RA * RA).sum()],
         rtol=1e-10),
    Case("pfor_sum", [("A", RA[:0, :3]), ("s0", -0.25)], results=[-0.25]),
    Case("pfor_max_gather", [("x", gx), ("idx", gidx), ("m0", -10 ** 12)],
         results=[gx[gidx].max()]),
    Case("pfor_max_gather", [("x", gx), ("idx", gidx), ("m0", 10 ** 12)],
         results=[10 ** 12]),
    Case("pfor_max_gather", [("x", gx), ("idx", np.append(gidx, 5000)), ("m0", 0)],
         error="index 5000, extent 5000 (in a parallel loop)"),
    Case("small_integers", [("x", s8), ("y", s16)],
         inplace={"x": s8 + s8, "y": s16 + s8.astype(np.int16)}),
]
