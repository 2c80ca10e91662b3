"""What the trainers share: the budget, the arena evaluation, the training tables of ``--mix``
(protocol players, checkpoints, the league) and their refusals."""

from __future__ import annotations

import importlib
import json

import numba
import numpy as np
import pytest
from usage_errors import usage_error

torch = pytest.importorskip("torch")


from vecgames.games.zhajinhua import train as tz  # noqa: E402
from vecgames.policies.nets import PolicyNet  # noqa: E402
from vecgames.training import core, evaluation, pg  # noqa: E402

CPU = torch.device("cpu")
PROG = "python -m vecgames.games.zhajinhua.train"
TINY = ["--players", "3", "--envs", "24", "--steps", "8", "--hidden", "16",
        "--eval-games", "24", "--no-progress"]


# -- the budget ----------------------------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_budget_is_the_larger_share_of_iterations_and_minutes(monkeypatch):
    """``fraction`` is max(it / iterations, seconds / (60 minutes)); a resumed run's clock
    goes on from the seconds it had."""
    clock = Clock()
    monkeypatch.setattr(core.time, "perf_counter", clock)
    b = core.Budget(tz.Config(iterations=4))
    assert [b.fraction(it) for it in (0, 1, 4)] == [0.0, 0.25, 1.0]
    clock.now += 1e6  # no time limit: the clock does not count
    assert b.fraction(2) == 0.5
    timed = core.Budget(tz.Config(iterations=None, minutes=2.0))
    assert timed.fraction(10**6) == 0.0
    clock.now += 60.0
    assert timed.fraction(3) == pytest.approx(0.5) and timed.seconds() == pytest.approx(60.0)
    both = core.Budget(tz.Config(iterations=10, minutes=1.0), seconds_before=45.0)
    assert both.seconds() == pytest.approx(45.0)
    assert both.fraction(1) == pytest.approx(0.75)  # the clock's share is the larger
    assert both.fraction(9) == pytest.approx(0.9)
    clock.now += 15.0
    assert both.fraction(1) == pytest.approx(1.0)


def test_minutes_budget_ends_a_run(tmp_path):
    """``--minutes`` alone: the loop runs until the clock is spent, and Numba's thread count
    is given back afterwards."""
    before = numba.get_num_threads()
    out = tmp_path / "run"
    assert tz.main([*TINY, "--minutes", "0.002", "--out", str(out)]) == 0
    assert numba.get_num_threads() == before
    record = json.loads((out / "eval.json").read_text())
    assert record["train"]["iterations"] >= 1 and record["config"]["iterations"] is None


def test_env_threads():
    """One env thread on the CPU unless asked, every core for 0, a given count capped."""
    assert core.env_threads(tz.Config(device="cpu")) == 1
    assert core.env_threads(tz.Config(device="cpu", env_threads=0)) == (
        numba.config.NUMBA_NUM_THREADS)
    assert core.env_threads(tz.Config(device="cpu", env_threads=10**6)) == (
        numba.config.NUMBA_NUM_THREADS)


# -- the arena evaluation ------------------------------------------------------------------
def test_random_against_random_is_even():
    """No checkpoint needed: a random player among random players scores 0 within its CI,
    on duplicate deals (Zha Jin Hua) and on independent ones (Liar's Dice over 3 rounds)."""
    dup = evaluation.field_score("zhajinhua", "random", "random", 3000, 9, {"num_players": 4})
    assert dup["games"] == 3000 and dup["duplicate"] is True and dup["unit"] == "chips"
    assert dup["ci95_low"] <= 0.0 <= dup["ci95_high"]
    ind = evaluation.field_score("liars_dice", "random", "random", 400, 9,
                                 {"num_players": 2, "num_rounds": 3})
    assert ind["duplicate"] is False and ind["games"] == 400
    assert ind["ci95_low"] < 0.0 < ind["ci95_high"]


def test_field_score_seats_the_player_everywhere_on_the_same_deals(monkeypatch):
    """The player sits at each seat in turn with the opponent at all others, ceil(games / P)
    games each, every seat on the same deals when the game allows duplicates."""
    jobs = []
    real = evaluation.play_match

    def spy(job):
        jobs.append(job)
        return real(job)

    monkeypatch.setattr(evaluation, "play_match", spy)
    rec = evaluation.field_score("zhajinhua", "heuristic", "random", 100, 3, {"num_players": 3})
    assert rec["games"] == 3 * 34 and rec["opponent"] == "random"
    assert [[e.label for e in job.seats] for job in jobs] == [
        ["heuristic", "random", "random"], ["random", "heuristic", "random"],
        ["random", "random", "heuristic"]]
    assert {job.first_game for job in jobs} == {0} and {job.num_games for job in jobs} == {34}
    jobs.clear()
    evaluation.field_score("liars_dice", "heuristic", "random", 10, 3,
                           {"num_players": 2, "num_rounds": 2})
    assert [job.first_game for job in jobs] == [0, 5]  # no duplicates: other deals per seat


