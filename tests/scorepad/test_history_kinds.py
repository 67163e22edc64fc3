"""The history renders every kind of entry the models write, in every language, for the
editor and the viewer, and old or broken entries (a backup keeps whatever shape an event had)
never make it answer 500 (issue 21, items 1 and 4)."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.forms.deals import ClassicDealForm
from scorepad.models import Event
from tests.factories import ACTOR, GameFactory, classic_form_data, record_classic, seats
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "nb", "pl", "fi", "es"]
MADE_BY_THE_MODELS = {
    "started", "recorded", "edited", "deleted", "undone", "restored", "joined", "left",
    "returned", "renamed", "target", "finished", "resumed", "link_replaced",
}  # fmt: skip


def once(n: int) -> str:
    return f"history-kinds-{n:04d}-0123456789"


def classic_result(game, winner, number=None, **fields):
    game.refresh_from_db()
    data = classic_form_data(game, winner, **fields)
    playing = [s for s in seats(game) if s.active]
    form = ClassicDealForm(data, game=game, seats=playing, deal=number)
    assert form.is_valid(), form.errors
    return form.result


def post(client, game, name, data):
    game.refresh_from_db()
    answer = client.post(
        reverse(name, kwargs={"token": game.editor_token}),
        {"version": game.version, **data},
    )
    assert answer.status_code == 302, answer.content.decode()[:500]


@pytest.fixture
def every_kind(db):
    """A classic game whose history holds an entry of every kind the models write."""
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    Event.objects.create(game=game, kind="started", actor="creator", details={"draw": None})
    editor = own(Client(), game)
    n = iter(range(1000))

    def v():
        game.refresh_from_db()
        return {"version": game.version, "once": once(next(n)), "actor": ACTOR}

    game.join("Dora", 5, **v())
    record_classic(game, 0, jokers=1)
    record_classic(game, 1)
    record_classic(game, 2, wild_twos=1)
    game.edit_deal(2, classic_result(game, 3, number=2), **v())
    game.seat_leaves(3, **v())
    game.seat_leaves(3, back=True, **v())
    game.rename(0, "Anneliese", **v())
    game.set_target(500, None, **v())
    game.delete_deal(1, **v())
    game.undo_last_deal(**v())
    post(editor, game, "deal-redo", {"once": once(900)})
    deleted = game.events.get(kind="deleted")
    post(editor, game, "deal-restore", {"event": deleted.pk, "once": once(901)})
    game.end(**v())
    game.reopen(**v())
    game.replace_link("viewer", **v())
    game.refresh_from_db()
    assert set(game.events.values_list("kind", flat=True)) == MADE_BY_THE_MODELS
    return game


def history(client, game, token, lang):
    with translation.override(lang):
        return client.get(reverse("game-history", kwargs={"token": token}))


def entry(body: str, label: str) -> str:
    """The text of the first history entry whose heading is ``label``."""
    for item in re.findall(
        r'<li class="card-box">(.*?)</li>\s*(?=<li class="card-box">|</ol>)', body, re.S
    ):
        if f"<strong>{label}" in item:
            return item
    raise AssertionError(f"no entry {label!r}")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("who", ["editor", "viewer"])
def test_every_kind_of_entry_renders_in_every_language(every_kind, lang, who):
    game = every_kind
    client = own(Client(), game) if who == "editor" else Client()
    token = game.editor_token if who == "editor" else game.viewer_token
    answer = history(client, game, token, lang)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert body.count('<li class="card-box">') == game.events.count()
    with translation.override(lang):
        labels = {str(Event.KINDS["game"][kind]) for kind in MADE_BY_THE_MODELS}
    for label in labels:
        assert f"<strong>{label}" in body, label
    with translation.override(lang):
        renamed = entry(body, str(Event.KINDS["game"]["renamed"]))
    assert "Anna" in renamed
    assert "Anneliese" in renamed
    assert "{" not in renamed
    assert "&#x27;" not in renamed


def test_the_rename_entry_reads_as_a_sentence(every_kind):
    body = history(Client(), every_kind, every_kind.viewer_token, "en").content.decode()
    assert "Anna is now called Anneliese." in entry(body, "Player renamed")


def test_a_rename_kept_by_a_backup_of_any_shape_renders(every_kind):
    """Entries as an older version or a hand-edited backup may have kept them."""
    for details in ({"position": 0, "before": "Anna"}, {"before": {"name": "Anna"}}, "Anna", []):
        Event.objects.create(game=every_kind, kind="renamed", actor="creator", details=details)
    answer = history(Client(), every_kind, every_kind.viewer_token, "de")
    assert answer.status_code == 200


# --- item 4: a deal brought back shows what it came back with -------------------------------


def changes_table(item: str) -> tuple[list[str], list[list[str]]]:
    table = re.search(r'<table class="changes">(.*?)</table>', item, re.S).group(1)
    heads = re.findall(r'<th scope="col">(.*?)</th>', table)
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)]
    return heads, [r for r in rows if r]


@pytest.mark.parametrize("how", ["redo", "bring back"])
def test_a_deal_brought_back_shows_its_scores(db, how):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    editor = own(Client(), game)
    record_classic(game, 0, jokers=1)
    record_classic(game, 1, wild_twos=2)
    game.refresh_from_db()
    taken = game.deals.get(number=2)
    scores = {
        s.seat.name: s.points
        for s in taken.scores.select_related("seat").order_by("seat__position")
    }
    if how == "redo":
        post(editor, game, "deal-undo", {"once": once(1)})
        post(editor, game, "deal-redo", {"once": once(2)})
    else:
        game.refresh_from_db()
        game.delete_deal(2, version=game.version, once=once(1), actor=ACTOR)
        event = game.events.get(kind="deleted")
        post(editor, game, "deal-restore", {"event": event.pk, "once": once(2)})
    body = history(editor, game, game.editor_token, "en").content.decode()
    heads, rows = changes_table(entry(body, "Deal brought back"))
    assert heads == ["Player", "After"]
    expected = [f"+{p}" if p > 0 else (f"−{-p}" if p < 0 else "0") for p in scores.values()]
    assert [r[0] for r in rows] == expected
    assert any(p != 0 for p in scores.values())


# --- any stored shape of any kind ----------------------------------------------------------

# Text a JSON column holds on both databases: PostgreSQL's jsonb refuses NUL and lone surrogates.
STORED_TEXT = st.characters(exclude_categories=("Cs",), exclude_characters="\x00")
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(STORED_TEXT, max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["0", "1", "9", "x"]) | st.text(STORED_TEXT, max_size=5),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
KEYS = ["before", "after", "scores", "draw", "name", "start", "score", "deals", "target",
        "source", "went_out", "payment", "status", "handromme", "position", "link"]  # fmt: skip
DETAILS = JSON.filter(lambda d: d is not None) | st.dictionaries(
    st.sampled_from(KEYS),
    JSON | st.dictionaries(st.sampled_from(KEYS), JSON, max_size=5),
    max_size=6,
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    kind=st.sampled_from([*Event.KINDS["game"], "unknown"]),
    details=DETAILS,
    number=st.none() | st.integers(-3, 2**31 - 1),
)
def test_an_entry_of_any_stored_shape_renders(db, kind, details, number):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0, jokers=1)
    game.refresh_from_db()
    Event.objects.create(game=game, kind=kind, actor="creator", details=details, deal_number=number)
    editor = own(Client(), game)
    for lang in ("en", "pl"):
        assert history(editor, game, game.editor_token, lang).status_code == 200


# --- bringing back a deal from an entry of any stored shape --------------------------------


@pytest.mark.parametrize(
    ("details", "number"),
    [
        ("Anna", 1),
        ([], 1),
        ({"before": "Anna"}, 1),
        ({"before": {"scores": {"x": 3}, "entry": "rows"}}, 1),
        ({"before": {"scores": [1, 2], "entry": [], "went_out": "Anna"}}, 1),
        ({"before": {"scores": {"0": 5}, "status": 7, "went_out": {"a": 1}}}, 1),
        ({"before": {"scores": {"0": 5}}}, None),
        ({"before": {"scores": {"0": 5}}}, 2**31 - 1),
    ],
)
def test_bringing_back_an_entry_of_any_stored_shape_never_answers_500(db, details, number):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    editor = own(Client(raise_request_exception=False), game)
    record_classic(game, 0, jokers=1)
    game.refresh_from_db()
    event = Event.objects.create(
        game=game, kind="undone", actor="creator", details=details, deal_number=number
    )
    rows = list(game.deals.values_list("number", "went_out"))
    for name, data in (("deal-restore", {"event": event.pk}), ("deal-redo", {})):
        game.refresh_from_db()
        answer = editor.post(
            reverse(name, kwargs={"token": game.editor_token}),
            {"version": game.version, "once": once(len(name)), **data},
            follow=True,
        )
        assert answer.status_code == 200, name
        assert "cannot be brought back" in answer.content.decode() or "no deal" in (
            answer.content.decode()
        )
    assert list(game.deals.values_list("number", "went_out")) == rows
    assert history(editor, game, game.editor_token, "fi").status_code == 200
