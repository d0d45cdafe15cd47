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

# The Python frontend's MLIR printer (test/Python), from the source tree.
config.substitutions.append(
    ("%vrir_emit", "env PYTHONPATH=%s %s -m vrir.emit" % (
        os.path.join(config.vrir_src_root, "python"), config.python_executable)))

# GPU backends the VRIR GPU runtime can use here (PoCL gives OpenCL on the
# CPU; scripts/setup.sh installs it): GPU integration tests REQUIRE them.
def _gpu_available(format_number):
    import ctypes
    lib = os.path.join(config.vrir_obj_root, "lib")
    try:
        ctypes.CDLL(os.path.join(lib, "libvrir_runtime.so"),
                    mode=ctypes.RTLD_GLOBAL)
        gpu = ctypes.CDLL(os.path.join(lib, "libvrir_gpu_runtime.so"))
        return gpu.vrir_gpu_available(ctypes.c_int64(format_number)) == 1
    except OSError:
        return False

if _gpu_available(0):
    config.available_features.add("opencl")
if _gpu_available(1):
    config.available_features.add("vulkan")
# OpenCL devices that take SPIR-V (clCreateProgramWithIL); PoCL and NVIDIA's
# OpenCL do not, and the target must then say so.
if _gpu_available(2):
    config.available_features.add("opencl-spirv")
elif _gpu_available(0):
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
