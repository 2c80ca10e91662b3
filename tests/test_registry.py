"""``vecgames.list_games()``: every game's options, players and sizes, read from its modules."""

from __future__ import annotations

import pandas as pd
import pytest

import vecgames
from vecgames.api import game_info
from vecgames.games.catalog import game_names, spec_of

GAMES = game_names()


@pytest.fixture(scope="module")
def infos() -> dict[str, vecgames.GameInfo]:
    return {g.name: g for g in vecgames.list_games()}


def test_every_game_listed(infos):
    assert list(infos) == list(GAMES)
    table = pd.DataFrame(list(infos.values()))
    assert list(table["name"]) == list(GAMES) and "obs_dim" in table.columns


@pytest.mark.parametrize("name", list(GAMES))
def test_sizes_match_a_made_env(infos, name):
    info = infos[name]
    env = vecgames.make(name, num_envs=2)
    obs, inf = env.reset()
    assert info.num_players == env.num_players
    assert info.num_actions == inf["action_mask"].shape[1] == env.num_actions
    assert list(info.obs_dim.values())[0] == obs.shape[1]


@pytest.mark.parametrize("name", list(GAMES))
def test_options_are_the_games_own(infos, name):
    info = infos[name]
    rules = spec_of(name).load("rules")
    assert info.rule_options == rules.DEFAULT_OPTIONS
    assert info.policies == spec_of(name).load("players").POLICIES
    df = vecgames.simulate(name, 3, policy=list(info.policies[-1:]) * info.num_players)
    assert len(df) >= 3
    with pytest.raises(ValueError, match="policy"):
        vecgames.simulate(name, 3, policy="no-such-player")
    for option in info.env_options:
        assert option not in ("num_envs", "seed", "env_offset")


def test_observation_variants(infos):
    assert set(infos["liars_dice"].obs_dim) == {"full", "seed"}
    assert set(infos["hanabi"].obs_dim) >= {"jaxmarl", "seed1680"}
    assert infos["hanabi"].obs_dim["seed1680"] == 1680
    for variant, dim in infos["liars_dice"].obs_dim.items():
        obs, _ = vecgames.make("liars_dice", observation=variant).reset()
        assert obs.shape[1] == dim
    assert infos["zhajinhua"].simulate_options == {"record_actions": False}


def test_unknown_game():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_info("chess")


# ---------------------------------------------------------------- progress bars


class FakeTTY:
    """A stderr that says it is a terminal (``isatty``) and keeps what is written."""

    def __init__(self, tty: bool):
        self.tty, self.parts = tty, []

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "".join(self.parts)


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 100 games and a bar from the first update, so that small runs show both."""
    from vecgames.core import simulation

    monkeypatch.setattr(simulation, "PROGRESS_MIN_CHUNK", 100)
    monkeypatch.setattr(simulation, "PROGRESS_CHUNK_SECONDS", 0.0)  # chunks stay at 100
    monkeypatch.setattr(simulation, "PROGRESS_DELAY", 0.0)


def _count_runs(monkeypatch, name: str) -> list[int]:
    from vecgames.api import simulation_module

    module, sizes = simulation_module(name), []
    run = module.run

    def counting(job):
        sizes.append(job.num_games)
        return run(job)

    monkeypatch.setattr(module, "run", counting)
    return sizes


@pytest.mark.parametrize("name, options", [
    ("zhajinhua", {"record_actions": True, "num_players": 4}),
    ("zhajinhua", {"summary": True}),
    ("liars_dice", {"num_rounds": 2, "first_game": 10}),
    ("hanabi", {"summary": True}),
    ("holdem", {"num_players": 3}),
])
def test_chunked_run_is_the_single_run(monkeypatch, small_chunks, name, options):
    import numpy as np

    whole = vecgames.simulate(name, 1001, seed=9, progress=False, **options)
    sizes = _count_runs(monkeypatch, name)
    monkeypatch.setattr("sys.stderr", FakeTTY(tty=False))
    chunked = vecgames.simulate(name, 1001, seed=9, progress=True, **options)
    assert sizes == [100] * 10 + [1]  # it did run in chunks
    pd.testing.assert_frame_equal(whole, chunked, check_exact=True)
    assert whole.attrs.keys() == chunked.attrs.keys()
    for key, value in whole.attrs.items():
        np.testing.assert_array_equal(np.asarray(value, object),
                                      np.asarray(chunked.attrs[key], object), key)


def test_bar_on_a_terminal_not_on_a_pipe(monkeypatch, small_chunks):
    terminal = FakeTTY(tty=True)
    monkeypatch.setattr("sys.stderr", terminal)
    vecgames.simulate("liars_dice", 1000, progress=None)
    assert "matches/s" in terminal.text and "/1.00k" in terminal.text
    pipe = FakeTTY(tty=False)
    monkeypatch.setattr("sys.stderr", pipe)
    sizes = _count_runs(monkeypatch, "liars_dice")
    vecgames.simulate("liars_dice", 1000, progress=None)
    assert pipe.text == "" and sizes == [1000]  # one run, as without a bar
    with pytest.raises(TypeError, match="progress must be a bool"):
        vecgames.simulate("liars_dice", 10, progress="yes")


def test_growing_chunks_are_the_single_run(monkeypatch, small_chunks):
    from vecgames.core import simulation

    monkeypatch.setattr(simulation, "PROGRESS_CHUNK_SECONDS", 1e9)  # grow 4x a chunk
    whole = vecgames.simulate("dayaoguai", 1001, seed=4, progress=False)
    sizes = _count_runs(monkeypatch, "dayaoguai")
    monkeypatch.setattr("sys.stderr", FakeTTY(tty=False))
    chunked = vecgames.simulate("dayaoguai", 1001, seed=4, progress=True)
    assert sizes == [100, 400, 501]
    pd.testing.assert_frame_equal(whole, chunked, check_exact=True)


def test_games_package_is_callable():
    """``vecgames.games()`` lists the games, also after a game module was imported (which
    binds the ``vecgames.games`` package to that name)."""
    import vecgames.games.holdem  # noqa: F401

    assert vecgames.games() == vecgames.list_games()
    assert [g.name for g in vecgames.games()] == list(GAMES)
