"""Engine messages are translatable: an English %-format template marked with gettext_noop,
its params, and ``rules.i18n.engine_message`` translating the template in the Django layer."""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

import rules.i18n
from rules.engine.cards import Card, CardError, card, check_copies, parse_card, parse_cards
from rules.engine.check import CheckError, check_hand
from rules.engine.melds import MeldError, Placed, find_meld, validate_meld
from rules.engine.messages import EngineError, gettext_noop
from rules.engine.scoring import (
    ScoreError,
    classic_ledger,
    classic_payment,
    hand_penalty,
    penalty_deal,
    running_totals,
    settle_up,
    standings,
)
from rules.engine.variants import (
    CLASSIC,
    NORDIC,
    ROMME,
    SPANISH,
    OptionError,
    build_schedule,
    get_variant,
)

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "engine"
ENGINE_ERRORS = {"EngineError", "CardError", "OptionError", "CheckError", "MeldError"}
ENGINE_ERRORS |= {"ScoreError", "_WildLimitError"}


def _cards(text):
    return parse_cards(text)


BAD_INPUTS = [
    lambda: parse_card(""),
    lambda: parse_card("ZZ"),
    lambda: parse_card("1X"),
    lambda: Card(0, "S"),
    lambda: Card(14, "S"),
    lambda: check_copies(_cards("AS AS AS"), 2, 2),
    lambda: check_copies(_cards("JK JK JK"), 2, 2),
    lambda: get_variant("poker"),
    lambda: get_variant(CLASSIC).resolve_options({"twos_wild": 3}),
    lambda: get_variant(CLASSIC).resolve_options({"colour": 1}),
    lambda: get_variant(CLASSIC).resolve_options([1]),
    lambda: get_variant(ROMME).resolve_options({"handromme_doubles": "maybe"}),
    lambda: get_variant(CLASSIC).check_players(1),
    lambda: get_variant(CLASSIC).deal_spec(1),
    lambda: get_variant(NORDIC).deal_spec(9),
    lambda: get_variant(CLASSIC).penalty(card("AS")),
    lambda: build_schedule([]),
    lambda: build_schedule([{"cards": 5, "sets": 1}] * 21),
    lambda: build_schedule([3]),
    lambda: build_schedule([{"cards": "x"}]),
    lambda: build_schedule([{"sets": 1}]),
    lambda: build_schedule([{"cards": 30, "sets": 1}]),
    lambda: build_schedule([{"cards": 8}]),
    lambda: build_schedule([{"cards": 8, "sets": 1, "set_min": 2}]),
    lambda: build_schedule([{"cards": 5, "sets": 2}]),
    lambda: check_hand([]),
    lambda: check_hand({"variant": CLASSIC, "cards": "AS", "colour": 1}),
    lambda: check_hand({"variant": "poker", "cards": "AS"}),
    lambda: check_hand({"variant": CLASSIC, "cards": 3}),
    lambda: check_hand({"variant": CLASSIC, "cards": "AS ZZ"}),
    lambda: check_hand({"variant": CLASSIC, "cards": "AS 2S 3S"}),
    lambda: check_hand({"variant": CLASSIC, "cards": "AS 2S 3S", "first_turn": "drawn"}),
    lambda: check_hand({"variant": CLASSIC, "cards": "AS " * 16}),
    lambda: check_hand({"variant": CLASSIC, "cards": "AS", "first_turn": "soon"}),
    lambda: check_hand({"variant": ROMME, "cards": "AS 2S 3S"}),
    lambda: check_hand({"variant": ROMME, "cards": "AS", "deal": 1}),
    lambda: check_hand({"variant": ROMME, "cards": "AS", "first_turn": "drawn"}),
    lambda: check_hand({"variant": NORDIC, "cards": "AS " * 13}),
    lambda: check_hand({"variant": NORDIC, "cards": "AS " * 13, "deal": 9}),
    lambda: check_hand({"variant": NORDIC, "cards": "AS", "deal": 1}),
    lambda: check_hand({"variant": NORDIC, "cards": "AS", "deal": 1, "schedule": []}),
    lambda: classic_payment(-1, 0),
    lambda: classic_payment(10, 10),
    lambda: classic_payment(1, 0, twos_wild=False),
    lambda: classic_payment(0, 0, first_turn="soon"),
    lambda: classic_payment(0, 1, one_suit=True),
    lambda: classic_ledger(["a"], "a", 1),
    lambda: classic_ledger(["a", "a"], "a", 1),
    lambda: classic_ledger(["a", "b"], "c", 1),
    lambda: classic_ledger(["a", "b"], None, 1),
    lambda: classic_ledger(["a", "b"], "a", -1),
    lambda: settle_up({"a": 1, "b": -1}, True),
    lambda: settle_up({"a": 1, "b": -1}, 0),
    lambda: settle_up({"a": 1.5, "b": -1}),
    lambda: settle_up({"a": 1, "b": 0}),
    lambda: hand_penalty([card("AS")], get_variant(CLASSIC)),
    lambda: hand_penalty(["AS"], get_variant(ROMME)),
    lambda: penalty_deal(get_variant(CLASSIC), ["a", "b"], "a", {}),
    lambda: penalty_deal(get_variant(ROMME), ["a"], "a", {}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "c", {}),
    lambda: penalty_deal(get_variant(NORDIC), ["a", "b"], "a", {"b": 5}, handromme=True),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], None, {}, handromme=True),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", [5]),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"c": 5}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"b": -5}),
    lambda: penalty_deal(get_variant(NORDIC), ["a", "b"], "a", {"b": 7}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"b": 10**6}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"b": ["AS"]}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"b": _cards("AS " * 16)}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"b": _cards("AS AS AS")}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"b": "AS"}),
    lambda: penalty_deal(get_variant(ROMME), ["a", "b"], "a", {"a": 5, "b": 5}),
    lambda: penalty_deal(
        get_variant(ROMME), ["a", "b", "c"], "a", {"b": _cards("AS AS"), "c": _cards("AS")}
    ),
    lambda: running_totals([{"c": 1}], ["a", "b"]),
    lambda: running_totals([{"a": 1}], ["a", "b"]),
    lambda: running_totals([{"a": 1, "b": 1.5}], ["a", "b"]),
    lambda: standings({"a": 1.5}, get_variant(ROMME)),
    lambda: find_meld([], get_variant(ROMME)),
    lambda: find_meld(_cards("AS 2S"), get_variant(ROMME)),
    lambda: find_meld(_cards("AS 2H 3S"), get_variant(ROMME), kind="run"),
    lambda: find_meld(_cards("AS 2S 3S AS"), get_variant(CLASSIC)),
    lambda: find_meld(_cards("AS 5S 9S"), get_variant(ROMME)),
    lambda: find_meld(_cards("AS 5S JK"), get_variant(ROMME), kind="run"),
    lambda: find_meld(_cards("AS 4S JK"), get_variant(ROMME), kind="run"),
    lambda: find_meld(_cards("AS 2S 8S 9S KS"), get_variant(CLASSIC)),
    lambda: find_meld(_cards("KS AS 2S"), get_variant(ROMME), kind="run"),
    lambda: validate_meld(
        [Placed(card(c), card(c)) for c in ("KS", "AS", "2S")], get_variant(ROMME)
    ),
    lambda: find_meld(_cards("AS 2H 3D"), get_variant(ROMME)),
    lambda: find_meld(_cards("AS AS AH"), get_variant(ROMME), kind="group"),
    lambda: find_meld(_cards("AS AH 2D"), get_variant(ROMME), kind="group"),
    lambda: find_meld(_cards("JK JK JK"), get_variant(ROMME)),
    lambda: find_meld(_cards("JK JK AS"), get_variant(NORDIC), kind="set"),
    lambda: find_meld(_cards("AS AH AD"), get_variant(CLASSIC), kind="set"),
    lambda: find_meld(_cards("AS AH AD"), get_variant(ROMME), kind="set"),
    lambda: find_meld(_cards("AS 2S 3S 4S 5S 6S"), get_variant(CLASSIC)),
    lambda: find_meld(_cards("AS AH AD AC JK"), get_variant(ROMME), kind="group"),
    lambda: validate_meld(
        [Placed(card("AS"), card("AS")), Placed(card("JK"), card("JK"))], get_variant(ROMME)
    ),
    lambda: validate_meld(
        [Placed(card("AS"), card("AS")), Placed(card("5S"), card("2S"))], get_variant(ROMME)
    ),
    lambda: validate_meld(
        [Placed(card("AH"), card("AS")), Placed(card("AD"), card("AD"))] * 2,
        get_variant(NORDIC),
        kind="set",
    ),
    lambda: validate_meld(
        [
            Placed(card("5S"), card("5S")),
            Placed(card("5S"), card("5S")),
            Placed(card("6S"), card("6S")),
        ],
        get_variant(CLASSIC),
    ),
    lambda: validate_meld(
        [
            Placed(card("5S"), card("5S")),
            Placed(card("JK"), card("5S")),
            Placed(card("6S"), card("6S")),
        ],
        get_variant(CLASSIC),
    ),
    lambda: validate_meld(
        [Placed(card(c), card(c)) for c in ("AS", "2S", "3S", "7S")], get_variant(SPANISH)
    ),
]


