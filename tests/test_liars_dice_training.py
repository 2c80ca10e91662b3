"""The Liar's Dice DQN trainer (``training.dqn``): n-step credit per acting seat (opponent
challenges, auto-reset boundaries), the masked Double-DQN target, the replay buffer, the
shaping potential, the opponents, the evaluation, a tiny run and the player it saves."""

from __future__ import annotations

import json

import numpy as np
import pytest
from usage_errors import usage_error

torch = pytest.importorskip("torch")


import vecgames  # noqa: E402
from vecgames.games.liars_dice import train as ld  # noqa: E402
from vecgames.games.liars_dice.players import env_actions  # noqa: E402
from vecgames.training import dqn, evaluation  # noqa: E402

G = 0.5  # a discount that makes hand-worked returns exact in binary


def one_env_tracker(n: int = 3, gamma: float = G, envs: int = 1) -> dqn.NStepTracker:
    return dqn.NStepTracker(envs, 1, 4, n=n, gamma=gamma)


def decide(tr: dqn.NStepTracker, env: int, o: float, a: int, phi: float,
           envs: int = 1) -> dqn.Transitions:
    """The learner acts in env ``env`` only; obs is the single value ``o`` (an id)."""
    rows = torch.zeros(envs, dtype=torch.bool)
    rows[env] = True
    obs = torch.full((envs, 1), o)
    mask = torch.zeros((envs, 4), dtype=torch.bool)
    mask[:, int(o) % 4] = True  # a recognisable next mask
    action = torch.full((envs,), a, dtype=torch.int64)
    return tr.decide(rows, obs, mask, action, torch.full((envs,), phi))


def step(tr: dqn.NStepTracker, reward: float | list[float], done: bool | list[bool],
         envs: int = 1) -> dqn.Transitions:
    r = torch.tensor(reward if isinstance(reward, list) else [reward] * envs)
    d = torch.tensor(done if isinstance(done, list) else [done] * envs)
    return tr.after_step(r, d)


def rows(t: dqn.Transitions) -> list[tuple]:
    return [(float(t.obs[i, 0]), int(t.action[i]), round(float(t.ret[i]), 6),
             float(t.next_obs[i, 0]), bool(t.done[i]), float(t.discount[i]), int(t.env[i]))
            for i in range(len(t))]


def test_opponent_challenge_pays_the_learners_last_decision():
    tr = one_env_tracker()
    phis = {1: 0.0, 2: 0.3, 3: 0.5, 4: 0.2}
    emitted = []
    for k in (1, 2, 3, 4):
        emitted += rows(decide(tr, 0, k, 10 + k, phis[k]))
        assert rows(step(tr, 0.0, False)) == []  # the learner's bid
        if k < 4:
            assert rows(step(tr, 0.0, False)) == []  # the opponent's bid
    # R_k = r_k + G * phi_{k+1} - phi_k; the opponent then challenges: r_4 = -1, Phi(end) = 0
    r1, r2, r3 = G * 0.3 - 0.0, G * 0.5 - 0.3, G * 0.2 - 0.5
    r4 = -1.0 - 0.2
    assert emitted == [(1.0, 11, round(r1 + G * r2 + G * G * r3, 6), 4.0, False, G**3, 0)]
    end = step(tr, -1.0, True)  # the opponent's challenge ends the round
    assert rows(end) == [
        (2.0, 12, round(r2 + G * r3 + G * G * r4, 6), 0.0, True, G**3, 0),
        (3.0, 13, round(r3 + G * r4, 6), 0.0, True, G**2, 0),
        (4.0, 14, round(r4, 6), 0.0, True, G, 0),
    ]
    assert not end.next_mask.any()
    assert not tr.live.any() and int(tr.count[0]) == 0


def test_bootstrapped_transition_carries_the_next_decisions_mask():
    tr = one_env_tracker(n=1)
    decide(tr, 0, 1, 5, 0.0)
    step(tr, 0.0, False)
    step(tr, 0.0, False)
    t = decide(tr, 0, 6, 7, 0.0)
    assert rows(t) == [(1.0, 5, 0.0, 6.0, False, G, 0)]
    assert t.next_mask[0].tolist() == [False, False, True, False]  # 6 % 4 == 2


