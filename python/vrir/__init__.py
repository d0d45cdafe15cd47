"""VRIR Python frontend: @vrir.jit compiles NumPy-style functions."""
from .errors import CompileError
from .api import (jit, prange, pfor, Domain, gpu, gpu_begin, gpu_end, JitFunction,
                  config, set_target, TARGETS)
from .types import SPECS as _SPECS, Array

# Type objects for signatures and annotations: vrir.f64, vrir.f64[:, ::1], ...
globals().update(_SPECS)

__all__ = ["jit", "prange", "pfor", "Domain", "gpu", "gpu_begin", "gpu_end",
           "JitFunction", "CompileError", "config", "set_target", "TARGETS", "Array",
           *_SPECS]
__version__ = "0.1.0"
