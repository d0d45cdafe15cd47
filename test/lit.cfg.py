# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "VRIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py", ".vrir"]
# Python files are tests only where they have RUN lines (test/Integration);
# helpers are excluded by name.
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "Inputs",
                   "lit.site.cfg.py", "compare.py", "check_doc_snippets.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.vrir_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%vrir_src_root", config.vrir_src_root))
config.substitutions.append(("%vrir_obj_root", config.vrir_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.vrir_tools_dir, config.llvm_tools_dir]
tools = ["vr-opt", "vr-run", "vr-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.vrir_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# The project's Python (with NumPy), ahead of lit's own %python.
config.substitutions.insert(0, ("%python", config.python_executable))

# A sanitized build (VRIR_SANITIZE): the tools carry the sanitizer runtime
# and LeakSanitizer checks every process at exit, which replaces valgrind
# (it cannot run sanitized code) in the --leaks tests of compare.py.
llvm_config.with_system_environment(["ASAN_OPTIONS", "UBSAN_OPTIONS",
                                     "LSAN_OPTIONS"])
# %host runs a program that is not instrumented (a C host, Python) but
# loads VRIR's libraries: in a sanitized build it preloads the runtime.
if config.sanitizer_preload:
    config.available_features.add("sanitizer")
    config.environment["VRIR_SANITIZED"] = "1"
    config.substitutions.append(
        ("%host", "env LD_PRELOAD=%s" % config.sanitizer_preload))
else:
    config.substitutions.append(("%host", "env"))

# The Python frontend's MLIR printer (test/Python), from the source tree.
config.substitutions.append(
    ("%vrir_emit", "env PYTHONPATH=%s %s -m vrir.emit" % (
        os.path.join(config.vrir_src_root, "python"), config.python_executable)))

# GPU backends the VRIR GPU runtime can use here (PoCL gives OpenCL on the
# CPU; scripts/setup.sh installs it): GPU integration tests REQUIRE them.
# Asked in a child Python, which preloads the sanitizer runtime that a
# sanitized build's libraries need.
def _gpu_available(format_number):
    import subprocess
    lib = os.path.join(config.vrir_obj_root, "lib")
    probe = (
        "import ctypes, sys\n"
        "ctypes.CDLL(%r, mode=ctypes.RTLD_GLOBAL)\n"
        "gpu = ctypes.CDLL(%r)\n"
        "sys.exit(0 if gpu.vrir_gpu_available(ctypes.c_int64(%d)) == 1 else 1)\n"
        % (os.path.join(lib, "libvrir_runtime.so"),
           os.path.join(lib, "libvrir_gpu_runtime.so"), format_number))
    env = dict(os.environ)
    if config.sanitizer_preload:
        env["LD_PRELOAD"] = config.sanitizer_preload
        env["ASAN_OPTIONS"] = "detect_leaks=0:" + config.asan_options
    return subprocess.run([config.python_executable, "-c", probe], env=env,
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0

_gpu = {number: _gpu_available(number) for number in (0, 1, 2)}
if _gpu[0]:
    config.available_features.add("opencl")
if _gpu[1]:
    config.available_features.add("vulkan")
# OpenCL devices that take SPIR-V (clCreateProgramWithIL); PoCL and NVIDIA's
# OpenCL do not, and the target must then say so.
if _gpu[2]:
    config.available_features.add("opencl-spirv")
elif _gpu[0]:
    config.available_features.add("opencl-without-spirv")

# SPIR-V made by vr-opt, checked by spirv-val (SPIRV-Tools, which
# scripts/setup.sh installs): every spirv.module of the output is serialized
# by mlir-translate and validated for the target environment.
import shutil
if shutil.which("spirv-val"):
    config.available_features.add("spirv-tools")
config.substitutions.append(
    ("%validate-spirv", "%s %s %s" % (
        config.python_executable,
        os.path.join(config.vrir_src_root, "test", "Conversion", "VRIRToGPU",
                     "Inputs", "validate_spirv.py"),
        os.path.join(config.llvm_tools_dir, "mlir-translate"))))

# OpenCL C written by `vr-translate --gpu-to-opencl-c` (test/Target/OpenCLC),
# compiled by clang as OpenCL C 1.2 from stdin.
config.substitutions.append(
    ("%opencl-c-check", "%s -x cl -cl-std=CL1.2 -target spir64 "
     "-Xclang -finclude-default-header -fsyntax-only -Werror -" %
     os.path.join(config.llvm_tools_dir, "clang")))