def test_duplicate_heads_up_scores_are_antisymmetric():
    """Heads-up on duplicate deals, A against B plays exactly the games of B against A."""
    a = evaluation.field_score("zhajinhua", "heuristic", "random", 200, 7, {"num_players": 2})
    b = evaluation.field_score("zhajinhua", "random", "heuristic", 200, 7, {"num_players": 2})
    assert a["mean"] == pytest.approx(-b["mean"]) and a["mean"] > 0
    assert a["ci95_low"] == pytest.approx(-b["ci95_high"])


def test_team_score_of_hanabi_teams():
    """Self-play of a whole team: random play bombs, the rule player scores."""
    rnd = evaluation.team_score("hanabi", "random", 40, 0, {"num_players": 2})
    rules = evaluation.team_score("hanabi", "rules", 40, 0, {"num_players": 2})
    assert rnd["games"] == 40 and rnd["opponent"] == "self-play" and rnd["unit"] == "score"
    assert rnd["mean"] < 1.0 and rnd["perfect_rate"] == 0.0
    assert rules["mean"] > 10 and rules["ci95_low"] <= rules["mean"] <= rules["ci95_high"]


def test_win_rate_and_description():
    """Heads-up Liar's Dice: a mean of m points is a win rate of (1 + m) / 2, clipped."""
    r = evaluation.with_win_rate({"mean": 0.5, "ci95_low": -1.2, "ci95_high": 0.9,
                                  "games": 10, "unit": "points"})
    assert (r["win_rate"], r["win_low"], r["win_high"]) == (0.75, 0.0, pytest.approx(0.95))
    text = evaluation.describe("random", r)
    assert text.startswith("random: +0.500 points/game") and "win rate 0.7500" in text
    assert "/game" not in evaluation.describe("x", {**r, "unit": "bb/100"})


# -- the training tables -------------------------------------------------------------------
def test_parse_mix_and_table_blocks():
    """Weights normalised, names kept in the order given; blocks follow that order."""
    assert pg.parse_mix("self=1,weakest=3") == [("self", 0.25), ("weakest", 0.75)]
    assert pg.parse_mix("b=1, a=1,") == [("b", 0.5), ("a", 0.5)]
    assert pg.parse_mix("x/y=z.pt=2") == [("x/y=z.pt", 1.0)]  # the last '=' splits
    mix = pg.parse_mix("self=1,random=1,weakest=1,pickup=1")
    kinds = pg.table_kinds(10, [w for _, w in mix])
    assert kinds.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 3, 3]
    assert pg.table_kinds(5, [0.1, 0.9]).tolist() == [0, 1, 1, 1, 1]
    for bad in ("self=0", "random", "=1", "self=-1", "self=inf", "self=x", "a=1,a=2", ""):
        with pytest.raises(ValueError):
            pg.parse_mix(bad)


@pytest.mark.parametrize(("mix", "words"), [
    ("shark=1", "unknown player 'shark'"), ("random=x", "random=x"),
    ("random=1,random=2", "given twice"), ("human=1", "person"),
    ("random=0", "positive"), ("missing.pt=1", "missing.pt")])
def test_bad_mix_is_refused_naming_the_problem(tmp_path, mix, words):
    with usage_error(words):
        tz.TRAINER.parse(["--mix", mix, "--out", str(tmp_path / "x")], PROG)
    assert not (tmp_path / "x").exists()


def test_bad_mix_on_the_command_line_is_a_usage_error(tmp_path, capsys):
    assert tz.main(["--mix", "shark=1", "--out", str(tmp_path / "x")]) == 2
    assert "shark" in capsys.readouterr().err


class Prefers(torch.nn.Module):
    """A stand-in snapshot: always its first (or last) legal action; counts its rows."""

    def __init__(self, last: bool):
        super().__init__()
        self.last, self.rows = last, 0

    def forward(self, obs, mask):
        self.rows += len(mask)
        idx = torch.arange(mask.shape[1]).expand_as(mask)
        pick = torch.where(mask, idx, -1).argmax(1) if self.last else mask.float().argmax(1)
        logits = torch.full(mask.shape, -1e9).masked_fill(~mask, float("-inf"))
        logits[torch.arange(len(mask)), pick] = 0.0
        return logits, torch.zeros(len(mask))


