"""Adapters to other RL stacks, each a thin layer over the native ``VecEnv`` (no rule is
written twice): Gymnasium (``gym_env``, ids in ``registration``), PettingZoo (``pz_env``) and
TorchRL (``torchrl_env``). Their libraries are optional extras, imported only by these modules.

``import vecgames`` calls ``register_gymnasium_ids`` so that ``gymnasium.make("vecgames/...")``
works in either import order, without importing Gymnasium (0.3 s) for users who do not.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any


def _register() -> None:
    try:
        from . import registration  # noqa: F401  (registers on import)
    except Exception as exc:  # an old or broken Gymnasium must not break ``import vecgames``
        warnings.warn(f"vecgames: Gymnasium ids not registered ({exc!r})", stacklevel=2)


class _AfterGymnasiumImport:
    """A ``sys.meta_path`` finder: when ``gymnasium`` is imported, it locates it as the other
    finders would and runs ``_register`` right after the module has executed, then leaves.
    A mere look-up (``importlib.util.find_spec("gymnasium")``, which imports nothing) leaves
    it in place for the real import."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "gymnasium":
            return None
        spec = None
        for finder in sys.meta_path:  # the other finders, in the order the import asks them
            if finder is not self and hasattr(finder, "find_spec"):
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    break
        loader = None if spec is None else spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        exec_module = loader.exec_module

        def exec_then_register(module: Any) -> None:
            exec_module(module)
            if self in sys.meta_path:
                sys.meta_path.remove(self)
            _register()

        loader.exec_module = exec_then_register  # type: ignore[method-assign]
        return spec


def register_gymnasium_ids() -> None:
    """Register the Gymnasium ids now if Gymnasium is imported, else when it is."""
    if "gymnasium" in sys.modules:
        _register()
    elif not any(isinstance(f, _AfterGymnasiumImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasiumImport())
