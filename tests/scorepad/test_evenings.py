"""Evenings: start one with games, its ledger, standings, settle-up and chart, add and take
out games, carry the balances; rights, stale versions and replays with two phones."""

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorepad.access import EVENINGS
from scorepad.models import Evening, EveningBalance, EveningGame, Event
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import hidden, own

pytestmark = pytest.mark.django_db


def finished_classic(names, winner=0, **rows):
    game = GameFactory(variant_id="classic", players=names)
    record_classic(game, winner, **rows)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    return game


def finished_romme(names, points):
    game = GameFactory(variant_id="romme", players=names)
    record_penalty(game, 0, points)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    return game


def url(name, token=None):
    return reverse(name, kwargs={"token": token}) if token else reverse(name)


def add_data(page: str, game, stake: str) -> dict:
    """What the evening page's form sends to add ``game`` at ``stake``."""
    return {
        "version": hidden(page, "version"),
        "once": hidden(page, "once"),
        "game": game.editor_token,
        "stake": stake,
    }


def start(client, games, stake="0,10", name="Friday"):
    page = client.get(url("evening-new")).content.decode()
    data = {"name": name, "stake": stake, "once": hidden(page, "once")}
    data["games"] = [g.editor_token for g in games]
    return client.post(url("evening-new"), data)


@pytest.fixture
def two_games(db):
    # Anna goes out with no wild card (11 from each of the two others): +22, −11, −11.
    first = finished_classic(["Anna", "Ben", "Cleo"], winner=0, no_wild=True)
    # Rommé: Anna 0, Ben 30, Cleo 10.
    second = finished_romme(["Anna", "Ben", "Cleo"], {1: 30, 2: 10})
    return first, second


@pytest.fixture
def phone(client, two_games):
    for game in two_games:
        own(client, game)
    return client


def own_evening(client, evening):
    session = client.session
    session[EVENINGS.created] = [*session.get(EVENINGS.created, []), evening.pk]
    session.save()
    return client


def test_starting_an_evening_with_two_games_shows_their_money_and_the_fewest_payments(
    phone, two_games
):
    response = start(phone, two_games)
    evening = Evening.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("evening", evening.editor_token)
    assert evening.name == "Friday"
    assert evening.stake == Decimal("0.10")
    assert [e.game for e in evening.games.all()] == list(two_games)
    page = phone.get(response["Location"]).content.decode()
    # classic: +22 −11 −11 points × 0.10; Rommé: Anna 0, Ben 30, Cleo 10, so Anna gains
    # (40 − 0) × 0.10 = 4.00, Ben loses (40 − 90) × 0.10 = −5.00, Cleo gains 1.00.
    assert "+2.20" in page
    assert "+4.00" in page
    assert "+6.20" in page
    assert "−6.10" in page
    assert "−0.10" in page
    assert "Ben pays Anna 6.10" in page
    assert "Cleo pays Anna 0.10" in page
    assert "2 payments square everybody, the fewest possible." in page
    assert "<svg" in page
    assert '<polyline class="m2"' in page
    assert re.search(r"1\.</span> <span class=\"who\">Anna</span>", page)


def test_the_evening_page_speaks_german_with_a_decimal_comma(phone, two_games):
    start(phone, two_games, stake="0,10")
    evening = Evening.objects.get()
    with translation.override("de"):
        page = phone.get(url("evening", evening.viewer_token)).content.decode()
    assert "Ben zahlt 6,10 an Anna" in page
    assert "+6,20" in page


def test_the_same_start_form_sent_twice_starts_one_evening(phone, two_games):
    page = phone.get(url("evening-new")).content.decode()
    data = {"stake": "0.5", "once": hidden(page, "once"), "games": [two_games[0].editor_token]}
    first = phone.post(url("evening-new"), data)
    second = phone.post(url("evening-new"), data)
    assert Evening.objects.count() == 1
    assert first["Location"] == second["Location"]


@pytest.mark.parametrize("stake", ["", "1.000,50", "0", "abc", "0,001"])
def test_a_bad_stake_starts_nothing_and_says_why(phone, two_games, stake):
    response = start(phone, two_games, stake=stake)
    assert response.status_code == 200
    assert Evening.objects.count() == 0
    assert 'class="errorlist' in response.content.decode()