def test_league_tables_are_played_by_the_snapshots(tmp_path):
    """At ``league`` tables the learner holds seat b % P and snapshot ``b % len(league)``
    plays every other seat."""
    cfg = tz.Config(players=3, envs=12, steps=16, mix="league=1", out=str(tmp_path),
                    hidden=16)
    collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    collector.league = [Prefers(last=False), Prefers(last=True)]
    ro, (payoff, games) = collector.collect(PolicyNet(collector.obs_dim, collector.num_actions,
                                                      16))
    envs = torch.arange(12).expand(cfg.steps, -1)
    assert torch.equal(ro.learner, ro.player == envs % 3)
    theirs = ~ro.learner
    first = ro.mask.float().argmax(-1)
    last = (ro.mask * torch.arange(ro.mask.shape[-1])).argmax(-1)
    even, odd = theirs & (envs % 2 == 0), theirs & (envs % 2 == 1)
    assert torch.equal(ro.action[even], first[even]) and torch.equal(ro.action[odd], last[odd])
    assert collector.league[0].rows == int(even.sum()) > 0
    assert collector.league[1].rows == int(odd.sum()) > 0
    assert games.shape == (1,) and games[0] > 0  # the learner's finished games there


def test_league_adds_snapshots_every_league_every_and_keeps_league_size(tmp_path):
    """Snapshots are frozen copies taken at iterations 1, 1 + every, ...; the newest
    ``league_size`` are kept."""
    cfg = tz.Config(players=3, envs=12, steps=8, mix="league=1,random=1", league_every=2,
                    league_size=2, iterations=5, out=str(tmp_path), hidden=16, epochs=1)
    algo = pg.PolicyGradient(cfg, CPU, torch.Generator().manual_seed(0))
    starts = {}
    for it in range(1, 6):
        starts[it] = {k: v.clone() for k, v in algo.net.state_dict().items()}
        stats = algo.iteration(it, it / 5)
        assert len(algo.collector.league) == min(2, (it + 1) // 2)
        assert "vs_league" in stats and "vs_random" in stats
    league = algo.collector.league
    for snap, it in zip(league, (3, 5), strict=True):
        assert not snap.training
        assert all(torch.equal(v, starts[it][k]) for k, v in snap.state_dict().items())
    assert not torch.equal(league[0].pi.weight, starts[1]["pi.weight"])
    assert not torch.equal(league[1].pi.weight, algo.net.pi.weight)  # frozen: not trained on


def test_league_run_completes(tmp_path):
    out = tmp_path / "run"
    assert tz.main([*TINY, "--iterations", "3", "--mix", "league=1,random=1",
                    "--league-every", "1", "--league-size", "2", "--out", str(out)]) == 0
    history = json.loads((out / "history.json").read_text())
    assert all("vs_league" in h for h in history)


def test_league_with_workers_is_refused_before_anything_is_written(tmp_path):
    """Snapshots play in the learner's process: ``--mix league`` with ``--workers`` is a
    usage error, before Ray starts or the run folder is made."""
    with usage_error("league.*--workers"):
        tz.TRAINER.parse(["--mix", "league=1", "--workers", "2", "--envs", "8",
                          "--out", str(tmp_path / "x")], PROG)
    assert not (tmp_path / "x").exists()


def test_checkpoint_opponent_plays_its_own_policy(tmp_path):
    """A checkpoint in the mix is a protocol player: the opponent seats take its actions."""
    first = tmp_path / "first"
    assert tz.main([*TINY, "--iterations", "1", "--out", str(first)]) == 0
    path = str(first / "final.pt")
    cfg = tz.Config(players=3, envs=12, steps=8, mix=f"{path}=1", out=str(tmp_path), hidden=16)
    collector = pg.Collector(cfg, CPU, torch.Generator().manual_seed(0))
    player = collector.players[0]
    assert player.path.name == "final.pt"
    seen = []

    def recording(obs, mask):
        actions = player(obs, mask)
        seen.append(actions)
        return actions

    collector.players[0] = recording
    ro, _ = collector.collect(PolicyNet(collector.obs_dim, collector.num_actions, 16))
    theirs = ~ro.learner
    assert np.array_equal(np.concatenate(seen), ro.action[theirs].numpy())


GAMES = ("zhajinhua", "holdem", "dayaoguai", "liars_dice", "hanabi")


@pytest.mark.parametrize("game", GAMES)
def test_unknown_eval_opponent_is_refused_before_training(game, tmp_path):
    trainer = importlib.import_module(f"vecgames.games.{game}.train").TRAINER
    with usage_error("shark"):
        trainer.parse(["--eval-opponents", "random,shark", "--out", str(tmp_path / "x")], "p")


def test_hanabi_refuses_an_empty_eval_opponent():
    from vecgames.games.hanabi import train as hanabi

    with usage_error("eval-opponents"):
        hanabi.TRAINER.parse(["--eval-opponents", "rules,"], "p")


def test_a_resumed_league_run_goes_on(tmp_path):
    from vecgames.games.dayaoguai import train as dy

    args = ["--envs", "8", "--steps", "8", "--max-steps", "40", "--hidden", "16",
            "--eval-games", "8", "--mix", "league=1,self=1", "--league-every", "5",
            "--checkpoint-every", "1", "--no-progress", "--out", str(tmp_path / "run")]
    assert dy.main([*args, "--iterations", "2"]) == 0
    assert dy.main([*args, "--iterations", "3", "--resume"]) == 0
