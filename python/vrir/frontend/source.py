"""A compiled function's source and what is read from it without emitting
code: the source text, the names a function assigns, the truth of number
literals, and whether a Python function is the program's (compiled when
called) or a library's. SourceAnalysis, the emitter's part of it: MLIR
locations and error messages, definite assignment (the reads that may raise
UnboundLocalError), the objects that global names and attribute chains
name, and the vrir.gpu_begin()/gpu_end() markers."""
import ast
import builtins
import inspect
import os
import textwrap

from .. import constructs
from ..errors import CompileError


def source_of(fn):
    """The dedented source of `fn`, its first line number and the columns
    removed by dedenting."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as error:
        raise CompileError(
            f"cannot read the source of {fn.__qualname__} (@vrir.jit needs "
            f"functions defined in a file, not at an interactive prompt or "
            f"from standard input): {error}") from None
    src = "".join(lines)
    dedented = textwrap.dedent(src)
    # columns shift by the removed indentation
    shift = len(lines[0]) - len(lines[0].lstrip())
    return dedented, first, shift


def assigned_names(fn):
    """The names a function's body assigns (parameters it rebinds)."""
    names = _ASSIGNED.get(fn)
    if names is None:
        src, _, _ = source_of(fn)
        names = set()
        for n in ast.walk(ast.parse(src).body[0]):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
        _ASSIGNED[fn] = names
    return names


_ASSIGNED = {}


def lower_loop_else(fdef):
    """Rewrites each `for ... else` and `while ... else` of `fdef` in place
    into the loop and a flag its own `break`s set: `$brokeN = False`, the
    loop (each `break` of it preceded by `$brokeN = True`), then `if not
    $brokeN:` and the else suite, which is Python's meaning (the suite runs
    when the loop ends without a break). The names cannot clash with the
    user's."""
    count = [0]

    def mark_breaks(stmts, flag):
        out = []
        for st in stmts:
            if isinstance(st, ast.Break):
                out.append(ast.copy_location(ast.Assign(
                    targets=[ast.Name(flag, ast.Store())], value=ast.Constant(True)), st))
            elif not isinstance(st, (ast.For, ast.While, ast.FunctionDef,
                                     ast.AsyncFunctionDef, ast.ClassDef)):
                # Breaks in nested suites (if, with) leave this loop too.
                for field in ("body", "orelse", "finalbody"):
                    if isinstance(getattr(st, field, None), list):
                        setattr(st, field, mark_breaks(getattr(st, field), flag))
            out.append(st)
        return out

    def is_parallel(loop):
        it = getattr(loop, "iter", None)
        func = it.func if isinstance(it, ast.Call) else None
        name = func.id if isinstance(func, ast.Name) else \
            func.attr if isinstance(func, ast.Attribute) else None
        return name in ("prange", "pfor")

    def lower(stmts):
        out = []
        for st in stmts:
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(st, field, None), list):
                    setattr(st, field, lower(getattr(st, field)))
            if isinstance(st, (ast.For, ast.While)) and st.orelse:
                count[0] += 1
                flag = f"$broke{count[0]}"
                orelse, st.orelse = st.orelse, []
                if not is_parallel(st):  # whose breaks are refused as such
                    st.body = mark_breaks(st.body, flag)
                out.append(ast.copy_location(ast.Assign(
                    targets=[ast.Name(flag, ast.Store())], value=ast.Constant(False)), st))
                out.append(st)
                test = ast.UnaryOp(ast.Not(), ast.Name(flag, ast.Load()))
                out.append(ast.copy_location(ast.If(test=test, body=orelse, orelse=[]),
                                             orelse[0]))
            else:
                out.append(st)
        return out

    fdef.body = lower(fdef.body)
    ast.fix_missing_locations(fdef)


def _library_dirs():
    import sysconfig
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            d = sysconfig.get_paths().get(key)
        except Exception:
            d = None
        if d:
            dirs.add(os.path.realpath(d))
    return tuple(sorted(dirs))


_LIBRARY_DIRS = None


def is_user_function(fn):
    """Whether a plain Python function is part of the program (compiled when
    compiled code calls it) rather than of the standard library, NumPy or an
    installed package."""
    global _LIBRARY_DIRS
    mod = (getattr(fn, "__module__", None) or "").split(".", 1)[0]
    if mod in ("numpy", "vrir", "math", "cmath", "builtins"):
        return False
    if _LIBRARY_DIRS is None:
        _LIBRARY_DIRS = _library_dirs()
    f = os.path.realpath(fn.__code__.co_filename)
    return not any(f.startswith(d + os.sep) for d in _LIBRARY_DIRS)