def test_learner_challenge_ends_the_round_at_its_own_step():
    tr = one_env_tracker()
    decide(tr, 0, 1, 3, 0.0)
    step(tr, 0.0, False)
    step(tr, 0.0, False)
    assert rows(decide(tr, 0, 2, 0, 0.4)) == []
    end = step(tr, 1.0, True)
    r1, r2 = G * 0.4, 1.0 - 0.4
    assert rows(end) == [(1.0, 3, round(r1 + G * r2, 6), 0.0, True, G**2, 0),
                         (2.0, 0, round(r2, 6), 0.0, True, G, 0)]


def test_auto_reset_never_links_matches_and_drops_unowned_rewards():
    tr = one_env_tracker(envs=2)
    # env 0: one decision, then the opponent's challenge ends the match; with the same-step
    # auto-reset the learner opens the next match at the very next step.
    decide(tr, 0, 1, 1, 0.1, envs=2)
    step(tr, [0.0, 0.0], [False, False], envs=2)
    # env 1's round ends before the learner acted there: nothing to credit, nothing emitted
    end = step(tr, [1.0, 1.0], [True, True], envs=2)
    assert rows(end) == [(1.0, 1, round(1.0 - 0.1, 6), 0.0, True, G, 0)]
    # the next match: its first decision starts a new chain (no earlier decision gets credit)
    assert rows(decide(tr, 0, 7, 2, 0.0, envs=2)) == []
    step(tr, [0.0, 0.0], [False, False], envs=2)
    assert rows(decide(tr, 1, 8, 3, 0.25, envs=2)) == []  # env 1's learner acts: own chain
    end = step(tr, [-1.0, 1.0], [True, True], envs=2)
    assert rows(end) == [(7.0, 2, -1.0, 0.0, True, G, 0),
                         (8.0, 3, round(1.0 - 0.25, 6), 0.0, True, G, 1)]


def reference_transitions(log: list[dict], n: int, gamma: float, env: int) -> list[tuple]:
    """The n-step transitions of one env straight from the definition, from a step log."""
    rounds, decisions, reward_since = [], [], 0.0
    for s in log:
        if s["learner"][env]:
            if decisions:
                decisions[-1]["R"] += reward_since
            decisions.append({"obs": s["obs"][env], "action": int(s["action"][env]),
                              "phi": float(s["phi"][env]), "R": 0.0,
                              "mask": s["mask"][env]})
            reward_since = 0.0
        if decisions:
            reward_since += float(s["reward"][env])
        if s["done"][env]:
            if decisions:
                decisions[-1]["R"] += reward_since
                rounds.append((decisions, True))
            decisions, reward_since = [], 0.0
    if decisions:
        rounds.append((decisions, False))
    out = []
    for ds, ended in rounds:
        m = len(ds)
        shaped = []
        for k, d in enumerate(ds):
            nxt = gamma * ds[k + 1]["phi"] if k + 1 < m else 0.0
            shaped.append(d["R"] + nxt - d["phi"])
        for k, d in enumerate(ds):
            if k + n < m:
                ret = sum(gamma**i * shaped[k + i] for i in range(n))
                out.append((d["obs"].tolist(), d["action"], ret, ds[k + n]["obs"].tolist(),
                            False, gamma**n, ds[k + n]["mask"].tolist()))
            elif ended:
                ret = sum(gamma**i * shaped[i] for i in range(k, m)) / gamma**k
                out.append((d["obs"].tolist(), d["action"], ret, None, True,
                            gamma ** (m - k), None))
    return out


