"""``manage.py backup import`` trusts nothing of the file (issue 21, item 10): nesting too
deep, impossible dates, ids and numbers past what the columns hold, links that are empty,
the same as another link or a viewer link equal to the editor link, an evening carried into
itself or round a circle. Each is refused with a message that says what and where, and
nothing is stored. A hypothesis fuzz spoils a real backup with such values."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorepad.access import EVENINGS, resolve
from scorepad.evenings import build_evening
from scorepad.models import Circle, Evening, Event, Game
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty
from tests.scorepad.test_import_fuzz import json_values, spoil

pytestmark = pytest.mark.django_db


def _reload(evening):
    return resolve(SimpleNamespace(session={}), evening.viewer_token, kind=EVENINGS).evening


def make_backup() -> dict:
    """Two finished games of a circle, an evening of both carried into a second evening."""
    circle = CircleFactory()
    classic = GameFactory(variant_id="classic", players=["Anna", "Ben"], circle=circle)
    record_classic(classic, 0, jokers=1)
    classic.refresh_from_db()
    classic.end(version=classic.version, once="end-classic-xxxxxxxxx", actor=ACTOR)
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"], circle=circle)
    record_penalty(romme, 1, {0: 20, 2: 7})
    romme.refresh_from_db()
    romme.end(version=romme.version, once="end-romme-xxxxxxxxxxx", actor=ACTOR)
    first = Evening.objects.create(name="Friday", stake="0.10", circle=circle)
    first.add_game(classic, "0.10", version=1, once="add-classic-xxxxxxxx", actor=ACTOR)
    first.add_game(romme, "0.05", version=2, once="add-romme-xxxxxxxxxx", actor=ACTOR)
    first.refresh_from_db()
    first.carry(
        build_evening(_reload(first)).carry, version=first.version, once="carry-x" * 3, actor=ACTOR
    )
    out = io.StringIO()
    call_command("backup", "export", stdout=out)
    document = json.loads(out.getvalue())
    empty()
    return document


def empty():
    Evening.objects.all().delete()
    Game.objects.all().delete()
    Circle.objects.all().delete()


@pytest.fixture(scope="module")
def backup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        return make_backup()


def nothing_stored() -> bool:
    return not (
        Game.objects.exists()
        or Circle.objects.exists()
        or Evening.objects.exists()
        or Event.objects.exists()
    )


def restore_text(tmp_path, text: str) -> str:
    """Restore ``text``; the CommandError's message when refused, "" when restored."""
    path = tmp_path / "backup.json"
    path.write_text(text, encoding="utf-8")
    try:
        call_command("backup", "import", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError as exc:
        return str(exc)
    return ""


def both_links(doc, i, key):
    doc[key][i]["viewer_token"] = doc[key][i]["editor_token"]


def a_circle(doc):
    first, second = doc["evenings"]
    second["next_evening"] = first["id"]


CASES = {
    "person date 2024-02-30": (
        ["circles", 0, "people", 0, "created_at"],
        "2024-02-30T10:00:00+00:00",
    ),
    "game date 2024-02-30": (["games", 0, "created_at"], "2024-02-30T10:00:00"),
    "deal date 2024-02-30": (["games", 0, "deals", 0, "updated_at"], "2024-02-30T10:00:00"),
    "history date past 9999": (["games", 1, "history", 0, "at"], "9999-12-31T23:59:59-05:00"),
    "evening date 2024-02-30": (["evenings", 0, "created_at"], "2024-02-30T10:00:00"),
    "person id 2**63": (["circles", 0, "people", 0, "id"], 2**63),
    "game id 2**63": (["games", 0, "id"], 2**63),
    "game version 2**63": (["games", 0, "version"], 2**63),
    "history deal 2**63": (["games", 0, "history", 0, "deal_number"], 2**63),
    "evening id 2**63": (["evenings", 0, "id"], 2**63),
    "evening version 2**63": (["evenings", 0, "version"], 2**64),
    "evening game place 2**63": (["evenings", 0, "games", 0, "position"], 2**63),
    "empty viewer link": (["games", 0, "viewer_token"], ""),
    "empty editor link": (["evenings", 1, "editor_token"], ""),
    "a link that is no link": (["games", 1, "editor_token"], "../../x"),
    "a link that is a number": (["games", 1, "viewer_token"], 12345678901234567890123),
}


@pytest.mark.parametrize(("path", "value"), CASES.values(), ids=CASES.keys())
def test_a_value_past_what_the_database_holds_is_refused_with_a_message(
    backup, tmp_path, path, value
):
    message = restore_text(tmp_path, json.dumps(spoil(backup, path, value)))
    assert message.endswith("Nothing was imported."), message
    assert "The database refused" not in message
    assert " is not readable (" not in message
    assert nothing_stored()


def game_token_in_evening(doc):
    doc["evenings"][0]["viewer_token"] = doc["games"][1]["editor_token"]


def two_games_one_link(doc):
    doc["games"][1]["viewer_token"] = doc["games"][0]["viewer_token"]


def follows_itself(doc):
    doc["evenings"][1]["next_evening"] = doc["evenings"][1]["id"]


def form_token_twice(doc):
    def last_with_token(history):
        return next(e for e in reversed(history) if e.get("form_token"))

    first, second = (last_with_token(doc["games"][i]["history"]) for i in (0, 1))
    second["form_token"] = first["form_token"]


LINKS = {
    "viewer link is the editor link of a game": (
        lambda doc: both_links(doc, 0, "games"),
        "link is also a link of Game #",
    ),
    "viewer link is the editor link of an evening": (
        lambda doc: both_links(doc, 1, "evenings"),
        "link is also a link of Evening #",
    ),
    "an evening's link is a game's": (game_token_in_evening, "link is also a link of Game #"),
    "two games share a link": (two_games_one_link, "link is also a link of Game #"),
    "an evening follows itself": (follows_itself, "is carried, directly or in a circle"),
    "two evenings follow each other": (a_circle, "is carried, directly or in a circle"),
    "a one-time token used twice": (form_token_twice, "is used twice"),
}


@pytest.mark.parametrize(("change", "said"), LINKS.values(), ids=LINKS.keys())
def test_links_that_break_the_rules_of_links_are_refused(backup, tmp_path, change, said):
    doc = json.loads(json.dumps(backup))
    change(doc)
    message = restore_text(tmp_path, json.dumps(doc))
    assert said in message, message
    assert message.endswith("Nothing was imported."), message
    for token in (backup["games"][0]["editor_token"], backup["games"][1]["editor_token"]):
        assert token not in message  # the message never shows a key to a game
    assert nothing_stored()


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"format": "continental-scorepad-backup", "format_version": 1, "players": [], '
        '"games": [], "evenings": [{"id": 1, "history": ' + "[" * 5000 + "]" * 5000 + "}]}",
    ],
    ids=["deep array", "deep history"],
)
def test_json_nested_too_deeply_is_refused_with_a_message(tmp_path, db, text):
    message = restore_text(tmp_path, text)
    assert "nested too deeply" in message
    assert message.endswith("Nothing was imported.")
    assert nothing_stored()


