"""One source for what every form shares (scorepad/forms/): the name rule, the version and
one-time token of a change, form data as a browser posts it, and the shape of a token,
each said the same wherever a person meets it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client, RequestFactory
from django.urls import Resolver404, resolve, reverse

from continental.logfilters import TOKEN
from scorepad.access import SEEN, seen_tokens
from scorepad.conflicts import form_values
from scorepad.forms.data import field_text, form_data, posted
from scorepad.forms.deals import ClassicDealForm, PenaltyDealForm
from scorepad.forms.evenings import AddGameForm, EveningForm
from scorepad.forms.players import JoinForm, LeaveForm, RenameForm, TargetForm
from scorepad.forms.seats import SeatList
from scorepad.models import Circle, Event
from scorepad.tokens import LINK, LINK_SHAPE, TOKEN_MAX
from tests.factories import (
    CircleFactory,
    GameFactory,
    record_classic,
    record_penalty,
    seats,
)

pytestmark = pytest.mark.django_db

TOO_LONG = "A name has at most 40 characters."
INCOMPLETE = "The form was incomplete: go back to the sheet and try again."


@pytest.fixture
def romme(db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    game.refresh_from_db()
    return game


def _change(game, **fields):
    return {"version": str(game.version), "once": "change-0123456789abcdef", **fields}


# --- the name rule ----------------------------------------------------------------------------


def _seat_list(raw: str) -> tuple[str, str]:
    seats_ = SeatList([])
    seats_.add_name(raw)
    return (seats_.entries[0].name if seats_.entries else ""), str(seats_.error)


def _join(game, raw: str) -> tuple[str, str]:
    form = JoinForm(_change(game, name=raw, start="zero"), game=game)
    return (form.cleaned_data["name"] if form.is_valid() else ""), " ".join(
        form.errors.get("name", [])
    )


def _rename(game, raw: str) -> tuple[str, str]:
    form = RenameForm(_change(game, position="0", name=raw), game=game)
    return (form.cleaned_data["name"] if form.is_valid() else ""), " ".join(
        form.errors.get("name", [])
    )


def _evening(game, raw: str) -> tuple[str, str]:
    form = EveningForm({"name": raw, "stake": "0.10", "once": "evening-0123456789"}, games=[])
    return (form.cleaned_data["name"] if form.is_valid() else ""), " ".join(
        form.errors.get("name", [])
    )


PLACES = {
    "new game's seats": lambda game, raw: _seat_list(raw),
    "join": _join,
    "rename": _rename,
    "evening": _evening,
}


@pytest.mark.parametrize("place", PLACES)
def test_every_name_is_trimmed_and_its_spaces_folded(romme, place):
    assert PLACES[place](romme, "  Dana \t  Lee ") == ("Dana Lee", "")


@pytest.mark.parametrize("place", PLACES)
def test_every_name_of_more_than_40_characters_is_refused_with_one_message(romme, place):
    assert PLACES[place](romme, "D" * 40) == ("D" * 40, "")
    assert PLACES[place](romme, "D" * 41) == ("", TOO_LONG)
    # Spaces folded first: forty letters with spaces around and inside two of them fit.
    assert PLACES[place](romme, "  " + "D" * 19 + "   " + "D" * 20 + " ")[1] == ""


@pytest.mark.parametrize(
    ("place", "message"),
    [
        ("new game's seats", "Type a name first."),
        ("join", "Enter a name."),
        ("rename", "Enter a name."),
        ("evening", ""),  # an evening's name is optional
    ],
)
def test_no_name_is_refused_where_a_name_is_needed(romme, place, message):
    assert PLACES[place](romme, "   ")[1] == message


def test_a_name_longer_than_its_box_is_too_long_text_not_a_name(romme):
    """The box a name is typed in takes 200 characters; more is no name typed."""
    assert _join(romme, "D" * 201) == ("", "This is too long.")
    assert _evening(romme, "D" * 201) == ("", TOO_LONG)  # the evening's box has no limit


def test_a_rename_checks_the_seat_before_the_name(romme):
    form = RenameForm(_change(romme, position="9", name="D" * 41), game=romme)
    assert not form.is_valid()
    assert form.errors == {"__all__": ["That player is not at this table."]}


def test_a_circle_says_the_name_rule_as_the_game_does(db):
    circle = CircleFactory(name="Tuesdays")
    game = GameFactory(players=["Anna", "Ben", "Cleo"], circle=circle)
    anna = circle.find("Anna")
    client = Client()
    session = client.session
    session["scorepad_circles"] = [circle.pk]
    session.save()
    url = reverse("circle-rename", kwargs={"token": circle.editor_token})
    for raw, message in (("D" * 41, TOO_LONG), ("  ", "Type a name first.")):
        answer = client.post(
            url, {"version": 1, "once": f"rename-{len(raw)}-0123456789", "person": anna.pk,
                  "name": raw}, follow=True,
        )  # fmt: skip
        assert message in answer.content.decode()
    assert not Event.objects.filter(circle=circle, kind="renamed").exists()
    answer = client.post(
        url, {"version": 1, "once": "rename-ok-0123456789", "person": anna.pk,
              "name": "  Anna   Lee "}, follow=True,
    )  # fmt: skip
    assert Circle.objects.get(pk=circle.pk).find("Anna Lee") == anna
    assert game.seats.get(position=0).name == "Anna"


# --- a versioned, once-only change --------------------------------------------------------------


def _changes(game):
    """Every form of a game's change, with what it needs besides its version and token."""
    if game.variant_id == "classic":
        yield ClassicDealForm, {"went_out": "0", "mode": "rows"}, {"seats": seats(game)}
    else:
        points = {f"points_{s.position}": "5" for s in seats(game)[1:]}
        yield PenaltyDealForm, {"went_out": "0", **points}, {"seats": seats(game)}
    yield JoinForm, {"name": "Dana", "start": "zero"}, {}
    yield RenameForm, {"position": "0", "name": "Annie"}, {}
    yield LeaveForm, {"position": "0", "op": "leave"}, {}
    yield TargetForm, {"target_score": "500"}, {}


