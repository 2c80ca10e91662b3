"""``usage_error(pattern)``: the block must end in a command-line usage error (argparse's
``prog: error: ...`` on stderr, exit code 2) whose message matches ``pattern``."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr

import pytest


@contextmanager
def usage_error(pattern: str = "") -> Iterator[None]:
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as exc:
        yield
    assert exc.value.code == 2, f"exit code {exc.value.code}, not a usage error"
    assert re.search(pattern, err.getvalue()), err.getvalue()