def test_a_game_this_phone_does_not_know_cannot_be_put_in_an_evening(client, two_games):
    own(client, two_games[0])
    response = start(client, two_games)  # the second game was never opened on this phone
    assert response.status_code == 200
    assert "Choose the games from the list." in response.content.decode()
    assert Evening.objects.count() == 0


def test_the_games_list_offers_to_start_an_evening_and_lists_the_evenings(phone, two_games):
    page = phone.get(url("game-list")).content.decode()
    assert url("evening-new") in page
    start(phone, two_games, name="Friday at Anna's")
    page = phone.get(url("game-list")).content.decode()
    assert "Friday at Anna&#x27;s" in page
    assert url("evening", Evening.objects.get().editor_token) in page


def test_the_game_page_links_to_its_evenings(phone, two_games):
    game = two_games[0]
    page = phone.get(url("game", game.editor_token)).content.decode()
    assert url("game-evenings", game.editor_token) in page
    page = phone.get(url("game-evenings", game.editor_token)).content.decode()
    assert f"{url('evening-new')}?game={game.editor_token}" in page
    new = phone.get(f"{url('evening-new')}?game={game.editor_token}").content.decode()
    assert f'value="{game.editor_token}" checked' in new


def test_a_game_is_added_from_its_own_page_with_its_stake(phone, two_games):
    first, second = two_games
    start(phone, [first])
    evening = Evening.objects.get()
    page = phone.get(url("game-evenings", second.editor_token)).content.decode()
    assert "Add this game to an evening" in page
    form = re.search(r'<form method="post" action="([^"]+)".*?</form>', page, re.S)
    assert form.group(1) == url("evening-add", evening.editor_token)
    data = {
        "game": second.editor_token,
        "stake": "0,05",
        "version": hidden(form.group(0), "version"),
        "once": hidden(form.group(0), "once"),
    }
    response = phone.post(form.group(1), data)
    assert response.status_code == 302
    added = EveningGame.objects.get(evening=evening, game=second)
    assert added.stake == Decimal("0.05")
    assert added.position == 2
    # Sent again (a double tap): added once, and the page says so.
    again = phone.post(form.group(1), data, follow=True)
    assert EveningGame.objects.filter(evening=evening).count() == 2
    assert "That was already done; it happened once." in again.content.decode()
    page = phone.get(url("game-evenings", second.editor_token)).content.decode()
    assert "Evenings with this game" in page
    assert "Add this game to an evening" not in page


def test_a_viewer_link_shows_the_evening_and_changes_nothing(phone, two_games):
    start(phone, two_games)
    evening = Evening.objects.get()
    viewer = Client()
    page = viewer.get(url("evening", evening.viewer_token)).content.decode()
    assert "Ben pays Anna 6.10" in page
    assert "csrfmiddlewaretoken" not in page
    assert evening.editor_token not in page
    version = evening.version
    data = {"version": version, "once": "x" * 22, "game": two_games[0].pk}
    for name in ("evening-remove", "evening-carry"):
        response = viewer.post(url(name, evening.viewer_token), data)
        assert response.status_code == 403
    evening.refresh_from_db()
    assert evening.version == version
    assert evening.games.count() == 2
    assert Evening.objects.count() == 1


def test_an_editor_link_on_another_phone_may_change_the_evening(phone, two_games):
    start(phone, two_games)
    evening = Evening.objects.get()
    other = Client()
    page = other.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once")}
    response = other.post(
        url("evening-remove", evening.editor_token), {**data, "game": two_games[1].pk}
    )
    assert response.status_code == 302
    assert [e.game for e in evening.games.all()] == [two_games[0]]


