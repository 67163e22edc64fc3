"""The JSON import, driven by hypothesis with arbitrary documents: NULs, lone surrogates,
huge numbers, deep nesting, and exports of real games with their values spoiled. It never
answers 500, and any game it stores shows its page, history, CSV and JSON, and goes through
the backup and back. (There is no CSV import: the CSV export of each stored game is checked.)"""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorepad.models import Circle, Game
from tests.factories import GameFactory, record_classic, record_penalty

pytestmark = pytest.mark.django_db

FUZZ = settings(
    deadline=None,
    max_examples=80,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,  # the same examples on every run; a found failure stays
)

nasty_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\x00", "A\x00", "\ud800", "x\udfffy", "=SUM(1)", "-", "", " ", "Anna"]),
    st.text(alphabet=st.characters(codec=None, categories=["Cs", "Cc"]), max_size=4),
)
huge_numbers = st.one_of(
    st.integers(),
    st.integers(min_value=10**18, max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([9999999.999, 1e7, -0.0, 1e308, 2**63, -(2**63) - 1]),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.sampled_from(["9999999.999", "1e400", "NaN", "-Infinity", "0.005", "1" * 60]),
)
leaves = st.one_of(st.none(), st.booleans(), huge_numbers, nasty_text)
json_values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(nasty_text, inner, max_size=4)
    ),
    max_leaves=20,
)


class Raw(str):
    """JSON text sent as it is (nesting too deep for json.dumps to write)."""


DEEP = Raw("[" * 50_000 + "]" * 50_000)
DEEP_PLAYERS = Raw(
    '{"format": "continental-scorepad", "format_version": 1, "variant": "classic", '
    '"players": ' + "[" * 3000 + '"x"' + "]" * 3000 + "}"
)
DEEP_DEAL = Raw(
    '{"format": "continental-scorepad", "format_version": 1, "variant": "romme", '
    '"players": ["A", "B"], "deals": [{"status": "scored", "went_out": 0, "entry": '
    '{"left": {"1": ' + '{"points": ' * 900 + "1" + "}" * 900 + "}}}]}"
)


KEYS = ["format", "format_version", "variant", "options", "schedule", "players",
        "first_dealer", "status", "value_per_point", "deals", "scores", "went_out",
        "entry", "handromme"]  # fmt: skip


@pytest.fixture(scope="module")
def exports(django_db_setup, django_db_blocker):
    """JSON exports of a game of each variant, made once."""
    from django.test import Client

    with django_db_blocker.unblock():
        classic = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
        classic.value_per_point = "0.50"
        classic.save()
        record_classic(classic, 0, jokers=1)
        record_classic(
            classic, 1, mode="hand", hand="4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"
        )
        nordic = GameFactory(variant_id="contract-nordic", players=3)
        record_penalty(nordic, 0, {1: 10, 2: 5})
        romme = GameFactory(variant_id="romme", players=2)
        record_penalty(romme, 1, {0: 30})
        client = Client()
        docs = [
            json.loads(
                client.get(reverse("game-export-json", kwargs={"token": g.viewer_token})).content
            )
            for g in (classic, nordic, romme)
        ]
        # Made outside a test's transaction: leave the database as empty as it was.
        Game.objects.all().delete()
        Circle.objects.all().delete()
    return docs


def spoil(doc: dict, path: list, value):
    """``doc`` with the value at ``path`` (keys or indexes, as far as they lead) replaced."""
    doc = json.loads(json.dumps(doc))
    node = doc
    for step in path[:-1]:
        in_dict = isinstance(node, dict) and step in node
        in_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        if (in_dict or in_list) and isinstance(node[step], dict | list):
            node = node[step]
    last = path[-1]
    if isinstance(node, dict):
        node[last if isinstance(last, str) else str(last)] = value
    elif isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node):
        node[last] = value
    return doc


def check_import(client, document) -> None:
    before = set(Game.objects.values_list("pk", flat=True))
    text = document if isinstance(document, Raw) else json.dumps(document)
    response = client.post(reverse("game-import"), {"text": text})
    assert response.status_code in (200, 302), response.status_code
    created = set(Game.objects.values_list("pk", flat=True)) - before
    assert (response.status_code == 302) == bool(created)
    for pk in created:
        assert_game_is_sound(client, Game.objects.get(pk=pk))


def assert_game_is_sound(client, game: Game) -> None:
    token = {"token": game.editor_token}
    for name in ("game", "game-history", "game-export-json", "game-share"):
        assert client.get(reverse(name, kwargs=token)).status_code == 200, name
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("game-export-csv", kwargs=token)).content.decode())
        )
    )
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
    again = json.loads(client.get(reverse("game-export-json", kwargs=token)).content)
    assert "\x00" not in json.dumps(again, ensure_ascii=False)
    if game.value_per_point is not None:
        assert game.value_per_point.as_tuple().exponent == -2
        assert 0 < game.value_per_point < 10**7
    out = io.StringIO()
    call_command("backup", "export", stdout=out)  # exit 0: no damaged game
    backup = json.loads(out.getvalue())
    assert game.pk in [g["id"] for g in backup["games"]]


@FUZZ
@given(document=json_values)
@example(document=DEEP)
@example(document=DEEP_PLAYERS)
@example(document=DEEP_DEAL)
def test_any_json_value_imports_or_is_refused_without_a_500(client, document):
    check_import(client, document)


@FUZZ
@given(
    which=st.integers(0, 2),
    path=st.lists(st.one_of(st.sampled_from(KEYS), st.integers(0, 3)), min_size=1, max_size=4),
    value=json_values,
)
@example(which=0, path=["value_per_point"], value="9999999.999")
@example(which=0, path=["players", 0], value="An\x00na")
@example(which=1, path=["players", 1], value="\ud800")
@example(which=2, path=["deals", 0, "entry", "left", "0", "points"], value=10**400)
@example(which=0, path=["players", 2], value='=HYPERLINK("http://x","y")')
@example(which=0, path=["value_per_point"], value=math.inf)
def test_a_spoiled_export_imports_soundly_or_is_refused(client, exports, which, path, value):
    check_import(client, spoil(exports[which], path, value))
