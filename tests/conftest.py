"""Shared test settings: no hypothesis deadlines (the first example of a property may compile
Numba kernels, and CI machines are shared and noisy; timings never decide a test here)."""

import os

from hypothesis import settings

settings.register_profile("vecgames", deadline=None)
settings.load_profile("vecgames")

# Which test compiles first depends on the cache, so the first-run compile notice
# (tests/test_compile_notice.py tests it) must not land in another test's captured stderr.
os.environ["VECGAMES_QUIET"] = "1"

# The slowest files (Ray workers, long oracle and browser runs) start first: the test workers
# take whole files in turn (--dist loadfile), so a slow file taken last would run alone.
SLOW_FIRST = ("test_distributed_training.py", "test_distributed.py", "test_web_browser.py",
              "test_examples.py", "test_holdem_history.py", "test_zhajinhua_env.py",
              "test_zoo.py", "test_web_api.py", "test_cli_rules.py")


def pytest_collection_modifyitems(items):
    rank = {name: k for k, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: files stay whole
