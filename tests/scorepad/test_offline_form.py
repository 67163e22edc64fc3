"""The form of the next deal the sheet holds for a phone without a connection (issue 23,
item 1): the phone fills it and makes its own one-time token; the server takes a token of a
safe shape once, refuses a replay, and refuses any other shape with a clear message."""

import html
import json
import re
import secrets

import pytest
from django.urls import reverse

from scorepad.models import Game
from tests.factories import classic_form_data, record_classic

pytestmark = pytest.mark.django_db


def phone_token() -> str:
    """A token as static/js/table.js makes it: "p" and 32 hexadecimal digits."""
    return "p" + secrets.token_hex(16)


def test_the_editors_sheet_holds_the_next_deals_form_for_a_phone_without_a_connection(
    creator, game
):
    record_classic(game, 0)
    body = creator.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    held = re.search(r'<template id="offline-deal" data-next="2"[^>]*>(.*?)</template>', body, re.S)
    assert held, "the sheet holds no form of the next deal"
    form = held.group(1)
    assert 'id="panel-title">Record deal 2<' in form
    assert f'action="/en/games/{game.editor_token}/deals/new/"' in form
    assert re.search(r'name="number" value="2"', form)
    version = Game.objects.get(pk=game.pk).version
    assert re.search(f'name="version" value="{version}"', form)
    # Kept with the sheet for every phone: no token of anyone's in it (the phone makes its
    # one-time token and sends the CSRF token with its header).
    assert 'name="csrfmiddlewaretoken"' not in form
    assert not re.search(r'name="once" value="[^"]', form)
    # The live update brings the sheet with the form of the deal after it.
    record_classic(game, 1)
    url = reverse("game-version", kwargs={"token": game.editor_token})
    fresh = creator.get(url, {"v": "1"}, headers={"HX-Request": "true"}).content.decode()
    assert '<template id="offline-deal" data-next="3" data-title="Record deal {n}"' in fresh
    # Each deal's link carries its values as stored, to correct it with that form offline.
    link = re.search(r'aria-label="Correct deal 2"', fresh)
    values = re.search(r'/deals/2/edit/" data-values="([^"]+)"', fresh)
    assert link
    assert values
    stored = json.loads(html.unescape(values.group(1)))
    assert stored["went_out"] == "1"
    assert stored["mode"] == "rows"


def test_a_viewer_and_a_finished_game_hold_no_form(creator, game):
    from django.test import Client

    viewer = Client().get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert "offline-deal" not in viewer
    record_classic(game, 0)
    game.refresh_from_db()
    game.finish()
    body = creator.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert "offline-deal" not in body


def test_a_token_made_on_the_phone_records_the_deal_once(creator, game):
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    data = classic_form_data(game, 1, jokers=1, once=phone_token(), number=1)
    assert creator.post(url, data).status_code == 302
    assert game.deals.count() == 1
    # The same deal again (a replay of the kept write): recorded once.
    replay = creator.post(url, data, headers={"X-Scorepad-Outbox": "1"})
    assert replay.json()["outcome"] == "already"
    assert game.deals.count() == 1


@pytest.mark.parametrize("once", ['p"><script>', "two words", "ü" * 20, "x" * 65])
def test_a_token_of_another_shape_is_refused_and_changes_nothing(creator, game, once):
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    answer = creator.post(url, classic_form_data(game, 1, once=once))
    assert answer.status_code == 200
    assert "The form was incomplete: go back to the sheet and try again." in answer.content.decode()
    assert game.deals.count() == 0


@pytest.mark.parametrize(
    ("variant", "lang"), [("classic", "de"), ("contract-nordic", "nb"), ("romme", "pl")]
)
def test_the_held_form_is_the_servers_form_but_for_the_tokens(client, variant, lang):
    """ "Record deal" opens the form the sheet holds, online too (static/js/table.js): it must
    be what the server would have answered, the same fields, labels and values, without the
    tokens the phone supplies itself (its one-time token, the CSRF token of its header) and
    the card grid's script (the editor's page loads it)."""
    from tests.factories import GameFactory, record_penalty
    from tests.scorepad.conftest import own

    game = GameFactory(variant_id=variant, players=["Anna", "Ben", "Cleo"])
    if variant == "classic":
        record_classic(game, 0)
    else:
        record_penalty(game, 0, {1: 10, 2: 25})
    own(client, game)
    _sheet, held, panel = held_and_served(client, lang, game)
    assert 'name="number" value="2"' in held
    assert bare_form(held) == bare_form(panel)