@pytest.mark.parametrize("variant", ["classic", "romme"])
@pytest.mark.parametrize(
    "spoil",
    [
        {"version": None},
        {"once": None},
        {"version": "seven"},
        {"once": "x" * (TOKEN_MAX + 1)},
    ],
    ids=["no version", "no token", "unreadable version", "token too long"],
)
def test_every_change_without_its_version_or_token_is_incomplete_and_says_so(variant, spoil):
    game = GameFactory(variant_id=variant, players=["Anna", "Ben", "Cleo"])
    for form_class, fields, extra in _changes(game):
        data = {k: v for k, v in {**_change(game), **fields, **spoil}.items() if v is not None}
        ok = form_class({**_change(game), **fields}, game=game, **extra)
        assert ok.is_valid(), (form_class.__name__, ok.errors)
        form = form_class(data, game=game, **extra)
        assert not form.is_valid()
        assert INCOMPLETE in [text for _anchor, text in form.error_items()], form_class.__name__


def test_an_evening_s_change_is_incomplete_without_its_version_or_token(db):
    game = GameFactory()
    good = {"game": game.editor_token, "stake": "0.10", "version": "1", "once": "add-0123456789"}
    assert AddGameForm(good).is_valid()
    for spoil in ({"version": "0"}, {"version": ""}, {"once": ""}):
        form = AddGameForm({**good, **spoil})
        assert not form.is_valid()
        assert form.incomplete()
    # Its own errors come in the order of its fields, the game before the stake.
    form = AddGameForm({**good, "game": "", "stake": "abc"})
    assert list(form.errors) == ["game", "stake"]


def test_a_deal_s_one_time_token_is_the_token_s_letters_only():
    game = GameFactory()
    base = {"version": str(game.version), "went_out": "0", "mode": "rows"}
    for once, valid in (("a" * TOKEN_MAX, True), ("phone-made_1", True), ("a b", False)):
        form = ClassicDealForm({**base, "once": once}, game=game, seats=seats(game))
        assert form.is_valid() is valid, once


# --- form data as a browser posts it --------------------------------------------------------


def test_a_value_is_posted_as_a_browser_posts_it():
    assert [posted(v) for v in (None, False, True, 0, 5, " x ")] == [
        None,
        None,
        "on",
        "0",
        "5",
        " x ",
    ]
    assert form_data({"a": None, "b": False, "c": True, "d": "", "e": 3}) == {
        "c": "on",
        "d": "",
        "e": "3",
    }
    assert [field_text(v) for v in (None, False, True, " x ", ["4S", " 5S"])] == [
        "",
        "",
        "on",
        "x",
        "4S 5S",
    ]


def test_a_stored_deal_posted_back_reads_as_the_form_that_shows_it():
    """What the merge of two phones compares (a bound form against a stored deal's form)
    is the same text for the same deal."""
    classic = GameFactory(players=["Anna", "Ben", "Cleo"])
    record_classic(classic, 0, jokers=1, first_turn="drawn")
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(romme, 0, {1: 20, 2: 35}, handromme="on")
    for game, form_class in ((classic, ClassicDealForm), (romme, PenaltyDealForm)):
        deal = game.deals.get(number=1)
        initial = form_class.initial_from(deal)
        shown = form_class(initial=initial, game=game, seats=seats(game), deal=1)
        sent = form_class(form_data(initial), game=game, seats=seats(game), deal=1)
        assert form_values(sent) == form_values(shown)
        assert any(form_values(shown).values())


# --- the shape of a token ---------------------------------------------------------------------


@pytest.mark.parametrize(("length", "is_link"), [(19, False), (20, True), (64, True), (65, False)])
def test_a_link_has_the_same_shape_in_the_url_the_cookie_and_the_backup(length, is_link):
    token = "A1_-" * 16 + "z"
    token = token[:length]
    try:
        resolve(f"/en/games/{token}/")
        routed = True
    except Resolver404:
        routed = False
    assert routed is is_link
    request = RequestFactory().get("/", HTTP_COOKIE=f"{SEEN}={token}")
    assert (seen_tokens(request) == [token]) is is_link
    assert bool(LINK.fullmatch(token)) is is_link


def test_the_logs_mask_every_link_and_any_longer_run():
    for length in (20, 24, 64, 80):
        path = f"/en/games/{'k' * length}/"
        assert TOKEN.sub("<token>", path) == "/en/games/<token>/"
    assert TOKEN.sub("<token>", "/en/games/new/") == "/en/games/new/"
    assert TOKEN.sub("<token>", f"/en/games/{'k' * 19}/") == f"/en/games/{'k' * 19}/"


def test_the_service_worker_knows_a_link_by_the_same_shape():
    """The service worker (static/js/sw.js) cannot import the shape: it writes it out, the
    same each time."""
    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "sw.js").read_text()
    written = re.findall(r"\[A-Za-z0-9_-\]\{[0-9,]+\}", script)
    assert written
    assert set(written) == {LINK_SHAPE}
