"""A deal's POST reads the new version's rows once for both the answers it renders (issue 24,
scorepad/reading.py): the viewers' answer kept in the change's transaction and the editor's
answer after it. What each answer shows stays its own: the same HTML as a fresh rendering,
the editor's links only in the editor's answer."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import prefetch_related_objects
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorepad import board, reading, warm
from scorepad.models import Game
from scorepad.sheet import sheet_prefetch
from tests.factories import ACTOR, classic_form_data, record_classic
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "game"}


@pytest.fixture(autouse=True)
def streams_on(settings):
    settings.LIVE_STREAMS = True
    cache.clear()
    yield
    cache.clear()


def _post_a_deal(game: Game, editor: Client, lang: str = "de") -> str:
    """A deal saved from the editor's phone with htmx: the answer is the new sheet."""
    with translation.override(lang):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    saved = editor.post(url, classic_form_data(game, 2, jokers=1), **HTMX)
    assert saved.status_code == 200, saved.status_code
    return saved.content.decode()


def _viewers_answer(game: Game, version: int, lang: str = "de") -> str | None:
    with translation.override(lang):
        return board.get_answer(board.viewer_key(game.pk, version))


def _fresh(client: Client, token: str, version: int, lang: str = "de") -> str:
    with translation.override(lang):
        url = reverse("game-version", kwargs={"token": token}) + f"?v={version - 1}"
    return client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="sheet").content.decode()


def _after_the_bump(queries: list[str]) -> list[str]:
    start = next(i for i, sql in enumerate(queries) if sql.startswith('UPDATE "scorepad_game"'))
    return queries[start + 1 :]


@pytest.mark.django_db(transaction=True)  # the viewers' answer is kept as the change commits
def test_the_answers_of_a_deal_read_its_rows_once(game):
    record_classic(game, 0)
    editor = own(Client(), game)
    with CaptureQueriesContext(connection) as captured:
        answer = _post_a_deal(game, editor)
    queries = _after_the_bump([q["sql"] for q in captured.captured_queries])
    reads = [sql for sql in queries if sql.startswith("SELECT")]

    def reading_of(table: str) -> list[str]:
        return [sql for sql in reads if re.search(rf'FROM "{table}"', sql)]

    # After the change wrote them, neither answer reads the seats, deals or scores again.
    assert reading_of("scorepad_seat") == []
    assert reading_of("scorepad_deal") == []
    assert reading_of("scorepad_dealscore") == []
    # Nor the last history entry (another phone's values replaced?): the change that wrote
    # it hands it to both answers.
    assert reading_of("scorepad_gameevent") == []
    # Nor is the game asked whether it is still at the version its change made.
    assert not [sql for sql in reads if '"scorepad_game"."version" =' in sql]
    # Both answers are what a phone renders itself afterwards, from the database.
    kept = _viewers_answer(game, 3)
    assert kept is not None
    assert "?v=3" in kept
    cache.clear()
    assert _fresh(Client(), game.viewer_token, 3) == kept
    assert "Ben" in answer
    assert "?v=3" in answer
    fresh_editor = _fresh(editor, game.editor_token, 3)
    # The editor's fresh sheet has the same rows, links and held form (its one-time tokens
    # are its own).
    strip = re.compile(r'name="(once|csrfmiddlewaretoken)" value="[^"]*"')
    sheet = re.compile(r'<section id="sheet".*?\n  </section>', re.S)
    shown, rendered = sheet.search(answer), sheet.search(fresh_editor)
    assert shown
    assert rendered
    assert strip.sub("", shown.group(0)) == strip.sub("", rendered.group(0))
    assert f"/{game.editor_token}/deals/2/" in shown.group(0)  # the editor's correction link


@pytest.mark.django_db(transaction=True)
def test_a_finished_games_standings_stay_the_editors_and_the_viewers_own(game):
    """The standings of a game in play are rendered once for both answers; a finished
    game's carry the editor's settle-up link and play-again reference: each its own."""
    Game.objects.filter(pk=game.pk).update(target_deals=2)
    game.refresh_from_db()
    record_classic(game, 0)
    editor = own(Client(), game)
    answer = _post_a_deal(game, editor)
    game.refresh_from_db()
    assert game.is_finished
    kept = _viewers_answer(game, 3)
    assert kept is not None
    settle = re.compile(r'<section class="settle".*?</section>', re.S)
    editor_settle = settle.search(answer)
    viewer_settle = settle.search(kept)
    assert editor_settle
    assert viewer_settle
    assert game.editor_token in editor_settle.group(0)
    assert game.editor_token not in kept
    assert game.viewer_token in viewer_settle.group(0)


def test_the_editors_answer_shows_the_deal_when_the_viewers_answer_fails(game, monkeypatch):
    """A viewers' answer that fails leaves nothing pinned half made: the editor's answer is
    rendered from the same rows and shows the new deal."""
    record_classic(game, 0)

    def broken(*args, **kwargs):
        raise RuntimeError("the viewers' answer failed")

    monkeypatch.setattr(warm, "warm", broken)
    answer = _post_a_deal(game, own(Client(), game))
    assert "?v=3" in answer
    assert _viewers_answer(game, 3) is None
    cache.clear()
    assert "+9" in _fresh(Client(), game.viewer_token, 3)


