"""The Zha Jin Hua trainer: returns across auto-resets, carry-over, the update, a tiny run."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.training import zhajinhua as tz  # noqa: E402

CPU = torch.device("cpu")


def random_rollout(num_envs: int, players: int, steps: int, seed: int):
    """Random-legal play straight on the env: per-step reward [T,B,P], done [T,B], seat [T,B]."""
    env = vecgames.make("zhajinhua", num_envs=num_envs, seed=seed, num_players=players)
    _, info = env.reset()
    rng = np.random.default_rng(seed)
    rewards, dones, seats = [], [], []
    for _ in range(steps):
        seats.append(info["current_player"].copy())
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
        _, reward, term, trunc, info = env.step(actions)
        rewards.append(reward.copy())
        dones.append(term | trunc)
    return np.stack(rewards), np.stack(dones), np.stack(seats)


def reference_games(reward: np.ndarray, done: np.ndarray):
    """Per env, the complete games as (first step, last step, chip change per seat)."""
    games = []
    for b in range(reward.shape[1]):
        start = 0
        for t in np.flatnonzero(done[:, b]):
            games.append((b, start, t, reward[start:t + 1, b].sum(0)))
            start = t + 1
    return games


def test_returns_to_go_hand_made():
    # one env, two seats; the game ends at step 2 (seat 1 wins the pot) and the next game's
    # antes are charged at step 3, its first step; step 4 leaves that game unfinished.
    reward = torch.tensor([[[-1.0, -1.0]], [[-2.0, 0.0]], [[0.0, 4.0]],
                           [[-1.0, -1.0]], [[0.0, -2.0]]])
    done = torch.tensor([[False], [False], [True], [False], [False]])
    G, complete = tz.returns_to_go(reward, done)
    assert G[:, 0].tolist() == [[-3.0, 3.0], [-2.0, 4.0], [0.0, 4.0],
                                [-1.0, -3.0], [0.0, -2.0]]
    assert complete[:, 0].tolist() == [True, True, True, False, False]


def test_returns_match_chip_changes_across_auto_resets():
    players = 4
    reward, done, seats = random_rollout(16, players, 150, seed=3)
    G, complete = tz.returns_to_go(torch.from_numpy(reward), torch.from_numpy(done))
    G, complete = G.numpy(), complete.numpy()
    games = reference_games(reward, done)
    assert len(games) > 50
    for b, start, end, change in games:
        # the return at a game's first step is every seat's chip change in that game
        np.testing.assert_allclose(G[start, b], change, atol=1e-4)
        assert change[:players].sum() == pytest.approx(0.0, abs=1e-4)  # chips only move
        assert (reward[start, b, :players] <= -1.0).all()  # antes open every game
        assert complete[start:end + 1, b].all()
        for t in range(start, end + 1):  # a decision's return = chips won from there on
            p = seats[t, b]
            np.testing.assert_allclose(G[t, b, p], change[p] - reward[start:t, b, p].sum(),
                                       atol=1e-4)
    for b in range(reward.shape[1]):  # steps after an env's last end are incomplete
        last = np.flatnonzero(done[:, b])
        tail = last[-1] + 1 if last.size else 0
        assert not complete[tail:, b].any()


def small_config(tmp_path, **kw) -> tz.Config:
    base = dict(players=4, envs=32, steps=24, iterations=2, eval_games=64, eval_envs=32,
                out=str(tmp_path / "run"), checkpoint_every=1, progress=False, epochs=1,
                minibatches=2)
    base.update(kw)
    return tz.Config(**base)


def test_carry_over_uses_every_finished_decision_once(tmp_path):
    cfg = small_config(tmp_path, random_opponents=0.5)
    gen = torch.Generator().manual_seed(0)
    collector = tz.Collector(cfg, CPU, gen)
    net = tz.PolicyNet(256, 15, 16)
    ro1, _ = collector.collect(net)
    b1 = collector.batch(ro1)
    ro2, _ = collector.collect(net)
    b2 = collector.batch(ro2)
    # reference over the 2T steps: learner, non-forced, game finished within the 2T steps
    reward = torch.cat([ro1.reward, ro2.reward])
    done = torch.cat([ro1.done, ro2.done])
    G, complete = tz.returns_to_go(reward, done)
    player = torch.cat([ro1.player, ro2.player])
    ok = (complete & torch.cat([ro1.learner, ro2.learner])
          & (torch.cat([ro1.mask, ro2.mask]).sum(-1) > 1))
    expected = G.gather(2, player.unsqueeze(2)).squeeze(2)[ok]
    got = torch.cat([b1.ret, b2.ret])
    assert len(got) == len(expected) > 0
    assert torch.equal(got.sort().values, expected.sort().values)
    assert len(b2) > int(ok[cfg.steps:].sum())  # some decisions were carried from rollout 1
    assert not bool((b1.mask.sum(-1) < 2).any())
    # random seats never enter the batch: in random-opponent envs only seat b % P learns
    assert bool(ro1.learner[:, :16].sum(0).gt(0).any())
    table = tz.opponent_table(32, 4, 0.5, CPU)
    assert table[:16].sum(1).eq(3).all() and not table[16:].any()
    assert not table[torch.arange(16), torch.arange(16) % 4].any()


def toy_batch(n: int = 512) -> tz.Batch:
    g = torch.Generator().manual_seed(0)
    obs = torch.rand((n, 256), generator=g)
    mask = torch.ones((n, 15), dtype=torch.bool)
    mask[:, 0:2] = False  # some illegal actions: -inf logits must not make nan
    action = torch.where(torch.arange(n) % 2 == 0, 9, 2)
    ret = torch.where(action == 9, 10.0, -10.0)  # betting 1 pays, folding costs
    return tz.Batch(obs, mask, action, ret)


def probs_of(net, batch) -> torch.Tensor:
    with torch.no_grad():
        return torch.softmax(net(batch.obs, batch.mask)[0], -1).mean(0)


@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_update_moves_policy_towards_advantage(tmp_path, beta):
    torch.manual_seed(0)
    net = tz.PolicyNet(256, 15, 32)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    batch = toy_batch()
    before = probs_of(net, batch)
    stats = tz.update(net, opt, batch, small_config(tmp_path, beta=beta, epochs=3),
                      torch.Generator().manual_seed(1))
    after = probs_of(net, batch)
    assert after[9] > before[9] + 0.05 and after[2] < before[2]
    assert after[0] == 0.0 and after[1] == 0.0
    assert stats["kl"] > 0.0 and stats["samples"] == len(batch)
    assert all(torch.isfinite(p.grad).all() for p in net.parameters() if p.grad is not None)


def test_kl_penalty_holds_the_policy_back(tmp_path):
    moved = {}
    for beta in (0.0, 50.0):
        torch.manual_seed(0)
        net = tz.PolicyNet(256, 15, 32)
        opt = torch.optim.Adam(net.parameters(), lr=1e-2)
        batch = toy_batch()
        before = probs_of(net, batch)[9]
        tz.update(net, opt, batch, small_config(tmp_path, beta=beta, epochs=4),
                  torch.Generator().manual_seed(1))
        moved[beta] = float(probs_of(net, batch)[9] - before)
    assert moved[50.0] < 0.5 * moved[0.0]


def test_masked_kl_entropy():
    mask = torch.tensor([[True, True, False]])
    logp_old = torch.log_softmax(torch.tensor([[0.0, 1.0, float("-inf")]]), -1)
    logits = torch.tensor([[0.5, 0.5, float("-inf")]], requires_grad=True)
    logp_new = torch.log_softmax(logits, -1)
    kl, ent = tz.masked_kl_entropy(logp_old, logp_new, mask)
    p = logp_old.exp()[0, :2]
    assert float(kl.detach()) == pytest.approx(float((p * (p.log() - np.log(0.5))).sum()), rel=1e-5)
    assert float(ent.detach()) == pytest.approx(np.log(2.0), rel=1e-5)
    (kl + ent).sum().backward()
    assert torch.isfinite(logits.grad).all()
    same, _ = tz.masked_kl_entropy(logp_old, logp_old, mask)
    assert float(same) == 0.0


def test_tiny_run_writes_checkpoint_curve_and_eval(tmp_path, capsys):
    out = tmp_path / "run"
    code = tz.main(["--players", "4", "--envs", "32", "--steps", "16", "--iterations", "2",
                    "--eval-games", "100", "--out", str(out), "--checkpoint-every", "1",
                    "--no-progress", "--seed", "5"])
    assert code == 0
    assert "95% CI" in capsys.readouterr().out
    assert (out / "checkpoints" / "iter_000001.pt").exists()
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = json.loads((out / "eval.json").read_text())
    ev = record["eval"]
    assert ev["games"] == 100  # 100 eval envs (at most --eval-games), one game each
    assert ev["ci95_low"] <= ev["mean"] <= ev["ci95_high"]
    assert record["train"]["iterations"] == 2 and record["config"]["seed"] == 5
    assert "mean chips/game" in (out / "eval.md").read_text()
    ckpt = torch.load(out / "final.pt", weights_only=True)
    assert {"model", "optimizer", "config", "iteration"} <= set(ckpt)
    assert ckpt["iteration"] == 2
    net = tz.load_policy(out / "final.pt")
    assert torch.equal(net.pi.weight, ckpt["model"]["pi.weight"])


def test_same_seed_same_weights(tmp_path):
    weights = []
    for name in ("a", "b", "c"):
        seed = 1 if name == "c" else 0
        cfg = small_config(tmp_path, out=str(tmp_path / name), seed=seed, checkpoint_every=0)
        tz.train(cfg)
        weights.append(torch.load(tmp_path / name / "final.pt", weights_only=True)["model"])
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    assert not torch.equal(weights[0]["pi.weight"], weights[2]["pi.weight"])


def test_random_policy_eval_is_fair(tmp_path):
    cfg = small_config(tmp_path, eval_games=3000, eval_envs=500)
    rec = tz.evaluate(tz.PolicyNet(256, 15, 16), cfg, CPU, policy="random")
    assert rec["games"] == 3000
    assert rec["ci95_low"] - 3 * rec["std_err"] < 0.0 < rec["ci95_high"] + 3 * rec["std_err"]


def test_parse_config():
    cfg = tz.parse_config(["--minutes", "1.5", "--device", "cpu"])
    assert cfg.minutes == 1.5 and cfg.iterations is None and cfg.device == "cpu"
    assert tz.parse_config([]).iterations == 100
    assert tz.parse_config([]).players == 6
    with pytest.raises(SystemExit):
        tz.parse_config(["--random-opponents", "2"])
    with pytest.raises(ValueError, match="invalid device"):
        tz.train(tz.Config(device="nonsense", iterations=1))


def test_opponent_seats_play_the_named_player(tmp_path):
    """--opponent: the other seats of the --random-opponents tables act through the player
    protocol (here a stand-in that always takes its first legal action); the learner's seat
    and the self-play tables still sample the network."""
    cfg = small_config(tmp_path, random_opponents=0.5, opponent="heuristic")
    collector = tz.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    calls = []

    def first_legal(obs, mask):
        calls.append(len(mask))
        return mask.argmax(1)

    collector.opponent = first_legal
    ro, _ = collector.collect(tz.PolicyNet(collector.obs_dim, collector.num_actions, 16))
    theirs = ~ro.learner
    assert calls and sum(calls) == int(theirs.sum())
    assert torch.equal(ro.action[theirs], ro.mask.float().argmax(-1)[theirs])
    half = cfg.envs // 2  # the self-play half never meets the opponent
    assert ro.learner[:, half:].all()


@pytest.mark.parametrize("opponent", ["percentile", "checkpoint"])
def test_train_against_a_builtin_or_a_checkpoint(tmp_path, opponent):
    tiny = ["--players", "3", "--envs", "24", "--steps", "8", "--iterations", "1",
            "--eval-games", "48", "--eval-envs", "24", "--no-progress"]
    if opponent == "checkpoint":
        assert tz.main([*tiny, "--out", str(tmp_path / "first")]) == 0
        opponent = str(tmp_path / "first" / "final.pt")
    assert tz.main([*tiny, "--opponent", opponent, "--out", str(tmp_path / "run")]) == 0
    assert json.loads((tmp_path / "run" / "eval.json").read_text())["config"]["opponent"] == (
        opponent)
    assert tz.main([*tiny, "--opponent", "human", "--out", str(tmp_path / "x")]) == 1
