"""``vecgames.load_player``: a trainer's checkpoint as a player.

Every vecgames trainer writes checkpoints that ``load_checkpoint`` reads back with
``torch.load(weights_only=True)`` (a file holding anything but tensors and plain data is
refused before any of its code runs). torch is imported here only when a checkpoint is loaded,
so ``import vecgames`` stays lean.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..core.validation import check_bool
from ..games.catalog import game_names, spec_of

FORMAT = 2  # the checkpoint layout; files without this key (older releases) are refused
# Env keywords a checkpoint may record that are not the player's to impose: how many rounds
# a Liar's Dice match has, and the observers of Hanabi's env (the runner's).
NOT_NEEDED = frozenset({"num_rounds", "observers"})
# What a game's ``checkpoint`` part (a module) may hold: ``player_class(cfg)``, the player of
# a checkpoint with trainer config ``cfg``; ``LEGACY_KEYS``, config keys that only its trainer
# wrote (a checkpoint without a "game" key that has them is its); ``legacy_env_options(cfg)``,
# the env keywords of a checkpoint written before trainers stored them.


class CheckpointPlayer:
    """A trained network as a player: ``player(obs, action_mask)`` returns the argmax of the
    masked logits (Liar's Dice: Q values), or with ``greedy=False`` a draw from their softmax
    with the player's own ``torch.Generator`` (seeded by ``seed``).

    Attributes: ``game``, ``obs_dim``, ``num_actions``, ``env_options`` (the env keywords it
    was trained with and needs: seats, observation layout...), ``name`` (from the file name),
    ``path``, ``greedy``, ``net`` (the torch module) and ``device``."""

    def __init__(self, net: Any, scores: Callable[[Any, Any, Any], Any], *, game: str,
                 obs_dim: int, num_actions: int, env_options: dict[str, Any], path: Path,
                 device: Any, greedy: bool = True, seed: int = 0):
        import torch

        self.net = net.to(device).eval()
        self._scores = scores
        self.game, self.obs_dim, self.num_actions = game, obs_dim, num_actions
        self.env_options = env_options
        self.path = path
        self.name = label_of(path)
        self.device = device
        self.greedy = greedy
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)

    def _masked_scores(self, obs: np.ndarray, action_mask: np.ndarray) -> tuple[Any, Any]:
        """(the network's masked scores, the mask) as tensors on the player's device; call
        under ``torch.inference_mode``."""
        import torch

        o = torch.as_tensor(np.ascontiguousarray(obs, dtype=np.float32), device=self.device)
        m = torch.as_tensor(np.ascontiguousarray(action_mask, dtype=np.bool_),
                            device=self.device)
        return self._scores(self.net, o, m), m

    def __call__(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        import torch

        with torch.inference_mode():
            scores, _ = self._masked_scores(obs, action_mask)
            if self.greedy:
                actions = scores.argmax(-1)
            else:
                actions = torch.multinomial(torch.softmax(scores, -1), 1,
                                            generator=self.generator).squeeze(-1)
        return actions.cpu().numpy().astype(np.int64)

    def action_probs(self, obs: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """float64 ``[batch, num_actions]``: the chance of each action as this player acts
        on these observations: the softmax of its masked scores when it samples
        (``greedy=False``), 1 on the action it picks when greedy; 0 on illegal actions, each
        row summing to 1 (exploitability and cross-entropy are computed from it)."""
        import torch

        with torch.inference_mode():
            scores, m = self._masked_scores(obs, action_mask)
            scores = scores.double()
            if self.greedy:
                probs = torch.nn.functional.one_hot(scores.argmax(-1), scores.shape[-1]).double()
            else:
                probs = torch.softmax(scores.masked_fill(~m, float("-inf")), -1)
        return probs.cpu().numpy()

    def __repr__(self) -> str:
        return f"CheckpointPlayer({self.game!r}, {os.fspath(self.path)!r})"


def label_of(path: Path) -> str:
    """The file stem; a run's ``final``/``iter_*`` checkpoints also name their run folder."""
    stem = path.stem
    if (stem == "final" or stem.startswith("iter_")) and path.parent.name:
        parent = path.parent.parent if path.parent.name == "checkpoints" else path.parent
        return f"{parent.name}/{stem}"
    return stem


def load_player(path: str | os.PathLike, device: Any = "cpu", greedy: bool | None = None,
                seed: int = 0) -> Any:
    """The player stored in a checkpoint written by any vecgames trainer (Zha Jin Hua, both
    recipes; Hold'em; Liar's Dice, either head; Hanabi; Da Yaoguai), or a zoo player by its
    name (``"zoo:..."``, ``vecgames.zoo()``). ``greedy`` (None: a file's player plays its
    argmax, a zoo player as its card was measured) and ``seed`` (its sampling stream).

    Safe loading: a file holding objects other than tensors and plain data is refused with a
    ValueError before any of its code runs. A checkpoint without a ``game`` key (written before
    issue 23) is recognised by its config, or refused with a clear message.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or path, got {type(path).__name__}")
    from ..zoo import card_of, is_zoo_name, zoo_path

    zoo_name = path if isinstance(path, str) and is_zoo_name(path) else None
    if zoo_name is not None:
        path = zoo_path(zoo_name)
        if greedy is None:
            greedy = bool(card_of(zoo_name)["greedy"])
    greedy_asked = greedy
    greedy = check_bool(True if greedy is None else greedy, "greedy")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"no checkpoint file at {os.fspath(path)!r}")
    if file.suffix == ".npz":  # a mixed strategy: it draws, unless told to play its argmax
        # it plays through the solver's tree, a layer up: its game's spec names the loader
        load = strategy_loader(file)
        return load(file, name=zoo_name, seed=int(seed), greedy=greedy_asked is True)
    from ..torch_bridge import resolve_device

    dev = resolve_device(device)
    net, scores, ckpt, game = load_network(file, dev)
    cfg = ckpt.get("config") or {}
    options = ckpt.get("env_options")
    if not isinstance(options, dict):
        options = config_env_options(game, cfg)
    env_options = {k: v for k, v in options.items() if k not in NOT_NEEDED}
    own = checkpoint_part(game)
    kind = own.player_class(cfg) if hasattr(own, "player_class") else CheckpointPlayer
    player = kind(net, scores, game=game, obs_dim=int(ckpt["obs_dim"]),
                  num_actions=int(ckpt["num_actions"]), env_options=env_options, path=file,
                  device=dev, greedy=greedy, seed=int(seed))
    if zoo_name is not None:
        player.name = zoo_name
    return player


def load_network(path: str | os.PathLike, device: Any = "cpu"
                 ) -> tuple[Any, Callable[[Any, Any, Any], Any], dict[str, Any], str]:
    """(the network with its weights, its scoring function, the checkpoint, the game) of a
    checkpoint file of any vecgames trainer; the one place a network is rebuilt."""
    ckpt = load_checkpoint(path, device)
    game = checkpoint_game(ckpt, Path(path))
    network = checkpoint_network(ckpt, game, Path(path))
    net, scores = NETWORKS[network](ckpt, ckpt.get("config") or {}, game)
    net.load_state_dict(ckpt["model"])
    return net, scores, ckpt, game


def checkpoint_game(ckpt: dict[str, Any], path: Path) -> str:
    """The game a checkpoint was trained on: its ``game`` key, else its config's."""
    cfg = ckpt.get("config") or {}
    game = ckpt.get("game") or cfg.get("game")
    if game is None:  # written before the "game" key: a config only one trainer writes
        game = next((name for name in game_names()
                     if legacy_keys(name) and legacy_keys(name) <= set(cfg)), None)
    if game not in game_names():
        raise ValueError(f"{os.fspath(path)} does not say which game it was trained on "
                         f"(game {game!r}); it is not a checkpoint of a vecgames trainer")
    if "model" not in ckpt or "obs_dim" not in ckpt or "num_actions" not in ckpt:
        raise ValueError(f"{os.fspath(path)} holds no trained network (model, obs_dim, "
                         f"num_actions)")
    return str(game)


def config_env_options(game: str, cfg: dict[str, Any]) -> dict[str, Any]:
    """The env keywords of a checkpoint written before trainers stored them."""
    options: dict[str, Any] = {"num_players": int(cfg["players"])}
    own = checkpoint_part(game)
    if hasattr(own, "legacy_env_options"):
        options.update(own.legacy_env_options(cfg))
    else:
        options.update(cfg.get("env_options") or {})
    return options


def checkpoint_part(game: str) -> Any:
    """Game ``game``'s ``checkpoint`` part (see the top of this module), or None."""
    spec = spec_of(game)
    return spec.load("checkpoint") if spec.has("checkpoint") else None


def legacy_keys(game: str) -> frozenset[str]:
    """The config keys that mark an old checkpoint of ``game`` (none: it cannot be told)."""
    return frozenset(getattr(checkpoint_part(game), "LEGACY_KEYS", ()))


def strategy_loader(file: Path) -> Callable[..., Any]:
    """The loader of a strategy table file (``.npz``): its game's spec ``strategy`` part. A
    file that names no game is the only game's with strategy tables."""
    game = None
    try:
        with np.load(file, allow_pickle=False) as f:
            if "game" in f:
                game = str(f["game"])
    except (OSError, ValueError, EOFError) as exc:  # not an npz: say which file
        raise ValueError(f"cannot read a strategy from {os.fspath(file)!r}: {exc}") from None
    games = [spec_of(game)] if game is not None else [
        spec for spec in (spec_of(name) for name in game_names()) if spec.has("strategy")]
    if len(games) != 1 or not games[0].has("strategy"):
        raise ValueError(f"{os.fspath(file)!r}: no game of this vecgames plays strategy "
                         f"tables of {game or 'this file'}")
    return games[0].load("strategy")  # type: ignore[no-any-return]


def load_checkpoint(path: str | os.PathLike, device: Any = "cpu") -> dict[str, Any]:
    """A checkpoint written by a vecgames trainer, loaded with ``weights_only=True``.

    Raises ValueError naming the file when it holds anything but tensors and plain data (the
    unpickler refuses it before any of its code runs) or was written before this format.
    """
    import torch

    try:
        ckpt = torch.load(path, map_location=device, weights_only=True)
    except pickle.UnpicklingError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"refusing to load {os.fspath(path)}: it holds objects other than "
                         f"tensors and plain data ({first})") from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != FORMAT:
        raise ValueError(f"{os.fspath(path)} is not a checkpoint of this vecgames version "
                         "(those of vecgames 0.2.0 and earlier cannot be loaded; retrain)")
    return ckpt


# -- the networks (vecgames.policies.nets, which imports torch) ----------------------------
def _policy_net(ckpt: dict[str, Any], cfg: dict[str, Any], game: str
                ) -> tuple[Any, Callable]:
    from .nets import PolicyNet

    net = PolicyNet(int(ckpt["obs_dim"]), int(ckpt["num_actions"]), int(cfg["hidden"]))
    return net, _logits


def _actor_critic(ckpt: dict[str, Any], cfg: dict[str, Any], game: str
                  ) -> tuple[Any, Callable]:
    from .nets import ActorCritic

    net = ActorCritic(int(ckpt["obs_dim"]), int(ckpt["num_actions"]), int(cfg["hidden"]))
    return net, _logits


def _q_net(ckpt: dict[str, Any], cfg: dict[str, Any], game: str) -> tuple[Any, Callable]:
    from .nets import make_qnet, masked_q

    net = make_qnet(cfg.get("head", "combined"), int(ckpt["obs_dim"]),
                    int(ckpt["num_actions"]), int(cfg["hidden"]), int(cfg["layers"]), game)
    return net, lambda net, obs, mask: masked_q(net(obs), mask)


def _logits(net: Any, obs: Any, mask: Any) -> Any:
    return net(obs, mask)[0]  # (masked logits, value)


# network kind (a checkpoint's "network"; else its game's ``GameSpec.network``) -> builder
# network kind -> (checkpoint, its config, its game) -> (the network, its scoring function)
NETWORKS: dict[str, Callable[[dict[str, Any], dict[str, Any], str], tuple[Any, Callable]]] = {
    "policy_net": _policy_net, "actor_critic": _actor_critic, "q_net": _q_net}


def checkpoint_network(ckpt: dict[str, Any], game: str, path: Path) -> str:
    """The network kind a checkpoint holds: the one it records, else the one its game's
    trainer writes (checkpoints from before they recorded it)."""
    network = ckpt.get("network") or spec_of(game).network
    if network not in NETWORKS:
        raise ValueError(f"{os.fspath(path)} holds a network of kind {network!r}; known "
                         f"kinds: {sorted(NETWORKS)}")
    return str(network)
