"""Shared test settings: no hypothesis deadlines (the first example of a property may compile
Numba kernels, and CI machines are shared and noisy; timings never decide a test here)."""

from hypothesis import settings

settings.register_profile("vecgames", deadline=None)
settings.load_profile("vecgames")
