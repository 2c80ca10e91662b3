"""Every Python example of the manual runs: each ```python block of README.md and docs/*.md
(not docs/notes/), the blocks of a page in order in one namespace, in a scratch folder.

A block may be preceded by one marker line:
- ``<!-- docs-test: needs torch, ray -->``: run only where those modules import;
- ``<!-- docs-test: skip REASON -->``: not run (a cluster address, a person at the keyboard,
  a run of many minutes); say why.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
BLOCK = re.compile(r"(?:<!-- docs-test: (?P<marker>[^>]*?) -->\s*\n)?```python\n(?P<code>.*?)```",
                   re.S)


def examples(page: Path) -> list[tuple[str, str, int]]:
    """(marker, code, line) of each Python block of a page."""
    text = page.read_text(encoding="utf-8")
    return [(m["marker"] or "", m["code"], text.count("\n", 0, m.start("code")) + 1)
            for m in BLOCK.finditer(text)]


def missing_modules(marker: str) -> list[str]:
    if not marker.startswith("needs "):
        return []
    names = [name.strip() for name in marker[len("needs "):].split(",")]
    return [name for name in names if importlib.util.find_spec(name) is None]


def test_python_blocks_are_tagged_python():
    # a block tagged ```py or ```python3 would be skipped silently by BLOCK
    for page in PAGES:
        tags = re.findall(r"^```(py\w*|pycon)\s*$", page.read_text(encoding="utf-8"), re.M)
        assert set(tags) <= {"python"}, f"{page.name}: tag Python blocks ```python: {tags}"


def test_markers_are_known():
    for page in PAGES:
        for marker, _, line in examples(page):
            assert (not marker or marker.startswith("needs ")
                    or re.fullmatch(r"skip \S.*", marker)), f"{page.name}:{line}: {marker!r}"


@pytest.mark.parametrize("page", [p for p in PAGES if examples(p)], ids=lambda p: p.name)
def test_page_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": "__docs__"}
    ran = 0
    for marker, code, line in examples(page):
        if marker.startswith("skip") or missing_modules(marker):
            continue
        try:
            exec(compile(code, f"{page.name}:{line}", "exec"), namespace)
        except Exception as exc:  # name the page and line of the failing block
            raise AssertionError(f"{page.relative_to(ROOT)} block at line {line}: "
                                 f"{type(exc).__name__}: {exc}") from exc
        ran += 1
    if not ran:
        pytest.skip(f"every block of {page.name} needs a module missing here")
    assert os.getcwd() == str(tmp_path)
