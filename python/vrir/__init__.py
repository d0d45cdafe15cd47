"""VRIR Python frontend: @vrir.jit compiles NumPy-style functions."""
from .errors import CompileError
from .api import jit, JitFunction, config, set_target, TARGETS
from .constructs import prange, pfor, Domain, gpu, gpu_begin, gpu_end
from .types import SPECS as _SPECS, Array
from .runtime import gpu_stats as _gpu_stats, reset_gpu_stats as _reset_gpu_stats
from .runtime import (region_stats, reset_region_stats, set_specialization,
                      wait_for_specializations)
from .tiering import set_tiered_compilation, wait_for_compiles


def stats():
    """Counters of the GPU runtime since the process started or the last
    reset_stats(): kernels, uploads, downloads, bytes_uploaded,
    bytes_downloaded, compiles, compile_seconds, waits (times the host
    blocked on the device) and wait_seconds (the time it spent so),
    disk_cache_hits (OpenCL programs loaded from
    the disk cache instead of compiled), evictions (times device memory ran
    out and unused arrays went back to the host), fallbacks (kernels whose
    work ran on the CPU because their arrays did not fit on the device),
    shared_copies (copies of arrays whose fresh copy was on the device,
    answered by sharing its device buffer) and device_copies (device copies
    made when a kernel was about to write such a shared buffer)."""
    return _gpu_stats()


def reset_stats():
    """Sets the GPU runtime's counters to zero."""
    _reset_gpu_stats()

# Type objects for signatures and annotations: vrir.f64, vrir.f64[:, ::1], ...
globals().update(_SPECS)

__all__ = ["jit", "prange", "pfor", "Domain", "gpu", "gpu_begin", "gpu_end",
           "JitFunction", "CompileError", "config", "set_target", "TARGETS", "Array",
           "stats", "reset_stats", "region_stats", "reset_region_stats",
           "set_specialization", "wait_for_specializations",
           "set_tiered_compilation", "wait_for_compiles",
           *_SPECS]
__version__ = "0.1.0"