@pytest.mark.parametrize("n", [1, 3])
def test_tracker_matches_the_definition_on_real_play(n):
    gamma, b = 0.9, 12
    env = vecgames.make("liars_dice", num_envs=b, seed=5, observation="seed")
    obs, info = env.reset()
    tr = dqn.NStepTracker(b, env.obs_dim, env.num_actions, n=n, gamma=gamma)
    seat = np.arange(b) % 2
    rng = np.random.default_rng(1)
    got: list[dqn.Transitions] = []
    log = []
    decisions, longest = np.zeros(b, np.int64), 0
    for _ in range(150):
        learner = info["current_player"] == seat
        mask = info["action_mask"].copy()
        # a learner that rarely challenges (long rounds: chains wrap past n) and explores
        mine = env_actions(env, "heuristic", 0.02)
        explore = (rng.random(mask.shape) * mask).argmax(1)
        mine = np.where(rng.random(b) < 0.2, explore, mine)
        action = np.where(learner, mine, env_actions(env, "heuristic", 0.15))
        phi = 0.1 * ld.bid_plausibility(env)
        got.append(tr.decide(torch.from_numpy(learner), torch.from_numpy(obs.copy()),
                             torch.from_numpy(mask), torch.from_numpy(action),
                             torch.from_numpy(phi).float()))
        entry = {"learner": learner, "obs": obs.copy(), "mask": mask, "action": action,
                 "phi": phi.astype(np.float32)}
        obs, reward, term, trunc, info = env.step(action)
        r = reward[np.arange(b), seat].copy()
        got.append(tr.after_step(torch.from_numpy(r), torch.from_numpy(term | trunc)))
        log.append({**entry, "reward": r, "done": (term | trunc).copy()})
        decisions += learner
        longest = max(longest, int(decisions.max()))
        decisions[term | trunc] = 0
    t = dqn.Transitions(*(torch.cat([getattr(x, k) for x in got]) for k in dqn.Transitions._fields))
    assert sum(s["done"].sum() for s in log) > 30
    assert longest > 3  # rounds with more learner decisions than n: ring slots get reused
    for e in range(b):
        mine = (t.env == e).nonzero().squeeze(1).tolist()
        expect = reference_transitions(log, n, gamma, e)
        assert len(mine) == len(expect) > 0
        for i, (o, a, ret, nxt, done, disc, nmask) in zip(mine, expect, strict=True):
            assert t.obs[i].tolist() == o and int(t.action[i]) == a
            assert float(t.ret[i]) == pytest.approx(ret, abs=1e-5)
            assert bool(t.done[i]) == done
            assert float(t.discount[i]) == pytest.approx(disc)
            if not done:
                assert t.next_obs[i].tolist() == nxt and t.next_mask[i].tolist() == nmask


def test_bid_plausibility_is_the_seed_feature_19():
    env = vecgames.make("liars_dice", num_envs=64, seed=2, num_players=3, observation="seed")
    obs, _ = env.reset()
    for _ in range(40):
        np.testing.assert_allclose(ld.bid_plausibility(env), obs[:, 19], atol=1e-6)
        obs, *_ = env.step(env_actions(env, "heuristic", 0.3))


class FixedQ(torch.nn.Module):
    def __init__(self, q):
        super().__init__()
        self.q = torch.tensor(q)

    def forward(self, obs):
        return self.q.expand(obs.shape[0], -1)


def test_double_dqn_target_ignores_illegal_actions():
    online = FixedQ([5.0, 1.0, 9.0, 2.0])  # action 2 looks best but is illegal below
    target = FixedQ([-3.0, 0.5, 100.0, 7.0])
    next_mask = torch.tensor([[True, True, False, True], [False, True, False, False],
                              [False, False, False, False]])
    ret = torch.tensor([1.0, 1.0, -1.0])
    y = dqn.double_dqn_target(online, target, ret, torch.zeros(3, 2), next_mask,
                             torch.tensor([0.5, 0.5, 0.5]), torch.tensor([False, False, True]))
    # row 0: online's legal argmax is 0 (5.0), valued by the target at -3.0 (not max 7.0)
    # row 1: only action 1 is legal; row 2: done, no bootstrap
    assert y.tolist() == [1.0 + 0.5 * -3.0, 1.0 + 0.5 * 0.5, -1.0]


