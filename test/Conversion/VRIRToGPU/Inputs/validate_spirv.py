"""Validates every spirv.module of the MLIR that vr-opt prints on stdin.

Usage (lit substitution %validate-spirv):
  vr-opt ... | python validate_spirv.py MLIR_TRANSLATE [--target-env ENV]

Each `spirv.module` at the top level of the printed module is serialized
with `mlir-translate --serialize-spirv` and checked with `spirv-val
--target-env ENV` (default vulkan1.1). Prints one line per module,
"valid: NAME", and exits with status 1 at the first failure (with
spirv-val's message).
"""

import os
import subprocess
import sys
import tempfile


def top_level_spirv_modules(text):
    modules, current = [], None
    for line in text.splitlines():
        if current is None:
            if line.startswith("  spirv.module"):
                current = [line[2:]]
        elif line == "  }":
            current.append("}")
            modules.append("\n".join(current) + "\n")
            current = None
        else:
            current.append(line[2:])
    return modules


def main():
    translate = sys.argv[1]
    env = "vulkan1.1"
    if "--target-env" in sys.argv:
        env = sys.argv[sys.argv.index("--target-env") + 1]
    modules = top_level_spirv_modules(sys.stdin.read())
    if not modules:
        sys.exit("validate_spirv: no spirv.module in the input")
    with tempfile.TemporaryDirectory() as work:
        for index, module in enumerate(modules):
            name = module.split()[1]
            source = os.path.join(work, f"m{index}.mlir")
            binary = os.path.join(work, f"m{index}.spv")
            with open(source, "w") as f:
                f.write(module)
            for command in (
                    [translate, "--no-implicit-module", "--serialize-spirv",
                     source, "-o", binary],
                    ["spirv-val", "--target-env", env, binary]):
                done = subprocess.run(command, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(f"validate_spirv: {name}: {' '.join(command)} "
                             f"failed:\n{done.stdout}{done.stderr}")
            print(f"valid: {name}")


if __name__ == "__main__":
    main()
