"""The layout of the vrir package: its modules import one another without a
cycle (counting imports inside functions), the frontend imports neither
api nor the runtime, and no module of the frontend grows past
MAX_FRONTEND_LINES."""
import ast
import os

VRIR_DIR = os.path.join(os.path.dirname(__file__), "..", "vrir")
MAX_FRONTEND_LINES = 1200


def _modules():
    """{dotted module name: path} of every module of the package."""
    out = {}
    root = os.path.dirname(os.path.abspath(VRIR_DIR))
    for dirpath, dirnames, filenames in os.walk(os.path.abspath(VRIR_DIR)):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for f in filenames:
            if not f.endswith(".py"):
                continue
            parts = os.path.relpath(os.path.join(dirpath, f), root)[:-3].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = os.path.join(dirpath, f)
    return out


def _package_of(name, path):
    return name if path.endswith("__init__.py") else name.rpartition(".")[0]


def import_graph():
    """{module: set of the package's modules it imports}, from every import
    statement of its source, at the top or inside functions."""
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        package = _package_of(name, path)
        deps = set()
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module
                # `from . import x` imports the module x when there is one
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                           for a in node.names]
            for t in targets:
                if t in modules and t != name:
                    deps.add(t)
        graph[name] = deps
    return graph


def find_cycle(graph):
    """A list of modules that import one another in a circle, or None."""
    state = {}

    def visit(n, path):
        state[n] = "open"
        path.append(n)
        for d in sorted(graph[n]):
            if state.get(d) == "open":
                return path[path.index(d):] + [d]
            if d not in state:
                found = visit(d, path)
                if found:
                    return found
        path.pop()
        state[n] = "done"
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n, [])
            if found:
                return found
    return None


def reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        n = todo.pop()
        for d in graph[n]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_the_graph_sees_every_module_and_lazy_imports():
    graph = import_graph()
    assert {"vrir", "vrir.api", "vrir.runtime", "vrir.frontend",
            "vrir.frontend.module"} <= set(graph)
    assert "vrir.frontend" in graph["vrir.runtime"]
    # an import inside a function counts
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_frontend_imports_neither_api_nor_the_runtime():
    graph = import_graph()
    for name in graph:
        if name == "vrir.frontend" or name.startswith("vrir.frontend."):
            bad = reachable(graph, name) & {"vrir", "vrir.api", "vrir.runtime", "vrir.emit"}
            assert not bad, f"{name} imports {sorted(bad)}"


def test_frontend_modules_are_small():
    for name, path in _modules().items():
        if name.startswith("vrir.frontend"):
            with open(path) as f:
                n = sum(1 for _ in f)
            assert n <= MAX_FRONTEND_LINES, f"{path} has {n} lines"


def test_function_emitter_bases_define_distinct_methods():
    # FunctionEmitter combines one class per subject; a method name defined
    # in two of them silently resolves to the first in the MRO (an Ellipsis
    # helper of subscripts once hid einsum's of the same name).
    from vrir.frontend.emitter import FunctionEmitter
    seen = {}
    clashes = []
    for base in FunctionEmitter.__mro__[1:]:
        if base is object:
            continue
        for name, value in vars(base).items():
            if not callable(value) and not isinstance(value, (staticmethod, classmethod)):
                continue
            if name.startswith("__"):
                continue
            if name in seen:
                clashes.append(f"{name}: {seen[name]} and {base.__name__}")
            else:
                seen[name] = base.__name__
    assert not clashes, clashes
