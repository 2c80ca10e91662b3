"""A TorchRL ``EnvBase`` over a native batch of tables, tensors on the chosen device through
the torch bridge (``vecgames.torch_bridge``).

The batch is ``[num_envs]`` and every seat is driven by the actions given (self-play; the
tensordict's ``current_player`` says whose turn it is at each table):

- ``observation`` float32 ``[B, obs_dim]`` (the seat to act's view), ``action_mask`` bool
  ``[B, num_actions]``, ``current_player`` int64 ``[B]``;
- ``action`` int64 ``[B]``, a ``Categorical`` spec (``LiveMaskCategorical``) whose samples
  follow ``action_mask`` through any transform: ``rand_action``, ``rollout`` without a
  policy and ``RandomPolicy(env.action_spec)`` play legal moves, with or without TorchRL's
  ``ActionMask`` transform;
- ``reward`` float32 ``[B, num_players]``: every seat's reward of the step;
- ``done`` / ``terminated`` / ``truncated`` bool ``[B, 1]``.

The native tables reset themselves in the step a game ends, so that step's
``("next", "observation")`` is already the next game's first observation, and resetting a done
table (TorchRL's partial reset, ``_reset``) changes nothing; a partial reset of a table in the
middle of its game is an error (a step-count truncation cannot cut a native game). A reset
without a mask (``reset()``) deals new games everywhere, with the seed of ``set_seed``.

Illegal actions follow the native env's ``illegal`` option (``TorchRLEnv(game,
illegal="penalty", illegal_penalty=1.0)``): a ``ValueError`` by default, else a penalty and
``"illegal"`` True in the output. Actions must be an integer tensor or array (a float one is a
``TypeError``, never cast).
"""

from __future__ import annotations

from typing import Any

import torch
from tensordict import TensorDict, TensorDictBase
from torchrl.data import Binary, Categorical, Composite, Unbounded
from torchrl.envs import EnvBase

from ..core.rng import check_seed
from ..core.validation import check_actions, is_str
from ..games.catalog import env_takes, make
from ..torch_bridge import TorchBridge, to_numpy_actions


