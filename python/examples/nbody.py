"""One step of a direct-sum gravitational n-body simulation."""
import math

import numpy as np

import vrir


def nbody_step(pos, vel, mass, dt, eps):
    n = pos.shape[0]
    for i in vrir.prange(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            dz = pos[j, 2] - pos[i, 2]
            r2 = dx * dx + dy * dy + dz * dz + eps
            inv = mass[j] / (r2 * math.sqrt(r2))
            ax += dx * inv
            ay += dy * inv
            az += dz * inv
        vel[i, 0] += dt * ax
        vel[i, 1] += dt * ay
        vel[i, 2] += dt * az
    pos += dt * vel


def numpy_version(pos, vel, mass, dt, eps):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d * d).sum(axis=2) + eps
    inv = mass[None, :] / (r2 * np.sqrt(r2))
    vel += dt * (d * inv[:, :, None]).sum(axis=1)
    pos += dt * vel


def make_inputs(n):
    rng = np.random.default_rng(3)
    return rng.random((n, 3)), rng.random((n, 3)) - 0.5, rng.random(n) + 0.5, 0.01, 1e-3


KERNEL = nbody_step
PARALLEL = nbody_step  # its outer loop is already a prange
OUTPUTS = (0, 1)
SIZES = {"test": 64, "bench": 3000}


def main(n=SIZES["test"]):
    args = make_inputs(n)
    want = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    numpy_version(*want)
    vrir.jit(nbody_step)(*args)
    np.testing.assert_allclose(args[0], want[0], rtol=1e-12)
    np.testing.assert_allclose(args[1], want[1], rtol=1e-10)
    print(f"nbody {n} bodies: ok")


if __name__ == "__main__":
    main()