def test_replay_buffer_wraps_and_samples_what_was_stored():
    buf = dqn.ReplayBuffer(5, 1, 3)

    def batch(values):
        k = len(values)
        v = torch.tensor(values, dtype=torch.float32)
        return dqn.Transitions(v.unsqueeze(1), torch.arange(k), v, v.unsqueeze(1),
                              torch.ones((k, 3), dtype=torch.bool), torch.zeros(k, dtype=bool),
                              torch.full((k,), 0.9), torch.zeros(k, dtype=torch.int64))

    buf.add(batch([1.0, 2.0, 3.0]))
    buf.add(batch([4.0, 5.0, 6.0, 7.0]))
    assert buf.size == 5 and buf.added == 7
    assert sorted(buf.ret.tolist()) == [3.0, 4.0, 5.0, 6.0, 7.0]
    s = buf.sample(64, torch.Generator().manual_seed(0))
    assert set(s["ret"].tolist()) <= {3.0, 4.0, 5.0, 6.0, 7.0}
    assert torch.equal(s["obs"].squeeze(1), s["ret"])


def test_evaluation_is_fair_for_a_random_player():
    """The arena's heads-up score: random against random is even (duplicate deals, each seat
    once), and random bids lose to the heuristic challenger; a mean of m is a win rate of
    (1 + m) / 2."""
    options = {"num_players": 2, "dice": 5, "num_rounds": 1}
    even = evaluation.with_win_rate(evaluation.field_score("liars_dice", "random", "random",
                                                           4000, 9, options))
    assert even["games"] == 4000 and even["duplicate"] is True
    assert even["win_low"] <= 0.5 <= even["win_high"]
    assert even["mean"] == pytest.approx(2 * even["win_rate"] - 1)
    weak = evaluation.with_win_rate(evaluation.field_score("liars_dice", "random", "heuristic",
                                                           2000, 9, options))
    assert weak["win_rate"] < 0.1  # random bids are mostly implausible


