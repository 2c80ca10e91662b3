"""Numpy batch buffers <-> torch tensors for any :class:`vecgames.VecEnv`.

On CPU nothing is copied: the tensors are ``torch.from_numpy`` views of the env's own buffers,
so, like the arrays, they describe the latest step and are overwritten by the next call (clone
what you keep). On CUDA every buffer is staged through a preallocated pinned host tensor and
copied to a preallocated device tensor with ``non_blocking=True``; the device tensors are reused
the same way. Actions may be given as a torch tensor on any device or as a numpy array.

torch is imported lazily, so ``import vecgames`` never needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .core.validation import check_list, shown
from .core.vec_env import VecEnv

if TYPE_CHECKING:  # pragma: no cover
    import torch

__all__ = ["TorchBridge", "import_torch", "resolve_device", "to_numpy_actions"]

INSTALL_HINT = 'pip install torch==2.13.0 -e ".[train]"'
# Buffers the bridge mirrors, in the order step() returns them (info entries last).
_STEP_KEYS = ("obs", "reward", "terminated", "truncated")
_INFO_KEYS = ("action_mask", "current_player")


def import_torch():
    """Import torch, or raise ImportError naming the ``train`` extra that provides it."""
    try:
        import torch
    except ImportError as exc:
        raise ImportError(
            f"vecgames' torch bridge and trainers need torch; install the 'train' extra: "
            f"{INSTALL_HINT}"
        ) from exc
    return torch


def resolve_device(device: Any = "cpu") -> torch.device:
    """A ``torch.device`` from a string or device; clear errors for bad or unavailable ones."""
    torch = import_torch()
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"invalid device {device!r}: use 'cpu', 'cuda' or 'cuda:N'") from exc
    if dev.type not in ("cpu", "cuda"):
        raise ValueError(f"device {device!r}: the bridge supports 'cpu' and 'cuda' devices")
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise RuntimeError(
                f"device {device!r} requested but torch.cuda.is_available() is False; "
                "use device='cpu'"
            )
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(
                f"device {device!r} requested but only {torch.cuda.device_count()} CUDA "
                "device(s) are visible"
            )
    return dev


def to_numpy_actions(actions: Any) -> np.ndarray:
    """Actions as a numpy int64 array, from a torch tensor on any device or array-like."""
    if hasattr(actions, "detach") and hasattr(actions, "device"):  # a torch tensor
        if actions.dtype.is_floating_point or actions.dtype.is_complex:
            raise TypeError(f"actions must be an integer tensor, got {actions.dtype}")
        arr = actions.detach().to("cpu").numpy()
    else:
        arr = np.asarray(actions)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"actions must be integers, got dtype {arr.dtype}")
    return np.ascontiguousarray(arr, dtype=np.int64)


class TorchBridge:
    """Wrap a VecEnv so ``reset``/``step`` take and return torch tensors on ``device``.

    ``reset(seed)`` -> ``(obs_t, info_t)`` and ``step(actions)`` ->
    ``(obs_t, reward_t, terminated_t, truncated_t, info_t)`` where ``info_t`` holds
    ``"action_mask"`` (bool) and ``"current_player"`` (int32) tensors, plus the env's other
    ``info`` arrays named in ``info_keys`` (e.g. Hanabi's ``"score"``, ``"legal_moves"``).
    dtypes and shapes are the env's (obs float32 [B, obs_dim] or, for an env observing every
    seat, [B, P, obs_dim]; reward float32 [B, P]; flags bool [B]).
    """

    def __init__(self, env: Any, device: Any = "cpu", info_keys: Sequence[str] = ()):
        if not isinstance(env, VecEnv):
            raise TypeError(f"env must be a vecgames env (vecgames.make(...)), got "
                            f"{type(env).__name__}")
        info_keys = check_list(info_keys, "info_keys", "info names")
        self.torch = import_torch()
        self.env = env
        self.device = resolve_device(device)
        self.num_envs: int = env.num_envs
        known = sorted(k for k, v in env._info.items() if isinstance(v, np.ndarray))
        for key in info_keys:
            if not isinstance(key, str) or key not in known:
                raise ValueError(f"info_keys: {shown(repr(key))} is not an info array of this "
                                 f"env; it has {known}")
        self.info_keys: tuple[str, ...] = _INFO_KEYS + tuple(
            k for k in info_keys if k not in _INFO_KEYS)
        self._staged = self.device.type != "cpu"
        self._host: dict[str, torch.Tensor] = {}
        self._dev: dict[str, torch.Tensor] = {}
        self._copied = None  # CUDA event: the last host->device copies were issued before it

    # -- public API --------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        obs, info = self.env.reset(seed=seed)
        out = self._publish({"obs": obs, **{k: info[k] for k in self.info_keys}})
        return out["obs"], {k: out[k] for k in self.info_keys}

    def step(self, actions: Any) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                                          torch.Tensor, dict[str, torch.Tensor]]:
        return self._published_step(self.env.step(to_numpy_actions(actions)))

    def step_amounts(self, kinds: np.ndarray, amounts: np.ndarray
                     ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                dict[str, torch.Tensor]]:
        """``step`` with exact Hold'em actions (``HoldemEnv.step_amounts``: numpy kinds and
        amounts of every env)."""
        step_amounts = getattr(self.env, "step_amounts", None)
        if step_amounts is None:
            raise TypeError(f"{self.env.name} takes action ids only: step_amounts is "
                            "Hold'em's")
        return self._published_step(step_amounts(kinds, amounts))

    # -- internals ---------------------------------------------------------------------------
    def _published_step(self, result: tuple[Any, ...]
                        ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                   dict[str, torch.Tensor]]:
        obs, reward, terminated, truncated, info = result
        arrays = dict(zip(_STEP_KEYS, (obs, reward, terminated, truncated), strict=True))
        out = self._publish({**arrays, **{k: info[k] for k in self.info_keys}})
        info_t = {k: out[k] for k in self.info_keys}
        return out["obs"], out["reward"], out["terminated"], out["truncated"], info_t

    def _staging(self, key: str, arr: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        """The pinned host and device tensors of a buffer, made on its first use with the
        buffer's shape and dtype, then reused."""
        if key not in self._host:
            template = self.torch.from_numpy(arr)
            pin = self.device.type == "cuda"
            self._host[key] = self.torch.empty(arr.shape, dtype=template.dtype, pin_memory=pin)
            self._dev[key] = self.torch.empty(arr.shape, dtype=template.dtype,
                                              device=self.device)
        return self._host[key], self._dev[key]

    def _publish(self, arrays: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
        if not self._staged:
            # zero copy: views of the env's buffers, valid until the env's next call
            return {k: self.torch.from_numpy(v) for k, v in arrays.items()}
        if self._copied is not None:
            # the previous async copies may still read the pinned buffers we are about to fill
            self._copied.synchronize()
        for key, arr in arrays.items():
            host, dev = self._staging(key, arr)
            np.copyto(host.numpy(), arr)
            dev.copy_(host, non_blocking=True)
        if self.device.type == "cuda":
            event = self.torch.cuda.Event()
            event.record()
            self._copied = event
        return self._dev
