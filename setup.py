"""The package list, read from the disk so that a new game's package installs without an
edit here: every folder under vecgames/ with Python files, the shipped data folder, and
analysis/ and training/ as vecgames.analysis / vecgames.training (pyproject's package-dir).
Everything else is in pyproject.toml; tests/test_packaging.py keeps the list whole."""

from setuptools import find_packages, setup

PACKAGES = [*find_packages(include=["vecgames", "vecgames.*"]), "vecgames.poker.data",
            "vecgames.analysis", "vecgames.training"]

if __name__ == "__main__":
    setup(packages=PACKAGES)
