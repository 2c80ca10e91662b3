"""Golden Hanabi trajectories from JaxMARL (RULES.md §4): writes the fixture files that
``tests`` compare vecgames' Hanabi against, value for value, without JAX.

Run with a Python that has JaxMARL 0.2.0 (and a CPU JAX) installed, best a virtualenv of its
own, never the project's (JaxMARL pulls in flax, gymnax, matplotlib, ... about 1 GB)::

    python3 -m venv /tmp/jaxvenv
    /tmp/jaxvenv/bin/python tools/make_hanabi_fixtures.py --install --out tests/fixtures/hanabi

``--install`` pip-installs ``jax jaxlib jaxmarl==0.2.0`` into the running interpreter when
``jaxmarl`` cannot be imported. Output is reproducible (fixed numpy seeds; JAX is only the
game engine, its own random streams are never used: every deck is built here and injected
with ``HanabiEnv.reset_from_deck``). It was generated with jax/jaxlib 0.10.2 on the CPU.

What is written (docs/notes/hanabi_reference.md is the rule and observation specification):

``p{P}_{kind}{k}.npz`` for P = 2..5 players, one game each, played to its end through
``HanabiEnv.step_env`` (no auto-reset). Kinds, by the current player's policy:

- ``random`` x3: uniform over its legal actions (short games, mostly lost lives);
- ``mixed`` x3: random hints and discards, plays its playable card half the time (it sees its
  own cards) and a few blind plays: longer games;
- ``careful`` x2: plays a playable card if it has one, else hints or discards a dead or
  duplicate card (deck-out or 25);
- ``stall``: careful but never plays blue, so it always ends in the deck-out final round,
  with empty slots;
- ``bomber``: careful up to 6 on the fireworks, then plays unplayable cards: loses the last
  life with a positive score (reward -6 on that turn);
- ``won``: careful on a deck ordered so that the game reaches 25.

Keys (T = number of steps; every step is one turn of the player to act; A = 2H + 10(P-1) + 1
actions; D = observation size, 658/956/1041/1280 for P = 2/3/4/5):

- ``num_players, hand_size, num_actions, obs_dim, start_player`` int64 scalars (the start
  player is always 0 in JaxMARL).
- ``deck`` int8 [50]: the deck, top first (``deck[0]`` is dealt first), as card ids
  ``5 * colour + rank`` (colour 0..4 = R, Y, G, W, B as JaxMARL's ``color_map``; rank 0..4 =
  card value 1..5). JaxMARL's form is ``one_hot``: float32 [50, 5, 5] with
  ``deck_onehot[i, id // 5, id % 5] = 1`` (``reset_from_deck``), or int [50, 2] pairs
  ``(colour, rank)`` (``reset_from_deck_of_pairs``); see ``deck_onehot`` below.
- ``actions`` int16 [T, P]: every agent's submitted action (the no-op ``A - 1`` for those
  not to act); ``current_player`` int8 [T]: the seat to act before step t.
- ``legal`` bool [T + 1, P, A]: ``get_legal_moves`` before step t; row T is after the end.
- ``obs`` float32 [T + 1, P, D]: the observation of agent p before step t (row 0 from
  ``reset_from_deck``; row t from the ``step_env`` of step t - 1); row T is the final one.
  Stored split (lossless) as ``obs_bits`` uint8 (``np.packbits(obs != 0, axis=-1)``),
  ``obs_frac_index`` int32 [N] (flat C-order indices into ``obs`` of the entries that are
  neither 0 nor 1: the belief probabilities) and ``obs_frac`` float32 [N] (their values);
  ``load_game`` below rebuilds ``obs``.
- ``rewards`` float32 [T, P + 1] and ``dones`` bool [T, P + 1]: per agent, the last column
  is ``"__all__"``.
- State summaries after t steps (rows 0..T), for debugging a mismatch: ``hands`` int8
  [T + 1, P, H] (card ids, -1 for an empty slot), ``fireworks`` int8 [T + 1, 5] (heights),
  ``info_tokens``, ``life_tokens``, ``deck_left`` (cards not yet drawn), ``score`` int8
  [T + 1] (JaxMARL's ``state.score``, the sum of the rewards: 0 after a lost game).
- ``end_reason`` 0-d unicode array (``str(g["end_reason"])``): ``lives`` / ``deck`` / ``won``.

Without JAX: ``--show FILE [--step t --agent p]`` prints one observation cut into the
documented blocks (sizes checked against ``obs_dim``); ``--check DIR`` replays every fixture
with ``SpecModel``, a numpy transcription of docs/notes/hanabi_reference.md, and compares the
observations, legal masks, rewards, dones and hands exactly.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

NUM_COLORS = 5
NUM_RANKS = 5
COPIES = (3, 2, 2, 2, 1)
DECK_SIZE = 50
GAMES = {"random": 3, "mixed": 3, "careful": 2, "stall": 1, "bomber": 1, "won": 1}


# ------------------------------------------------------------------ no-JAX helpers


def deck_onehot(deck_ids: np.ndarray) -> np.ndarray:
    """Card ids [50] -> JaxMARL's deck for ``reset_from_deck``: float32 [50, 5, 5]."""
    out = np.zeros((len(deck_ids), NUM_COLORS, NUM_RANKS), np.float32)
    out[np.arange(len(deck_ids)), deck_ids // NUM_RANKS, deck_ids % NUM_RANKS] = 1
    return out


def deck_pairs(deck_ids: np.ndarray) -> np.ndarray:
    """Card ids [50] -> JaxMARL's ``(colour, rank)`` pairs [50, 2] (reset_from_deck_of_pairs)."""
    return np.stack([deck_ids // NUM_RANKS, deck_ids % NUM_RANKS], axis=1).astype(np.int32)


def load_game(path) -> dict:
    """One fixture file as a dict of arrays, ``obs`` rebuilt as float32 [T + 1, P, D]."""
    with np.load(path, allow_pickle=False) as z:
        g = {k: z[k] for k in z.files}
    d = int(g["obs_dim"])
    nz = np.unpackbits(g.pop("obs_bits"), axis=-1, count=d).astype(bool)
    obs = nz.astype(np.float32)
    obs.reshape(-1)[g.pop("obs_frac_index")] = g.pop("obs_frac")
    g["obs"] = obs
    return g


def obs_blocks(num_players: int) -> list[tuple[str, int]]:
    """The observation's blocks in order, (name, size) (docs/notes/hanabi_reference.md §5)."""
    p = num_players
    h = 5 if p < 4 else 4
    return [
        ("other_hands", (p - 1) * h * 25),
        ("missing_cards", p),
        ("deck_thermometer", DECK_SIZE - p * h),
        ("fireworks", 25),
        ("info_tokens", 8),
        ("life_tokens", 3),
        ("discards", 50),
        ("last_acting_player", p),
        ("last_move_type", 4),
        ("last_target", p),
        ("last_color", 5),
        ("last_rank", 5),
        ("last_reveal_outcome", h),
        ("last_position", h),
        ("last_card", 25),
        ("last_scored", 1),
        ("last_added_info", 1),
        ("belief", p * h * 35),
    ]


def show(path: str, step: int = 0, agent: int = 0) -> None:
    g = load_game(path)
    p = int(g["num_players"])
    o = g["obs"][step, agent]
    blocks = obs_blocks(p)
    total = sum(n for _, n in blocks)
    print(f"{path}: P={p} H={int(g['hand_size'])} A={int(g['num_actions'])} "
          f"D={int(g['obs_dim'])} steps={len(g['actions'])} end={g['end_reason']} "
          f"score={int(g['score'][-1])}")
    print(f"blocks sum to {total} (obs_dim {o.size})")
    assert total == o.size == int(g["obs_dim"])
    j = 0
    np.set_printoptions(linewidth=120, precision=4, suppress=True)
    for name, n in blocks:
        print(f"[{j:4d}:{j + n:4d}] {name} ({n}): nonzero at {np.flatnonzero(o[j:j + n])}")
        j += n
    h = int(g["hand_size"])
    belief = o[-p * h * 35:].reshape(p, h, 35)
    print("belief of the observer's own slot 0 (25 probabilities, 5 colour, 5 rank hints):")
    print(belief[0, 0])


# ------------------------------------------------------------------ numpy model of the spec


class SpecModel:
    """A plain numpy transcription of docs/notes/hanabi_reference.md (no JAX), used by ``--check``
    to replay every fixture from its deck and actions: it must give the stored observations,
    legal masks, rewards and dones exactly. Card ids ``5 * colour + rank``; -1 = empty."""

    def __init__(self, num_players: int, deck: np.ndarray):
        p = self.p = num_players
        h = self.h = 5 if p < 4 else 4
        self.a = 2 * h + 10 * (p - 1) + 1
        self.deck = [int(x) for x in deck]
        self.hands = np.array([self.deck[q * h:(q + 1) * h] for q in range(p)], np.int64)
        self.know = np.ones((p, h, 25), np.float32)  # card_knowledge
        self.rev_c = np.zeros((p, h, 5), np.float32)  # colors_revealed
        self.rev_r = np.zeros((p, h, 5), np.float32)  # ranks_revealed
        self.dealt = p * h
        self.fire = np.zeros(5, np.int64)
        self.info, self.life = 8, 3
        self.discards = np.zeros(25, np.int64)  # failed plays included
        self.last_round = 0
        self.cur, self.step_count, self.bombed = 0, 0, False
        self.last = None  # the features of the last move, set by step

    # -- legal moves (HanabiEnv.get_legal_moves)
    def legal(self) -> np.ndarray:
        p, h = self.p, self.h
        out = np.zeros((p, self.a), bool)
        for q in range(p):
            if q != self.cur:
                out[q, -1] = True
                continue
            for s in range(h):
                held = self.hands[q, s] >= 0
                out[q, s] = held and self.info < 8
                out[q, h + s] = held
            if self.info > 0:
                for k in range(p - 1):
                    t = (q + 1 + k) % p
                    cards = [c for c in self.hands[t] if c >= 0]
                    for c in cards:
                        out[q, 2 * h + 5 * k + c // 5] = True
                        out[q, 2 * h + 5 * (p - 1) + 5 * k + c % 5] = True
        return out

    # -- one turn (HanabiGame.step_game)
    def step(self, action: int):
        p, h = self.p, self.h
        cur = self.cur
        before = int(self.fire.sum())
        info_before = self.info
        f = dict(actor=cur, kind=None, target=None, color=None, rank=None, touched=[],
                 pos=None, card=None)
        if action >= 2 * h:  # hint
            x = action - 2 * h
            is_color = x < 5 * (p - 1)
            if not is_color:
                x -= 5 * (p - 1)
            target = (cur + 1 + x // 5) % p
            v = x % 5
            know = self.know[target].reshape(h, 5, 5)  # [slot, colour, rank]
            for s in range(h):
                c = self.hands[target, s]
                match = c >= 0 and (c // 5 if is_color else c % 5) == v
                if is_color:
                    if match:
                        keep = know[s, v, :].copy()
                        know[s] = 0
                        know[s, v, :] = keep
                        self.rev_c[target, s, v] = 1
                    else:
                        know[s, v, :] = 0
                else:
                    if match:
                        keep = know[s, :, v].copy()
                        know[s] = 0
                        know[s, :, v] = keep
                        self.rev_r[target, s, v] = 1
                    else:
                        know[s, :, v] = 0
                if match:
                    f["touched"].append(s)
            self.info -= 1
            f.update(kind=2 if is_color else 3, target=target,
                     color=v if is_color else None, rank=None if is_color else v)
        else:  # discard or play
            is_discard = action < h
            s = action % h
            card = int(self.hands[cur, s])
            c, r = divmod(card, 5)
            if is_discard:
                self.info = min(self.info + 1, 8)
                self.discards[card] += 1
            elif self.fire[c] == r:
                self.fire[c] += 1
                if r == 4:
                    self.info = min(self.info + 1, 8)
            else:
                self.life -= 1
                self.discards[card] += 1
            # shift the later cards left, draw into the last slot
            if self.last_round > 0:
                new = -1
            else:
                new = self.deck[self.dealt]
                self.dealt += 1
            self.hands[cur] = np.append(np.delete(self.hands[cur], s), new)
            self.know[cur] = np.concatenate([np.delete(self.know[cur], s, axis=0),
                                             np.full((1, 25), 1.0 if new >= 0 else 0.0,
                                                     np.float32)])
            for arr in (self.rev_c, self.rev_r):
                arr[cur] = np.concatenate([np.delete(arr[cur], s, axis=0),
                                           np.zeros((1, 5), np.float32)])
            f.update(kind=1 if is_discard else 0, pos=s, card=card)
        after = int(self.fire.sum())
        out_of_lives = self.life == 0
        self.last_round += self.dealt >= 50
        terminal = out_of_lives or after == 25 or self.last_round == p + 1
        reward = (0 if out_of_lives else after - before) - (
            after if out_of_lives and not self.bombed else 0)
        self.bombed = self.bombed or out_of_lives
        f["scored"] = after != before
        f["added_info"] = f["kind"] == 0 and self.info > info_before
        self.last = f
        self.cur = (cur + 1) % p
        self.step_count += 1
        return float(reward), bool(terminal)

    # -- observations (HanabiEnv.get_obs)
    def obs(self) -> np.ndarray:
        return np.stack([self.observe(a) for a in range(self.p)])

    def observe(self, a: int) -> np.ndarray:
        p, h = self.p, self.h
        parts = []
        for k in range(1, p):  # the other hands, next player first
            block = np.zeros((h, 25), np.float32)
            for s, c in enumerate(self.hands[(a + k) % p]):
                if c >= 0:
                    block[s, c] = 1
            parts.append(block.ravel())
        parts.append(np.array([(self.hands[(a + k) % p] < 0).any() for k in range(p)],
                              np.float32))
        parts.append((np.arange(50 - p * h) < 50 - self.dealt).astype(np.float32))
        fw = np.zeros((5, 5), np.float32)
        for c in range(5):
            if self.fire[c] > 0:
                fw[c, self.fire[c] - 1] = 1
        parts.append(fw.ravel())
        parts.append((np.arange(8) < self.info).astype(np.float32))
        parts.append((np.arange(3) < self.life).astype(np.float32))
        parts.append(np.concatenate([(np.arange(COPIES[r]) < self.discards[5 * c + r])
                                     for c in range(5) for r in range(5)]).astype(np.float32))
        parts.append(self.last_action_feats(a))
        count = np.array([COPIES[t % 5] - self.discards[t] - (self.fire[t // 5] > t % 5)
                          for t in range(25)], np.float32)
        for k in range(p):
            q = (a + k) % p
            for s in range(h):
                kn = self.know[q, s]
                if kn.any():
                    w = (kn * count).astype(np.float32)
                    # XLA turns x / broadcast(s) into x * (1 / s): one float32
                    # reciprocal, then a float32 product (not a correctly rounded x / s)
                    bel = w * (np.float32(1) / np.float32(w.sum()))
                else:
                    bel = np.zeros(25, np.float32)
                parts.extend([bel, self.rev_c[q, s], self.rev_r[q, s]])
        return np.concatenate(parts).astype(np.float32)

    def last_action_feats(self, a: int) -> np.ndarray:
        p, h = self.p, self.h
        n = p + 4 + p + 5 + 5 + h + h + 25 + 1 + 1
        out = np.zeros(n, np.float32)
        f = self.last
        if self.step_count == 0 or f is None:
            return out
        j = 0
        out[j + (f["actor"] - a) % p] = 1
        j += p
        out[j + f["kind"]] = 1
        j += 4
        if f["target"] is not None:
            out[j + (f["target"] - a) % p] = 1
        j += p
        if f["color"] is not None:
            out[j + f["color"]] = 1
        j += 5
        if f["rank"] is not None:
            out[j + f["rank"]] = 1
        j += 5
        for s in f["touched"]:
            out[j + s] = 1
        j += h
        if f["pos"] is not None:
            out[j + f["pos"]] = 1
        j += h
        if f["card"] is not None:
            out[j + f["card"]] = 1
        j += 25
        out[j] = f["scored"]
        out[j + 1] = f["added_info"]
        return out


def check(fixture_dir: str) -> None:
    """Replay every fixture with ``SpecModel``: everything must match exactly."""
    files = sorted(Path(fixture_dir).glob("p*_*.npz"))
    assert files, f"no fixtures in {fixture_dir}"
    for path in files:
        g = load_game(path)
        p = int(g["num_players"])
        m = SpecModel(p, g["deck"])
        for t in range(len(g["actions"]) + 1):
            assert np.array_equal(m.legal(), g["legal"][t]), (path.name, t, "legal")
            got = m.obs()
            bad = np.flatnonzero(got != g["obs"][t])
            assert bad.size == 0, (path.name, t, "obs", bad[:10], got.ravel()[bad[:10]],
                                   g["obs"][t].ravel()[bad[:10]])
            if t == len(g["actions"]):
                break
            cur = int(g["current_player"][t])
            assert cur == m.cur
            reward, done = m.step(int(g["actions"][t, cur]))
            assert np.all(g["rewards"][t] == np.float32(reward)), (path.name, t, "reward")
            assert np.all(g["dones"][t] == done), (path.name, t, "done")
            assert np.array_equal(m.hands, g["hands"][t + 1]), (path.name, t, "hands")
        print(f"{path.name}: {len(g['actions'])} steps match")
    print(f"{len(files)} fixtures match the numpy model of docs/notes/hanabi_reference.md")


# ------------------------------------------------------------------ generation (JAX)


def ensure_jaxmarl(install: bool):
    try:
        import jaxmarl  # noqa: F401
    except ImportError:
        if not install:
            sys.exit("jaxmarl is not importable: rerun with --install (in a separate venv)")
        subprocess.check_call([sys.executable, "-m", "pip", "install", "jax", "jaxlib",
                               "jaxmarl==0.2.0"])
    import jaxmarl
    return jaxmarl


def won_deck(num_players: int, rng: np.random.Generator) -> np.ndarray:
    """The 25 distinct cards rank by rank (R1 Y1 G1 W1 B1 R2 ...) then the other 25 shuffled:
    with the careful policy every turn has a playable card early enough to reach 25."""
    first = np.array([5 * c + r for r in range(NUM_RANKS) for c in range(NUM_COLORS)])
    rest = [5 * c + r for c in range(NUM_COLORS) for r in range(NUM_RANKS)
            for _ in range(COPIES[r] - 1)]
    return np.concatenate([first, rng.permutation(rest)]).astype(np.int8)


def random_deck(rng: np.random.Generator) -> np.ndarray:
    ids = [5 * c + r for c in range(NUM_COLORS) for r in range(NUM_RANKS)
           for _ in range(COPIES[r])]
    return rng.permutation(np.array(ids, np.int8))


def choose(kind, rng, legal_row, hand, fireworks, discards, info, h, num_actions):
    """The current player's action. ``hand`` card ids (-1 empty), ``fireworks`` heights."""
    legal = np.flatnonzero(legal_row)
    if kind == "random":
        return int(rng.choice(legal))
    plays = [h + s for s in range(h) if legal_row[h + s]]
    hints = [a for a in legal if 2 * h <= a < num_actions - 1]
    discs = [s for s in range(h) if legal_row[s]]
    playable = [h + s for s in range(h)
                if hand[s] >= 0 and fireworks[hand[s] // 5] == hand[s] % 5]
    if kind == "mixed":  # mostly hints and discards; some blind plays
        if playable and rng.random() < 0.5:
            return int(rng.choice(playable))
        others = [a for a in legal if not h <= a < 2 * h]
        if plays and (not others or rng.random() < 0.15):
            return int(rng.choice(plays))
        return int(rng.choice(others))
    if kind == "bomber":  # careful up to a score of 6, then plays unplayable cards
        if sum(fireworks) >= 6 and plays:
            bad = [a for a in plays if a not in playable]
            return int(rng.choice(bad if bad else plays))
        kind = "careful"
    if kind == "stall":  # careful, but never plays blue: always ends by the deck running out
        playable = [a for a in playable if hand[a - h] // 5 != 4]
    # careful / won: cheat with the true hand
    if playable:
        return int(rng.choice(playable))
    if hints and (not discs or rng.random() < 0.5):
        return int(rng.choice(hints))
    if discs:
        def dead(s):
            c, r = divmod(int(hand[s]), 5)
            left = COPIES[r] - discards[hand[s]] - sum(1 for t in hand if t == hand[s])
            return r < fireworks[c] or left > 0  # played already, or another copy exists
        safe = [s for s in discs if dead(s)]
        return int(rng.choice(safe if safe else discs))
    return int(rng.choice(legal))


def play_game(env, jax, jnp, kind, deck_ids, rng):
    p, h, a_n = env.num_agents, env.hand_size, int(env.num_moves)
    noop = a_n - 1
    agents = env.agents
    legal_fn = jax.jit(env.get_legal_moves)
    obs, state = env.reset_from_deck(jnp.asarray(deck_onehot(deck_ids)))
    # the pair form gives the same start
    obs2, _ = env.reset_from_deck_of_pairs(jnp.asarray(deck_pairs(deck_ids)))
    for ag in agents:
        assert np.array_equal(np.asarray(obs[ag]), np.asarray(obs2[ag]))
    key = jax.random.PRNGKey(0)  # step_env ignores it

    rec = {k: [] for k in ("obs", "legal", "actions", "current_player", "rewards", "dones",
                           "hands", "fireworks", "info_tokens", "life_tokens", "deck_left",
                           "score")}
    discards = np.zeros(25, np.int64)

    def snapshot(state, obs, legal):
        rec["obs"].append(np.stack([np.asarray(obs[ag], np.float32) for ag in agents]))
        rec["legal"].append(np.stack([np.asarray(legal[ag]) for ag in agents]) != 0)
        hands = np.asarray(state.player_hands)  # [P, H, 5, 5]
        ids = np.where(hands.any(axis=(2, 3)),
                       hands.reshape(p, h, 25).argmax(axis=2), -1)
        rec["hands"].append(ids.astype(np.int8))
        rec["fireworks"].append(np.asarray(state.fireworks).sum(axis=1).astype(np.int8))
        rec["info_tokens"].append(int(np.asarray(state.info_tokens).sum()))
        rec["life_tokens"].append(int(np.asarray(state.life_tokens).sum()))
        rec["deck_left"].append(int(np.asarray(state.deck).sum()))
        rec["score"].append(int(np.asarray(state.score)))
        return ids

    done = False
    while True:
        legal = legal_fn(state)
        ids = snapshot(state, obs, legal)
        if done:
            break
        cur = int(np.asarray(state.cur_player_idx).argmax())
        assert int(np.asarray(state.seat_order)[cur]) == cur
        legal_row = rec["legal"][-1][cur]
        act = choose(kind, rng, legal_row, ids[cur], rec["fireworks"][-1], discards,
                     rec["info_tokens"][-1], h, a_n)
        assert legal_row[act]
        acts = np.full(p, noop, np.int16)
        acts[cur] = act
        # the others' legal set is exactly the no-op
        for q in range(p):
            if q != cur:
                assert np.flatnonzero(rec["legal"][-1][q]).tolist() == [noop]
        if act < 2 * h:
            card = ids[cur][act % h]
            fw = rec["fireworks"][-1][card // 5]
            if act < h or fw != card % 5:
                discards[card] += 1
        actions = {ag: jnp.int32(acts[i]) for i, ag in enumerate(agents)}
        obs, state, rewards, dones, _ = env.step_env(key, state, actions)
        rec["actions"].append(acts)
        rec["current_player"].append(cur)
        rec["rewards"].append([float(rewards[ag]) for ag in agents]
                              + [float(rewards["__all__"])])
        rec["dones"].append([bool(dones[ag]) for ag in agents] + [bool(dones["__all__"])])
        done = bool(dones["__all__"])
    out = {
        "num_players": np.int64(p), "hand_size": np.int64(h), "num_actions": np.int64(a_n),
        "obs_dim": np.int64(env.obs_size), "start_player": np.int64(0),
        "deck": np.asarray(deck_ids, np.int8),
        "actions": np.array(rec["actions"], np.int16),
        "current_player": np.array(rec["current_player"], np.int8),
        "legal": np.array(rec["legal"], bool),
        "rewards": np.array(rec["rewards"], np.float32),
        "dones": np.array(rec["dones"], bool),
        "hands": np.array(rec["hands"], np.int8),
        "fireworks": np.array(rec["fireworks"], np.int8),
        "info_tokens": np.array(rec["info_tokens"], np.int8),
        "life_tokens": np.array(rec["life_tokens"], np.int8),
        "deck_left": np.array(rec["deck_left"], np.int8),
        "score": np.array(rec["score"], np.int8),
    }
    obs_all = np.array(rec["obs"], np.float32)
    assert obs_all.shape[-1] == env.obs_size
    if out["life_tokens"][-1] == 0:
        out["end_reason"] = np.array("lives")
    elif out["fireworks"][-1].sum() == 25:
        out["end_reason"] = np.array("won")
    else:
        out["end_reason"] = np.array("deck")
    return out, obs_all


def pack_obs(out: dict, obs_all: np.ndarray) -> None:
    nz = obs_all != 0
    out["obs_bits"] = np.packbits(nz, axis=-1)
    flat = obs_all.reshape(-1)
    idx = np.flatnonzero((flat != 0) & (flat != 1))
    out["obs_frac_index"] = idx.astype(np.int32)
    out["obs_frac"] = flat[idx].astype(np.float32)


def generate(out_dir: Path, install: bool, players=(2, 3, 4, 5)) -> None:
    ensure_jaxmarl(install)
    import jax
    import jax.numpy as jnp
    import jaxmarl
    from jaxmarl.environments.hanabi.hanabi import HanabiEnv

    print(f"jaxmarl {jaxmarl.__version__}, jax {jax.__version__}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for p in players:
        for old in out_dir.glob(f"p{p}_*.npz"):
            old.unlink()
    for p in players:
        env = HanabiEnv(num_agents=p)
        for kind, n in GAMES.items():
            for k in range(n):
                seed = 1000 * p + 100 * list(GAMES).index(kind) + k
                rng = np.random.default_rng(seed)
                deck = won_deck(p, rng) if kind == "won" else random_deck(rng)
                out, obs_all = play_game(env, jax, jnp, kind, deck, rng)
                if kind == "won":
                    assert str(out["end_reason"]) == "won", "the ordered deck did not reach 25"
                pack_obs(out, obs_all)
                path = out_dir / f"p{p}_{kind}{k}.npz"
                np.savez_compressed(path, **out)
                back = load_game(path)
                assert np.array_equal(back["obs"], obs_all)
                print(f"{path.name}: {len(out['actions'])} steps, end {out['end_reason']}, "
                      f"fireworks {int(out['fireworks'][-1].sum())}, {path.stat().st_size} bytes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="tests/fixtures/hanabi")
    ap.add_argument("--install", action="store_true",
                    help="pip-install jax, jaxlib, jaxmarl==0.2.0 if jaxmarl is missing")
    ap.add_argument("--show", metavar="FILE", help="print one fixture's first observation "
                    "cut into blocks (no JAX needed)")
    ap.add_argument("--check", metavar="DIR", help="replay every fixture in DIR with the "
                    "numpy model of the spec and compare exactly (no JAX needed)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    ap.add_argument("--step", type=int, default=0)
    ap.add_argument("--agent", type=int, default=0)
    args = ap.parse_args()
    if args.check:
        check(args.check)
        return
    if args.show:
        show(args.show, args.step, args.agent)
        return
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false "
                          "intra_op_parallelism_threads=1")
    generate(Path(args.out), args.install, args.players)


if __name__ == "__main__":
    main()