def test_the_unspoilt_backup_restores(backup, tmp_path):
    assert restore_text(tmp_path, json.dumps(backup)) == ""
    assert Game.objects.count() == 2
    assert Evening.objects.count() == 2


FUZZ = settings(
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)
TRUST_VALUES = st.one_of(
    json_values,
    st.sampled_from(
        ["", "2024-02-30T10:00:00", "9999-12-31T23:59:59-05:00", 2**63, 2**64, -(2**63) - 1]
    ),
)
BACKUP_KEYS = ["players", "games", "evenings", "id", "created_at", "updated_at", "version",
               "viewer_token", "editor_token", "next_evening", "history", "at", "deal_number",
               "form_token", "deals", "games", "position", "carried", "cents", "stake",
               "seats", "details"]  # fmt: skip


@FUZZ
@given(
    path=st.lists(
        st.one_of(st.sampled_from(BACKUP_KEYS), st.integers(0, 2)), min_size=1, max_size=5
    ),
    value=TRUST_VALUES,
)
@example(path=["players", 0, "created_at"], value="2024-02-30T10:00:00")
@example(path=["games", 0, "id"], value=2**63)
@example(path=["evenings", 0, "next_evening"], value=1)
@example(path=["games", 0, "viewer_token"], value="")
def test_a_spoilt_backup_restores_or_is_refused_with_a_message(backup, tmp_path, path, value):
    """Whatever the spoilt value, the restore ends in one of two ways: all of it restored,
    or a message and nothing stored; never an uncaught exception."""
    empty()
    message = restore_text(tmp_path, json.dumps(spoil(backup, path, value)))
    if message:
        assert message.endswith("Nothing was imported."), message
        assert nothing_stored()
    else:
        assert Game.objects.exists()
