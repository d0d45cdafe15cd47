# RUN: %python %vrir_src_root/test/Integration/compare.py %s %t
# vrir.cholesky, inv, solve, det, eigh and svd (LAPACK in OpenBLAS)
# against np.linalg: row- and column-major results, transposed operands,
# f32, empty matrices, triangular solves (with a Cholesky factor, and
# marked), and the run-time errors (not square, not positive definite,
# singular, misaligned right-hand side).
import numpy as np

SOURCE = "Inputs/lapack_run.mlir"

rng = np.random.default_rng(5)
G = rng.random((6, 6))
S = G @ G.T + 6 * np.eye(6)  # symmetric positive definite
# Only the lower triangle is read: garbage above it changes nothing.
Slow = np.tril(S) + np.triu(rng.random((6, 6)), 1)
A = rng.random((6, 6)) + np.eye(6)
b = rng.random(6)
B = rng.random((6, 3))
singular = np.array([[1.0, 2.0], [2.0, 4.0]])
S32 = S.astype(np.float32)
# det would overflow: 400 pivots of about 10 (10^400).
HUGE = 10 * np.eye(400) + rng.random((400, 400))
W = rng.random((7, 4))  # not square

CASES = [
    Case("cholesky", [("A", S)], results=[np.linalg.cholesky(S)]),
    Case("cholesky", [("A", Slow)], results=[np.linalg.cholesky(S)]),
    Case("cholesky_col", [("A", Slow)],
         results=[np.asfortranarray(np.linalg.cholesky(S))]),
    Case("cholesky_transposed", [("A", Slow.T.copy())],
         results=[np.linalg.cholesky(S)]),
    Case("cholesky_f32", [("A", S32)], results=[np.linalg.cholesky(S32)],
         rtol=1e-5),
    Case("cholesky", [("A", np.zeros((0, 0)))], results=[np.zeros((0, 0))]),
    Case("cholesky", [("A", -S)],
         error="cholesky: matrix is not positive definite"),
    Case("cholesky", [("A", rng.random((3, 4)))],
         error="cholesky: matrix is not square"),
    Case("inv", [("A", A)], results=[np.linalg.inv(A)], rtol=1e-10),
    Case("inv_col", [("A", np.asfortranarray(A))],
         results=[np.asfortranarray(np.linalg.inv(A))], rtol=1e-10),
    Case("inv_transposed", [("A", A)],
         results=[np.asfortranarray(np.linalg.inv(A.T))], rtol=1e-10),
    Case("inv", [("A", np.zeros((0, 0)))], results=[np.zeros((0, 0))]),
    Case("inv", [("A", singular)], error="inv: singular matrix"),
    Case("inv", [("A", rng.random((2, 3)))], error="inv: matrix is not square"),
    Case("solve", [("A", A), ("b", b)], results=[np.linalg.solve(A, b)],
         rtol=1e-10),
    Case("solve", [("A", singular), ("b", b[:2].copy())],
         error="solve: singular matrix"),
    Case("solve", [("A", A), ("b", b[:4].copy())],
         error="solve: shapes (n,n) and (m,) not aligned"),
    Case("solve_cholesky", [("S", S), ("b", b)],
         results=[np.linalg.solve(np.linalg.cholesky(S), b),
                  np.linalg.solve(np.linalg.cholesky(S).T,
                                  np.linalg.solve(np.linalg.cholesky(S), b))],
         rtol=1e-12),
    # Only the triangle is read: garbage in the other changes nothing.
    Case("solve_lower", [("L", np.tril(A) + np.triu(G, 1)), ("b", b)],
         results=[np.linalg.solve(np.tril(A), b)], rtol=1e-12),
    Case("solve_upper_matrix", [("U", np.asfortranarray(np.triu(A) + np.tril(G, -1))),
                                ("B", B)],
         results=[np.linalg.solve(np.triu(A), B)], rtol=1e-12),
    Case("solve_upper_f32", [("U", np.triu(A).astype(np.float32)),
                             ("b", b.astype(np.float32))],
         results=[np.linalg.solve(np.triu(A), b).astype(np.float32)], rtol=1e-4),
    Case("solve_lower", [("L", np.tril(A) - np.diag(np.diag(A) * (np.arange(6) == 3))),
                         ("b", b)],
         error="solve: singular matrix"),
    Case("solve_lower", [("L", np.zeros((0, 0))), ("b", np.zeros(0))],
         results=[np.zeros(0)]),
    Case("solve_matrix", [("A", np.asfortranarray(A)), ("B", B)],
         results=[np.linalg.solve(A, B)], rtol=1e-10),
    Case("solve_matrix_col", [("A", A), ("B", B)],
         results=[np.asfortranarray(np.linalg.solve(A, B))], rtol=1e-10),
    Case("solve_matrix", [("A", np.asfortranarray(A)), ("B", np.zeros((6, 0)))],
         results=[np.zeros((6, 0))]),
    Case("det", [("A", A)], results=[np.linalg.det(A)], rtol=1e-10),
    Case("det", [("A", A[[1, 0, 2, 3, 4, 5]].copy())],
         results=[np.linalg.det(A[[1, 0, 2, 3, 4, 5]])], rtol=1e-10),
    Case("det", [("A", singular)], results=[0.0], atol=1e-15),
    Case("det", [("A", np.zeros((0, 0)))], results=[1.0]),
    Case("det", [("A", rng.random((3, 2)))], error="det: matrix is not square"),
    Case("det_f32", [("A", S32)], results=[np.linalg.det(S32)], rtol=1e-5),
    # slogdet: both signs, a determinant past float64's range (det gives
    # inf there), singular and empty matrices, f32.
    Case("slogdet", [("A", A)], results=list(np.linalg.slogdet(A)), rtol=1e-10),
    Case("slogdet", [("A", A[[1, 0, 2, 3, 4, 5]].copy())],
         results=list(np.linalg.slogdet(A[[1, 0, 2, 3, 4, 5]])), rtol=1e-10),
    Case("slogdet", [("A", HUGE)], results=list(np.linalg.slogdet(HUGE)), rtol=1e-10),
    Case("slogdet", [("A", singular)], results=[0.0, -np.inf]),
    Case("slogdet", [("A", np.zeros((0, 0)))], results=[1.0, 0.0]),
    Case("slogdet", [("A", rng.random((3, 2)))], error="slogdet: matrix is not square"),
    Case("slogdet_f32", [("A", S32)], results=list(np.linalg.slogdet(S32)), rtol=1e-5),
    Case("det_sum", [("A", A), ("n", 50)],
         results=[50 * np.linalg.det(np.linalg.inv(A))], rtol=1e-9),
    Case("eigh", [("A", Slow)],
         results=[np.linalg.eigh(S)[0], np.linalg.eigh(S)[1] ** 2], rtol=1e-9, atol=1e-12),
    Case("eigh_rebuild", [("A", Slow)], results=[S], rtol=1e-10),
    Case("eigh_values", [("A", np.asfortranarray(Slow))], results=[np.linalg.eigvalsh(S)],
         rtol=1e-10),
    Case("eigh_f32", [("A", S32)], results=[np.linalg.eigvalsh(S32)], rtol=1e-5),
    Case("eigh", [("A", np.zeros((0, 0)))], results=[np.zeros(0), np.zeros((0, 0))]),
    Case("eigh", [("A", rng.random((2, 3)))], error="eigh: matrix is not square"),
    Case("eigh_values", [("A", np.full((3, 3), np.nan))],
         error="eigh: eigenvalues did not converge"),
    Case("svd_values", [("A", W)], results=[np.linalg.svd(W, compute_uv=False)], rtol=1e-10),
    Case("svd_rebuild", [("A", W)], results=[W, np.linalg.svd(W, compute_uv=False)],
         rtol=1e-10),
    Case("svd_rebuild", [("A", W.T.copy())], results=[W.T, np.linalg.svd(W, compute_uv=False)],
         rtol=1e-10),
    Case("svd_full", [("A", np.asfortranarray(W))],
         results=[np.eye(7), np.linalg.svd(W, compute_uv=False), np.eye(4)],
         rtol=1e-10, atol=1e-12),
    Case("svd_full", [("A", np.zeros((3, 0), order="F"))],
         results=[np.eye(3), np.zeros(0), np.zeros((0, 0))]),
    Case("svd_values", [("A", np.full((3, 2), np.nan))],
         error="svd: SVD did not converge"),
    Case("qr", [("A", W)], results=[W, np.eye(4), np.linalg.qr(W)[1]], rtol=1e-10,
         atol=1e-12),
    Case("qr", [("A", W.T.copy())], results=[W.T, np.eye(4), np.linalg.qr(W.T)[1]],
         rtol=1e-10, atol=1e-12),
    Case("qr_complete", [("A", np.asfortranarray(W))],
         results=[W, np.eye(7), np.linalg.qr(W, mode="complete")[1]], rtol=1e-10, atol=1e-12),
    Case("qr_complete", [("A", np.zeros((3, 0), order="F"))],
         results=[np.zeros((3, 0)), np.eye(3), np.zeros((3, 0))]),
    Case("qr_r", [("A", W.astype(np.float32))],
         results=[np.linalg.qr(W.astype(np.float32), mode="r")], rtol=1e-4, atol=1e-5),
]