def test_tiny_run_writes_outputs_and_the_agent_round_trips(tmp_path, capsys):
    """main: outputs, periodic checkpoints, history with the self-play switch, win rates in
    the evaluation; final.pt plays legal moves as a player."""
    out = tmp_path / "run"
    assert ld.main(["--envs", "32", "--iterations", "60", "--learning-starts", "64",
                    "--batch-size", "32", "--hidden", "32", "--eval-games", "64",
                    "--log-every", "30", "--checkpoint-every", "30", "--selfplay-start", "0.5",
                    "--selfplay-refresh", "5", "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "heuristic:" in printed and "random:" in printed and "win rate" in printed
    for name in ("config.json", "final.pt", "history.json", "learning_curve.png", "eval.json",
                 "eval.md", "checkpoints/iter_000030.pt", "checkpoints/iter_000060.pt"):
        assert (out / name).is_file(), name
    record = json.loads((out / "eval.json").read_text())
    assert set(record["evals"]) == {"random", "heuristic"}
    for r in record["evals"].values():
        assert r["games"] == 64 and r["ci95_low"] <= r["mean"] <= r["ci95_high"]
        assert r["win_low"] <= r["win_rate"] <= r["win_high"] and r["unit"] == "points"
    assert record["train"]["iterations"] == 60 and record["train"]["updates"] > 0
    assert record["train"]["transitions"] > 0
    history = json.loads((out / "history.json").read_text())
    assert [h["iteration"] for h in history] == [30, 60] and history[1]["selfplay"] == 1.0
    assert history[0]["selfplay"] == 0.0 and "threshold" in history[0]

    player = vecgames.load_player(out / "final.pt")
    assert player.game == "liars_dice"
    assert player.env_options == {"num_players": 2, "dice": 5, "variant": "zhai_fei",
                                  "observation": "seed"}
    env = vecgames.make("liars_dice", num_envs=64, seed=11, **player.env_options)
    obs, info = env.reset()
    for _ in range(30):
        mask = info["action_mask"]
        actions = player(obs, mask)
        assert actions.dtype == np.int64 and actions.shape == (64,)
        assert mask[np.arange(64), actions].all()
        obs, _, _, _, info = env.step(actions)
        assert not info["illegal"].any()


def test_full_observation_and_three_players(tmp_path):
    """--observation full, 3 seats: the saved player asks for that table; no win rate off
    heads-up."""
    out = tmp_path / "full"
    assert ld.main(["--envs", "24", "--iterations", "20", "--learning-starts", "32",
                    "--batch-size", "16", "--hidden", "16", "--players", "3",
                    "--observation", "full", "--eval-games", "30",
                    "--log-every", "10", "--checkpoint-every", "0", "--out", str(out),
                    "--no-progress"]) == 0
    player = vecgames.load_player(out / "final.pt")
    assert (player.env_options["observation"], player.env_options["num_players"]) == ("full", 3)
    env = vecgames.make("liars_dice", num_envs=8, seed=1, **player.env_options)
    obs, info = env.reset()
    assert player(obs, info["action_mask"]).shape == (8,)
    rec = json.loads((out / "eval.json").read_text())["evals"]["random"]
    assert rec["games"] == 30 and "win_rate" not in rec


class FirstLegal:
    """A stand-in protocol player: its first legal action; records the rows it was given."""

    def __init__(self):
        self.rows = 0

    def __call__(self, obs, mask):
        self.rows += len(mask)
        return mask.argmax(1)


def test_opponent_actions_of_a_protocol_player():
    """--opponent NAME: the player acts at the rows asked for, through the protocol; the
    heuristic curriculum's threshold schedule is only the heuristic's."""
    cfg = ld.Config(envs=16, opponent="odds")
    assert cfg.schedules(0.3) == {}
    assert ld.Config().schedules(0.25) == {"threshold": pytest.approx(0.35)}
    env = cfg.make_env(16)
    obs, info = env.reset()
    obs_t, mask_t = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
    rows = torch.arange(16) % 3 == 0
    real = cfg.opponent_actions(env, obs_t, mask_t, rows, 0.0)
    assert mask_t[rows][torch.arange(int(rows.sum())), real[rows]].all()
    stand_in = FirstLegal()
    cfg.__dict__["opponent_players"] = {"odds": stand_in}  # the cached --opponent players
    out = cfg.opponent_actions(env, obs_t, mask_t, rows, 0.0)
    assert stand_in.rows == int(rows.sum())
    assert torch.equal(out[rows], mask_t[rows].float().argmax(1))


def test_an_opponent_mix_seats_each_player_at_its_block_of_tables():
    """--opponent odds=2,heuristic=1,random=1: contiguous blocks of 8, 4 and 4 tables; each
    player answers only at its own tables, the heuristic on its threshold schedule."""
    cfg = ld.Config(envs=16, opponent="odds=2,heuristic=1,random=1")
    assert cfg.opponents == ["odds", "heuristic", "random"]
    assert cfg.schedules(0.25) == {"threshold": pytest.approx(0.35)}
    blocks = cfg.opponent_tables
    assert [int(b.sum()) for b in blocks] == [8, 4, 4] and bool(blocks[0][:8].all())
    env = cfg.make_env(16)
    obs, info = env.reset()
    obs_t, mask_t = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
    stand_ins = {"odds": FirstLegal(), "random": FirstLegal()}
    cfg.__dict__["opponent_players"] = stand_ins
    rows = torch.ones(16, dtype=torch.bool)
    out = cfg.opponent_actions(env, obs_t, mask_t, rows, 0.0)
    assert stand_ins["odds"].rows == 8 and stand_ins["random"].rows == 4
    assert mask_t[torch.arange(16), out].all()
    with usage_error("opponent"):
        ld.TRAINER.parse(["--opponent", "odds=1,shark=1"], "p")
    with usage_error("opponent"):
        ld.TRAINER.parse(["--opponent", "odds=x"], "p")


@pytest.mark.parametrize("opponent", ["random", "odds"])
def test_train_against_another_opponent(tmp_path, opponent):
    """A tiny run with --opponent random / odds completes; no threshold schedule is logged."""
    out = tmp_path / opponent
    assert ld.main(["--envs", "16", "--iterations", "20", "--learning-starts", "16",
                    "--batch-size", "8", "--hidden", "8", "--eval-games", "16",
                    "--log-every", "10", "--checkpoint-every", "0", "--opponent", opponent,
                    "--out", str(out), "--no-progress"]) == 0
    history = json.loads((out / "history.json").read_text())
    assert len(history) == 2 and all("threshold" not in h for h in history)
    assert json.loads((out / "eval.json").read_text())["config"]["opponent"] == opponent


def test_command_line_rejects_bad_options():
    parse = ld.TRAINER.parse
    with pytest.raises(SystemExit):
        parse(["--minute", "3"], "p")  # no abbreviations
    with pytest.raises(SystemExit):
        parse(["--observation", "pixels"], "p")
    with usage_error("must be in"):
        parse(["--eps-end", "1.5"], "p")
    for bad, words in ((["--opponent", "shark"], "shark"), (["--opponent", "human"], "person"),
                       (["--eval-opponents", "random,"], "eval-opponents")):
        with usage_error(words):
            parse(bad, "p")
    for removed in (["--curve-games", "0"], ["--eval-envs", "8"]):
        with pytest.raises(SystemExit):
            parse(removed, "p")
    cfg = parse(["--minutes", "2", "--shaping", "0", "--opponent", "random"], "p")
    assert cfg.iterations is None and cfg.minutes == 2 and cfg.shaping == 0.0
    assert cfg.opponent == "random" and parse([], "p").opponent == "heuristic"


def test_schedules():
    assert dqn.linear(0.0, 0.2, 0.5, 0.5) == pytest.approx(0.2)
    assert dqn.linear(0.25, 0.2, 0.5, 0.5) == pytest.approx(0.35)
    assert dqn.linear(0.9, 0.2, 0.5, 0.5) == pytest.approx(0.5)
    assert dqn.linear(0.3, 1.0, 0.1, 0.0) == pytest.approx(0.1)


def test_a_trained_checkpoint_sits_at_the_terminal_table(tmp_path):
    """``vecgames play liars-dice --agent final.pt`` loads a real checkpoint of this trainer
    (through ``vecgames.load_player``) and its seat bids at the table."""
    from vecgames.games.liars_dice.view import VIEW
    from vecgames.play.terminal import main as play

    out = tmp_path / "run"
    assert ld.main(["--envs", "16", "--iterations", "10", "--learning-starts", "16",
                    "--batch-size", "8", "--hidden", "8", "--dice", "2", "--eval-games", "10",
                    "--checkpoint-every", "0", "--out", str(out), "--no-progress"]) == 0
    lines: list[str] = []
    answers = iter(["fei 3 2", "q"])  # seed 3: the person opens, the checkpoint answers
    assert play(VIEW, ["--agent", str(out / "final.pt"), "--dice", "2", "--seat", "1", "--seed",
                       "3"], input_fn=lambda prompt: next(answers), print_fn=lines.append) == 0
    assert any(line.startswith(("seat 0 bids", "seat 0 challenges")) for line in lines), lines


def test_random_legal_and_polyak():
    """Exploration draws legal actions uniformly; the target net moves tau of the way."""
    gen = torch.Generator().manual_seed(0)
    mask = torch.zeros((6000, 4), dtype=torch.bool)
    mask[:, 1] = mask[:, 3] = True
    picks = dqn.random_legal(mask, gen)
    assert set(picks.tolist()) == {1, 3}
    assert abs(float((picks == 1).float().mean()) - 0.5) < 0.03
    target, online = torch.nn.Linear(2, 2), torch.nn.Linear(2, 2)
    t0, o0 = target.weight.detach().clone(), online.weight.detach().clone()
    dqn.polyak(target, online, 0.25)
    torch.testing.assert_close(target.weight.detach(), 0.75 * t0 + 0.25 * o0)
