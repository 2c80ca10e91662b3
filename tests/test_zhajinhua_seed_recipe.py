"""``--recipe seed`` (issue 22): the trainer as seed 003 describes it.

Self-play with one trajectory per seat of every whole game, A = the seat's chips to the end of
its game, one plain gradient step then one KL step, and nothing else (no value, no entropy).
"""

from __future__ import annotations

import copy
import json

import pytest

torch = pytest.importorskip("torch")

from vecgames.games.zhajinhua import train as tz  # noqa: E402
from vecgames.games.zhajinhua import train_seed as sr  # noqa: E402
from vecgames.policies.nets import PolicyNet  # noqa: E402
from vecgames.training import evaluation  # noqa: E402

CPU = torch.device("cpu")
PROG = "python -m vecgames.games.zhajinhua.train"


def seed_config(tmp_path, *args: str) -> tz.Config:
    return tz.TRAINER.parse(["--recipe", "original", "--players", "3", "--envs", "8",
                             "--hidden", "16", "--out", str(tmp_path / "run"), *args], PROG)


def test_recipe_defaults_and_refusals(tmp_path, capsys):
    """--recipe seed: self-play on the seed observation, no value or entropy term, its own
    defaults; the default recipe's options are refused with it."""
    cfg = seed_config(tmp_path)
    assert (cfg.recipe, cfg.env_options, cfg.mix) == ("original", {"obs": "seed"}, "self=1")
    assert (cfg.entropy_coef, cfg.value_coef, cfg.lr, cfg.beta) == (0.0, 0.0, 0.03, 1.0)
    assert seed_config(tmp_path, "--lr", "0.5").lr == 0.5  # a given option wins
    assert tz.TRAINER.parse([], PROG).recipe == "default"
    for flag in ("--entropy-coef", "--mix", "--algo", "--returns"):
        value = {"--mix": "random=1", "--algo": "ppo", "--returns": "lambda"}.get(flag, "0.1")
        assert tz.main(["--recipe", "seed", flag, value, "--out", str(tmp_path / "x")]) == 2
        assert flag in capsys.readouterr().err
    assert tz.main(["--recipe", "bogus"]) == 2
    assert not (tmp_path / "x").exists()


def test_collect_is_self_play_with_a_trajectory_per_seat(tmp_path):
    """Every decision with a choice, at every seat, is the policy's and is in the batch, one
    game per env; the opener's first decision carries its whole game's chips."""
    cfg = seed_config(tmp_path)
    collector = sr.SeedCollector(cfg, CPU, torch.Generator().manual_seed(0))
    net = PolicyNet(collector.obs_dim, collector.num_actions, 16)
    steps = []
    real_step = collector.bridge.step

    def spy(actions):
        mask, cur = collector.mask.clone(), collector.cur.clone()
        out = real_step(actions)
        steps.append((actions.clone(), mask, cur, out[1].clone(), out[2].clone()))
        return out

    collector.bridge.step = spy
    batch = collector.collect(net)
    assert (batch.games, batch.trajectories) == (8, 8 * 3)
    taken = [(a, m, c) for a, m, c, _, _ in steps]
    chosen = torch.cat([a[(a >= 0) & (m.sum(-1) > 1)] for a, m, _ in taken])
    assert torch.equal(batch.action, chosen)  # all choices, from every seat, are trained on
    assert set(batch.seat.tolist()) == {0, 1, 2}
    ended = torch.stack([t for *_, t in steps]).sum(0)
    assert ended.tolist() == [1] * 8  # each env played exactly one game
    opener = steps[0][2].long()
    chips = torch.stack([r for *_, r, _ in steps]).sum(0)[torch.arange(8), opener]
    first = torch.stack([batch.ret[batch.env == b][0] for b in range(8)])
    assert torch.equal(first, chips + collector.env.rules.ante)  # the ante is not in A


