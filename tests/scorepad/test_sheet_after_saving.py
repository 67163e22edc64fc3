"""A save through htmx is answered with the sheet it made (issue 24): the phone swaps it in
from the POST's own answer instead of following a redirect and asking again. Rendered from
the rows the write left, after its transaction committed; the message, the address and the
language are those the redirect gave; a form posted without JavaScript still redirects."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorepad.models import Event, Game
from scorepad.views import common
from tests.factories import GameFactory, classic_form_data, record_classic
from tests.scorepad.conftest import own

HTMX = {"HX-Request": "true", "HX-Target": "game"}


def _table(deals: int = 2) -> tuple[Game, Client]:
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    for n in range(deals):
        record_classic(game, n % 4)
    game.refresh_from_db()
    return game, own(Client(), game)


def _url(name: str, game: Game, lang: str = "en", **kwargs) -> str:
    with translation.override(lang):
        return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def _sheet(html: str) -> str:
    """The sheet of an answer, without its own one-time token and CSRF token."""
    start = html.index('<section id="sheet"')
    sheet = html[start : html.index('<div class="poll"', start)]
    return re.sub(r'name="(once|csrfmiddlewaretoken)" value="[^"]*"', "", sheet)


def _rows(html: str) -> int:
    return len(re.findall(r'<th scope="row" class="num"><a ', html))


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["de", "nb"])
def test_an_htmx_deal_is_answered_with_the_sheet_in_the_phones_language(lang):
    game, phone = _table(2)
    answer = phone.post(_url("deal-new", game, lang), classic_form_data(game, 1), headers=HTMX)
    assert answer.status_code == 200
    assert answer["HX-Push-Url"] == _url("game", game, lang)
    html = answer.content.decode()
    assert _rows(html) == 3, "the new deal is not on the sheet answered"
    with translation.override(lang):
        message = str(translation.gettext("Deal %(n)d recorded.") % {"n": 3})
    assert message in html
    assert message != "Deal 3 recorded."
    game.refresh_from_db()
    assert game.deals.count() == 3
    assert f'name="version" value="{game.version}"' in html, "the next write's version"
    # What the phone shows is what the game page shows now (the message is said once).
    again = phone.get(_url("game", game, lang), headers=HTMX)
    assert _sheet(again.content.decode()) == _sheet(html)
    assert message not in again.content.decode()


@pytest.mark.django_db
def test_a_form_posted_without_javascript_still_redirects_to_the_sheet():
    game, phone = _table(2)
    answer = phone.post(_url("deal-new", game), classic_form_data(game, 0))
    assert answer.status_code == 302
    assert answer["Location"] == _url("game", game)
    assert "Deal 3 recorded." in phone.get(answer["Location"]).content.decode()


@pytest.mark.django_db
def test_a_correction_and_an_undo_through_htmx_answer_with_their_sheet():
    game, phone = _table(3)
    before = game.seats.get(position=2).total
    data = classic_form_data(game, 2)
    answer = phone.post(_url("deal-edit", game, number=1), data, headers=HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Deal 1 corrected." in html
    game.refresh_from_db()
    assert game.seats.get(position=2).total != before
    assert _sheet(html) == _sheet(phone.get(_url("game", game), headers=HTMX).content.decode())

    undo = {"version": game.version, "once": "undo-once"}
    answer = phone.post(_url("deal-undo", game), undo, headers=HTMX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Deal 3 undone." in html
    assert _rows(html) == 2
    assert _url("deal-redo", game) in html, "the Redo beside the undo's message"


@pytest.mark.django_db
def test_the_sheet_is_rendered_after_the_write_committed(monkeypatch):
    """The database's write lock (SQLite's, the game row's on PostgreSQL) is not held while
    the answer renders: the sheet is rendered outside the write's transaction."""
    game, phone = _table(2)
    depth_outside = len(connection.atomic_blocks)
    seen = []
    real = common.game_context

    def watched(request, access, **extra):
        seen.append(len(connection.atomic_blocks))
        return real(request, access, **extra)

    monkeypatch.setattr(common, "game_context", watched)
    answer = phone.post(_url("deal-new", game), classic_form_data(game, 3), headers=HTMX)
    assert answer.status_code == 200
    assert seen == [depth_outside], "the sheet rendered inside the write's transaction"


@pytest.mark.django_db(transaction=True)
def test_the_answer_reads_no_row_of_the_game_again():
    """The sheet is built from the seats, deals and scores the write read and changed: after
    the deal's INSERT nothing reads them again (a 302 and a second request read them all)."""
    game, phone = _table(3)
    with CaptureQueriesContext(connection) as queries:
        answer = phone.post(_url("deal-new", game), classic_form_data(game, 0), headers=HTMX)
    assert answer.status_code == 200
    sql = [q["sql"] for q in queries.captured_queries]
    inserted = next(i for i, q in enumerate(sql) if q.startswith('INSERT INTO "scorepad_deal"'))
    after = sql[inserted + 1 :]
    for table in ("scorepad_deal", "scorepad_dealscore", "scorepad_seat"):
        reads = [q for q in after if q.startswith("SELECT") and f'FROM "{table}"' in q]
        assert not reads, f"{table} read again:\n" + "\n".join(reads)
    assert _rows(answer.content.decode()) == 4


@pytest.mark.django_db
def test_two_phones_a_stale_htmx_save_changes_nothing_and_a_replay_is_once():
    game, phone = _table(2)
    other = own(Client(), game)
    mine = classic_form_data(game, 1)
    theirs = classic_form_data(game, 2)  # the same version: opened before this phone saved
    assert phone.post(_url("deal-new", game), mine, headers=HTMX).status_code == 200
    stale = other.post(_url("deal-new", game), theirs, headers=HTMX)
    # htmx swaps it in (status 200): the deal recorded meanwhile, and the question asked.
    assert stale.status_code == 200
    assert "Another phone recorded deal 3 while you were entering this." in stale.content.decode()
    game.refresh_from_db()
    assert game.deals.count() == 3
    # The first phone's answer was lost on the Wi-Fi; it sends the same form again.
    replay = phone.post(_url("deal-new", game), mine, headers=HTMX)
    assert replay.status_code == 302, "a replay is told where the sheet is, not saved again"
    assert "already saved" in phone.get(replay["Location"]).content.decode()
    assert game.deals.count() == 3
    assert Event.objects.filter(game=game, form_token=mine["once"]).count() == 1
