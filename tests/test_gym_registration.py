"""The Gymnasium ids: ``gymnasium.make`` / ``make_vec("vecgames/<Game>-v0")`` for every game,
in either import order, without ``import vecgames`` importing Gymnasium."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import vecgames  # noqa: E402
from vecgames.adapters.gym_env import GymEnv, VecGymEnv  # noqa: E402
from vecgames.adapters.registration import register_envs  # noqa: E402
from vecgames.games.catalog import game_names, gym_id  # noqa: E402

GAMES = game_names()

IDS = {name: gym_id(name) for name in GAMES}


def test_ids():
    assert IDS == {"zhajinhua": "vecgames/ZhaJinHua-v0", "holdem": "vecgames/Holdem-v0",
                   "liars_dice": "vecgames/LiarsDice-v0", "hanabi": "vecgames/Hanabi-v0",
                   "dayaoguai": "vecgames/DaYaoguai-v0", "kuhn_poker": "vecgames/KuhnPoker-v0",
                   "leduc_poker": "vecgames/LeducPoker-v0"}
    assert register_envs() == list(IDS.values())  # again: a no-op
    assert all(i in gymnasium.registry for i in IDS.values())


@pytest.mark.parametrize("name", list(GAMES))
def test_make_vec_is_one_native_batch(name):
    env = gymnasium.make_vec(IDS[name], num_envs=6, seed=3)
    assert type(env) is VecGymEnv and env.num_envs == 6 and env.tables.env.num_envs == 6
    info_dim = next(g for g in vecgames.list_games() if g.name == name).obs_dim
    assert env.single_observation_space.shape == (list(info_dim.values())[0],)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert obs.shape == (6, *env.single_observation_space.shape)
        assert reward.shape == terminated.shape == (6,)
    env.close()


@pytest.mark.parametrize("name", list(GAMES))
def test_make_single_env_and_check_env(name):
    from gymnasium.utils.env_checker import check_env

    # the checker samples unmasked actions: the penalty mode lets it step through them
    env = gymnasium.make(IDS[name], illegal="penalty")
    assert isinstance(env.unwrapped, GymEnv)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Box observation space (min|max)imum")
        check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=2)
    for _ in range(5):
        action = env.action_space.sample(mask=info["action_mask"].astype(np.int8))
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            obs, info = env.reset()


def test_rule_options_pass_through():
    env = gymnasium.make_vec(IDS["liars_dice"], num_envs=2, num_players=4, dice=3,
                             observation="seed")
    assert env.tables.env.rules.num_players == 4
    assert env.single_observation_space.shape == (env.tables.env.obs_dim,)
    single = gymnasium.make(IDS["zhajinhua"], num_players=3, seat=2)
    assert single.unwrapped.env.num_players == 3
    with pytest.raises(ValueError, match="num_players"):
        gymnasium.make_vec(IDS["hanabi"], num_envs=2, num_players=9)


@pytest.mark.parametrize("order", [
    "import vecgames, gymnasium",  # Gymnasium imported after vecgames: the import hook
    "import gymnasium, vecgames",  # before: registered at once
    "import gymnasium",  # not at all: the module:id form imports vecgames
    # a look-up that imports nothing first (importlib.util.find_spec): the hook stays for the
    # real import (it used to leave at the look-up, and the ids were never registered)
    "import vecgames, importlib.util; importlib.util.find_spec('gymnasium'); import gymnasium",
])
def test_import_orders(order):
    env_id = "vecgames:vecgames/Hanabi-v0" if order == "import gymnasium" else IDS["hanabi"]
    script = textwrap.dedent(f"""
        {order}
        env = gymnasium.make_vec("{env_id.replace("vecgames:", "")}", num_envs=2) \\
            if "vecgames" in "{order}" else gymnasium.make("{env_id}")
        print(type(env).__name__)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_import_vecgames_leaves_gymnasium_alone():
    script = "import sys, vecgames; print('gymnasium' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr[-2000:]
