"""Runs functions of a VRIR module with vr-run and compares with NumPy.

Usage (from a lit RUN line):
  python compare.py SPEC.py WORKDIR [--leaks] [--target=TARGET] [VR-RUN FLAGS]

SPEC.py defines SOURCE (the .mlir file, relative to SPEC.py) and CASES, a
list of `Case`s. A case names the entry function, its arguments in order
(NumPy arrays or Python scalars), and what to expect: the results in order,
arrays written in place (by argument name), or an error message. Inputs are
written as .npy files; outputs are read back and compared with
numpy.testing.assert_allclose (exact for integers and booleans). With
--leaks every case is compiled ahead of time (vr-run --emit-shared) and run
under valgrind (vr-run --load-shared), which must report no lost memory (in
a sanitized build, LeakSanitizer checks every vr-run instead, compiling
included).
With --target=TARGET every vr-run gets `--target=TARGET`: the same spec then
checks the GPU sections' code on that GPU backend. A case whose `targets`
list does not name the target is skipped (say why in the spec). Other
options (--keep-checks, --specialize) are passed to every vr-run.
"""

import dataclasses
import importlib.util
import os
import subprocess
import sys

import numpy as np


@dataclasses.dataclass
class Case:
    entry: str
    args: list  # [(name, value)], value a NumPy array or a Python scalar
    results: list = dataclasses.field(default_factory=list)
    inplace: dict = dataclasses.field(default_factory=dict)
    error: str = ""  # expected substring of the error message
    rtol: float = 1e-12
    atol: float = 0.0
    extra: list = dataclasses.field(default_factory=list)  # vr-run flags
    source: str = ""  # overrides the spec's SOURCE
    targets: list = None  # targets the case runs on (None: all)


def scalar_text(value):
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, complex):
        return f"{value.real!r},{value.imag!r}"
    return repr(value.item() if isinstance(value, np.generic) else value)


def parse_scalar(text):
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("("):
        return complex(text.strip("()").replace("j", "") + "j")
    try:
        return int(text)
    except ValueError:
        return float(text)


def check_equal(what, got, want, case):
    want = np.asarray(want)
    got = np.asarray(got)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        np.testing.assert_allclose(got, want, rtol=case.rtol, atol=case.atol,
                                   err_msg=what)


LEAK_CHECK = ["valgrind", "--leak-check=full", "--show-leak-kinds=definite"]


def check_no_leaks(label, stderr):
    for kind in ("definitely lost", "indirectly lost"):
        line = next((l for l in stderr.splitlines() if kind in l), None)
        assert line is not None, f"{label}: no valgrind leak summary"
        assert line.split(kind + ":")[1].strip().startswith("0 bytes"), (
            f"{label}: valgrind reports a leak:\n{stderr}")


# (source, entry, flags) -> the shared library vr-run --emit-shared wrote.
LIBRARIES = {}


def compile_ahead(source, case, workdir):
    """Compiles the case's entry into a shared library (outside valgrind, for
    which compiling costs ~40 s a case); returns its path, or the failed
    vr-run when the compiler reports an error."""
    key = (source, case.entry, tuple(case.extra))
    if key not in LIBRARIES:
        path = os.path.join(workdir, f"ahead{len(LIBRARIES)}.so")
        # Valgrind runs no AVX-512: compile for a CPU without it.
        completed = subprocess.run(["vr-run", source, "--entry", case.entry,
                                    "--emit-shared", path, "--mcpu=x86-64-v3"]
                                   + case.extra,
                                   capture_output=True, text=True)
        LIBRARIES[key] = path if completed.returncode == 0 else completed
    return LIBRARIES[key]


