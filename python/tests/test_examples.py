"""The example programs of python/examples/, each compiled with @vrir.jit
(with and without bounds checks) and compared with an independent NumPy
formulation at a small size."""
import importlib
import os
import sys

import numpy as np
import pytest

import vrir

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")
sys.path.insert(0, EXAMPLES)
NAMES = sorted(f[:-3] for f in os.listdir(EXAMPLES) if f.endswith(".py"))


def test_every_example_is_listed():
    assert NAMES == sorted(["stencil2d", "jacobi2d", "heat3d", "gemm", "lu", "nbody",
                            "julia", "pairwise", "csr_spmv"])


@pytest.mark.parametrize("name", NAMES)
def test_example_main(name, capsys):
    importlib.import_module(name).main()
    assert capsys.readouterr().out.rstrip().endswith("ok")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("boundscheck", [True, False])
def test_kernel_matches_numpy(name, boundscheck):
    mod = importlib.import_module(name)
    args = mod.make_inputs(mod.SIZES["test"])
    want = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mod.numpy_version(*want)
    kernels = [mod.KERNEL] + ([mod.PARALLEL] if mod.PARALLEL else [])
    for kernel in kernels:
        got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        vrir.jit(kernel, boundscheck=boundscheck)(*got)
        for k in mod.OUTPUTS:
            np.testing.assert_allclose(got[k], want[k], rtol=1e-10, atol=1e-12)
