"""The model zoo: every card is complete and its weight file is small and safe; every zoo
name plays wherever a player name does (simulate, the arena, the CLI, play, the trainers'
--mix and --eval-opponents, the web catalog); ``action_probs`` is a distribution over the
legal actions; a finished run exports to a zoo entry."""

from __future__ import annotations

import json

import numpy as np
import pytest

import vecgames
from vecgames.zoo import cards, zoo_names, zoo_path

torch = pytest.importorskip("torch")

NAMES = [f"zoo:{name}" for name in cards()]
CARD_KEYS = {"name", "game", "file", "seats", "description", "command", "seeds", "env_steps",
             "wall_time_s", "cpu", "torch", "results", "greedy"}


def test_the_zoo_has_players_and_complete_cards():
    assert NAMES, "the zoo is empty"
    total = 0
    for name, card in cards().items():
        assert CARD_KEYS <= set(card), name
        assert card["command"].startswith("vecgames train ")
        assert card["env_steps"] > 0 and card["wall_time_s"] > 0 and card["seeds"]
        for r in card["results"]:
            assert r["ci95_low"] <= r["mean"] <= r["ci95_high"] and r["games"] >= 1_000
        path = zoo_path(name)
        total += path.stat().st_size
        if card.get("kind") == "strategy":  # a table of probabilities (no pickles)
            from vecgames.games.liars_dice.solver_strategy import load_strategy

            variant, _, _ = load_strategy(path)
            assert variant.label() == card["variant"] and 0 <= card["exploitability"] < 0.02
            continue
        from vecgames.policies.checkpoint import load_checkpoint

        ckpt = load_checkpoint(path)  # weights_only: tensors and plain data
        assert "optimizer" not in ckpt and "history" not in ckpt
    assert total < 5_000_000  # a few MB in all
    frame = vecgames.zoo()
    assert list(frame["name"]) == NAMES
    for game in {c["game"] for c in cards().values()}:
        assert list(vecgames.zoo(game)["name"]) == zoo_names(game)
    with pytest.raises(ValueError, match="unknown game"):
        vecgames.zoo("chess")
    from vecgames.zoo import results

    table = results()
    assert len(table) == sum(len(c["results"]) for c in cards().values())
    assert (table["ci_low"] <= table["mean"]).all() and (table["mean"] <= table["ci_high"]).all()


def test_unknown_or_foreign_zoo_names_are_refused():
    from vecgames.policies.protocol import resolve_player

    with pytest.raises(ValueError, match="no zoo player"):
        resolve_player("zhajinhua", "zoo:nope")
    name = NAMES[0]
    other = next(g for g in ("holdem", "zhajinhua") if g != cards()[name[4:]]["game"])
    with pytest.raises(ValueError, match="not a"):
        resolve_player(other, name)


@pytest.mark.parametrize("name", NAMES)
def test_a_zoo_name_plays_everywhere_a_player_name_does(name, tmp_path, capsys):
    from training.config_cli import check_players
    from vecgames.cli import main
    from vecgames.play.terminal import Match
    from vecgames.web.sessions import Catalog
    from vecgames.web.views import view_of

    card = cards()[name[4:]]
    game, seats = card["game"], card["seats"]
    opponent = vecgames.players(game)
    other = next(p for p in opponent if p not in ("uniform",))
    df = vecgames.simulate(game, 40, players=[name] + [other] * (seats - 1), seed=1,
                           num_players=seats)
    assert df.attrs["players"][0] == name
    again = vecgames.simulate(game, 40, players=[name] + [other] * (seats - 1), seed=1,
                              num_players=seats, num_threads=1)
    assert df.equals(again)  # a sampling zoo player draws from its own seeded stream
    result = vecgames.arena(game, [name, other], 40, num_players=seats, seed=2)
    table = result.selfplay if result.ratings is None else result.ratings  # Hanabi: a team
    assert name in table["player"].tolist()
    assert main(["simulate", game, "--games", "40", "--players", str(seats), "--policy",
                 ",".join([name] + [other] * (seats - 1))]) == 0
    check_players(game, [name], "mix")  # --mix and --eval-opponents check names this way
    match = Match(view_of(game), seat=0, agent=name, num_players=seats, seed=3)  # play
    assert match.env.num_players == seats
    catalog = Catalog()
    catalog.load_zoo()
    assert name in catalog.checkpoint_names(game)
    assert catalog.player(game, name).name == name
    capsys.readouterr()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("greedy", [True, False])
