"""The Da Yaoguai trainer: the rule-player kernel, lambda-returns, carry-over, the training
tables, the learner's payoff per kind of table, evaluation and a tiny end-to-end run."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import vecgames  # noqa: E402
from vecgames.games.dayaoguai import train as dy  # noqa: E402
from vecgames.games.dayaoguai.players import POLICIES, policy_action  # noqa: E402
from vecgames.games.dayaoguai.rules import PASS  # noqa: E402
from vecgames.policies.nets import PolicyNet  # noqa: E402
from vecgames.training import core, evaluation, pg  # noqa: E402

CPU = torch.device("cpu")


def test_baseline_kernel_plays_legal_baseline_actions():
    """The kernel plays policy_action of each rule seat's player; rows of -1 seats untouched."""
    assert dy.KERNEL_PLAYERS == POLICIES[:len(dy.KERNEL_PLAYERS)] and "plan" not in (
        dy.KERNEL_PLAYERS)
    b, players = 64, 4
    env = vecgames.make("dayaoguai", num_envs=b, num_players=players, max_steps=200, seed=7)
    _, info = env.reset()
    rng = np.random.default_rng(0)
    seat_policy = rng.integers(-1, len(dy.KERNEL_PLAYERS), size=(b, players))
    actions = np.zeros(b, np.int64)
    twin = vecgames.make("dayaoguai", num_envs=b, num_players=players, max_steps=200, seed=7)
    twin.reset()
    learner_rows = 0
    for _ in range(150):
        mask, cur = info["action_mask"].copy(), info["current_player"].copy()
        for i in range(b):  # the same state in a twin env: the kernel is policy_action
            twin.state.table[i] = env.state.table[i]
            twin.state.table_cards[i] = env.state.table_cards[i]
            twin.state.rng[i] = env.state.rng[i]
        actions[:] = -7
        dy.baseline_actions(env, seat_policy, actions)
        pol = seat_policy[np.arange(b), cur]
        mine = pol < 0
        learner_rows += int(mine.sum())
        assert (actions[mine] == -7).all()  # the learner's rows are left alone
        assert mask[~mine, actions[~mine]].all()  # every baseline action is legal
        for i in np.flatnonzero(~mine):
            assert actions[i] == policy_action(pol[i], twin.state, i, twin.rules)
        weakest = ~mine & (pol == POLICIES.index("weakest"))
        cards = mask[:, :PASS]
        lowest = np.where(cards.any(1), cards.argmax(1), PASS)
        assert (actions[weakest] == lowest[weakest]).all()
        actions[mine] = (rng.random((int(mine.sum()), mask.shape[1])) * mask[mine]).argmax(1)
        _, _, _, _, info = env.step(actions)
        assert not info["illegal"].any()
    assert learner_rows > 0


def test_seat_returns_hand_made():
    """Lambda-returns over each seat's own decisions, worked by hand."""
    # one env, two seats; seat 0 acts at steps 0, 2, 4; seat 1 at 1, 3. Step 3 ends the game
    # (seat 1 picks up: -2 for it, +2 for seat 0); step 4 starts the next game.
    reward = torch.tensor([[[0.0, 0.0]], [[1.0, -1.0]], [[0.0, 0.0]], [[2.0, -2.0]],
                           [[5.0, -5.0]]])
    done = torch.tensor([[False], [False], [False], [True], [False]])
    player = torch.tensor([[0], [1], [0], [1], [0]])
    value = torch.tensor([[10.0], [20.0], [30.0], [40.0], [50.0]])
    G, known = pg.seat_returns(reward, done, player, value, gamma=0.5, lam=0.5)
    # step 4: seat 0's last decision, its game still running -> pending
    # step 3: seat 1 ends the game: -2. Step 2: seat 0 collects +2 at the end: 2
    # step 1: r = -1, next decision at step 3: -1 + 0.5 * (0.5 * 40 + 0.5 * -2) = 8.5
    # step 0: r = 1 (paid at step 1), next decision at step 2: 1 + 0.5 * (0.5 * 30 + 0.5 * 2)
    assert known[:, 0].tolist() == [True, True, True, True, False]
    assert G[:4, 0].tolist() == [9.0, 8.5, 2.0, -2.0]
    # a pending decision: the earlier one bootstraps from its value alone
    G2, known2 = pg.seat_returns(reward[:3], torch.zeros(3, 1, dtype=torch.bool), player[:3],
                                 value[:3], gamma=0.5, lam=0.5)
    assert known2[:, 0].tolist() == [True, False, False]
    assert G2[0, 0] == 1.0 + 0.5 * 30.0


def random_play(num_envs: int, steps: int, seed: int, max_steps: int):
    env = vecgames.make("dayaoguai", num_envs=num_envs, num_players=4, max_steps=max_steps,
                        seed=seed)
    _, info = env.reset()
    rng = np.random.default_rng(seed)
    rewards, dones, seats = [], [], []
    for _ in range(steps):
        seats.append(info["current_player"].astype(np.int64))
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
        _, reward, term, trunc, info = env.step(actions)
        rewards.append(reward.copy())
        dones.append(term | trunc)
    return (torch.from_numpy(np.stack(rewards)), torch.from_numpy(np.stack(dones)),
            torch.from_numpy(np.stack(seats)))


