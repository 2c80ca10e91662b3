"""The Hanabi PPO trainer: GAE across auto-reset boundaries, masked sampling, the game
bookkeeping (returns, how games end), a tiny run and the policy it saves."""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.games.hanabi import train as th  # noqa: E402
from vecgames.games.hanabi.rules import field, hands, rules_to_options  # noqa: E402
from vecgames.policies.nets import ActorCritic  # noqa: E402
from vecgames.training import evaluation, ppo, runs  # noqa: E402

CPU = torch.device("cpu")


def test_gae_hand_made_with_a_termination():
    """GAE stops at a game's end: no bootstrap into the next game, nothing carried back."""
    # env 0: the game ends with step 1; steps 2-3 belong to the next game, still running at
    # the end of the rollout (bootstrapped with last_value). env 1: no game ends.
    g = lam = 0.5  # binary fractions: exact arithmetic
    reward = torch.tensor([[1.0, 1.0], [0.0, 0.0], [2.0, 2.0], [1.0, 1.0]])
    value = torch.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]])
    done = torch.tensor([[False, False], [True, False], [False, False], [False, False]])
    last = torch.tensor([8.0, 8.0])
    adv, ret = ppo.gae(reward, value, done, last, g, lam)
    # env 0: A3 = 1 + .5*8 - 4; A2 = 2 + .5*4 - 3 + .25*A3; A1 = 0 - 2 (no bootstrap into the
    # next game, nothing carried back from it); A0 = 1 + .5*2 - 1 + .25*A1
    assert adv[:, 0].tolist() == [0.5, -2.0, 1.25, 1.0]
    # env 1: A1 = 0 + .5*3 - 2 + .25*A2 = -0.1875; A0 = 1 + .5*2 - 1 + .25*A1
    assert adv[:, 1].tolist() == [0.953125, -0.1875, 1.25, 1.0]
    assert torch.equal(ret, adv + value)


def test_gae_with_gamma_and_lambda_one_is_the_return_to_go_of_each_game():
    """gamma = lam = 1: the value target is the game's reward to go (bootstrapped if open)."""
    rng = np.random.default_rng(0)
    t, b = 40, 6
    reward = torch.from_numpy(rng.integers(-3, 3, (t, b)).astype(np.float32))
    done = torch.from_numpy(rng.random((t, b)) < 0.15)
    value = torch.from_numpy(rng.normal(size=(t, b)).astype(np.float32))
    last = torch.from_numpy(rng.normal(size=b).astype(np.float32))
    _, ret = ppo.gae(reward, value, done, last, 1.0, 1.0)
    for e in range(b):
        for s in range(t):
            total, k = 0.0, s
            while True:
                total += float(reward[k, e])
                if done[k, e]:
                    break
                k += 1
                if k == t:
                    total += float(last[e])  # the unfinished game is bootstrapped
                    break
            assert float(ret[s, e]) == pytest.approx(total, abs=1e-4)


def test_network_masks_and_masked_entropy():
    """The network masks illegal actions (sampling them is tested in test_training.py);
    masked entropy is finite, 0 when one action is legal."""
    gen = torch.Generator().manual_seed(1)
    rows, actions = 4000, 21
    mask = torch.rand((rows, actions), generator=gen) < 0.2
    mask[torch.arange(rows), torch.randint(actions, (rows,), generator=gen)] = True
    net = ActorCritic(658, actions, 16)
    masked, _ = net(torch.randn(rows, 658), mask)
    assert torch.isinf(masked[~mask]).all() and torch.isfinite(masked[mask]).all()
    ent = ppo.masked_entropy(torch.log_softmax(masked, -1), mask)
    assert torch.isfinite(ent).all()
    assert torch.allclose(ent[mask.sum(1) == 1], torch.zeros(()), atol=1e-6)


def test_rollout_plays_legal_moves_and_games_are_scored_like_the_env():
    """The team collector plays legal moves at every seat; each finished game gives its score
    (0 when the lives ran out) and how it ended."""
    cfg = th.Config(envs=32, steps=150, hidden=16, iterations=1)
    col = ppo.TeamCollector(cfg, CPU, torch.Generator().manual_seed(0))
    ro, figures = col.collect(ActorCritic(col.env.obs_dim, col.env.num_actions, 16))
    rets, ends = figures
    assert ro.mask.gather(2, ro.action.unsqueeze(2)).all()
    assert ro.done.any() and rets.numel() == int(ro.done.sum())
    # a game's return is its score (0 when the lives ran out); an untrained policy bombs
    assert (rets >= 0).all() and (rets <= 25).all()
    assert (rets[ends == 0] == 0).all() and (ends == 0).any()
    summary = cfg.summary(figures)
    assert summary["games"] == rets.numel()
    assert summary["end_lives"] + summary["end_deck"] + summary["end_perfect"] == (
        pytest.approx(1.0))


