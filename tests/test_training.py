"""The Zha Jin Hua trainer on the shared policy-gradient core (``training.pg``): returns across
auto-resets, carry-over, the update (pg, and ppo: the Hanabi trainer's), the training tables,
a tiny run."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.games.hanabi import train as th  # noqa: E402
from vecgames.games.zhajinhua import train as tz  # noqa: E402
from vecgames.policies.nets import PolicyNet  # noqa: E402
from vecgames.training import core, pg, ppo  # noqa: E402

CPU = torch.device("cpu")
PROG = "python -m vecgames.games.zhajinhua.train"


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
    """The done step's reward closes its game; the next game's steps are incomplete."""
    # one env, two seats; the game ends at step 2 (seat 1 wins the pot) and the next game's
    # antes are charged at step 3, its first step; step 4 leaves that game unfinished.
    reward = torch.tensor([[[-1.0, -1.0]], [[-2.0, 0.0]], [[0.0, 4.0]],
                           [[-1.0, -1.0]], [[0.0, -2.0]]])
    done = torch.tensor([[False], [False], [True], [False], [False]])
    G, complete = pg.returns_to_go(reward, done)
    assert G[:, 0].tolist() == [[-3.0, 3.0], [-2.0, 4.0], [0.0, 4.0],
                                [-1.0, -3.0], [0.0, -2.0]]
    assert complete[:, 0].tolist() == [True, True, True, False, False]


def test_returns_match_chip_changes_across_auto_resets():
    """On real play a decision's return is the chips its seat won from there to its game's end."""
    players = 4
    reward, done, seats = random_rollout(16, players, 150, seed=3)
    G, complete = pg.returns_to_go(torch.from_numpy(reward), torch.from_numpy(done))
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
    base = dict(players=4, envs=32, steps=24, iterations=2, eval_games=64,
                out=str(tmp_path / "run"), checkpoint_every=1, progress=False, epochs=1,
                minibatches=2)
    base.update(kw)
    return tz.Config(**base)


def test_carry_over_uses_every_finished_decision_once(tmp_path):
    """Two rollouts' batches hold each finished learner decision with a choice exactly once;
    at the random tables (the first block of the mix) only seat b % P learns."""
    cfg = small_config(tmp_path, mix="random=1,self=1")
    gen = torch.Generator().manual_seed(0)
    collector = pg.Collector(cfg, CPU, gen)
    net = PolicyNet(256, 15, 16)
    ro1, _ = collector.collect(net)
    b1 = collector.batch(ro1)
    ro2, _ = collector.collect(net)
    b2 = collector.batch(ro2)
    # reference over the 2T steps: learner, non-forced, game finished within the 2T steps
    reward = torch.cat([ro1.reward, ro2.reward])
    done = torch.cat([ro1.done, ro2.done])
    G, complete = pg.returns_to_go(reward, done)
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
    learner = collector.learner  # [B, P]
    assert learner[:16].sum(1).eq(1).all() and learner[16:].all()
    assert learner[torch.arange(16), torch.arange(16) % 4].all()
    assert collector.kinds.tolist() == [0] * 16 + [1] * 16  # blocks in the order given
    rows = torch.arange(32)
    assert torch.equal(ro1.learner, learner[rows, ro1.player])


def test_lambda_returns_on_zha_jin_hua(tmp_path):
    """``returns="lambda"``: the batch holds the seat lambda-returns of the learner's known
    decisions, which differ from the whole-game returns of the same rollout."""
    batches, rollouts = {}, {}
    for returns in ("game", "lambda"):
        cfg = small_config(tmp_path, returns=returns, gamma=0.9, lam=0.5)
        collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
        torch.manual_seed(0)
        net = PolicyNet(256, 15, 16)
        rollouts[returns], _ = collector.collect(net)
        batches[returns] = collector.batch(rollouts[returns])
    ro = rollouts["lambda"]
    assert torch.equal(ro.action, rollouts["game"].action)  # the same play
    G, known = pg.seat_returns(ro.reward, ro.done, ro.player, ro.value, 0.9, 0.5)
    ok = known & ro.learner & (ro.mask.sum(-1) > 1)
    got = batches["lambda"].ret
    assert len(got) == int(ok.sum()) > 0
    torch.testing.assert_close(got.sort().values, G[ok].sort().values)
    assert len(got) != len(batches["game"]) or not torch.equal(got, batches["game"].ret)


def toy_batch(n: int = 512) -> pg.Batch:
    g = torch.Generator().manual_seed(0)
    obs = torch.rand((n, 256), generator=g)
    mask = torch.ones((n, 15), dtype=torch.bool)
    mask[:, 0:2] = False  # some illegal actions: -inf logits must not make nan
    action = torch.where(torch.arange(n) % 2 == 0, 9, 2)
    ret = torch.where(action == 9, 10.0, -10.0)  # betting 1 pays, folding costs
    return pg.Batch(obs, mask, action, ret)


def probs_of(net, batch) -> torch.Tensor:
    with torch.no_grad():
        return torch.softmax(net(batch.obs, batch.mask)[0], -1).mean(0)


def updated(cfg, lr: float = 1e-2) -> tuple[PolicyNet, dict, torch.Tensor]:
    """A fresh seeded net after ``pg.update`` on the toy batch; also its probs before."""
    torch.manual_seed(0)
    net = PolicyNet(256, 15, 32)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    batch = toy_batch()
    before = probs_of(net, batch)
    stats = pg.update(net, opt, batch, cfg, torch.Generator().manual_seed(1))
    return net, stats, before


@pytest.mark.parametrize(("algo", "beta"), [("pg", 0.0), ("pg", 0.5), ("ppo", 0.5)])
def test_update_moves_policy_towards_advantage(tmp_path, algo, beta):
    """Both updates raise the paying action, lower the costly one, keep illegal ones at 0."""
    net, stats, before = updated(small_config(tmp_path, beta=beta, epochs=3, algo=algo))
    after = probs_of(net, toy_batch())
    assert after[9] > before[9] + 0.05 and after[2] < before[2]
    assert after[0] == 0.0 and after[1] == 0.0
    kl = "approx_kl" if algo == "ppo" else "kl"  # ppo reports ppo.ppo_update's figures
    assert stats[kl] > 0.0 and stats["samples"] == len(toy_batch())
    assert all(torch.isfinite(p.grad).all() for p in net.parameters() if p.grad is not None)


def test_ppo_update_differs_from_pg_and_clips(tmp_path):
    """``algo="ppo"`` is another update than ``pg`` from the same start: its clipped ratio
    stops the push once the policy has moved, so it moves less, and less with a tighter clip."""
    moved = {}
    for algo, clip in (("pg", 0.2), ("ppo", 0.2), ("ppo", 0.01)):
        cfg = small_config(tmp_path, epochs=4, minibatches=4, beta=0.0, algo=algo, clip=clip)
        net, _, before = updated(cfg, lr=1e-3)
        moved[algo, clip] = float(probs_of(net, toy_batch())[9] - before[9])
    assert moved["pg", 0.2] > moved["ppo", 0.2] > moved["ppo", 0.01] > 0


def test_both_trainers_ppo_is_one_update(tmp_path, monkeypatch):
    """``--algo ppo`` and the Hanabi trainer step through the same ``ppo.ppo_update``; the
    competitive games' batch carries values and returns in the value head's units."""
    calls: list[tuple[str, ppo.PPOBatch]] = []
    shared = ppo.ppo_update

    def recording(net, opt, batch, cfg, generator):
        calls.append((type(net).__name__, batch))
        return shared(net, opt, batch, cfg, generator)

    monkeypatch.setattr(ppo, "ppo_update", recording)
    stats = updated(small_config(tmp_path, algo="ppo"))[1]
    hanabi = th.Config(envs=8, steps=4, hidden=8, epochs=1, minibatches=2)
    ppo.PPO(hanabi, CPU, torch.Generator().manual_seed(0)).iteration(1, 0.0)
    assert [name for name, _ in calls] == ["PolicyNet", "ActorCritic"]
    batch = calls[0][1]
    torch.testing.assert_close(batch.ret, toy_batch().ret / pg.RETURN_SCALE)
    torch.testing.assert_close(batch.adv, batch.ret - batch.value_old)
    assert set(stats) == {*ppo.PPO_STATS, "explained_var", "samples"}


@pytest.mark.parametrize("n", [1, 3])
def test_ppo_on_fewer_samples_than_minibatches_stays_finite(tmp_path, n):
    """A batch smaller than ``--minibatches`` (a lone sample included) trains finite weights:
    no empty minibatch, no spread of one advantage to divide by."""
    torch.manual_seed(0)
    net = PolicyNet(256, 15, 16)
    batch = pg.Batch(*(x[:n] for x in (toy_batch().obs, toy_batch().mask,
                                       toy_batch().action, toy_batch().ret)))
    stats = pg.update(net, torch.optim.Adam(net.parameters()), batch,
                      small_config(tmp_path, algo="ppo", minibatches=4),
                      torch.Generator().manual_seed(1))
    assert all(torch.isfinite(p).all() for p in net.parameters())
    assert all(np.isfinite(v) for k, v in stats.items() if k != "explained_var")


@pytest.mark.parametrize("algo", ["pg", "ppo"])
def test_empty_batch_is_no_update(tmp_path, algo):
    """A rollout without a finished learner decision leaves the network alone."""
    net = PolicyNet(256, 15, 8)
    before = [p.clone() for p in net.parameters()]
    empty = pg.Batch(*(x[:0] for x in (toy_batch().obs, toy_batch().mask,
                                       toy_batch().action, toy_batch().ret)))
    stats = pg.update(net, torch.optim.Adam(net.parameters()), empty,
                      small_config(tmp_path, algo=algo), torch.Generator())
    assert stats == {"samples": 0}
    assert all(torch.equal(a, b) for a, b in zip(before, net.parameters(), strict=True))


def test_kl_penalty_holds_the_policy_back(tmp_path):
    """A large beta keeps pi_new near pi_old."""
    moved = {}
    for beta in (0.0, 50.0):
        net, _, before = updated(small_config(tmp_path, beta=beta, epochs=4))
        moved[beta] = float(probs_of(net, toy_batch())[9] - before[9])
    assert moved[50.0] < 0.5 * moved[0.0]


def test_masked_kl_entropy():
    """KL and entropy over the legal actions only, with finite gradients through -inf."""
    mask = torch.tensor([[True, True, False]])
    logp_old = torch.log_softmax(torch.tensor([[0.0, 1.0, float("-inf")]]), -1)
    logits = torch.tensor([[0.5, 0.5, float("-inf")]], requires_grad=True)
    logp_new = torch.log_softmax(logits, -1)
    kl, ent = pg.masked_kl_entropy(logp_old, logp_new, mask)
    p = logp_old.exp()[0, :2]
    assert float(kl.detach()) == pytest.approx(float((p * (p.log() - np.log(0.5))).sum()), rel=1e-5)
    assert float(ent.detach()) == pytest.approx(np.log(2.0), rel=1e-5)
    (kl + ent).sum().backward()
    assert torch.isfinite(logits.grad).all()
    same, _ = pg.masked_kl_entropy(logp_old, logp_old, mask)
    assert float(same) == 0.0


def test_sample_actions_never_picks_illegal_actions():
    """Sampled and greedy picks stay on legal actions even when illegal logits would win."""
    gen = torch.Generator().manual_seed(1)
    rows, actions = 4000, 21
    mask = torch.rand((rows, actions), generator=gen) < 0.2
    mask[torch.arange(rows), torch.randint(actions, (rows,), generator=gen)] = True
    raw = 30.0 * torch.randn((rows, actions), generator=gen)
    raw[~mask] += 1e3  # illegal actions would win by far if the mask were ignored
    logits = raw.masked_fill(~mask, float("-inf"))
    for greedy in (False, True):
        picks = pg.sample_actions(logits, gen, greedy)
        assert mask[torch.arange(rows), picks].all()


def test_tiny_run_writes_checkpoint_curve_and_eval(tmp_path, capsys):
    """main: periodic and final checkpoints, the curve, eval.json/eval.md from the arena."""
    out = tmp_path / "run"
    code = tz.main(["--players", "4", "--envs", "32", "--steps", "16", "--iterations", "2",
                    "--eval-games", "100", "--out", str(out), "--checkpoint-every", "1",
                    "--hidden", "16", "--no-progress", "--seed", "5"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "95% CI" in printed and "random:" in printed
    assert (out / "checkpoints" / "iter_000001.pt").exists()
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = json.loads((out / "eval.json").read_text())
    assert set(record) == {"evals", "train", "config", "command"}
    ev = record["evals"]["random"]
    assert {"opponent", "games", "mean", "ci95_low", "ci95_high", "unit", "duplicate"} <= set(ev)
    assert ev["games"] == 100  # 25 per seat, the checkpoint at each of the 4 seats
    assert ev["unit"] == "chips" and ev["duplicate"] is True
    assert ev["ci95_low"] <= ev["mean"] <= ev["ci95_high"]
    assert record["train"]["iterations"] == 2 and record["train"]["samples"] > 0
    assert record["config"]["seed"] == 5 and record["command"].startswith(PROG)
    assert "| random |" in (out / "eval.md").read_text()
    history = json.loads((out / "history.json").read_text())
    assert [h["iteration"] for h in history] == [1, 2] and "vs_random" in history[0]
    ckpt = torch.load(out / "final.pt", weights_only=True)
    assert {"model", "optimizer", "config", "iteration", "game", "env_options"} <= set(ckpt)
    assert ckpt["iteration"] == 2 and ckpt["env_options"] == {"num_players": 4}
    net = vecgames.load_player(out / "final.pt").net
    assert torch.equal(net.pi.weight, ckpt["model"]["pi.weight"])


def test_same_seed_same_weights(tmp_path):
    """The same seed trains the same weights; another seed others."""
    weights = []
    for name in ("a", "b", "c"):
        seed = 1 if name == "c" else 0
        cfg = small_config(tmp_path, out=str(tmp_path / name), seed=seed, checkpoint_every=0,
                           eval_games=8, hidden=16)
        core.train(tz.TRAINER, cfg)
        weights.append(torch.load(tmp_path / name / "final.pt", weights_only=True)["model"])
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    assert not torch.equal(weights[0]["pi.weight"], weights[2]["pi.weight"])


def test_algo_ppo_trains(tmp_path):
    """A tiny ``--algo ppo`` run completes, takes optimizer steps, and ends with other weights
    than the same run under ``--algo pg``."""
    tiny = ["--players", "3", "--envs", "32", "--steps", "8", "--hidden", "16",
            "--iterations", "2", "--eval-games", "24", "--checkpoint-every", "0",
            "--no-progress"]
    finals = {}
    for algo in ("pg", "ppo"):
        assert tz.main([*tiny, "--algo", algo, "--out", str(tmp_path / algo)]) == 0
        finals[algo] = torch.load(tmp_path / algo / "final.pt", weights_only=True)
    assert finals["ppo"]["config"]["algo"] == "ppo" and finals["ppo"]["samples"] > 0
    assert float(finals["ppo"]["optimizer"]["state"][0]["step"]) > 0
    assert finals["ppo"]["samples"] == finals["pg"]["samples"]  # the first rollout is alike
    assert not torch.equal(finals["ppo"]["model"]["pi.weight"], finals["pg"]["model"]["pi.weight"])


def test_resume_a_run_from_before_max_grad_norm(tmp_path):
    """A checkpoint written before ``max_grad_norm`` existed resumes: the missing field is
    taken at its default, not refused as a changed option."""
    cfg = small_config(tmp_path, iterations=1, eval_games=8, hidden=8)
    core.train(tz.TRAINER, cfg)
    path = tmp_path / "run" / "final.pt"
    ckpt = torch.load(path, weights_only=True)
    del ckpt["config"]["max_grad_norm"]
    torch.save(ckpt, path)
    core.train(tz.TRAINER, small_config(tmp_path, iterations=2, eval_games=8, hidden=8,
                                        resume=True))
    assert torch.load(path, weights_only=True)["iteration"] == 2


def test_parse_config():
    """Flags, defaults, refusals."""
    cfg = tz.TRAINER.parse(["--minutes", "1.5", "--device", "cpu"], PROG)
    assert cfg.minutes == 1.5 and cfg.iterations is None and cfg.device == "cpu"
    d = tz.TRAINER.parse([], PROG)
    assert d.iterations == 100 and d.players == 6 and d.mix == "random=1"
    assert (d.algo, d.returns, d.eval_opponents) == ("pg", "game", ("random",))
    for bad in (["--random-opponents", "0.5"], ["--eval-envs", "8"], ["--algo", "dqn"],
                ["--returns", "td"], ["--mix", "random=-1"], ["--league-size", "0"],
                ["--gamma", "1.5"], ["--eval-opponents", "random,"]):
        with pytest.raises(SystemExit):
            tz.TRAINER.parse(bad, PROG)


def test_bad_device_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ValueError, match="invalid device"):
        core.train(tz.TRAINER, tz.Config(device="nonsense", iterations=1,
                                         out=str(tmp_path / "x")))
    assert not (tmp_path / "x").exists()


def test_opponent_seats_play_the_named_player(tmp_path):
    """``--mix heuristic=1,self=1``: the other seats of the heuristic tables act through the
    player protocol (here a stand-in that always takes its first legal action); the learner's
    seat and the self-play tables still sample the network."""
    cfg = small_config(tmp_path, mix="heuristic=1,self=1")
    collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    assert set(collector.players) == {0}  # the heuristic block; self needs no player
    calls = []

    def first_legal(obs, mask):
        calls.append(len(mask))
        return mask.argmax(1)

    collector.players[0] = first_legal
    ro, _ = collector.collect(PolicyNet(collector.obs_dim, collector.num_actions, 16))
    theirs = ~ro.learner
    assert calls and sum(calls) == int(theirs.sum())
    assert torch.equal(ro.action[theirs], ro.mask.float().argmax(-1)[theirs])
    half = cfg.envs // 2  # the self-play half never meets the opponent
    assert ro.learner[:, half:].all()


@pytest.mark.parametrize("opponent", ["percentile", "checkpoint"])
def test_train_against_a_builtin_or_a_checkpoint(tmp_path, opponent):
    """``--mix`` seats a built-in protocol player or a checkpoint at the opponent seats."""
    tiny = ["--players", "3", "--envs", "24", "--steps", "8", "--iterations", "1",
            "--hidden", "16", "--eval-games", "24", "--no-progress"]
    if opponent == "checkpoint":
        assert tz.main([*tiny, "--out", str(tmp_path / "first")]) == 0
        opponent = str(tmp_path / "first" / "final.pt")
    assert tz.main([*tiny, "--mix", f"{opponent}=1", "--out", str(tmp_path / "run")]) == 0
    record = json.loads((tmp_path / "run" / "eval.json").read_text())
    assert record["config"]["mix"] == f"{opponent}=1"
    history = json.loads((tmp_path / "run" / "history.json").read_text())
    assert f"vs_{opponent}" in history[0]  # the learner's payoff at those tables