def test_undiscounted_lambda_one_returns_are_the_beans_to_the_end_of_the_game():
    """gamma = lam = 1: a decision's return is its seat's beans to the end of the game."""
    reward, done, seats = random_play(16, 160, seed=3, max_steps=40)
    value = torch.randn(seats.shape, generator=torch.Generator().manual_seed(0))
    G, known = pg.seat_returns(reward, done, seats, value, gamma=1.0, lam=1.0)
    checked = 0
    for b in range(reward.shape[1]):
        ends = torch.nonzero(done[:, b]).flatten().tolist()
        start = 0
        for end in ends:
            for t in range(start, end + 1):
                p = seats[t, b]
                assert known[t, b]
                assert float(G[t, b]) == pytest.approx(float(reward[t:end + 1, b, p].sum()),
                                                       abs=1e-3)
                checked += 1
            start = end + 1
    assert checked > 1000


def small_config(tmp_path, **kw) -> dy.Config:
    base = dict(envs=32, steps=24, iterations=2, max_steps=50, eval_games=64,
                out=str(tmp_path / "run"), checkpoint_every=1, progress=False, epochs=1,
                minibatches=2, hidden=16)
    base.update(kw)
    return dy.Config(**base)


def test_carry_over_uses_every_decision_once(tmp_path):
    """Each known learner decision with a choice is trained on once over two rollouts; at a
    rule player's table only seat b % P learns, the self-play tables learn at every seat."""
    cfg = small_config(tmp_path, lam=0.0)  # lam=0: a return needs only the next decision
    collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    net = PolicyNet(collector.env.obs_dim, collector.env.num_actions, 16)
    ro1, curve = collector.collect(net)
    assert curve.shape == (2, 4)  # the default mix: self, random, weakest, pickup
    b1 = collector.batch(ro1)
    ro2, _ = collector.collect(net)
    b2 = collector.batch(ro2)
    cat = {k: torch.cat([getattr(ro1, k), getattr(ro2, k)])
           for k in ("reward", "done", "player", "value", "learner", "mask")}
    G, known = pg.seat_returns(cat["reward"], cat["done"], cat["player"], cat["value"],
                               cfg.gamma, cfg.lam)
    ok = known & cat["learner"] & (cat["mask"].sum(-1) > 1)
    got = torch.cat([b1.ret, b2.ret])
    assert len(got) == int(ok.sum()) > 0
    torch.testing.assert_close(got.sort().values, G[ok].sort().values)
    assert len(b2) > int(ok[cfg.steps:].sum())  # decisions carried over from rollout 1
    # baseline seats never learn: at a baseline table only seat b % P enters the batch
    kinds = collector.kinds.numpy()
    base_rows = np.flatnonzero(kinds > 0)
    seats = ro1.player[:, base_rows][ro1.learner[:, base_rows]]
    owners = torch.from_numpy(base_rows % cfg.players).expand(cfg.steps, -1)
    assert torch.equal(seats, owners[ro1.learner[:, base_rows]])
    self_rows = np.flatnonzero(kinds == 0)
    assert bool(ro1.learner[:, self_rows].all())


def test_mix_tables_and_seats(tmp_path):
    """Blocks in the order of --mix; the kernel plays its players' seats (their index in
    KERNEL_PLAYERS), the learner's seats and self-play tables are -1."""
    cfg = small_config(tmp_path, envs=10, mix="weakest=3,self=1")
    collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    assert collector.names == ["weakest", "self"]
    assert collector.kinds.tolist() == [0] * 8 + [1] * 2  # 7.5 / 2.5: largest remainder first
    table = collector.seat_policy
    weakest = dy.KERNEL_PLAYERS.index("weakest")
    assert table[3].tolist() == [weakest] * 3 + [-1]  # env 3: learner at seat 3
    assert table[6].tolist() == [weakest, weakest, -1, weakest]
    assert (table[8:] == -1).all() and collector.learner[8:].all()
    assert ((table == -1).sum(1)[:8] == 1).all()
    assert torch.equal(collector.learner, torch.from_numpy(table == -1))


def test_protocol_and_kernel_players_share_a_run(tmp_path):
    """'plan' is no kernel player: its tables' opponent seats act through the protocol (a
    stand-in here), while 'shed' tables are played by the kernel."""
    cfg = small_config(tmp_path, envs=16, steps=16, mix="shed=1,plan=1")
    collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    assert set(collector.players) == {1} and (collector.seat_policy[8:] == -1).all()

    def first_legal(obs, mask):
        return mask.argmax(1)

    collector.players[1] = first_legal
    ro, _ = collector.collect(PolicyNet(collector.obs_dim, collector.num_actions, 16))
    theirs = ~ro.learner
    plan_rows = theirs & (torch.arange(16) >= 8)
    assert bool(plan_rows.any())
    assert torch.equal(ro.action[plan_rows], ro.mask.float().argmax(-1)[plan_rows])
    assert ro.mask.gather(2, ro.action.unsqueeze(2)).all()  # every seat played legally