def test_pins_live_as_long_as_their_request(game):
    assert reading.pinned(game) is None
    with reading.scope():
        reading.pin(game, game.version)
        assert reading.pinned(game) is not None
        made = []
        assert reading.once(game, "x", lambda: made.append(1) or "a") == "a"
        assert reading.once(game, "x", lambda: made.append(1) or "b") == "a"
        with translation.override("nb"):  # another language is worked out again
            assert reading.once(game, "x", lambda: made.append(1) or "c") == "c"
        assert made == [1, 1]
        other = Game.objects.get(pk=game.pk)
        other.version += 1  # the same game at another version: not these rows
        assert reading.pinned(other) is None
        reading.unpin(game, game.version)
        assert reading.pinned(game) is None
    assert reading.pinned(game) is None
    reading.pin(game, game.version)  # outside a request nothing is pinned
    assert reading.pinned(game) is None
    assert reading.once(game, "x", lambda: "d") == "d"


class Stopped(BaseException):
    """What stops a worker in the middle of a request (not an Exception: warm lets it pass)."""


def test_a_change_that_does_not_commit_leaves_no_rows_pinned(game, monkeypatch):
    record_classic(game, 0)
    game = Game.objects.get(pk=game.pk)
    prefetch_related_objects([game], *sheet_prefetch())  # loaded, as a deal's form loads them
    rows = game.loaded_rows(game.version)
    assert rows is not None

    def stopped(game):
        raise Stopped

    version = game.version
    with reading.scope():
        with pytest.raises(Stopped):
            game.change(
                version=version, once=None, actor=ACTOR, kind="renamed", apply=stopped, rows=rows
            )
        assert game.loaded_rows(version) is None  # what the change had loaded is forgotten
        game.version = version + 1
        assert reading.pinned(game) is None


def test_the_notes_of_a_correction_come_from_its_pinned_entry_as_from_the_history(game):
    """A correction that overwrote another phone's values: the change hands its history
    entry to the answers of its request (no query), and the notes they render of it are
    the ones a later answer reads from the database."""
    from scorepad.access import Access
    from scorepad.forms.deals import ClassicDealForm
    from scorepad.views.common import replaced_notes
    from scorepad.views.writes import after_commit
    from tests.factories import seats

    record_classic(game, 0)
    game = Game.objects.get(pk=game.pk)
    prefetch_related_objects([game], *sheet_prefetch())
    data = {**classic_form_data(game, 1, jokers=2), "version": str(game.version)}
    form = ClassicDealForm(data, game=game, seats=[s for s in seats(game) if s.active])
    assert form.is_valid(), form.errors
    replaced = [{"field": "jokers", "was": "1", "now": "2", "device": "iphone-3f2a"}]
    with reading.scope(), CaptureQueriesContext(connection) as captured:
        event = game.edit_deal(
            1, form.result, version=game.version, once=data["once"], actor=ACTOR, replaced=replaced
        )
        access = Access(game, game.editor_token, "editor", "editor_link")
        after_commit(RequestFactory().post("/"), access, event)
        assert reading.pinned(game) is not None
        start = len(captured.captured_queries)
        handed = replaced_notes(Access(game, game.editor_token, "editor", "editor_link"))
        asked = captured.captured_queries[start:]
    assert not [q for q in asked if 'FROM "scorepad_event"' in q["sql"]]
    read = replaced_notes(Access(Game.objects.get(pk=game.pk), game.editor_token, "editor", "x"))
    assert handed == read
    assert handed[0][0] == "iphone-3f2a"
    assert handed[0][1] == (
        "Deal 1 · Jokers used · The other phone's correction was kept. Yours: 1. Now: 2."
    )


# The note of issue 45: the field's label, a question, and the choice's values stand on their
# own (German once read "Deine Nein für Fertig im ersten Zug?"): whole sentences, values after
# their labels.
FIRST_TURN_NOTES = {
    "en": "Deal 1 · Out on the first turn? · The other phone's correction was kept. "
    "Yours: No. Now: Yes, after drawing.",
    "de": "Runde 1 · Fertig im ersten Zug? · Die Korrektur des anderen Handys gilt. "
    "Deine Angabe: Nein. Jetzt: Ja, nach dem Ziehen.",
    "nb": "Giv 1 · Gikk ut i første tur? · Rettelsen fra den andre telefonen gjelder. "
    "Din verdi: Nei. Nå: Ja, etter å ha trukket.",
    "pl": "Rozdanie 1 · Zakończenie w pierwszym ruchu? · Obowiązuje poprawka z drugiego "
    "telefonu. Twoja wartość: Nie. Teraz: Tak, po dobraniu.",
    "fi": "Jako 1 · Tyhjenikö käsi ensimmäisellä vuorolla? · Toisen puhelimen korjaus on "
    "voimassa. Sinun arvosi: Ei. Nyt: Kyllä, noston jälkeen.",
    "es": "Ronda 1 · ¿Cerró en el primer turno? · Vale la corrección del otro móvil. "
    "Tu valor: No. Ahora: Sí, después de robar.",
}


@pytest.mark.parametrize("lang", sorted(FIRST_TURN_NOTES))
def test_the_note_of_a_replaced_answer_keeps_the_question_and_the_values_whole(game, lang):
    from scorepad.access import Access
    from scorepad.forms.deals import ClassicDealForm
    from scorepad.views.common import replaced_notes
    from tests.factories import seats

    record_classic(game, 0)
    game = Game.objects.get(pk=game.pk)
    data = {**classic_form_data(game, 1, first_turn="drawn"), "version": str(game.version)}
    form = ClassicDealForm(data, game=game, seats=[s for s in seats(game) if s.active])
    assert form.is_valid(), form.errors
    replaced = [{"field": "first_turn", "was": "", "now": "drawn", "device": "pixel-1"}]
    game.edit_deal(
        1, form.result, version=game.version, once=data["once"], actor=ACTOR, replaced=replaced
    )
    access = Access(Game.objects.get(pk=game.pk), game.editor_token, "editor", "editor_link")
    with translation.override(lang):
        assert replaced_notes(access) == [["pixel-1", FIRST_TURN_NOTES[lang]]]
