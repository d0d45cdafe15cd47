"""Sorting and searching: np.sort, np.argsort, np.unique, np.searchsorted,
np.median, np.percentile, np.quantile, np.nonzero, np.interp and the array
methods A.sort(), A.argsort(), A.nonzero(), written as Python templates
compiled in place (Calls.inline)."""


class Sorting:
    """Sorting, searching and order statistics."""
