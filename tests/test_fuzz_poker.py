"""Bad input fed to every poker entry point must end in a TypeError or ValueError: never a
Numba crash, an IndexError, a ZeroDivisionError, a KeyError, an AttributeError or a hang.

Sizes are kept small so each example takes milliseconds; valid input is checked against a
plain-Python reading of the rules where one is cheap (which ids and hands are valid)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from vecgames import format_cards, parse_cards
from vecgames.cli import main
from vecgames.core.cards import RANKS, SUITS
from vecgames.poker import (
    beats_3,
    category_3,
    describe,
    evaluate,
    evaluate_3,
    hand_category,
)
from vecgames.poker.equity import equity
from vecgames.poker.preflop import category_odds, equity_vs_random, preflop_matrix
from vecgames.poker.ranges import class_combos, combo_index, hand_class, parse_range

EXAMPLES = settings(max_examples=150, deadline=None)
FEW = settings(max_examples=60, deadline=None)

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6), st.binary(max_size=4),
    st.lists(st.integers(-3, 60), max_size=4), st.dictionaries(st.text(max_size=2), st.integers()),
    st.tuples(st.integers(), st.text(max_size=2)), st.just(object()), st.just(np.zeros((2, 0))),
    st.just(np.array(["a", "b"])), st.just(np.float64("nan")), st.just(np.int64(3)),
)
DTYPES = st.sampled_from([np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                          np.int64, np.uint64, np.float32, np.float64, np.bool_, object])
CARD_TEXT = [r + s for r in RANKS for s in SUITS]


def _bad(call) -> BaseException | None:
    """Run ``call``; return the TypeError/ValueError it raised, None if it returned. Any other
    exception propagates and fails the test."""
    try:
        call()
    except (TypeError, ValueError) as exc:
        assert str(exc), "an error message must say what was wrong"
        return exc
    return None


@st.composite
def card_arrays(draw, hand_sizes=(5, 6, 7)):
    """Integer-ish arrays whose last axis is mostly a hand size, with ids mostly valid."""
    dtype = draw(DTYPES)
    last = draw(st.sampled_from([*hand_sizes, *hand_sizes, 0, 1, 4, 8]))
    lead = draw(st.lists(st.integers(0, 70), max_size=2).filter(lambda d: np.prod(d) <= 200))
    shape = (*lead, last)
    count = int(np.prod(shape))
    values = draw(st.lists(st.one_of(st.integers(0, 51), st.integers(0, 51),
                                     st.integers(-300, 300), st.sampled_from([52, 63, 64, 255])),
                           min_size=count, max_size=count))
    mode = draw(st.sampled_from(["random", "valid", "repeat", "bad id"]))
    if mode != "random" and count:  # valid deals in every row, then maybe one defect
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        values = [int(v) for _ in range(count // last) for v in rng.permutation(52)[:last]]
        at = draw(st.integers(0, count - 1))
        if mode == "repeat" and last > 1:
            row = at - at % last
            other = row + (at - row + draw(st.integers(1, last - 1))) % last
            values[at] = values[other]
        elif mode == "bad id":
            values[at] = draw(st.sampled_from([-128, -1, 52, 63, 64, 127, 128, 255, 256, 2**40]))
    if dtype is object:
        return np.array(values, dtype=object).reshape(shape)
    with np.errstate(over="ignore"):
        return np.array(values).astype(dtype).reshape(shape)


def _valid_hands(arr: np.ndarray, sizes) -> bool:
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        return False
    if arr.ndim == 0 or arr.shape[-1] not in sizes:
        return False
    rows = arr.reshape(-1, arr.shape[-1]).astype(object)  # no wrap-around of uint64
    return all(all(0 <= c < 52 for c in row) and len(set(row)) == len(row) for row in rows)


@EXAMPLES
@given(card_arrays(), st.one_of(st.booleans(), JUNK))
def test_evaluate(cards, check):
    valid = _valid_hands(cards, (5, 6, 7))
    err = _bad(lambda: evaluate(cards, check=check))
    if not isinstance(check, bool):
        assert isinstance(err, TypeError) and "check" in str(err)
        return
    if not check:
        return  # unchecked: garbage ids are the caller's promise, not fuzzed
    assert (err is None) == valid, err
    if valid:
        got = evaluate(cards)
        assert got.shape == cards.shape[:-1]
        assert np.array_equal(got, evaluate(cards.astype(np.int64), check=False))


@EXAMPLES
@given(JUNK)
def test_evaluate_junk(cards):
    _bad(lambda: evaluate(cards))


@EXAMPLES
@given(card_arrays((3,)), st.one_of(st.sampled_from(["lowest", "second"]), JUNK))
def test_evaluate_3(cards, a23):
    valid = _valid_hands(cards, (3,)) and isinstance(a23, str) and a23 in ("lowest", "second")
    err = _bad(lambda: evaluate_3(cards, a23=a23))
    assert (err is None) == valid, err
    if valid:
        strengths = evaluate_3(cards, a23=a23)
        assert (category_3(strengths) == strengths >> 12).all()


@st.composite
def strengths(draw):
    """Strength-like input: scalars and arrays of any dtype, in and out of range."""
    if draw(st.booleans()):
        return draw(JUNK)
    dtype = draw(DTYPES)
    values = draw(st.lists(st.integers(-5, 30_000), max_size=5))
    with np.errstate(over="ignore"):
        arr = np.array(values, dtype=object if dtype is object else None).astype(dtype)
    return arr[0] if draw(st.booleans()) and len(arr) else arr


@EXAMPLES
@given(strengths(), strengths(), st.one_of(st.booleans(), JUNK))
def test_strength_functions(a, b, special):
    for call in (lambda: describe(a), lambda: hand_category(a), lambda: category_3(a),
                 lambda: beats_3(a, b, special_235=special)):
        _bad(call)


def _card_text(draw, max_cards: int) -> str:
    cards = draw(st.lists(st.sampled_from(CARD_TEXT), max_size=max_cards))
    return draw(st.sampled_from([" ", "", ","])).join(cards)


HAND_POOL = ["AhKh", "QsQd", "random", "QQ+", "AKs", "22-55", "KhQh", "AsAd:0.5", "T9s",
             "7c2d", "Ah", "AhKhQh", "AKx", "", "QQ,,AK", "AK:2", "AhAh", "XxXx"]


@st.composite
def equity_args(draw):
    hands = draw(st.one_of(
        st.lists(st.one_of(st.sampled_from(HAND_POOL), st.text(max_size=5)), max_size=12),
        JUNK))
    board = _card_text(draw, 7) if draw(st.booleans()) else draw(JUNK)
    dead = _card_text(draw, 45) if draw(st.booleans()) else draw(st.one_of(st.just(""), JUNK))
    samples = draw(st.one_of(st.integers(1, 1500), st.integers(-3, 0), JUNK))
    seed = draw(st.one_of(st.integers(0, 2**64 - 1), JUNK))
    return hands, board, dead, samples, seed


@FEW
@given(equity_args())
def test_equity(args):
    hands, board, dead, samples, seed = args
    if samples is None:
        samples = 100  # None asks for an exact run or a million deals: too slow to fuzz
    _bad(lambda: equity(hands, board=board, dead=dead, samples=samples, seed=seed))


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(hands=["Ah", "QsQd"]), "hand 0"),
    (dict(hands=["AhKh", "QsQd"], board="2c3c4c5c6c7c"), "board has 6 cards"),
    (dict(hands=["AhKh", "QsQd"], board="Ah2c3c"), "no combo left"),
    (dict(hands=["AhKh"]), "2..10 hands"),
    (dict(hands=["random"] * 11), "2..10 hands"),
    (dict(hands=["AhKh", "QsQd"], samples=0), "samples"),
    (dict(hands=["AhKh", "QsQd"], samples=-1), "samples"),
    (dict(hands=["AhKh", "QsQd"], samples=1.5), "samples"),
    (dict(hands=["AhKh", "QsQd"], samples=True), "samples"),
    (dict(hands=["AhKh", "QsQd"], seed="1"), "seed"),
    (dict(hands=["AhKh", "QsQd"], board="2c2c"), "board: duplicate card"),
    (dict(hands=["AhKh", "QsQd"], dead="Zz"), "dead: malformed card"),
    (dict(hands=["random"] * 10, dead=" ".join(CARD_TEXT[10:40])), "need 25 cards"),
    (dict(hands=["random", "random"], board="2c3c4c",
          dead=" ".join(CARD_TEXT[1:2] + CARD_TEXT[9:])), "need 6 cards"),
])
def test_equity_bad_input_is_named(kwargs, fragment):
    with pytest.raises((TypeError, ValueError), match=fragment):
        equity(**kwargs)


def test_equity_exact_with_the_last_cards():
    # exactly enough cards left: one board, no hang
    dead = [c for i, c in enumerate(CARD_TEXT) if i > 4 and c not in ("Ah", "Kh", "Qs", "Qd")]
    frame = equity(["AhKh", "QsQd"], dead=" ".join(dead))
    assert frame.attrs["method"] == "exact" and frame.attrs["deals"] == 1


@EXAMPLES
@given(st.one_of(st.text(alphabet="AKQJT98765432sohcdx+-:.,0 1e\n", max_size=14),
                 st.text(max_size=8), JUNK))
def test_ranges(text):
    _bad(lambda: parse_range(text))
    _bad(lambda: class_combos(text))


@EXAMPLES
@given(st.one_of(st.integers(-3, 60), JUNK), st.one_of(st.integers(-3, 60), JUNK))
def test_combo_functions(c1, c2):
    _bad(lambda: combo_index(c1, c2))
    _bad(lambda: hand_class(c1, c2))


@EXAMPLES
@given(st.one_of(st.text(alphabet="AKT2shdc10 ,x", max_size=10), st.text(max_size=6), JUNK))
def test_parse_and_format_cards(value):
    _bad(lambda: parse_cards(value))
    _bad(lambda: format_cards(value))


def test_format_cards_rejects_text():
    with pytest.raises(TypeError, match="parse_cards"):
        format_cards("AhKh")


@EXAMPLES
@given(st.one_of(st.lists(st.one_of(st.integers(-2, 12), JUNK), max_size=3), JUNK),
       st.one_of(st.integers(1, 50), JUNK), st.one_of(st.integers(0, 5), JUNK),
       st.dictionaries(st.sampled_from(["foo", "backend"]), st.integers(), max_size=1))
def test_equity_vs_random(opponents, samples, seed, options):
    ok_list = (isinstance(opponents, list) and opponents
               and all(type(n) is int and 1 <= n <= 9 for n in opponents))
    # a valid call with 2+ opponents runs 169 Monte Carlo cells: not here
    assume(not (ok_list and any(n > 1 for n in opponents)))
    _bad(lambda: equity_vs_random(opponents, samples=samples, seed=seed, **options))


@FEW
@given(st.lists(JUNK, max_size=2), st.dictionaries(st.text(max_size=3), JUNK, max_size=2))
def test_preflop_matrix_takes_nothing(args, kwargs):
    assume(args or kwargs)
    assert isinstance(_bad(lambda: preflop_matrix(*args, **kwargs)), TypeError)


@st.composite
def odds_args(draw):
    hole = _card_text(draw, 3) if draw(st.booleans()) else draw(JUNK)
    board = _card_text(draw, 6) if draw(st.booleans()) else draw(JUNK)
    dead = _card_text(draw, 50) if draw(st.booleans()) else draw(st.one_of(st.just(""), JUNK))
    return hole, board, dead


@FEW
@given(odds_args())
def test_category_odds(args):
    hole, board, dead = args
    _bad(lambda: category_odds(hole, board=board, dead=dead))


def test_category_odds_needs_enough_cards():
    dead = [c for c in CARD_TEXT if c not in ("Ah", "Kh", "2c", "3c", "4c", "5c")]
    with pytest.raises(ValueError, match="needs 1 more cards, but the dead cards leave 0"):
        category_odds("AhKh", board="2c3c4c5c", dead=" ".join(dead))
    assert category_odds("AhKh", board="2c3c4c5c", dead=" ".join(dead[1:]))["boards"].sum() == 1


def test_category_3_checks_strengths():
    with pytest.raises(ValueError, match="0..23552"):
        category_3(-1)
    with pytest.raises(TypeError, match="integer"):
        category_3(None)


def test_equity_vs_random_checks_opponents():
    with pytest.raises(TypeError, match="opponents"):
        equity_vs_random(None)
    with pytest.raises(TypeError, match="opponents"):
        equity_vs_random([True])
    with pytest.raises(ValueError, match="distinct"):
        equity_vs_random([1, 1])
    assert list(equity_vs_random([np.int64(1)]).columns) == ["1"]


# ---------------------------------------------------------------- the CLI

def _numeric_text(draw) -> str:
    value = draw(st.one_of(st.integers(-3, 3000), st.floats(allow_nan=True,
                                                           allow_infinity=True)))
    return str(value)


@st.composite
def cli_args(draw):
    hands = draw(st.lists(st.one_of(st.sampled_from(HAND_POOL),
                                    st.text(alphabet="AKQ2shd+,x ", min_size=1, max_size=5)),
                          min_size=1, max_size=12))
    argv = ["equity", *[h for h in hands if not h.startswith("-") and h.strip()]]
    assume(len(argv) > 1)
    argv += ["--board", _card_text(draw, 6), "--dead", _card_text(draw, 45)]
    samples = _numeric_text(draw)
    if not math.isnan(float(samples)) and float(samples) > 3000:
        samples = "3000"  # keep each run short
    argv += ["--samples", samples, "--seed", str(draw(st.integers(-5, 2**65)))]
    return argv


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cli_args())
def test_cli_equity(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.startswith("vecgames: error: ") and err.count("\n") == 1, err
    else:
        assert out and not err


@pytest.mark.parametrize("argv, fragment", [
    (["equity", "AhKh"], "2..10 hands"),
    (["equity", "Ah", "QsQd"], "hand 0"),
    (["equity", "AhKh", "QsQd", "--board", "2c3c4c5c6c7c"], "board has 6 cards"),
    (["equity", "AhKh", "QsQd", "--samples", "0"], "--samples"),
    (["equity", "AhKh", "QsQd", "--seed", "-1"], "seed"),
    (["equity", "AhKh", "QsQd\nKK"], "token 1 of"),
    (["equity", *["random"] * 10, "--dead", " ".join(CARD_TEXT[10:40])], "need 25 cards"),
])
def test_cli_equity_errors(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("vecgames: error: ") and err.count("\n") == 1 and fragment in err
