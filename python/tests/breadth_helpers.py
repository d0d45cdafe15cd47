"""Plain helper functions of another module, called from compiled code in
test_frontend_breadth.py (as `breadth_helpers.scaled(...)` and imported by
name)."""
import numpy as np

FACTOR = 3.0


def scaled(x):
    return x * FACTOR


def centered(A):
    return A - np.mean(A)