def _shout(message):
    """A fake translation: the text upper-cased, its placeholders kept."""
    parts = re.split(r"(%\(\w+\)[sdr])", message)
    return "".join(p if p.startswith("%(") else p.upper() for p in parts)


def _raised(make):
    with pytest.raises(EngineError) as info:
        make()
    return info.value


def _all_errors(exc):
    """The error and the engine errors it carries as params (the parts of a combined message)."""
    yield exc
    for value in exc.params.values():
        if isinstance(value, EngineError):
            yield from _all_errors(value)


@pytest.mark.parametrize("make", BAD_INPUTS)
def test_engine_errors_carry_a_template_and_params(make):
    exc = _raised(make)
    for e in _all_errors(exc):
        assert isinstance(e, ValueError)
        assert "{" not in e.template, e.template
        assert "}" not in e.template, e.template
        placeholders = re.findall(r"%\((\w+)\)", e.template)
        assert set(placeholders) <= set(e.params), (e.template, e.params)
        assert "%" not in re.sub(r"%\(\w+\)[sdr]", "", e.template), e.template
        assert e.template % e.params == str(e)


def test_the_bad_inputs_reach_every_kind_of_engine_error():
    kinds = {type(_raised(make)).__name__ for make in BAD_INPUTS}
    assert {"CardError", "OptionError", "CheckError", "MeldError", "ScoreError"} <= kinds


