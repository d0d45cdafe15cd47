"""The frontend: a Python function (its source, through the `ast` module)
to VRIR MLIR text. build_module is its entry point. The modules:

    module.py        ModuleBuilder (one MLIR module: the entry function and
                     the functions it calls) and build_module
    emitter.py       FunctionEmitter (one function): its state, SSA names,
                     blocks, constants, run-time checks, the function's
                     signature; the class combines the subjects below
    source.py        the function's source and locations, errors, what is
                     read from the AST before emitting (definite assignment),
                     the AST rewrite of `for/while ... else` into a flag
    scopes.py        regions, scopes, static arguments; variables, name
                     lookup, globals
    inference.py     types: NEP 50 weak scalars, promotion, casts,
                     unification (the type fixed point)
    statements.py    statements other than for loops; gpu sections
    loops.py         for loops: range, over arrays and lists, unrolled over
                     tuples, prange/pfor, reductions
    lists.py         Python lists: growing buffers of numbers or stacked
                     arrays, lists written out of arrays; their methods,
                     builtins, and the arrays NumPy makes of them
    expressions.py   expression nodes, comparisons, attributes
    operators.py     arithmetic, bitwise and comparison operators, @
    arrays.py        subscripts (index plans), views, masks
    calls.py         calls (jit functions, helpers, dtypes, methods,
                     library functions), builtins, inline templates
    elementwise.py   element-wise functions (ufuncs, math, cmath, complex,
                     clip, logical functions, np.where)
    reductions.py    reductions, argmax/argmin, cumsum/cumprod, var/std
    numpy_arrays.py  NumPy's array functions (creation, shapes, products)
                     and the array methods
    numpy_table.py   the tables of NumPy/math names (dtypes, ufuncs, float
                     functions, reductions)
    library.py       NumPy functions written as templates; sorting.py
                     sorting and searching; histograms.py histogram and
                     bincount; linalg.py np.eye and np.linalg
    values.py        V (a compile-time value) and Restart

The frontend imports nothing of the package but errors, types and
constructs: api and runtime import it, not the other way round.
"""
from .module import build_module

__all__ = ["build_module"]
