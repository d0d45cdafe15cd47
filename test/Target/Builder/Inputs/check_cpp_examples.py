"""Checks that every region `// [example-NAME] ... // [example-NAME]` of a
C++ test appears verbatim in a ```cpp block of a Markdown page.
Usage: check_cpp_examples.py TEST.cpp DOC.md"""
import re
import sys

source, doc = open(sys.argv[1]).read(), open(sys.argv[2]).read()
regions = re.findall(r"^// \[(example-[\w-]+)\]\n(.*?)^// \[\1\]\n", source,
                     re.M | re.S)
blocks = re.findall(r"^```cpp\n(.*?)^```", doc, re.M | re.S)
if not regions:
    sys.exit(f"{sys.argv[1]}: no example regions")
missing = [name for name, text in regions if text not in blocks]
for name in missing:
    print(f"{name} differs from the code in {sys.argv[2]}")
print(f"{len(regions)} examples, {len(missing)} out of date")
sys.exit(1 if missing else 0)
