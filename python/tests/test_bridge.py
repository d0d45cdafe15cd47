"""The bridge to the compiler (vrir.compiler, the C API of
libVRIRCompiler.so): diagnostics as CompileError, the disk cache across
processes, and a regular (non-editable) install."""
import ctypes
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

import vrir
from vrir import compiler

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The ahead-of-time test module (`scale` and `at`), shared with the lit test.
AOT_MODULE = os.path.join(PYTHON_DIR, "..", "test", "Integration", "CPU", "aot", "aot.mlir")


def test_parse_error_is_a_compile_error_with_the_diagnostic(tmp_path):
    bad = "func.func @f(%x: f64) -> f64 {\n  %y = arith.addf %x : f64\n  return %y : f64\n}\n"
    with pytest.raises(vrir.CompileError) as info:
        compiler.compile_to_shared_library(bad, "f", str(tmp_path / "f.so"), "bad.mlir")
    assert str(info.value).startswith("bad.mlir:2:")
    assert "error: expected ','" in str(info.value)
    assert not (tmp_path / "f.so").exists()


def test_verifier_and_entry_errors_keep_the_process_alive(tmp_path):
    # A verifier error (a float index) at its line and column.
    bad = ("func.func @f(%x: !vrir.array<f64, 1, row_major>, %i: f32) -> f64 {\n"
           "  %a = vrir.load %x[%i] : !vrir.array<f64, 1, row_major>[f32]\n"
           "  return %a : f64\n}\n")
    with pytest.raises(vrir.CompileError, match=r"^f\.mlir:2:8: error: 'vrir.load' op "
                       "operand #1 must be variadic of index"):
        compiler.compile_to_shared_library(bad, "f", str(tmp_path / "a.so"), "f.mlir")
    with open(AOT_MODULE) as f:
        text = f.read()
    with pytest.raises(vrir.CompileError, match="no function definition named 'nope'"):
        compiler.compile_to_shared_library(text, "nope", str(tmp_path / "b.so"))
    # The same process still compiles, and the library has the packed entry.
    out = str(tmp_path / "scale.so")
    compiler.compile_to_shared_library(text, "scale", out)
    lib = ctypes.CDLL(out)
    assert lib._mlir_ciface_scale and lib._mlir__mlir_ciface_scale


def test_jit_compile_error_names_the_kernel_and_keeps_the_mlir(monkeypatch, tmp_path):
    monkeypatch.setenv("VRIR_CACHE_DIR", str(tmp_path))

    def broken(text, entry, output, source_name=None, target="cpu", **options):
        return real(text + "\n}", entry, output, source_name, target, **options)
    real = compiler.compile_to_shared_library
    monkeypatch.setattr(compiler, "compile_to_shared_library", broken)

    @vrir.jit
    def plus_one(x):
        return x + 1.0
    with pytest.raises(vrir.CompileError) as info:
        plus_one(1.0)
    message = str(info.value)
    assert message.startswith("compiling plus_one failed:\n")
    mlir = message.rsplit("(MLIR kept in ", 1)[1].rstrip(")")
    assert os.path.exists(mlir) and mlir + ":" in message


def _run_script(tmp_path, python, env, body):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(body))
    return subprocess.run([python, str(script)], env=env, capture_output=True, text=True,
                          cwd=str(tmp_path), timeout=120)


def test_disk_cache_spares_the_second_process_the_compiler(tmp_path):
    body = """
        import numpy as np, vrir, vrir.runtime as rt, vrir.compiler as c
        @vrir.jit
        def g(x, k):
            return x * k - 1
        assert (g(np.arange(3.0), 2.0) == np.array([-1.0, 1.0, 3.0])).all()
        print(rt.COMPILE_COUNT, len(c._libraries))
    """
    # Without region specialization (with it, the second process loads the
    # compiler to specialise).
    env = dict(os.environ, VRIR_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=PYTHON_DIR,
               VRIR_BUILD_DIR=compiler.build_dir(), VRIR_JIT_SPECIALIZE="0")
    runs = []
    for _ in range(2):
        p = _run_script(tmp_path, sys.executable, env, body)
        assert p.returncode == 0, p.stderr
        runs.append(p.stdout.strip())
    # The second process neither compiles nor loads libVRIRCompiler.so.
    assert runs == ["1 1", "0 0"]


def _can_build_wheels_offline():
    try:
        from setuptools.command import bdist_wheel  # noqa: F401 (setuptools >= 70.1)
        return True
    except ImportError:
        try:
            import wheel  # noqa: F401
            return True
        except ImportError:
            return False


@pytest.mark.skipif(not _can_build_wheels_offline(),
                    reason="pip install --no-build-isolation needs setuptools >= 70.1 "
                           "(requirements.txt) or wheel; without them it needs the network")
def test_regular_install_finds_the_build(tmp_path):
    # A copy of the package, so that the build leaves nothing in python/.
    source = tmp_path / "src"
    shutil.copytree(PYTHON_DIR, source, ignore=shutil.ignore_patterns(
        "tests", "examples", "build", "*.egg-info", "__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # NumPy and setuptools of this environment (its site-packages is not the
    # system's when this is itself a venv).
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(site, "_parent_env.pth"), "w") as f:
        f.write(sysconfig.get_paths()["purelib"] + "\n")
    env = dict(os.environ, VRIR_BUILD_DIR=compiler.build_dir(), PIP_NO_INDEX="1")
    env.pop("PYTHONPATH", None)
    p = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "-q",
                        "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
                        str(source)], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    # Without VRIR_BUILD_DIR, outside the repository: the recorded build.
    del env["VRIR_BUILD_DIR"]
    env["VRIR_CACHE_DIR"] = str(tmp_path / "cache")
    p = _run_script(tmp_path, python, env, """
        import numpy as np, vrir
        @vrir.jit
        def h(x, n):
            s = 0.0
            for i in range(n):
                s += x[i]
            return s, x * 2.0
        s, y = h(np.arange(4.0), 3)
        assert s == 3.0 and (y == np.arange(4.0) * 2).all()
        print(vrir.__file__)
    """)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().startswith(str(venv))