def test_learner_payoff_per_kind_of_table(tmp_path):
    """collect's [2, kinds]: the learner's beans summed over the games it finished at each
    kind of table, and their count (games cut short by max_steps end too)."""
    cfg = small_config(tmp_path, envs=16, steps=40, max_steps=12,
                       mix="random=1,self=1,weakest=2")
    collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    ro, (payoff, games) = collector.collect(PolicyNet(collector.obs_dim,
                                                      collector.num_actions, 16))
    kinds = collector.kinds
    seat = torch.arange(16) % cfg.players
    beans = ro.reward[:, torch.arange(16), seat] / collector.scale  # unscaled, learner's seat
    want_pay, want_games = np.zeros(3), np.zeros(3)
    for b in range(16):
        running = 0.0
        for t in range(cfg.steps):
            running += float(beans[t, b])
            if ro.done[t, b]:
                want_pay[kinds[b]] += running
                want_games[kinds[b]] += 1
                running = 0.0
    assert (want_games > 0).all()
    np.testing.assert_array_equal(games, want_games)
    np.testing.assert_allclose(payoff, want_pay, rtol=1e-5, atol=1e-3)


def test_eval_opponents_are_arena_players():
    """A random seat among random seats breaks even; a weakest seat among them wins."""
    options = {"num_players": 4, "max_steps": 200}
    fair = evaluation.field_score("dayaoguai", "random", "random", 1024, 11, options)
    assert fair["games"] == 1024 and fair["duplicate"] is True
    assert fair["ci95_low"] <= 0.0 <= fair["ci95_high"]
    strong = evaluation.field_score("dayaoguai", "weakest", "random", 1024, 11, options)
    assert strong["mean"] > 50 and strong["ci95_low"] > 0


def test_tiny_run_writes_checkpoint_curve_and_eval(tmp_path, capsys):
    """main: checkpoints, curve, and the arena's scores against 3 copies of each rule player."""
    out = tmp_path / "run"
    code = dy.main(["--envs", "32", "--steps", "16", "--iterations", "2", "--max-steps", "60",
                    "--eval-games", "64", "--hidden", "16", "--out", str(out),
                    "--checkpoint-every", "1", "--no-progress", "--seed", "5"])
    assert code == 0
    printed = capsys.readouterr().out
    assert all(f"{name}:" in printed for name in dy.KERNEL_PLAYERS) and "95% CI" in printed
    assert (out / "checkpoints" / "iter_000002.pt").exists()
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = json.loads((out / "eval.json").read_text())
    assert set(record["evals"]) == set(dy.KERNEL_PLAYERS)
    for name, r in record["evals"].items():
        assert r["games"] == 64 and r["ci95_low"] <= r["mean"] <= r["ci95_high"]
        assert r["opponent"] == name and r["duplicate"] is True
    assert record["config"]["game"] == "dayaoguai" and record["config"]["max_steps"] == 60
    assert record["train"]["iterations"] == 2
    assert "| weakest |" in (out / "eval.md").read_text()
    history = json.loads((out / "history.json").read_text())
    assert [h["iteration"] for h in history] == [1, 2] and "entropy" in history[0]
    ckpt = torch.load(out / "final.pt", weights_only=True)
    assert ckpt["env_options"]["num_players"] == 4 and ckpt["game"] == "dayaoguai"
    net = vecgames.load_player(out / "final.pt").net
    assert torch.equal(net.pi.weight, ckpt["model"]["pi.weight"])
    assert net.pi.out_features == 29 and net.trunk[0].in_features == 215


def test_same_seed_same_weights(tmp_path):
    """The same seed trains the same weights; another seed others."""
    weights = []
    for name, seed in (("a", 0), ("b", 0), ("c", 1)):
        cfg = small_config(tmp_path, out=str(tmp_path / name), seed=seed, checkpoint_every=0,
                           eval_opponents=())
        core.train(dy.TRAINER, cfg)
        weights.append(torch.load(tmp_path / name / "final.pt", weights_only=True)["model"])
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    assert not torch.equal(weights[0]["pi.weight"], weights[2]["pi.weight"])


def test_parse_config():
    cfg = dy.TRAINER.parse(["--minutes", "2", "--device", "cpu", "--mix", "weakest=1"], "p")
    assert cfg.minutes == 2 and cfg.iterations is None and cfg.mix == "weakest=1"
    d = dy.TRAINER.parse([], "p")
    assert d.iterations == 100 and d.players == 4 and d.max_steps == 1000
    assert (d.returns, d.mix) == ("lambda", "self=1,random=1,weakest=1,pickup=1")
    assert d.eval_opponents == dy.KERNEL_PLAYERS  # the rule players ('plan' is too slow)
    assert dy.TRAINER.parse(["--mix", "plan=1,league=1"], "p").mix == "plan=1,league=1"
    for bad in (["--mix", "shark=1"], ["--gamma", "1.5"], ["--max-steps", "0"],
                ["--eval-envs", "8"]):
        with pytest.raises(SystemExit):
            dy.TRAINER.parse(bad, "p")
