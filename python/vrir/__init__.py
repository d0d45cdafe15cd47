"""VRIR Python frontend: @vrir.jit compiles NumPy-style functions."""
from .errors import CompileError
from .api import jit, prange, pfor, Domain, gpu, JitFunction

__all__ = ["jit", "prange", "pfor", "Domain", "gpu", "JitFunction", "CompileError"]
__version__ = "0.1.0"