def test_update_is_a_gradient_step_then_a_kl_step(tmp_path):
    cfg = seed_config(tmp_path, "--lr", "0.01", "--beta", "2.0")
    collector = sr.SeedCollector(cfg, CPU, torch.Generator().manual_seed(1))
    torch.manual_seed(0)
    net = PolicyNet(collector.obs_dim, collector.num_actions, 16)
    batch = collector.collect(net)
    want = copy.deepcopy(net)
    stats = sr.seed_update(net, torch.optim.SGD(net.parameters(), lr=cfg.lr), batch, cfg)
    assert set(stats) == {"pg_loss", "kl", "samples", "games", "trajectories"}
    # the seed's two steps, by hand
    params = list(want.parameters())
    logp_old = torch.log_softmax(want(batch.obs, batch.mask)[0], -1).detach()
    logp = torch.log_softmax(want(batch.obs, batch.mask)[0], -1)
    logp_a = logp.gather(1, batch.action.unsqueeze(1)).squeeze(1)
    grads = torch.autograd.grad((logp_a * batch.ret).sum() / 24, params, allow_unused=True)
    with torch.no_grad():
        for p, g in zip(params, grads, strict=True):
            if g is not None:
                p += cfg.lr * g
    logp_new = torch.log_softmax(want(batch.obs, batch.mask)[0], -1)
    kl = (logp_old.exp() * (logp_old - logp_new).masked_fill(~batch.mask, 0)).sum() / 24
    grads = torch.autograd.grad(kl, params, allow_unused=True)
    with torch.no_grad():
        for p, g in zip(params, grads, strict=True):
            if g is not None:
                p -= cfg.beta * g
    for (name, got), ref in zip(net.named_parameters(), want.parameters(), strict=True):
        torch.testing.assert_close(got, ref, msg=name)
    assert stats["kl"] > 0


def test_seed_recipe_iteration_is_collect_then_seed_update(tmp_path):
    """The SeedRecipe algorithm: an SGD net at --lr, one whole-game batch and seed_update per
    iteration; its state keeps the sample count and the env streams."""
    cfg = seed_config(tmp_path)
    torch.manual_seed(0)
    algo = sr.SeedRecipe(cfg, CPU, torch.Generator().manual_seed(2))
    assert isinstance(algo.opt, torch.optim.SGD) and algo.opt.param_groups[0]["lr"] == 0.03
    want = copy.deepcopy(algo.net)
    collector = sr.SeedCollector(cfg, CPU, torch.Generator().manual_seed(2))
    batch = collector.collect(want)
    sr.seed_update(want, torch.optim.SGD(want.parameters(), lr=cfg.lr), batch, cfg)
    stats = algo.iteration(1, 0.0)
    assert stats["samples"] == len(batch) == algo.samples > 0
    for got, ref in zip(algo.net.parameters(), want.parameters(), strict=True):
        torch.testing.assert_close(got, ref)
    state = algo.state()
    assert state["samples"] == len(batch) and state["env_streams"].shape == (cfg.envs,)


def test_tiny_seed_run_leaves_the_value_head_alone(tmp_path):
    """A tiny run: no value term, so the value head keeps its initial weights."""
    out = tmp_path / "run"
    assert tz.main(["--recipe", "original", "--players", "3", "--envs", "8", "--hidden", "16",
                    "--iterations", "2", "--eval-games", "60", "--eval-opponents",
                    "random,heuristic", "--out", str(out), "--no-progress", "--seed", "3"]) == 0
    record = json.loads((out / "eval.json").read_text())
    assert record["config"]["recipe"] == "original" and set(record["evals"]) == {"random",
                                                                               "heuristic"}
    ckpt = torch.load(out / "final.pt", weights_only=True)
    assert ckpt["env_options"] == {"num_players": 3, "obs": "seed"}
    torch.manual_seed(3)
    fresh = PolicyNet(ckpt["obs_dim"], 15, 16)
    assert ckpt["obs_dim"] == 4070
    assert torch.equal(ckpt["model"]["v.weight"], fresh.v.weight)  # no value term
    assert not torch.equal(ckpt["model"]["pi.weight"], fresh.pi.weight)


def test_heuristic_opponents_beat_a_random_seat():
    rec = evaluation.field_score("zhajinhua", "random", "heuristic", 2000, 1, {"num_players": 4})
    assert rec["games"] == 2000 and rec["ci95_high"] < 0


def test_recipe_seed_is_a_deprecated_name_of_original(capsys):
    """Old commands keep working: ``--recipe seed`` is the original recipe, said on stderr."""
    cfg = tz.TRAINER.parse(["--recipe", "seed", "--players", "3"], PROG)
    assert cfg == tz.TRAINER.parse(["--recipe", "original", "--players", "3"], PROG)
    assert "--recipe seed is deprecated: it is now --recipe original" in capsys.readouterr().err
