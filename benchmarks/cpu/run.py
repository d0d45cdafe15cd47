#!/usr/bin/env python3
"""Builds and runs the VRIR CPU benchmarks (see benchmarks/README.md).

  run.py [build|run|bundle|all] [options] [-- driver options]

  build   compile kernels/*.mlir ahead of time (vr-run --emit-object, then a
          shared library per kernel) and the C driver (bench.c + kernels_c.c,
          clang-22 -O3 -march=native -fopenmp) into --out
  run     run the driver found in --out (no MLIR needed); prints the
          Markdown table on stdout, details on stderr
  bundle  build, then make --out self-contained: copy the shared libraries
          the kernels and the driver need (found with readelf/ldd) next to
          them (every binary has RUNPATH $ORIGIN), add run.sh, and pack
          vrir-bench-cpu.tar.gz beside the directory
  all     build + run (the default)

Options after `--` go to the driver (vrir-bench): -r REPS, -k KERNEL,...,
-s KERNEL=N, -t KERNEL=STEPS.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LLVM_LIB = "/usr/lib/llvm-22/lib"
# Shared libraries every Linux system has: not bundled. (libstdc++, which
# the VRIR runtime needs at GLIBCXX_3.4.21, is left to the system too: this
# host's copy would require glibc 2.36.)
SYSTEM_LIBS = re.compile(
    r"^(linux-vdso|ld-linux[-\w]*|libc|libm|libdl|libpthread|librt|libgcc_s"
    r"|libstdc\+\+)\.so")


DRIVERS = [
    ("vrir-bench", []),
    ("vrir-bench-fp-contract-off", ["-ffp-contract=off"]),
    ("vrir-bench-no-restrict", ["-Drestrict="]),
    ("vrir-bench-as-vrir", ["-ffp-contract=off", "-Drestrict="]),
]


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def public_functions(mlir_path):
    """Names of the public func.func definitions of a module."""
    text = open(mlir_path).read()
    return re.findall(r"func\.func\s+@(\w+)\s*\(", text)


def build(args):
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    vr_run = os.path.join(args.build_dir, "bin", "vr-run")
    runtime_dir = os.path.join(args.build_dir, "lib")
    if not os.path.exists(vr_run):
        sys.exit(f"run.py: no {vr_run}; build VRIR first or pass --build-dir")
    sources = sorted(os.path.join(HERE, d, f)
                     for d in ("kernels", "diagnostics")
                     for f in os.listdir(os.path.join(HERE, d))
                     if f.endswith(".mlir"))
    for source in sources:
        name = os.path.basename(source)[:-len(".mlir")]
        entries = public_functions(source)
        if not entries:
            sys.exit(f"run.py: no public function in {source}")
        library = os.path.join(out, name + ".so")
        if args.vr_link:
            # vr-run's own link: NEEDED on the runtime, libomp, OpenBLAS and
            # libmlir_c_runner_utils (-> libMLIR, libLLVM) whether used or
            # not, RUNPATH the build tree; fine here, not portable.
            sh([vr_run, source, "--entry", entries[0],
                "--emit-shared", library])
            continue
        obj = os.path.join(out, name + ".o")
        cmd = [vr_run, source, "--entry", entries[0], "--emit-object", obj]
        cmd += args.vr_run_flag
        if args.dump_ir:
            dump = os.path.join(out, "ir", name)
            shutil.rmtree(dump, ignore_errors=True)
            os.makedirs(dump)
            cmd += ["--dump-ir", dump, "--mlir-disable-threading"]
        sh(cmd)
        # Same object code as `vr-run --emit-shared`; linked here with
        # --as-needed so that only the libraries the kernel uses are NEEDED
        # (the runtime always: the driver calls vrir_rt_try through it), and
        # RUNPATH $ORIGIN so that a bundle directory is self-contained.
        sh([args.cc, "-shared", obj, "-o", library,
            "-L" + runtime_dir, "-L" + LLVM_LIB,
            "-Wl,--no-as-needed", "-lvrir_runtime", "-Wl,--as-needed",
            "-lomp", "-lopenblas", "-lmlir_c_runner_utils",
            "-Wl,-rpath,$ORIGIN", "-Wl,-rpath," + runtime_dir,
            "-Wl,-rpath," + LLVM_LIB])
        os.remove(obj)
    # The driver; and, as diagnostics, the same driver with its C peers
    # compiled under VRIR's semantics: without FMA contraction (VRIR's
    # arith ops carry no `contract` flag), without `restrict` (two VRIR
    # array arguments may be the same array), and both.
    for driver, extra in DRIVERS:
        sh([args.cc, "-O3", "-march=native", "-fopenmp", "-std=gnu11",
            "-Wall"] + extra +
           [os.path.join(HERE, "bench.c"), os.path.join(HERE, "kernels_c.c"),
            "-o", os.path.join(out, driver),
            "-L" + LLVM_LIB, "-Wl,-rpath,$ORIGIN", "-Wl,-rpath," + LLVM_LIB,
            "-ldl", "-lm"])
    if args.emit_asm:
        # The C peers' optimized LLVM IR, to set beside the VRIR dumps.
        for driver, extra in DRIVERS:
            sh([args.cc, "-O3", "-march=native", "-fopenmp", "-S",
                "-emit-llvm"] + extra + [os.path.join(HERE, "kernels_c.c"),
                "-o", os.path.join(out, "kernels_c" + driver[10:] + ".ll")])


def needed(path):
    text = subprocess.run(["readelf", "-d", path], check=True,
                          capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", text)


def resolve(path):
    """soname -> file, as the dynamic loader resolves it for `path`."""
    text = subprocess.run(["ldd", path], check=True, capture_output=True,
                          text=True).stdout
    found = {}
    for line in text.splitlines():
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def bundle(args):
    out = os.path.abspath(args.out)
    binaries = [os.path.join(out, f) for f in sorted(os.listdir(out))
                if f.endswith(".so") or f.startswith("vrir-bench")]
    todo, copied = list(binaries), {}
    while todo:
        binary = todo.pop()
        where = resolve(binary)
        for soname in needed(binary):
            if SYSTEM_LIBS.match(soname) or soname in copied:
                continue
            source = where.get(soname)
            if not source or source == "not":
                sys.exit(f"run.py: cannot resolve {soname} of {binary}")
            target = os.path.join(out, soname)
            if os.path.realpath(source) != os.path.realpath(target):
                shutil.copy2(os.path.realpath(source), target)
                os.chmod(target, 0o755)
            copied[soname] = source
            todo.append(target)
    for soname, source in sorted(copied.items()):
        size = os.path.getsize(os.path.join(out, soname))
        print(f"bundled {soname} ({size / 1e6:.1f} MB) from {source}",
              file=sys.stderr)
    shutil.copy2(os.path.join(HERE, "run_bundle.sh"),
                 os.path.join(out, "run.sh"))
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    for f in ["bench.c", "kernels_c.c", "kernels_c.h"]:
        shutil.copy2(os.path.join(HERE, f), os.path.join(out, "src", f))
    for d in ("kernels", "diagnostics"):
        for f in os.listdir(os.path.join(HERE, d)):
            shutil.copy2(os.path.join(HERE, d, f), os.path.join(out, "src", f))
    cpu = subprocess.run(["sh", "-c", "lscpu | grep 'Model name'"],
                         capture_output=True, text=True).stdout.strip()
    with open(os.path.join(out, "BUILD_INFO"), "w") as f:
        f.write("Built on: " + cpu + "\n"
                "VRIR kernels: vr-run --emit-object (LLVM -O3, host CPU "
                "features), linked with --as-needed, RUNPATH $ORIGIN\n"
                "C peers: " + args.cc + " -O3 -march=native -fopenmp\n"
                "Both use this host's instruction set: run on an x86-64 CPU "
                "with the same extensions (AVX-512 here).\n")
    tarball = out.rstrip("/") + ".tar.gz"
    def keep(info):  # no IR dumps (--dump-ir, --emit-asm) in the tarball
        name = info.name
        return None if name.endswith(".ll") or "/ir/" in name + "/" else info
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(out, arcname=os.path.basename(out.rstrip("/")), filter=keep)
    total = sum(os.path.getsize(os.path.join(out, f))
                for f in os.listdir(out)
                if os.path.isfile(os.path.join(out, f)))
    print(f"bundle: {out} ({total / 1e6:.1f} MB), {tarball} "
          f"({os.path.getsize(tarball) / 1e6:.1f} MB)", file=sys.stderr)


def run(args, driver_args):
    driver = os.path.join(os.path.abspath(args.out), "vrir-bench")
    if not os.path.exists(driver):
        sys.exit(f"run.py: no {driver}; run `run.py build` first")
    result = subprocess.run([driver, "-d", os.path.abspath(args.out)]
                            + driver_args)
    if result.returncode != 0:
        sys.exit(f"run.py: vrir-bench failed (exit {result.returncode})")


def main():
    argv = sys.argv[1:]
    driver_args = []
    if "--" in argv:
        split = argv.index("--")
        argv, driver_args = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("action", nargs="?", default="all",
                        choices=["build", "run", "bundle", "all"])
    parser.add_argument("--out", default=os.path.join(
        ROOT, "build", "benchmarks", "cpu"),
        help="directory of the built kernels and driver "
             "(default: build/benchmarks/cpu)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                        help="VRIR build tree (bin/vr-run, lib/)")
    parser.add_argument("--cc", default="clang-22")
    parser.add_argument("--vr-link", action="store_true",
                        help="link the kernels with `vr-run --emit-shared` "
                             "itself (not portable, not bundleable)")
    parser.add_argument("--vr-run-flag", action="append", default=[],
                        help="pass this flag to vr-run when compiling the "
                             "kernels (repeatable; e.g. --no-affine)")
    parser.add_argument("--dump-ir", action="store_true",
                        help="keep vr-run's per-pass IR and optimized.ll "
                             "in OUT/ir/KERNEL")
    parser.add_argument("--emit-asm", action="store_true",
                        help="also write clang's optimized IR of the C "
                             "peers to OUT/kernels_c.ll")
    args = parser.parse_args(argv)
    if args.action in ("build", "bundle", "all"):
        build(args)
    if args.action == "bundle":
        if args.vr_link:
            sys.exit("run.py: --vr-link libraries cannot be bundled")
        bundle(args)
    if args.action in ("run", "all"):
        run(args, driver_args)


if __name__ == "__main__":
    main()