def test_game_ends_are_read_correctly_from_the_step():
    """Games' returns and ends against the env's own score and a direct reading of the
    state before the final move (a failed play with one life left)."""
    env = vecgames.make("hanabi", num_envs=64, seed=5, num_players=2)
    _, info = env.reset()
    games = th.Games(env, CPU)
    rng = np.random.default_rng(5)
    seen = {0: 0, 1: 0}
    for _ in range(400):
        mask = info["action_mask"]
        # mostly hints and discards, so that deck endings happen as well as lives endings
        safe = mask.copy()
        safe[:, 5:10] = False
        pick = np.where(safe.any(1) & (rng.random(64) < 0.9), 1, 0)
        actions = np.where(pick, (rng.random(mask.shape) * safe).argmax(1),
                           (rng.random(mask.shape) * mask).argmax(1)).astype(np.int64)
        seat = info["current_player"].astype(np.int64)
        life = field(env.state, "life").copy()
        fire = field(env.state, "fireworks").copy()
        slot = np.clip(actions - 5, 0, 4)
        card = hands(env.state)[np.arange(64), seat, slot]
        fails = (actions >= 5) & (actions < 10) & (fire[np.arange(64), card // 5] != card % 5)
        games.before(torch.from_numpy(actions))
        _, reward, term, _, info = env.step(actions)
        ret, end = games.after(torch.from_numpy(reward[:, 0].copy()), torch.from_numpy(term))
        for i in np.flatnonzero(term):
            assert float(ret[i]) == info["score"][i]
            by_lives = bool(fails[i] and life[i] == 1)
            assert int(end[i]) == (0 if by_lives else 2 if info["score"][i] == 25 else 1)
            seen[min(int(end[i]), 1)] += 1
    assert seen[0] > 0 and seen[1] > 0


def test_random_self_play_scores_zero_in_the_evaluation():
    """The arena's team score of random play: it bombs nearly always."""
    cfg = th.Config(eval_games=300, iterations=1)
    r = evaluation.team_score("hanabi", "random", cfg.eval_games, 1, cfg.rule_options())
    assert r["games"] == 300 and r["mean"] < 0.1 and r["perfect_rate"] == 0.0
    assert r["ci95_low"] <= r["mean"] <= r["ci95_high"]


def test_tiny_run_writes_outputs_and_the_policy_round_trips(tmp_path, capsys):
    """main: every output file, the four team scores, the annealed learning rate; final.pt
    plays as a player, greedy = the network's argmax."""
    out = tmp_path / "run"
    assert th.main(["--iterations", "2", "--envs", "16", "--steps", "16", "--hidden", "32",
                    "--eval-games", "40", "--checkpoint-every", "1",
                    "--out", str(out), "--no-progress", "--anneal-lr"]) == 0
    printed = capsys.readouterr().out
    assert "greedy:" in printed and "rules:" in printed
    for name in ("config.json", "final.pt", "history.json", "learning_curve.png", "eval.json",
                 "eval.md", "checkpoints/iter_000001.pt", "checkpoints/iter_000002.pt"):
        assert (out / name).is_file(), name
    record = json.loads((out / "eval.json").read_text())
    assert set(record["evals"]) == {"greedy", "sampled", "rules", "random"}
    for r in record["evals"].values():
        assert r["games"] == 40 and r["ci95_low"] <= r["mean"] <= r["ci95_high"]
        assert 0.0 <= r["perfect_rate"] <= 1.0 and r["unit"] == "score"
    assert record["evals"]["rules"]["mean"] > 10
    assert record["train"]["iterations"] == 2 and record["train"]["env_steps"] == 2 * 16 * 16
    history = json.loads((out / "history.json").read_text())
    assert [h["iteration"] for h in history] == [1, 2]
    assert history[0]["lr"] == pytest.approx(5e-4) and history[1]["lr"] == pytest.approx(2.5e-4)
    assert json.loads((out / "config.json").read_text())["hidden"] == 32
    assert "| greedy |" in (out / "eval.md").read_text()

    player = vecgames.load_player(out / "final.pt")
    saved = torch.load(out / "final.pt", weights_only=True)
    net = ActorCritic(saved["obs_dim"], saved["num_actions"], 32)
    net.load_state_dict(saved["model"])
    env = vecgames.make("hanabi", num_envs=24, seed=3, **player.env_options)
    sampler = vecgames.load_player(out / "final.pt", greedy=False, seed=1)
    obs, info = env.reset()
    for _ in range(40):
        mask = info["action_mask"]
        actions = player(obs, mask)
        assert actions.dtype == np.int64 and actions.shape == (24,)
        assert mask[np.arange(24), actions].all()
        with torch.no_grad():
            expected = net(torch.from_numpy(obs), torch.from_numpy(mask))[0].argmax(1)
        assert np.array_equal(actions, expected.numpy())
        assert mask[np.arange(24), sampler(obs, mask)].all()
        obs, _, _, _, info = env.step(actions)
        assert not info["illegal"].any()


def test_command_line_rejects_bad_options():
    for argv in (["--iterations", "0"], ["--players", "6"], ["--minutes", "0"],
                 ["--envs", "0"], ["--iterations", "1", "--bogus"], ["--iter", "3"],
                 ["--eval-envs", "8"]):
        with pytest.raises(SystemExit):
            th.TRAINER.parse(argv, "p")
    cfg = th.TRAINER.parse(["--minutes", "2", "--device", "cpu"], "p")
    assert cfg.minutes == 2 and cfg.iterations is None and cfg.device == "cpu"
    d = th.TRAINER.parse([], "p")
    assert d.iterations == 100 and d.game == "hanabi" and d.eval_opponents == ("rules", "random")


def test_seed_rule_flags_reach_the_envs_the_evaluation_and_the_saved_policy(tmp_path):
    """--end/--discard-at-max/--hint-target set the training envs, the scored teams' table
    and the checkpoint's env options."""
    rules = {"end": "deck_empty", "discard_at_max": "capped", "hint_target": "next"}
    cfg = th.TRAINER.parse(["--players", "3", "--end", "deck_empty", "--discard-at-max",
                            "capped", "--hint-target", "next", "--envs", "8", "--steps", "4",
                            "--hidden", "16", "--eval-games", "50", "--device", "cpu"], "p")
    assert cfg.rule_options() == {"num_players": 3, **rules}
    assert th.TRAINER.env_options(cfg) == {"num_players": 3, **rules, "obs": "jaxmarl"}
    collector = ppo.TeamCollector(cfg, CPU, torch.Generator().manual_seed(0))
    r = collector.env.rules
    assert rules_to_options(r) == {"num_players": 3, "random_start": False, **rules}
    net = ActorCritic(collector.obs_dim, collector.num_actions, 16)
    ro, _ = collector.collect(net)
    to_second = [r.color_hints + 5 + k for k in range(5)] + [r.rank_hints + 5 + k
                                                             for k in range(5)]
    assert not ro.mask[:, :, to_second].any() and ro.mask[:, :, :r.color_hints].any()
    seed = cfg.seed + evaluation.EVAL_SEED_OFFSET
    b = evaluation.team_score("hanabi", "rules", cfg.eval_games, seed, cfg.rule_options())
    df = vecgames.simulate("hanabi", 50, policy="rules", seed=seed, num_players=3, **rules)
    assert b["mean"] == pytest.approx(df["score"].mean())
    runs.save_checkpoint(tmp_path / "p.pt", {
        "model": net.state_dict(), "config": asdict(cfg), "game": "hanabi",
        "env_options": th.TRAINER.env_options(cfg), "obs_dim": collector.obs_dim,
        "num_actions": collector.num_actions})
    assert vecgames.load_player(tmp_path / "p.pt").env_options == th.TRAINER.env_options(cfg)
    with pytest.raises(SystemExit):
        th.TRAINER.parse(["--end", "deck"], "p")


def test_ppo_update_changes_the_network_and_reports_its_figures():
    """One PPO update over a real rollout: every figure finite, the weights moved, the
    gradient norm clipped (a huge learning rate still gives finite weights)."""
    cfg = th.Config(envs=16, steps=16, hidden=16, epochs=2, minibatches=4, lr=1e-3)
    col = ppo.TeamCollector(cfg, CPU, torch.Generator().manual_seed(0))
    torch.manual_seed(0)
    net = ActorCritic(col.obs_dim, col.num_actions, 16)
    ro, _ = col.collect(net)
    before = [p.clone() for p in net.parameters()]
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    stats = ppo.ppo_update(net, opt, ppo.rollout_batch(ro, cfg), cfg,
                           torch.Generator().manual_seed(1))
    assert {"loss", "pg_loss", "value_loss", "entropy", "approx_kl", "clip_frac",
            "explained_var"} <= set(stats)
    assert all(np.isfinite(v) for v in stats.values())
    assert stats["approx_kl"] >= 0 and 0 <= stats["clip_frac"] <= 1 and stats["entropy"] > 0
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters(), strict=True))
    assert float(opt.state_dict()["state"][0]["step"]) == cfg.epochs * cfg.minibatches
