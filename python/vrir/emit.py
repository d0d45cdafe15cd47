"""Prints the VRIR MLIR module that @vrir.jit generates for one function:

    python -m vrir.emit FILE.py FUNC --args "f64[:, ::1], i64"

FUNC is a function of FILE.py (a @vrir.jit one keeps its options, such as
boundscheck=False; a plain one is compiled as @vrir.jit). Without --args, a
function declared with a signature uses its first one. Only the frontend
runs: vr-run is not needed (except by functions in FILE.py that compile
ahead of time when the file is imported).
"""
import argparse
import importlib.util
import os
import sys

from .api import JitFunction
from .errors import CompileError
from .frontend import build_module
from .types import parse_signature


def load(path):
    path = os.path.abspath(path)
    name = "_vrir_emit_" + "".join(c if c.isalnum() else "_" for c in os.path.basename(path))
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise SystemExit(f"vrir.emit: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except OSError as e:
        raise SystemExit(f"vrir.emit: cannot read {path}: {e.strerror}")
    except SyntaxError as e:
        raise SystemExit(f"vrir.emit: {path}:{e.lineno}: {e.msg}")
    return module


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m vrir.emit", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="a Python file")
    p.add_argument("function", help="the name of a function in it")
    p.add_argument("--args", default=None,
                   help='argument types, e.g. "f64[:, ::1], i64" (f64/f32/i64/i32/b1/c128/c64; '
                        "[:] any layout, [:, ::1] C order, [::1, :] Fortran order)")
    p.add_argument("--symbol", default=None, help="the name of the public MLIR function "
                   "(default: the Python name)")
    a = p.parse_args(argv)
    module = load(a.file)
    fn = getattr(module, a.function, None)
    if fn is None:
        raise SystemExit(f"vrir.emit: {a.file} has no function '{a.function}'")
    if not isinstance(fn, JitFunction):
        fn = JitFunction(fn)
    try:
        if a.args is not None:
            types = parse_signature(a.args)
        elif fn.declared:
            types = fn.declared[0]
        else:
            raise SystemExit("vrir.emit: give the argument types with --args")
        text, _, _ = build_module(fn, types, a.symbol or fn.__name__)
    except (CompileError, TypeError) as e:
        print(f"vrir.emit: error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