class LiveMaskCategorical(Categorical):
    """A ``Categorical`` action spec that samples from the tables' current mask.

    TorchRL's ``TransformedEnv`` (and ``RandomPolicy``) keep their own clone of the action
    spec, so a mask set on the env's spec with ``update_mask`` goes stale there: a random
    policy then plays illegal moves. Every clone of this spec shares ``live_mask``, which the
    env updates in place at each step, so ``rand()`` is legal through any transform. Specs
    built by other operations (``expand``, indexing) are plain ``Categorical`` behaviour."""

    def __init__(self, *args: Any, live_mask: torch.Tensor | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.live_mask = live_mask

    def clone(self) -> LiveMaskCategorical:
        return self.__class__(n=self.space.n, shape=self.shape, device=self.device,
                              dtype=self.dtype,
                              mask=self.mask.clone() if self.mask is not None else None,
                              live_mask=self.live_mask)

    def rand(self, shape: Any = None) -> torch.Tensor:
        if self.live_mask is None:
            return super().rand(shape)
        now = Categorical(n=self.space.n, shape=self.shape, device=self.device,
                          dtype=self.dtype, mask=self.live_mask.clone())
        return now.rand(shape)


class TorchRLEnv(EnvBase):
    """``num_envs`` tables of ``game`` as a batched TorchRL env on ``device``."""

    def __init__(self, game: str, num_envs: int = 1, device: Any = "cpu", seed: int = 0,
                 **options: Any):
        if env_takes(game, "observers") and not is_str(options.get("observers", "current"),
                                                        "current"):
            raise ValueError(f"TorchRLEnv observes the seat to act: {game}'s observers must be "
                             f"'current'")
        self.native = make(game, num_envs=num_envs, seed=seed, **options)
        self.bridge = TorchBridge(self.native, device)
        super().__init__(device=self.bridge.device, batch_size=torch.Size([num_envs]))
        b, a, n = num_envs, self.native.num_actions, self.native.num_players
        dev = self.bridge.device
        self.observation_spec = Composite(
            observation=Unbounded((b, self.native.obs_dim), dtype=torch.float32, device=dev),
            action_mask=Binary(n=a, shape=(b, a), dtype=torch.bool, device=dev),
            current_player=Unbounded((b,), dtype=torch.int64, device=dev),
            illegal=Binary(n=1, shape=(b, 1), dtype=torch.bool, device=dev),
            shape=(b,), device=dev)
        self._live_mask = torch.ones((b, a), dtype=torch.bool, device=dev)
        self.action_spec = LiveMaskCategorical(n=a, shape=(b,), dtype=torch.int64, device=dev,
                                               live_mask=self._live_mask)
        self.reward_spec = Unbounded((b, n), dtype=torch.float32, device=dev)
        self.done_spec = Composite(
            done=Binary(n=1, shape=(b, 1), dtype=torch.bool, device=dev),
            terminated=Binary(n=1, shape=(b, 1), dtype=torch.bool, device=dev),
            truncated=Binary(n=1, shape=(b, 1), dtype=torch.bool, device=dev),
            shape=(b,), device=dev)
        self._next_seed: int | None = None
        self._view: dict[str, torch.Tensor] = {}
        self._done = torch.zeros(num_envs, dtype=torch.bool, device=dev)  # at the last step
        self._illegal = torch.zeros(num_envs, dtype=torch.bool, device=dev)  # penalty mode

    def _reset(self, tensordict: TensorDictBase | None = None, **kwargs: Any) -> TensorDictBase:
        partial = tensordict is not None and "_reset" in tensordict.keys()
        if tensordict is not None and partial and self._view:
            asked = tensordict["_reset"].reshape(self.batch_size[0]).to(self.device)
            if bool((asked & ~self._done).any()):
                raise RuntimeError(
                    "TorchRLEnv cannot reset a table in the middle of its game (its tables "
                    "reset themselves when a game ends): reset() deals new games everywhere")
        if not self._view or not partial:
            obs, info = self.bridge.reset(seed=self._next_seed)
            self._next_seed = None
            self._view = {"observation": obs, **info}
            self._done.zero_()
        self._illegal = torch.zeros(self.batch_size[0], dtype=torch.bool, device=self.device)
        flags = torch.zeros((self.batch_size[0], 1), dtype=torch.bool, device=self.device)
        return self._out(done=flags, terminated=flags, truncated=flags)

    def _step(self, tensordict: TensorDictBase) -> TensorDictBase:
        actions = check_actions(to_numpy_actions(tensordict["action"]), self.batch_size[0],
                                self.native.num_actions)  # no WAIT
        obs, reward, terminated, truncated, info = self.bridge.step(actions)
        self._view = {"observation": obs, **info}
        self._illegal = torch.as_tensor(self.native._info["illegal"], device=self.device)
        self._done = terminated | truncated
        terminated = terminated.unsqueeze(-1)
        truncated = truncated.unsqueeze(-1)
        return self._out(reward=reward.clone(), done=terminated | truncated,
                         terminated=terminated.clone(), truncated=truncated.clone())

    def _out(self, **extra: torch.Tensor) -> TensorDictBase:
        view = self._view
        self._live_mask.copy_(view["action_mask"])  # what every copy of the action spec samples
        return TensorDict({"observation": view["observation"].clone(),
                           "action_mask": view["action_mask"].clone(),
                           "current_player": view["current_player"].long(),
                           "illegal": self._illegal.clone().unsqueeze(-1), **extra},
                          batch_size=self.batch_size, device=self.device)

    def _set_seed(self, seed: int | None) -> None:
        """The seed of the next full reset (the native streams are reseeded there)."""
        self._next_seed = None if seed is None else int(check_seed(seed))