@pytest.mark.parametrize(("variant", "lang"), [("classic", "fi"), ("contract-spanish", "en")])
def test_the_held_form_kept_from_deal_to_deal_is_the_servers_form_after_each_change(
    client, variant, lang
):
    """The held form is rendered once for what it shows and given each version's number and
    version (scorepad/views/common.py, ``held_form``): after deals, a rename and a player
    joining it is still what the server answers, with this version in it."""
    from scorepad.views import common
    from tests.factories import ACTOR, GameFactory, record_penalty
    from tests.scorepad.conftest import own

    game = GameFactory(variant_id=variant, players=["Anna", "Ben", "Cleo"])
    own(client, game)
    common.HELD.__init__(common.HELD.size)  # empty: what this test renders is counted

    def record():
        if variant == "classic":
            record_classic(game, 0)
        else:
            others = [s.position for s in game.playing_seats() if s.position]
            record_penalty(game, 0, {p: 5 * p for p in others})

    def rename():
        game.rename(1, "Bea", version=game.version, once=phone_token(), actor=ACTOR)

    def join():
        game.join("Dana", 0, version=game.version, once=phone_token(), actor=ACTOR)

    for change in (record, record, record, rename, record, join, record):
        change()
        game.refresh_from_db()
        sheet, held, panel = held_and_served(client, lang, game)
        assert bare_form(held) == bare_form(panel), change.__name__
        assert f'name="version" value="{game.version}"' in held
        number = game.deals.count() + 1
        assert f'name="number" value="{number}"' in held
        assert common.NUMBER_MARK not in sheet
        assert common.VERSION_MARK not in sheet
        names = [s.name for s in game.playing_seats()]
        assert all(f">{name}<" in held for name in names), names
    if variant == "classic":
        # One rendering for each set of players (three), not one a deal (seven changes).
        assert len(common.HELD) == 3


def held_and_served(client, lang: str, game) -> tuple[str, str, str]:
    """The editor's sheet, the form it holds, and the form the server answers for the next
    deal (htmx's request)."""
    sheet = client.get(f"/{lang}/games/{game.editor_token}/").content.decode()
    held = re.search(r'<template id="offline-deal"[^>]*>(.*?)</template>', sheet, re.S)
    assert held, "the sheet holds no form"
    served = client.get(
        f"/{lang}/games/{game.editor_token}/deals/new/",
        headers={"HX-Request": "true", "HX-Target": "game"},
    ).content.decode()
    panel = re.search(r'(<section id="panel".*?</section>)', served, re.S)
    assert panel, "the server answered no form"
    return sheet, held.group(1), panel.group(1)


def bare_form(html: str) -> str:
    """A deal form without what differs from one answer to the next (its tokens, the card
    grid's script) and without the mark of a held form."""
    html = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', "", html)
    html = re.sub(r'(name="once") value="[^"]*"', r"\1", html)
    html = re.sub(r' data-script="[^"]*"', "", html)
    html = re.sub(r"<script[^>]*></script>", "", html)
    html = html.replace(" data-held", "")
    return re.sub(r"\s+", " ", html).strip()


def facts(deal) -> tuple:
    """What the table reads of a deal before it: no score among them."""
    return (deal.number, deal.dealer.name, deal.starter.name, repr(deal.spec), deal.cards)


@pytest.mark.parametrize("variant", ["classic", "contract-nordic"])
def test_the_schedule_says_what_the_sheet_will_say_once_the_deals_are_in(db, variant):
    """The next deals an editor's phone shows after deals it keeps offline (scorepad/sheet.py,
    deals_ahead) are the deals the sheet names once they are recorded."""
    from scorepad.sheet import AHEAD, build_sheet
    from tests.factories import GameFactory, record_penalty

    game = GameFactory(variant_id=variant, players=["Anna", "Ben", "Cleo"])
    ahead = build_sheet(game).ahead
    assert [d.number for d in ahead] == list(range(1, AHEAD + 1))
    for expected in ahead[:3]:
        assert facts(build_sheet(Game.objects.get(pk=game.pk)).next_deal) == facts(expected)
        fresh = Game.objects.get(pk=game.pk)
        if variant == "classic":
            record_classic(fresh, 0)
        else:
            record_penalty(fresh, 0, {1: 10, 2: 5})


def test_the_schedule_ends_with_the_game_and_the_sheet_holds_it(creator, game):
    """A target of deals ends the schedule: the phone shows the game over after it."""
    from scorepad.sheet import build_sheet

    game.target_deals = 3
    game.save(update_fields=["target_deals"])
    record_classic(game, 0)
    sheet = build_sheet(Game.objects.get(pk=game.pk))
    assert [d.number for d in sheet.ahead] == [2, 3]
    assert sheet.ahead_end == 4
    body = creator.get(reverse("game", kwargs={"token": game.editor_token})).content.decode()
    assert '<div class="deal-schedule" hidden data-waiting="Waiting to be sent ({n})">' in body
    numbers = re.findall(r'<template data-number="(\d+)"', body)
    assert numbers == ["2", "3", "4"]
    assert '<template data-number="4" data-end><p class="deal-now game-over">Game over</p>' in body
    assert re.search(
        r'<template data-number="3">\s*<p class="deal-now">Deal 3</p>\s*<dl class="deal-facts">',
        body,
    )


def test_a_viewer_holds_no_schedule(db, game):
    from django.test import Client

    viewer = Client().get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert "deal-schedule" not in viewer