def test_action_probs_is_a_distribution_over_the_legal_actions(name, greedy):
    card = cards()[name[4:]]
    player = vecgames.load_player(zoo_path(name), greedy=greedy)
    env = vecgames.make(card["game"], num_envs=64, seed=5, **player.env_options)
    obs, _ = env.reset(seed=5)
    rows = np.arange(env.num_envs)
    for _ in range(5):
        mask = env.action_mask
        view = getattr(player, "view", None)  # a player on an observation of its own
        if view is not None:
            obs = view.observe(env)
        p = player.action_probs(obs, mask)
        assert p.shape == mask.shape and p.dtype == np.float64
        assert np.all(p[~mask] == 0.0) and np.allclose(p.sum(1), 1.0)
        actions = player(obs, mask)
        if greedy:  # the action it plays has probability 1
            assert np.array_equal(p.argmax(1), actions)
        if view is not None:
            actions = player.act_env(env, rows)  # plays and keeps its memory
        obs, *_ = env.step(actions)


def test_a_finished_run_exports_to_a_zoo_entry(tmp_path):
    from training import zoo_export
    from vecgames.cli import main

    runs = []
    for seed in (0, 1):
        out = tmp_path / f"run{seed}"
        assert main(["train", "zhajinhua", "--players", "2", "--iterations", "1", "--envs", "8",
                     "--steps", "4", "--eval-games", "20", "--eval-opponents", "random",
                     "--seed", str(seed), "--out", str(out), "--no-progress"]) == 0
        runs.append(out)
    zoo = tmp_path / "zoo"
    zoo_export.main([str(runs[0]), "--name", "tiny", "--description", "a test",
                     "--command", "vecgames train zhajinhua --iterations 1", "--zoo", str(zoo),
                     "--seed-runs", ",".join(map(str, runs))])
    card = json.loads((zoo / "tiny.json").read_text())
    assert CARD_KEYS <= set(card) and card["seats"] == 2 and card["env_steps"] == 8 * 4
    assert card["seed_spread"]["by_opponent"]["random"]["seeds"] == [0, 1]
    player = vecgames.load_player(zoo / "tiny.pt")
    assert player.game == "zhajinhua" and player.env_options == {"num_players": 2}
    assert (zoo / "tiny.pt").stat().st_size < (runs[0] / "final.pt").stat().st_size
    assert card["weights"] == "float32"


def test_a_half_export_stores_float16_and_scores_the_shipped_file(tmp_path):
    """--half: float16 weights, about half the file, played as float32 with the weights the
    file holds; the card's results are that file's own evaluation."""
    from training import zoo_export
    from vecgames.cli import main

    out = tmp_path / "run"
    assert main(["train", "zhajinhua", "--players", "2", "--iterations", "1", "--envs", "8",
                 "--steps", "4", "--eval-games", "200", "--eval-opponents", "random",
                 "--out", str(out), "--no-progress"]) == 0
    zoo_export.main([str(out), "--name", "full", "--description", "a test", "--command",
                     "vecgames train zhajinhua", "--zoo", str(tmp_path / "zoo")])
    zoo_export.main([str(out), "--name", "half", "--description", "a test", "--command",
                     "vecgames train zhajinhua", "--zoo", str(tmp_path / "zoo"), "--half"])
    full, half = (tmp_path / "zoo" / "full.pt", tmp_path / "zoo" / "half.pt")
    assert half.stat().st_size < 0.6 * full.stat().st_size
    card = json.loads((tmp_path / "zoo" / "half.json").read_text())
    assert card["weights"] == "float16" and card["results"][0]["games"] == 200
    player = vecgames.load_player(half)
    weights = dict(player.net.named_parameters())
    saved = torch.load(half, weights_only=True)["model"]
    for key, value in saved.items():
        assert value.dtype == torch.float16
        assert torch.equal(weights[key].detach(), value.float())
    from training import evaluation

    seed = card["seeds"][0] + evaluation.EVAL_SEED_OFFSET  # as the run's evaluation plays
    shipped = vecgames.load_player(half, greedy=card["greedy"], seed=seed)
    own = evaluation.field_score("zhajinhua", shipped, "random", 200, seed, {"num_players": 2})
    assert card["results"][0]["mean"] == own["mean"]


def test_each_record_of_a_cooperative_evaluation_gets_its_own_label():
    from training.zoo_export import opponent_label

    evals = {"greedy": {"opponent": "self-play"}, "sampled": {"opponent": "self-play"},
             "rules": {"opponent": "self-play"},
             "greedy with hat": {"opponent": "hat"}, "percentile": {"opponent": "percentile"}}
    assert [opponent_label(k, e) for k, e in evals.items()] == [
        "self-play", "self-play, sampled", "rules (its own self-play)", "with hat",
        "percentile"]
