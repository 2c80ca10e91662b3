"""Shared test settings: no hypothesis deadlines (the first example of a property may compile
Numba kernels, and CI machines are shared and noisy; timings never decide a test here)."""

import os

from hypothesis import settings

settings.register_profile("vecgames", deadline=None)
settings.load_profile("vecgames")

# Which test compiles first depends on the cache, so the first-run compile notice
# (tests/test_compile_notice.py tests it) must not land in another test's captured stderr.
os.environ["VECGAMES_QUIET"] = "1"
