"""The bridge to the compiler: the C API of libVRIRCompiler.so
(include/VRIR-c/Compiler.h) through ctypes, in this process.

The build directory holding it is `$VRIR_BUILD_DIR`, else the one recorded
when the package was installed (`_build_config.py`, written by setup.py for
a non-editable install), else `../build` next to the source of the package
(an editable install in the repository).
"""
import ctypes
import os
import threading

from .errors import CompileError


def build_dir():
    d = os.environ.get("VRIR_BUILD_DIR")
    if d:
        return d
    try:
        from ._build_config import BUILD_DIR
        return BUILD_DIR
    except ImportError:
        pass
    return os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def library_path():
    return os.path.join(build_dir(), "lib", "libVRIRCompiler.so")


class CompileOptions(ctypes.Structure):
    """VrirCompileOptions."""
    _fields_ = [("sourceName", ctypes.c_char_p), ("runtimeDirectory", ctypes.c_char_p),
                ("enableOpenMP", ctypes.c_int), ("optLevel", ctypes.c_int),
                ("gpuTarget", ctypes.c_int), ("eliminateBoundsChecks", ctypes.c_int),
                ("boundsChecks", ctypes.c_void_p), ("specializeRegions", ctypes.c_int),
                ("timing", ctypes.c_int), ("verifyEachPass", ctypes.c_int)]


class BoundsCheckCounts(ctypes.Structure):
    """VrirBoundsCheckCounts."""
    _fields_ = [(name, ctypes.c_longlong)
                for name in ("checks", "proven", "repeated", "hoisted", "kept")]

# VrirCompileOptions.gpuTarget of each target name.
GPU_TARGETS = {"cpu": 0, "opencl": 1, "vulkan": 2, "opencl-spirv": 3}


_libraries = {}
_lock = threading.Lock()


# OpenBLAS kernel families by the instruction sets they need.
_OPENBLAS_CORES = (
    ("SkylakeX", {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}),
    ("Haswell", {"avx2", "fma"}),
)


def openblas_core_for_this_cpu(cpuinfo="/proc/cpuinfo"):
    """The OpenBLAS kernel family this CPU's instruction sets allow, or None.
    Debian's OpenBLAS (which the runtime links for matmul) picks kernels by
    the CPU's model number and falls back to the generic Prescott ones for a
    model it does not know, as virtual machines often report: then a matrix
    product runs 4x slower than NumPy's (its OpenBLAS is newer)."""
    try:
        with open(cpuinfo) as f:
            flags = next((set(line.split(":", 1)[1].split()) for line in f
                          if line.startswith("flags")), set())
    except OSError:
        return None
    return next((core for core, needs in _OPENBLAS_CORES if needs <= flags), None)


def choose_openblas_core():
    """Names the OpenBLAS kernel family (OPENBLAS_CORETYPE) this CPU supports
    unless the user chose one. OpenBLAS reads it when it loads, with the
    runtime that the compiler library links: call this before loading
    either."""
    if "OPENBLAS_CORETYPE" not in os.environ:
        core = openblas_core_for_this_cpu()
        if core:
            os.environ["OPENBLAS_CORETYPE"] = core


def library():
    path = library_path()
    with _lock:
        lib = _libraries.get(path)
        if lib is None:
            if not os.path.exists(path):
                raise CompileError(f"cannot find the VRIR compiler at {path} "
                                   "(build it, or set VRIR_BUILD_DIR)")
            choose_openblas_core()
            lib = ctypes.CDLL(path)
            lib.vrirCompileOptionsInit.argtypes = [ctypes.POINTER(CompileOptions)]
            lib.vrirCompileOptionsInit.restype = None
            lib.vrirCompileToSharedLibrary.argtypes = [
                ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p,
                ctypes.POINTER(CompileOptions), ctypes.POINTER(ctypes.c_void_p)]
            lib.vrirCompileToSharedLibrary.restype = ctypes.c_int
            lib.vrirInstallRegionSpecializer.argtypes = [ctypes.c_char_p, ctypes.c_int]
            lib.vrirInstallRegionSpecializer.restype = None
            lib.vrirFreeString.argtypes = [ctypes.c_void_p]
            lib.vrirFreeString.restype = None
            _libraries[path] = lib
    return lib


def identity():
    """Names the compiler for cache keys: its path, size and modification time
    (a rebuilt compiler may generate other code)."""
    path = library_path()
    try:
        st = os.stat(path)
    except OSError:
        raise CompileError(f"cannot find the VRIR compiler at {path} "
                           "(build it, or set VRIR_BUILD_DIR)") from None
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


_specializer_installed = False


def install_specializer():
    """Makes this process compile specialised versions of the regions of
    kernels built with specialize=True when they run (once)."""
    global _specializer_installed
    if not _specializer_installed:
        library().vrirInstallRegionSpecializer(None, 3)
        _specializer_installed = True


def _flag(name):
    return os.environ.get(name, "") not in ("", "0")


def compile_to_shared_library(text, entry, output, source_name=None, target="cpu",
                              eliminate_checks=True, specialize=False, opt_level=3):
    """Compiles the MLIR `text` into the shared library `output`, its GPU
    sections for `target` (a key of GPU_TARGETS), its regions specialised
    at run time with `specialize`, LLVM's passes at `opt_level` (below 2:
    the quick code of tiered compilation, not vectorized); raises
    CompileError with the compiler's diagnostics (FILE:LINE:COL: error: ...).
    Returns the bounds-check counts (a dict: checks, proven, repeated,
    hoisted, kept). ctypes releases the GIL for the call, so other threads
    keep running."""
    lib = library()
    options = CompileOptions()
    lib.vrirCompileOptionsInit(ctypes.byref(options))
    if source_name:
        options.sourceName = os.fsencode(source_name)
    options.gpuTarget = GPU_TARGETS[target]
    options.eliminateBoundsChecks = int(bool(eliminate_checks))
    options.specializeRegions = int(bool(specialize))
    options.optLevel = opt_level
    # Read here, not by the compiler: os.environ is Python's copy, while
    # C's getenv races a setenv of another thread (tiered compilation
    # compiles on a thread of its own).
    options.timing = int(_flag("VRIR_TIMING"))
    options.verifyEachPass = int(_flag("VRIR_VERIFY_EACH_PASS"))
    counts = BoundsCheckCounts()
    options.boundsChecks = ctypes.cast(ctypes.byref(counts), ctypes.c_void_p)
    error = ctypes.c_void_p()
    data = text.encode()
    status = lib.vrirCompileToSharedLibrary(data, len(data), entry.encode(),
                                            os.fsencode(output), ctypes.byref(options),
                                            ctypes.byref(error))
    if status != 0:
        message = "compilation failed"
        if error.value:
            message = ctypes.string_at(error.value).decode(errors="replace")
            lib.vrirFreeString(error)
        raise CompileError(message)
    return {name: getattr(counts, name) for name, _ in BoundsCheckCounts._fields_}
