"""The install's package list: every folder of the library is in it, under the vecgames name."""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]


def _packages_on_disk() -> set[str]:
    """Dotted names of the folders that install: vecgames/ and everything below it that holds
    Python or data, plus analysis/ and training/ as vecgames.analysis / vecgames.training."""
    found = set()
    for top, name in (("vecgames", "vecgames"), ("analysis", "vecgames.analysis"),
                      ("training", "vecgames.training")):
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]:
            if not folder.is_dir() or folder.name == "__pycache__":
                continue
            if any(f.is_file() and f.suffix in (".py", ".npz") for f in folder.iterdir()):
                rel = folder.relative_to(ROOT / top).parts
                found.add(".".join((name, *rel)))
    return found


def test_every_folder_is_installed():
    import runpy

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "packages" not in config  # setup.py finds them
    found = runpy.run_path(str(ROOT / "setup.py"))["PACKAGES"]
    assert len(found) == len(set(found))
    assert set(found) == _packages_on_disk()
    assert config["package-dir"] == {"vecgames.analysis": "analysis",
                                     "vecgames.training": "training"}
