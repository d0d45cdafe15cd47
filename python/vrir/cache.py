"""On-disk cache of compiled kernels: <dir>/<key>.so where the key hashes the
generated MLIR (which is derived from the source of the function and of the
jit functions it calls, the global constants it reads, and the argument
signature), the frontend version and the vr-run binary."""
import os
import tempfile


def cache_dir():
    d = os.environ.get("VRIR_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "vrir")
    os.makedirs(d, exist_ok=True)
    return d


def atomic_write(path, data):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