def test_a_change_made_on_a_stale_page_changes_nothing_and_shows_the_fresh_evening(
    phone, two_games
):
    start(phone, two_games)
    evening = Evening.objects.get()
    other = Client()
    mine = phone.get(url("evening", evening.editor_token)).content.decode()
    theirs = other.get(url("evening", evening.editor_token)).content.decode()
    # The other phone takes the Rommé game out first.
    other.post(
        url("evening-remove", evening.editor_token),
        {
            "version": hidden(theirs, "version"),
            "once": hidden(theirs, "once"),
            "game": two_games[1].pk,
        },
    )
    # This phone, on its old page, carries the balances it saw: refused.
    response = phone.post(
        url("evening-carry", evening.editor_token),
        {"version": hidden(mine, "version"), "once": hidden(mine, "once")},
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "The evening changed while you were on this page" in page
    assert "Ben pays Anna 1.10" in page  # the fresh ledger, classic game only
    assert Evening.objects.count() == 1
    evening.refresh_from_db()
    assert not evening.is_closed


def test_taking_out_a_game_twice_takes_it_out_once(phone, two_games):
    start(phone, two_games)
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    data = {
        "version": hidden(page, "version"),
        "once": hidden(page, "once"),
        "game": two_games[0].pk,
    }
    phone.post(url("evening-remove", evening.editor_token), data)
    again = phone.post(url("evening-remove", evening.editor_token), data, follow=True)
    assert "That was already done; it happened once." in again.content.decode()
    assert [e.game for e in evening.games.all()] == [two_games[1]]
    assert Event.objects.filter(kind="removed").count() == 1


@pytest.mark.parametrize("game", ["", "not-a-link-at-all-xxxxx", "x" * 80])
def test_adding_an_unknown_game_changes_nothing_and_says_why(phone, two_games, game):
    start(phone, two_games[:1])
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once"), "game": game}
    data["stake"] = "0.10"
    response = phone.post(url("evening-add", evening.editor_token), data)
    assert response.status_code == 200
    assert 'class="errorlist' in response.content.decode()
    assert evening.games.count() == 1


@pytest.mark.parametrize("version", ["", "abc", "-1", "9" * 30])
@pytest.mark.parametrize("name", ["evening-remove", "evening-add", "evening-carry"])
def test_a_write_without_a_version_changes_nothing(phone, two_games, version, name):
    start(phone, two_games[:1])
    evening = Evening.objects.get()
    response = phone.post(
        url(name, evening.editor_token),
        {"version": version, "once": "a" * 22, "game": two_games[0].pk, "stake": "1"}
        if name == "evening-remove"
        else {
            "version": version,
            "once": "a" * 22,
            "game": two_games[1].editor_token,
            "stake": "1",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert "nothing was changed" in response.content.decode()
    assert evening.games.count() == 1
    assert Evening.objects.count() == 1


def test_carrying_starts_the_next_evening_from_the_balances_and_closes_this_one(phone, two_games):
    start(phone, two_games)
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once")}
    response = phone.post(url("evening-carry", evening.editor_token), data)
    evening.refresh_from_db()
    following = evening.next_evening
    assert following is not None
    assert evening.is_closed
    assert response["Location"] == url("evening", following.editor_token)
    carried = {b.name: b.cents for b in EveningBalance.objects.filter(evening=following)}
    assert carried == {"Anna": 620, "Ben": -610, "Cleo": -10}
    page = phone.get(response["Location"]).content.decode()
    assert "This evening starts from the balances of the evening before." in page
    assert "Ben pays Anna 6.10" in page  # nothing played yet: the carried balances
    # A classic game of the next evening adds to the carried balances.
    game = finished_classic(["Ben", "Anna"], winner=0)  # no wild card: Ben +11, Anna −11
    own(phone, game)
    page = phone.get(url("evening", following.editor_token)).content.decode()
    added = phone.post(url("evening-add", following.editor_token), add_data(page, game, "1"))
    assert added.status_code == 302, added.content.decode()
    page = phone.get(url("evening", following.editor_token)).content.decode()
    assert "−4.80" in page
    assert "+4.90" in page
    assert "Anna pays Ben 4.80" in page
    assert "Cleo pays Ben 0.10" in page
    # The old evening changes no more and shows the way on.
    old = phone.get(url("evening", evening.editor_token)).content.decode()
    assert url("evening", following.editor_token) in old
    assert url("evening-carry", evening.editor_token) not in old
    assert url("evening-remove", evening.editor_token) not in old
    # The carry sent again (a replay) makes no second evening.
    again = phone.post(url("evening-carry", evening.editor_token), data, follow=True)
    assert Evening.objects.count() == 2
    assert "That was already done; it happened once." in again.content.decode()
    # A fresh form on the closed evening is refused with a message.
    fresh = {"version": str(evening.version), "once": "b" * 22, "game": two_games[0].pk}
    closed = phone.post(url("evening-remove", evening.editor_token), fresh, follow=True)
    assert "were carried to the next one" in closed.content.decode()
    assert evening.games.count() == 2


def test_balances_are_not_carried_while_a_game_is_in_progress(phone, two_games):
    running = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    record_classic(running, 1)
    own(phone, running)
    start(phone, [*two_games, running])
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    assert "1 game is still in progress" in page
    data = {"version": hidden(page, "version"), "once": hidden(page, "once")}
    response = phone.post(url("evening-carry", evening.editor_token), data, follow=True)
    assert "End the games in progress first" in response.content.decode()
    assert Evening.objects.count() == 1


def test_players_are_matched_across_games_by_name_whatever_the_case(phone):
    first = finished_classic(["Anna", "Ben"], winner=0)
    second = finished_classic(["anna", "Ben"], winner=1)
    own(phone, first)
    own(phone, second)
    start(phone, [first, second])
    page = phone.get(url("evening", Evening.objects.get().editor_token)).content.decode()
    assert "Nobody owes anything." in page
    assert page.count('<span class="name">') == 2


def test_the_evening_page_reads_the_same_number_of_queries_whatever_its_games(phone):
    games = [finished_classic(["Anna", "Ben", "Cleo"], winner=i % 3) for i in range(6)]
    for game in games:
        own(phone, game)
    start(phone, games[:1])
    small = Evening.objects.get()
    start(phone, games[1:], name="Big")  # a game counts in one evening only
    big = Evening.objects.get(name="Big")

    def count(evening):
        with CaptureQueriesContext(connection) as queries:
            Client().get(url("evening", evening.viewer_token))
        return len(queries)

    assert count(small) == count(big)


def test_a_game_added_on_a_stale_page_is_kept_in_the_form_on_the_fresh_version(phone, two_games):
    first, second = two_games
    start(phone, [first])
    evening = Evening.objects.get()
    other = Client()
    mine = phone.get(url("evening", evening.editor_token)).content.decode()
    theirs = other.get(url("evening", evening.editor_token)).content.decode()
    other.post(
        url("evening-remove", evening.editor_token),
        {"version": hidden(theirs, "version"), "once": hidden(theirs, "once"), "game": first.pk},
    )
    data = {
        "version": hidden(mine, "version"),
        "once": hidden(mine, "once"),
        "game": second.editor_token,
        "stake": "0,25",
    }
    response = phone.post(url("evening-add", evening.editor_token), data)
    assert response.status_code == 409
    page = response.content.decode()
    assert "The evening changed while you were on this page" in page
    assert not evening.games.exists()
    assert hidden(page, "version") == str(Evening.objects.get().version)
    assert f'value="{second.editor_token}" checked' in page
    assert 'value="0,25"' in page
    # Sent again on the fresh version, it is added.
    again = {**data, "version": hidden(page, "version"), "once": hidden(page, "once")}
    assert phone.post(url("evening-add", evening.editor_token), again).status_code == 302
    assert [e.game for e in evening.games.all()] == [second]


def test_an_editors_evening_page_is_kept_by_no_cache_and_a_viewers_may_be(phone, two_games):
    start(phone, two_games)
    evening = Evening.objects.get()
    editor = phone.get(url("evening", evening.editor_token))
    assert "no-store" in editor["Cache-Control"]
    viewer = Client().get(url("evening", evening.viewer_token))
    assert "no-store" not in viewer.get("Cache-Control", "")


def test_a_game_ticked_twice_by_hand_is_in_the_evening_once(phone, two_games):
    page = phone.get(url("evening-new")).content.decode()
    token = two_games[0].editor_token
    data = {"stake": "0.10", "once": hidden(page, "once"), "games": [token, token]}
    assert phone.post(url("evening-new"), data).status_code == 302
    assert EveningGame.objects.count() == 1


@pytest.mark.parametrize(
    ("lang", "word"),
    [
        ("de", "Kassenbuch"),
        ("nb", "Regnskap"),
        ("pl", "Rachunek"),
        ("fi", "Kirjanpito"),
        ("es", "Cuentas"),
    ],
)
def test_the_evening_page_answers_in_every_language(phone, two_games, lang, word):
    start(phone, two_games)
    evening = Evening.objects.get()
    with translation.override(lang):
        response = phone.get(url("evening", evening.editor_token))
    page = response.content.decode()
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in page
    assert word in page
    assert "Ledger" not in page


def test_a_player_who_joined_counts_with_his_starting_total_and_a_rename_follows(phone):
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben"])
    record_penalty(romme, 0, {1: 20})  # Anna 0, Ben 20
    romme.refresh_from_db()
    romme.join("Dan", 20, version=romme.version, once="join-dan-xxxxxxxxxxx", actor=ACTOR)
    romme.refresh_from_db()
    romme.rename(0, "Annika", version=romme.version, once="rename-xxxxxxxxxxxxx", actor=ACTOR)
    own(phone, romme)
    start(phone, [romme], stake="0.10")
    page = phone.get(url("evening", Evening.objects.get().editor_token)).content.decode()
    # Totals 0, 20, 20 (Dan starts at the highest): Annika gains (40 − 0) × 0.10.
    assert "Annika" in page
    assert "+4.00" in page
    assert "−2.00" in page
    assert "Ben pays Annika 2.00" in page
    assert "Dan pays Annika 2.00" in page


def test_an_evening_link_can_be_replaced_and_the_old_one_leads_nowhere(phone, two_games):
    start(phone, two_games)
    evening = Evening.objects.get()
    other = Client()  # a phone with the editor link
    page = other.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once"), "link": "editor"}
    old_editor, old_viewer = evening.editor_token, evening.viewer_token
    response = other.post(url("evening-link", old_editor), data)
    evening.refresh_from_db()
    assert evening.editor_token != old_editor
    assert response["Location"] == url("evening", evening.editor_token)
    assert other.get(url("evening", old_editor)).status_code == 404
    assert other.post(url("evening-link", old_editor), data).status_code == 404
    # The phone that started it keeps its rights and replaces the viewer link; a replay of
    # that form replaces nothing more.
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once"), "link": "viewer"}
    phone.post(url("evening-link", evening.editor_token), data)
    evening.refresh_from_db()
    viewer = evening.viewer_token
    assert viewer != old_viewer
    assert Client().get(url("evening", old_viewer)).status_code == 404
    again = phone.post(url("evening-link", evening.editor_token), data, follow=True)
    assert "That was already done; it happened once." in again.content.decode()
    evening.refresh_from_db()
    assert evening.viewer_token == viewer
    # A viewer cannot replace a link.
    fresh = {**data, "version": str(evening.version), "once": "v" * 22}
    assert Client().post(url("evening-link", viewer), fresh).status_code == 403


@pytest.mark.parametrize("link", ["", "both"])
def test_replacing_no_known_link_changes_nothing(phone, two_games, link):
    start(phone, two_games)
    evening = Evening.objects.get()
    data = {"version": str(evening.version), "once": "w" * 22, "link": link}
    response = phone.post(url("evening-link", evening.editor_token), data, follow=True)
    assert "Choose which link to replace." in response.content.decode()
    assert Evening.objects.get().editor_token == evening.editor_token


def test_a_refused_form_lists_its_errors_at_the_top_linked_to_the_controls(phone, two_games):
    page = start(phone, two_games, stake="abc").content.decode()
    summary = re.search(r'<div class="errorlist error-summary".*?</div>', page, re.S).group(0)
    assert 'href="#id_stake"' in summary
    start(phone, two_games[:1])
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once"), "game": ""}
    data["stake"] = "0.10"
    page = phone.post(url("evening-add", evening.editor_token), data).content.decode()
    assert page.index("error-summary") < page.index("Started on")  # at the top, not the foot


def test_the_charts_caption_signs_its_range_as_the_totals_do(phone, two_games):
    """Issue 45, words: the caption said "-0,33" where the totals beside it say "−0,33"."""
    start(phone, list(two_games))
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    caption = re.search(r"Balance after each game \(([^)]*)\)", page)
    assert caption, "no caption"
    low, high = caption.group(1).split(" … ")
    assert low.startswith("−"), caption.group(1)  # U+2212, as the totals
    assert high.startswith("+"), caption.group(1)
    assert "-" not in caption.group(1)