def test_subclasses_keep_their_attributes():
    exc = _raised(lambda: parse_card("ZZ"))
    assert isinstance(exc, CardError)
    assert (exc.token, exc.code, str(exc)) == ("ZZ", "bad_card", "“ZZ” is not a card.")
    exc = _raised(lambda: check_hand({"variant": CLASSIC, "cards": "AS ZZ"}))
    assert isinstance(exc, CheckError)
    assert (exc.token, exc.code, str(exc)) == ("ZZ", "bad_card", "“ZZ” is not a card.")
    exc = _raised(lambda: get_variant(NORDIC).deal_spec(9))
    assert isinstance(exc, OptionError)
    assert exc.code == "bad_deal"
    exc = _raised(lambda: classic_ledger(["a", "b"], "c", 1))
    assert isinstance(exc, ScoreError)
    assert exc.player == "c"
    assert str(exc) == "c went out but is not one of the players"
    exc = _raised(lambda: classic_ledger(["a"], "a", 1))
    assert exc.player is None
    assert isinstance(_raised(lambda: find_meld([], get_variant(ROMME))), MeldError)


def test_plain_messages_still_work():
    assert str(CardError("plain")) == "plain"
    assert str(OptionError("50% off")) == "50% off"
    exc = ScoreError(gettext_noop("%(player)s: %(error)s"), player=3, error=CardError("x"))
    assert str(exc) == "3: x"


def _engine_raise_calls():
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name in ENGINE_ERRORS and node.args:
                    yield path.name, node.lineno, node.args[0]


def test_no_engine_error_is_raised_with_an_f_string_or_an_unmarked_string():
    calls = list(_engine_raise_calls())
    assert len(calls) > 50
    for filename, line, first in calls:
        where = f"{filename}:{line}"
        assert not isinstance(first, ast.JoinedStr), where
        assert not isinstance(first, ast.Constant), f"{where}: mark it with gettext_noop"
        if isinstance(first, ast.Call):
            assert getattr(first.func, "id", None) == "gettext_noop", where
            assert isinstance(first.args[0], ast.Constant), where


def test_engine_message_translates_the_template_then_formats(monkeypatch):
    monkeypatch.setattr(rules.i18n, "gettext", _shout)
    exc = _raised(lambda: check_copies(_cards("AS AS AS"), 2, 2))
    assert rules.i18n.engine_message(exc) == _shout(exc.template) % exc.params
    assert rules.i18n.engine_message(exc) == "3 × AS, BUT 2 DECKS HOLD ONLY 2"


def test_engine_message_translates_nested_errors_and_takes_overrides(monkeypatch):
    monkeypatch.setattr(rules.i18n, "gettext", _shout)
    exc = _raised(lambda: penalty_deal(get_variant(ROMME), [1, 2], 1, {2: _cards("AS AS AS")}))
    assert str(exc) == "2: 3 × AS, but 2 decks hold only 2"
    assert rules.i18n.engine_message(exc) == "2: 3 × AS, BUT 2 DECKS HOLD ONLY 2"
    assert rules.i18n.engine_message(exc, player="Anna") == "Anna: 3 × AS, BUT 2 DECKS HOLD ONLY 2"


def test_engine_message_of_other_exceptions_is_their_text(monkeypatch):
    monkeypatch.setattr(rules.i18n, "gettext", _shout)
    assert rules.i18n.engine_message(ValueError("plain")) == "plain"


def test_a_broken_translation_falls_back_to_english(monkeypatch):
    monkeypatch.setattr(rules.i18n, "gettext", lambda message: "%(nonsense)s")
    exc = _raised(lambda: parse_card("ZZ"))
    assert rules.i18n.engine_message(exc) == "“ZZ” is not a card."


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "this variant has runs and groups, not sets"),
        ("de", "dieses Spiel kennt Folgen und Gruppen, keine Sätze"),
        ("nb", "dette spillet har rekker og grupper, ikke sett"),
        ("es", "esta variante tiene escaleras y grupos, no tríos"),
    ],
)
def test_the_kind_of_a_meld_is_named_in_the_page_language(lang, expected):
    exc = _raised(lambda: find_meld(_cards("AS AH AD"), get_variant(ROMME), kind="set"))
    with translation.override(lang):
        assert rules.i18n.engine_message(exc) == expected