def literal_truth(node):
    """The truth of a number literal such as `-0.5 + 0.25j`, else None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return bool(value) if isinstance(value, (int, float, complex)) else None


class SourceAnalysis:
    """Locations and errors, and what the function's AST says before any
    code is emitted."""

    def loc(self, node=None, name=None):
        node = node or self.cur
        line = getattr(node, "lineno", 1) + self.first_line - 1
        col = getattr(node, "col_offset", 0) + 1 + self.col_shift
        f = self.filename.replace("\\", "\\\\").replace('"', '\\"')
        if name:
            return f'loc("{name}"("{f}":{line}:{col}))'
        return f'loc("{f}":{line}:{col})'

    def where(self, node=None):
        node = node or self.cur
        line = getattr(node, "lineno", 1) + self.first_line - 1
        return f"{self.filename}:{line}"

    def error(self, msg, node=None):
        raise CompileError(f"{self.where(node)}: {msg}")

    def unbound_reads(self, stmts, d):
        """Definite assignment (Python's UnboundLocalError): adds to
        self.maybe_unbound the locals some read of which may come before any
        assignment; those get a run-time flag. Returns the names assigned on
        every path through `stmts` (None when no path gets past them)."""
        def loads(node):
            if node is None:
                return
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) \
                        and n.id in self.local_names and n.id not in d:
                    self.maybe_unbound.add(n.id)

        def stores(t):
            for n in ast.walk(t):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    d.add(n.id)
                elif isinstance(n, ast.Subscript):
                    loads(n)
        d = set(d)
        for st in stmts:
            if isinstance(st, ast.Assign):
                loads(st.value)
                for t in st.targets:
                    stores(t)
            elif isinstance(st, ast.AnnAssign):
                loads(st.value)
                if st.value is not None:
                    stores(st.target)
            elif isinstance(st, ast.AugAssign):
                loads(st.value)
                if isinstance(st.target, ast.Name):
                    if st.target.id not in d:
                        self.maybe_unbound.add(st.target.id)
                    d.add(st.target.id)
                else:
                    loads(st.target)
            elif isinstance(st, ast.If):
                loads(st.test)
                a = self.unbound_reads(st.body, d)
                b = self.unbound_reads(st.orelse, d)
                if a is None and b is None:
                    return None
                d = b if a is None else a if b is None else a & b
            elif isinstance(st, (ast.For, ast.While)):
                loads(st.iter if isinstance(st, ast.For) else st.test)
                inner = set(d)
                if isinstance(st, ast.For):
                    for n in ast.walk(st.target):
                        if isinstance(n, ast.Name):
                            inner.add(n.id)
                self.unbound_reads(st.body, inner)
                self.unbound_reads(st.orelse, d)
            elif isinstance(st, ast.With):
                for it in st.items:
                    loads(it.context_expr)
                r = self.unbound_reads(st.body, d)
                if r is None:
                    return None
                d = r
            elif isinstance(st, (ast.Return, ast.Raise)):
                loads(getattr(st, "value", None) or getattr(st, "exc", None))
                return None
            elif isinstance(st, (ast.Break, ast.Continue)):
                return None
            else:
                loads(st)
        return d

    def static_object(self, node):
        """The Python object a global name or attribute chain names, without
        emitting code (None for local variables and anything else)."""
        if isinstance(node, ast.Name):
            if node.id in self.local_names:
                return None
            if node.id in self.globals:
                return self.globals[node.id]
            return getattr(builtins, node.id, None)
        if isinstance(node, ast.Attribute):
            base = self.static_object(node.value)
            if base is None or not inspect.ismodule(base):
                return None
            return getattr(base, node.attr, None)
        return None

    def gpu_marker(self, s):
        """'gpu_begin' / 'gpu_end' for a `vrir.gpu_begin()` / `vrir.gpu_end()`
        statement, else None."""
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)):
            return None
        obj = self.static_object(s.value.func)
        for name in ("gpu_begin", "gpu_end"):
            if obj is getattr(constructs, name):
                if s.value.args or s.value.keywords:
                    self.error(f"vrir.{name}() takes no arguments", s)
                return name
        return None
