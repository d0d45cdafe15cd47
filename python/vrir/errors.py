class CompileError(Exception):
    """A construct outside the compiled Python subset, or a compiler error.
    The message names the construct and the Python file and line."""