def run_case(source, case, workdir, index, leaks=False):
    command = ["vr-run", source, "--entry", case.entry]
    # A sanitized build's LeakSanitizer checks every vr-run by itself.
    # Valgrind checks the run of a library compiled ahead of time.
    valgrind = leaks and not os.environ.get("VRIR_SANITIZED")
    library = compile_ahead(source, case, workdir) if valgrind else None
    if isinstance(library, str):
        command = LEAK_CHECK + command + ["--load-shared", library]
    for position, (name, value) in enumerate(case.args):
        if isinstance(value, np.ndarray):
            path = os.path.join(workdir, f"case{index}-{name}.npy")
            np.save(path, value)
            command += ["--arg", f"{name}={path}"]
        else:
            command += ["--arg", f"{name}={scalar_text(value)}"]
    result_paths = []
    for position, want in enumerate(case.results):
        if isinstance(want, np.ndarray):
            path = os.path.join(workdir, f"case{index}-result{position}.npy")
            result_paths.append(path)
            command += ["--out", path]
        else:
            result_paths.append(None)
    inplace_paths = {}
    for name in case.inplace:
        path = os.path.join(workdir, f"case{index}-{name}-after.npy")
        inplace_paths[name] = path
        command += ["--out", f"{name}={path}"]
    command += case.extra

    if library is None or isinstance(library, str):
        completed = subprocess.run(command, capture_output=True, text=True)
    else:
        completed, valgrind = library, False  # a compile error
    label = f"{case.entry} (case {index})"
    if case.error:
        assert completed.returncode != 0, f"{label}: expected an error"
        assert case.error in completed.stderr, (
            f"{label}: expected error containing {case.error!r}, "
            f"got {completed.stderr!r}")
        print(f"ok {label}: error reported: {completed.stderr.strip()}")
        return
    if valgrind:
        check_no_leaks(label, completed.stderr)
    if completed.returncode != 0:
        sys.exit(f"{label}: vr-run failed ({completed.returncode}):\n"
                 f"{' '.join(command)}\n{completed.stderr}")
    printed = [line.split(": ", 1)[1] for line in completed.stdout.splitlines()
               if line.startswith("result ")]
    assert len(printed) == len(case.results), (
        f"{label}: {len(printed)} results, expected {len(case.results)}")
    for position, (want, path) in enumerate(zip(case.results, result_paths)):
        got = np.load(path) if path else parse_scalar(printed[position])
        check_equal(f"{label}: result {position}", got, want, case)
    for name, want in case.inplace.items():
        check_equal(f"{label}: argument {name}", np.load(inplace_paths[name]),
                    want, case)
    print(f"ok {label}")


def main():
    spec_path, workdir = sys.argv[1], sys.argv[2]
    leaks = "--leaks" in sys.argv[3:]
    target = "cpu"
    # Other options are vr-run's, for every case: --keep-checks (no
    # bounds-check elimination) or --specialize must give the same
    # results and errors as the default run.
    vr_run_flags = []
    for option in sys.argv[3:]:
        if option.startswith("--target="):
            target = option.split("=", 1)[1]
        elif option != "--leaks":
            vr_run_flags.append(option)
    os.makedirs(workdir, exist_ok=True)
    spec = importlib.util.spec_from_file_location("spec", spec_path)
    module = importlib.util.module_from_spec(spec)
    module.Case = Case
    sys.modules["spec"] = module
    spec.loader.exec_module(module)
    here = os.path.dirname(os.path.abspath(spec_path))
    for index, case in enumerate(module.CASES):
        source = os.path.join(here, case.source or module.SOURCE)
        if leaks and case.error:
            continue  # an error unwinds past the frees of temporaries
        if case.targets is not None and target not in case.targets:
            print(f"skipped {case.entry} (case {index}) on {target}")
            continue
        if target != "cpu":
            case = dataclasses.replace(case,
                                       extra=case.extra + [f"--target={target}"])
        if vr_run_flags:
            case = dataclasses.replace(case, extra=case.extra + vr_run_flags)
        run_case(source, case, workdir, index, leaks)


if __name__ == "__main__":
    main()
