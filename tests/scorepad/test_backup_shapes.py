"""``manage.py backup import`` reads every value of the file with the type, range and length
of the column it goes to ("Trust, part three", item 9): a value of the wrong shape (an id
that is a list, a next evening that is an object, a one-time token that is a list, a number
of 5,000 digits, which Python will not even read) is refused with one line that names where
it stands, never a traceback; and a text longer than its column (a carried balance's name of
10,000 characters, a history entry's kind, actor or device of 500) is refused on SQLite too,
which would keep it where PostgreSQL refuses it, so every backup that restores into one
database restores into the other. A hypothesis fuzz puts wrong types, lengths and numbers at
every place of a real backup. Run on SQLite and on PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models.functions import Length
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext, override
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorepad.backupfile import Column, Items, schema
from scorepad.models import Circle, Evening, EveningBalance, Event, Game
from tests.scorepad.test_backup_trust import (
    make_backup,
    nothing_stored,
    restore_text,  # any exception but CommandError fails the test (a traceback)
)
from tests.scorepad.test_import_fuzz import json_values, spoil

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def backup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        return make_backup()


class Raw(str):
    """JSON text put into the file as it is (a number json.dumps will not write)."""


HUGE = Raw("9" * 5000)  # past Python's 4,300 digits: int() raises ValueError
NEGATIVE_HUGE = Raw("-" + "1" * 4301)
NAN = Raw("NaN")
INFINITY = Raw("1e400")  # a float past the largest: inf


def file_text(document: dict, path: list, value) -> str:
    """The backup with ``value`` at ``path``, as JSON text (a Raw value written as it is)."""
    if not isinstance(value, Raw):
        return json.dumps(spoil(document, path, value))
    marker = "\ue000raw\ue000"
    return json.dumps(spoil(document, path, marker)).replace(json.dumps(marker), value)


def carried_evening(document: dict) -> int:
    """The place in ``evenings`` of the evening the balances were carried into."""
    return next(i for i, e in enumerate(document["evenings"]) if e["carried"])


def assert_refused(message: str, where: str) -> None:
    assert message, "restored"
    assert "\n" not in message, message
    assert message.startswith(where + ": "), message
    assert message.endswith("Nothing was imported."), message
    assert "The database refused" not in message, message
    assert " is not readable (" not in message, message
    assert nothing_stored()


# --- the four files of the issue -------------------------------------------------------------
HOSTILE = {
    "an evening id that is a list": (["evenings", 0, "id"], [1], "evenings[0].id"),
    "a next evening that is an object": (
        ["evenings", 0, "next_evening"],
        {"id": 2},
        "evenings[0].next_evening",
    ),
    "a history form_token that is a list": (
        ["games", 0, "history", 0, "form_token"],
        ["x" * 20],
        "games[0].history[0].form_token",
    ),
    "a 5,000-digit id": (["games", 1, "id"], HUGE, "games[1].id"),
}


@pytest.mark.parametrize(("path", "value", "where"), HOSTILE.values(), ids=HOSTILE.keys())
def test_a_value_of_the_wrong_shape_is_refused_in_one_line_naming_its_place(
    backup, tmp_path, path, value, where
):
    assert_refused(restore_text(tmp_path, file_text(backup, path, value)), where)


NUMBERS = {
    "5,000 digits in a carried balance": (["evenings", "carried", 0, "cents"], HUGE),
    "5,000 digits in a history's details": (["games", 0, "history", 0, "details"], HUGE),
    "5,000 digits in a deal's scores": (["games", 0, "deals", 0, "scores", 0], HUGE),
    "4,301 negative digits in a stake": (["evenings", 0, "games", 0, "stake"], NEGATIVE_HUGE),
    "NaN in a history's details": (["games", 1, "history", 0, "details", "x"], NAN),
    "an infinity in a deal's entry": (["games", 1, "deals", 0, "entry"], INFINITY),
}


@pytest.mark.parametrize(("path", "value"), NUMBERS.values(), ids=NUMBERS.keys())
def test_a_number_no_database_keeps_is_refused_wherever_it_stands(backup, tmp_path, path, value):
    if path[1] == "carried":
        path = ["evenings", carried_evening(backup), *path[1:]]
    where = f"{path[0]}[{path[1]}]" + "".join(
        f"[{step}]" if isinstance(step, int) else f".{step}" for step in path[2:]
    )
    assert_refused(restore_text(tmp_path, file_text(backup, path, value)), where)


@pytest.mark.parametrize("value", [HUGE, NEGATIVE_HUGE])
def test_a_number_of_more_digits_than_python_reads_is_refused_at_the_top_too(
    backup, tmp_path, value
):
    message = restore_text(tmp_path, file_text(backup, ["format_version"], value))
    assert_refused(message, "format_version")


@pytest.mark.parametrize("key", HOSTILE.keys())
def test_the_command_line_shows_one_line_and_no_traceback(backup, tmp_path, key):
    """The four files of the issue through ``manage.py backup import`` itself: exit status 1
    and a single line on stderr. (Each is refused before the database is opened.)"""
    path, value, where = HOSTILE[key]
    file = tmp_path / "hostile.json"
    file.write_text(file_text(backup, path, value), encoding="utf-8")
    env = {**os.environ, "DATA_DIR": str(tmp_path / "data"), "SECRET_KEY": "x" * 50}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "backup", "import", str(file)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"CommandError: {where}: "), lines[0]


# --- texts longer than their column ----------------------------------------------------------
LONG = {
    "a carried balance's name of 10,000": (["evenings", "carried", 0, "name"], 10_000),
    "a game history's kind of 500": (["games", 0, "history", 0, "kind"], 500),
    "a game history's actor of 500": (["games", 1, "history", 0, "actor"], 500),
    "a game history's device of 500": (["games", 0, "history", 0, "device"], 500),
    "an evening history's kind of 500": (["evenings", 0, "history", 0, "kind"], 500),
    "an evening history's actor of 17": (["evenings", 0, "history", 0, "actor"], 17),
    "a person's name of 41": (["circles", 0, "people", 0, "name"], 41),
    "a circle's name of 10,000": (["circles", 0, "name"], 10_000),
    "an evening's name of 41": (["evenings", 0, "name"], 41),
    "a one-time token of 65": (["games", 0, "history", 0, "form_token"], 65),
}


@pytest.mark.parametrize(("path", "length"), LONG.values(), ids=LONG.keys())
def test_a_text_longer_than_its_column_is_refused_on_every_database(backup, tmp_path, path, length):
    """SQLite would keep it (it does not enforce a column's length) and PostgreSQL refuse it."""
    if path[1] == "carried":
        path = ["evenings", carried_evening(backup), *path[1:]]
    where = f"{path[0]}[{path[1]}]" + "".join(
        f"[{step}]" if isinstance(step, int) else f".{step}" for step in path[2:]
    )
    message = restore_text(tmp_path, file_text(backup, path, "é" * length))
    assert_refused(message, where)
    assert f"a text of {length} characters" in message


def test_a_text_as_long_as_its_column_restores(backup, tmp_path):
    at = carried_evening(backup)
    document = spoil(backup, ["evenings", at, "carried", 0, "name"], "é" * 40)
    document = spoil(document, ["games", 0, "history", 0, "device"], "d" * 16)
    assert restore_text(tmp_path, json.dumps(document)) == ""
    assert EveningBalance.objects.filter(name="é" * 40).exists()
    assert Event.objects.filter(device="d" * 16).exists()


def columns(rule) -> list[Column]:
    if isinstance(rule, Column):
        return [rule]
    if isinstance(rule, Items):
        return columns(rule.rule)
    return [column for inner in rule.keys.values() for column in columns(inner)]


@pytest.mark.parametrize("old", [False, True], ids=["format 2", "format 1"])
def test_every_value_the_restore_reads_has_its_model_field_s_rule(old):
    """Each rule is a model field's (no second list of lengths and ranges to keep in step),
    and each field is of a kind the reader knows."""
    found = columns(schema(old))
    assert len(found) >= 40
    for column in found:
        field = column.model._meta.get_field(column.name)
        said = column.expected()
        if isinstance(field, models.CharField):
            assert said == f"a text of at most {field.max_length} characters"
        elif not isinstance(field, models.DateTimeField | models.DecimalField | models.JSONField):
            assert said.startswith("a whole number from "), (column, said)


# --- what a column holds once ----------------------------------------------------------------
def same_game_id(doc):
    doc["games"][1]["id"] = doc["games"][0]["id"]


def same_evening_id(doc):
    doc["evenings"][1]["id"] = doc["evenings"][0]["id"]


def two_evenings_carried_into_one(doc):
    third = {**doc["evenings"][0], "id": 999, "games": [], "carried": [], "history": []}
    third.update(viewer_token="v" * 24, editor_token="e" * 24)
    doc["evenings"].append(third)


def a_balance_named_twice(doc):
    carried = doc["evenings"][carried_evening(doc)]["carried"]
    carried[1]["name"] = carried[0]["name"]


ONCE = {
    "two games of one id": (same_game_id, "games[1].id: the same id as games[0].id."),
    "two evenings of one id": (same_evening_id, "evenings[1].id: the same id as evenings[0].id."),
    "two evenings carried into one": (
        two_evenings_carried_into_one,
        "evenings[2].next_evening: the same next evening as evenings[0].next_evening.",
    ),
    "a carried balance's name twice": (a_balance_named_twice, "carried[1].name: the same name as"),
}


@pytest.mark.parametrize(("change", "said"), ONCE.values(), ids=ONCE.keys())
def test_what_a_column_holds_once_is_refused_twice_with_both_places(backup, tmp_path, change, said):
    """Both databases refuse these too, but PostgreSQL's refusal runs to two lines (its
    DETAIL) and names a constraint, not the place in the file."""
    document = json.loads(json.dumps(backup))
    change(document)
    message = restore_text(tmp_path, json.dumps(document))
    assert said in message, message
    assert "\n" not in message, message
    assert message.endswith("Nothing was imported."), message
    assert nothing_stored()


# --- any shape at any place ------------------------------------------------------------------
def places(node, path=()):
    """Every place of a JSON document (keys and indexes), containers as well as leaves."""
    if path:
        yield list(path)
    if isinstance(node, dict):
        for key, value in node.items():
            yield from places(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from places(value, (*path, i))


INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges


def stored_rows_fit_postgresql() -> list[str]:
    """What SQLite holds and PostgreSQL would refuse: a text past its column's length, a
    whole number past its column's range. Empty when the restore could move on as it is."""
    misfits = []
    for model in apps.get_app_config("scorepad").get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, models.CharField) and field.max_length:
                rows = model.objects.annotate(n=Length(field.name)).filter(n__gt=field.max_length)
                if rows.exists():
                    misfits.append(f"{model.__name__}.{field.name}")
            kind = field.get_internal_type() if not field.is_relation else None
            if kind in INTEGER_RANGES:
                low, high = INTEGER_RANGES[kind]
                name = field.attname
                rows = model.objects.filter(**{f"{name}__lt": low}) | model.objects.filter(
                    **{f"{name}__gt": high}
                )
                if rows.exists():
                    misfits.append(f"{model.__name__}.{field.name}")
    return misfits


def empty():
    Evening.objects.all().delete()
    Game.objects.all().delete()
    Circle.objects.all().delete()


ODD = [None, True, False, 0, -1, 1.5, "", "x", [], {}, [1], {"id": 1}, ["x"], 2**15, 2**31,
       2**31 - 1, 2**63, -(2**63) - 1, 10**30, "2024-02-30T10:00:00", "0.005", "1e9"]  # fmt: skip
WRONG = st.one_of(
    st.sampled_from(ODD),
    st.sampled_from([15, 16, 17, 40, 41, 64, 65, 500, 10_000]).map(lambda n: "k" * n),
    st.sampled_from([HUGE, NEGATIVE_HUGE, NAN, INFINITY]),
    json_values,
)
FUZZ = settings(
    deadline=None,
    max_examples=120,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)


@FUZZ
@given(place=st.integers(0, 10_000), value=WRONG)
@example(place=-1, value=[1])
def test_any_value_anywhere_restores_portably_or_is_refused_in_one_line(
    backup, tmp_path, place, value
):
    """Whatever value stands wherever in a real backup, the restore ends one of two ways:
    restored, with nothing PostgreSQL would refuse (on SQLite); or one line saying where,
    and nothing stored. Never a traceback, and never the database refusing it (which on
    SQLite would mean restoring what PostgreSQL refuses, and the other way round)."""
    all_places = list(places(backup))
    path = ["evenings", 0, "id"] if place < 0 else all_places[place % len(all_places)]
    empty()
    message = restore_text(tmp_path, file_text(backup, path, value))
    if message:
        assert "\n" not in message, message
        assert message.endswith("Nothing was imported."), message
        assert "The database refused" not in message, message
        assert nothing_stored()
    else:
        assert Game.objects.exists()
        assert stored_rows_fit_postgresql() == []


# --- the game import page ------------------------------------------------------------------
# It shares scorepad.transfer with the restore (a game's entry of a backup is a game's export)
# but not the backup's own keys, and parses the JSON itself: a number Python will not read is
# "not a JSON export of a game" in the page's language, never a 500. These pass on the old code
# too; they keep it so.
LANGUAGES = ["en", "de", "nb", "pl", "fi", "es"]


def post_import(lang: str, text: str):
    """The import page of ``lang`` posted ``text``, from a phone of its own."""
    with override(lang):
        return Client().post(reverse("game-import"), {"text": text})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "path",
    [["first_dealer"], ["deals", 0, "scores", 0], ["history", 0, "details"]],
    ids=["first dealer", "a score", "a history's details"],
)
def test_the_import_page_refuses_a_5000_digit_number_in_the_page_s_language(backup, lang, path):
    response = post_import(lang, file_text(backup["games"][0], path, HUGE))
    assert response.status_code == 200
    with override(lang):
        said = escape(gettext("This is not a JSON export of a game."))
    assert said in response.content.decode()
    assert not Game.objects.exists()


OWN_KEYS = {
    "an id that is a list": (["id"], [1]),
    "a history form_token that is a list": (["history", 0, "form_token"], ["x" * 20]),
    "a circle that is an object": (["circle"], {"id": 1}),
    "a version of 10,000 characters": (["version"], "v" * 10_000),
    "a history kind of 500 characters": (["history", 0, "kind"], "k" * 500),
}


@pytest.mark.parametrize(("path", "value"), OWN_KEYS.values(), ids=OWN_KEYS.keys())
def test_the_import_page_does_not_read_what_a_backup_adds_to_a_game(backup, path, value):
    """A game's entry of a backup, with such shapes in what the backup adds (its id, circle,
    version, history), imports as the game export it also is: the page reads none of it."""
    response = post_import("de", file_text(backup["games"][0], path, value))
    assert response.status_code == 302
    assert Game.objects.count() == 1
