#!/usr/bin/env python3
"""Writes the checked-in seed corpora of the fuzz targets (fuzz/corpus/)
from the test suite: each `// -----` case of test/**/*.mlir for the parser
and the pipelines, each .vrir file for the S-expression importer, and small
.npy files and `--arg` texts for vr-run's arguments. Run it again when the
tests change; the fuzzers grow their own working corpora in the build."""
import hashlib
import io
import os
import re
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "corpus")
MAX_CASE = 3000  # bytes: small seeds mutate faster
MAX_SEEDS = 200  # per target, evenly spread over the test suite


def write(target, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def mlir_cases():
    for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, "test"))):
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(dirpath, name)) as f:
                text = f.read()
            for case in re.split(r"^// -----\s*$", text, flags=re.M):
                # RUN and CHECK lines are comments: drop them, keep the IR.
                body = "\n".join(l for l in case.splitlines()
                                 if not l.lstrip().startswith("//")).strip()
                if body and len(body) <= MAX_CASE and "#---" not in body:
                    yield body.encode() + b"\n"


def spread(items, count):
    step = max(1, len(items) / count)
    return [items[int(i * step)] for i in range(min(count, len(items)))]


def dictionary(path, words):
    with open(path, "w") as f:
        f.write("# libFuzzer dictionary, written by fuzz/make_corpus.py\n")
        for word in sorted(set(words)):
            f.write('"%s"\n' % word.replace("\\", "\\\\").replace('"', '\\"'))


def write_dictionaries():
    td_dir = os.path.join(ROOT, "include", "VRIR", "Dialect", "VRIR", "IR")
    ops, words = [], []
    for name in sorted(os.listdir(td_dir)):
        if name.endswith(".td"):
            with open(os.path.join(td_dir, name)) as f:
                text = f.read()
            ops += re.findall(r'^def VRIR_\w+\s*:\s*VRIR_\w+<"([a-z_.]+)"',
                              text, flags=re.M)
            words += re.findall(r'VRIR_(?:Type|Attr)<"\w+",\s*"(\w+)"', text)
    mlir = ["vrir." + op for op in ops] + ["!vrir." + w for w in words] + [
            "#vrir.index<", "vrir.array_description", "flags", "lower|grow",
            "func.func", "return", "arith.constant", "index", "f64", "f32",
            "i1", "i32", "i64", "complex<f64>", "row_major", "col_major",
            "strided", "lower", "upper", "grow", "scf.for", "scf.yield",
            "affine.for", "memref<", "%c0", "%c1", "(", ")", "{", "}", "<",
            ">", ":", "->", ", ", "[", "]", "= "]
    dictionary(os.path.join(ROOT, "fuzz", "mlir.dict"), mlir)
    sexpr = []
    for dirpath, _, files in os.walk(os.path.join(ROOT, "test")):
        for name in files:
            if name.endswith(".vrir"):
                with open(os.path.join(dirpath, name)) as f:
                    sexpr += re.findall(r"\(\s*([a-zA-Z][\w-]*)", f.read())
    dictionary(os.path.join(ROOT, "fuzz", "sexpr.dict"),
               sexpr + ["(", ")", "\"", ":"])


def main():
    cases = list(dict.fromkeys(mlir_cases()))  # test-suite order, no repeats
    for case in spread(cases, MAX_SEEDS):
        write("parse", case)
    # The pipeline's first byte picks its options; spread the seeds over the
    # GPU targets and switches.
    valid = [c for c in cases if b"vrir." in c and b"expected-error" not in c]
    for i, case in enumerate(spread(valid, MAX_SEEDS)):
        write("pipeline", bytes([i % 64]) + case)
    for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, "test"))):
        for name in sorted(files):
            if name.endswith(".vrir"):
                with open(os.path.join(dirpath, name), "rb") as f:
                    data = f.read()
                if len(data) <= 4 * MAX_CASE:
                    write("sexpr", data)
    # vr-run arguments: .npy files behind an even byte, texts behind odd
    # bytes (the byte also picks the parameter type).
    for array in (np.arange(6.0).reshape(2, 3), np.zeros(3, np.int32),
                  np.asfortranarray(np.ones((2, 2))), np.array(True),
                  np.arange(4, dtype=np.complex128), np.zeros((0, 4))):
        buffer = io.BytesIO()
        np.save(buffer, array)
        write("arguments", b"\0" + buffer.getvalue())
    for i, text in enumerate(["x=1.5", "2", "true", "c=1,2", "A=rand:3x4",
                              "zeros:5", "B=ones:2x2x2:f32", "arange:7",
                              "A=zeros:0x3", "n=-4"]):
        write("arguments", bytes([2 * i + 1]) + text.encode())
    write_dictionaries()
    print("corpora:", {t: len(os.listdir(os.path.join(OUT, t)))
                       for t in sorted(os.listdir(OUT))}, file=sys.stderr)


if __name__ == "__main__":
    main()
