"""Checks that every ```mlir block of a Markdown file parses, verifies and
round-trips through vr-opt. Usage: check_doc_snippets.py DOC.md VR_OPT"""
import re
import subprocess
import sys

doc, vr_opt = sys.argv[1], sys.argv[2]
blocks = re.findall(r"^```mlir\n(.*?)^```", open(doc).read(), re.M | re.S)
if not blocks:
    sys.exit(f"{doc}: no mlir blocks")
failed = 0
for number, block in enumerate(blocks, 1):
    text = block
    for _ in range(2):  # parse, then parse the printed form again
        run = subprocess.run([vr_opt], input=text, capture_output=True, text=True)
        if run.returncode:
            print(f"snippet {number} failed:\n{block}\n{run.stderr}")
            failed += 1
            break
        text = run.stdout
print(f"{len(blocks)} snippets, {failed} failed")
sys.exit(1 if failed else 0)
