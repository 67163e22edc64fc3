"""A game's money counts in one evening only (issue 21, item 2): a game already in an
evening, open or closed, is not offered to another and adding it is refused with a message
naming that evening; so a carried balance never meets the games it came from. The
database holds it too (one evening per game), and so do a backup, two phones at once and
replays. "Carry the balances" waits until every game of the evening has ended."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import translation

from scorepad.evenings import build_evening
from scorepad.models import Circle, Evening, EveningGame, Event, Game
from tests.factories import ACTOR, GameFactory, record_classic
from tests.scorepad.conftest import hidden, own
from tests.scorepad.test_backup_evenings import evenings, export, reload  # noqa: F401
from tests.scorepad.test_concurrency import run_together
from tests.scorepad.test_evenings import finished_classic, start, two_games, url  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def phone(client, two_games):  # noqa: F811
    for game in two_games:
        own(client, game)
    return client


def carried(phone, two_games):  # noqa: F811
    """Friday with the two games, its balances carried: (Friday, the next evening)."""
    start(phone, two_games, name="Friday")
    friday = Evening.objects.get()
    page = phone.get(url("evening", friday.editor_token)).content.decode()
    data = {"version": hidden(page, "version"), "once": hidden(page, "once")}
    response = phone.post(url("evening-carry", friday.editor_token), data)
    assert response.status_code == 302
    friday.refresh_from_db()
    return friday, friday.next_evening


def money(evening):
    return build_evening(reload(evening)).balances


def add(client, evening, game, page=None):
    page = page or client.get(url("evening", evening.editor_token)).content.decode()
    data = {
        "version": hidden(page, "version"),
        "once": hidden(page, "once"),
        "game": game.editor_token,
        "stake": "0,10",
    }
    return client.post(url("evening-add", evening.editor_token), data), data


def test_the_next_evening_offers_no_game_of_the_evening_it_carried(phone, two_games):  # noqa: F811
    _friday, following = carried(phone, two_games)
    page = phone.get(url("evening", following.editor_token)).content.decode()
    for game in two_games:
        assert f'value="{game.editor_token}"' not in page
    assert "Every game on this phone is in the evening." in page


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("en", "That game counts in the evening “Friday” of"),
        ("de", "Dieses Spiel zählt schon im Abend „Friday“ vom"),
    ],
)
def test_adding_a_carried_game_to_the_next_evening_is_refused_naming_the_evening(
    phone,
    two_games,  # noqa: F811
    lang,
    says,
):
    _friday, following = carried(phone, two_games)
    before = money(following)
    version = Evening.objects.get(pk=following.pk).version
    with translation.override(lang):
        response, _data = add(phone, following, two_games[0])
    body = response.content.decode()
    assert response.status_code == 200
    assert says in body
    assert not following.games.exists()
    assert money(following) == before  # Ben −6,10 stays −6,10, not twice that
    assert Evening.objects.get(pk=following.pk).version == version


def test_a_game_in_an_open_evening_is_neither_offered_to_another_nor_added(phone, two_games):  # noqa: F811
    start(phone, two_games[:1], name="Friday")
    start(phone, two_games[1:], name="Saturday")
    saturday = Evening.objects.get(name="Saturday")
    page = phone.get(url("evening", saturday.editor_token)).content.decode()
    assert f'value="{two_games[0].editor_token}"' not in page
    response, _data = add(phone, saturday, two_games[0], page)
    assert "counts in the evening “Friday”" in response.content.decode()
    assert list(saturday.games.values_list("game", flat=True)) == [two_games[1].pk]
    # Nor is it offered on a new evening's form, nor may a form sent by hand start with it.
    new = phone.get(url("evening-new")).content.decode()
    assert two_games[0].editor_token not in new
    refused = start(phone, two_games[:1], name="Sunday")
    assert refused.status_code == 200
    assert "counts in the evening “Friday”" in refused.content.decode()
    assert not Evening.objects.filter(name="Sunday").exists()
    # The game's own page of evenings names its evening and offers no other.
    evenings_page = phone.get(url("game-evenings", two_games[0].editor_token)).content.decode()
    assert "Friday" in evenings_page
    assert url("evening-add", saturday.editor_token) not in evenings_page
    assert "Start an evening with this game" not in evenings_page
    # A phone that knows the game but not its evening is told where it counts.
    other = Client()
    other.get(url("game", two_games[0].viewer_token))
    told = other.get(url("game-evenings", two_games[0].viewer_token)).content.decode()
    assert "counts in the evening “Friday”" in told
    assert "Start an evening with this game" not in told


def test_the_database_keeps_a_game_in_one_evening_at_most(two_games):  # noqa: F811
    friday = Evening.objects.create(name="Friday", stake="0.10")
    saturday = Evening.objects.create(name="Saturday", stake="0.10")
    EveningGame.objects.create(evening=friday, game=two_games[0], stake="0.10", position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        EveningGame.objects.create(evening=saturday, game=two_games[0], stake="0.10", position=1)


def test_the_add_form_sent_twice_adds_the_game_once_and_says_so(phone, two_games):  # noqa: F811
    start(phone, [], name="Friday")
    friday = Evening.objects.get()
    first, data = add(phone, friday, two_games[0])
    assert first.status_code == 302
    again = phone.post(url("evening-add", friday.editor_token), data, follow=True)
    assert "That was already done; it happened once." in again.content.decode()
    assert friday.games.count() == 1
    assert Event.objects.filter(kind="added").count() == 1


def test_a_second_phone_adding_the_game_to_another_evening_is_refused(two_games):  # noqa: F811
    a, b = Client(), Client()
    for phone in (a, b):
        for game in two_games:
            own(phone, game)
    start(a, [], name="Friday")
    start(b, [], name="Saturday")
    friday, saturday = Evening.objects.get(name="Friday"), Evening.objects.get(name="Saturday")
    page_b = b.get(url("evening", saturday.editor_token)).content.decode()  # offered yet
    assert f'value="{two_games[0].editor_token}"' in page_b
    assert add(a, friday, two_games[0])[0].status_code == 302
    refused, _data = add(b, saturday, two_games[0], page_b)
    assert "counts in the evening “Friday”" in refused.content.decode()
    assert EveningGame.objects.filter(game=two_games[0]).get().evening == friday


def test_carrying_is_not_offered_while_a_game_runs_and_the_page_says_why(phone, two_games):  # noqa: F811
    running = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    record_classic(running, 1)
    own(phone, running)
    start(phone, [*two_games, running])
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    assert url("evening-carry", evening.editor_token) not in page
    assert "End the games in progress first: only final totals are carried." in page
    running.refresh_from_db()
    running.end(version=running.version, once=None, actor=ACTOR)
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    assert url("evening-carry", evening.editor_token) in page


def test_the_only_game_that_can_be_added_is_chosen_already(phone, two_games):  # noqa: F811
    start(phone, two_games[:1])
    evening = Evening.objects.get()
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    assert f'value="{two_games[1].editor_token}" checked' in page
    other = finished_classic(["Anna", "Ben"])
    own(phone, other)
    page = phone.get(url("evening", evening.editor_token)).content.decode()
    assert " checked" not in page.split('id="add-title"')[1].split("</form>")[0]


def test_a_backup_with_a_game_in_two_evenings_restores_nothing(evenings, tmp_path):  # noqa: F811
    document = export(tmp_path / "backup.json")
    first_game = document["evenings"][0]["games"][0]
    document["evenings"][1]["games"] = [{**first_game, "position": 1}]
    (tmp_path / "twice.json").write_text(json.dumps(document))
    Evening.objects.all().delete()
    Game.objects.all().delete()
    Circle.objects.all().delete()
    with pytest.raises(CommandError, match=r"counts in one evening only.*Nothing was imported"):
        call_command("backup", "import", str(tmp_path / "twice.json"), stdout=io.StringIO())
    assert not Game.objects.exists()
    assert not Evening.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_phones_adding_one_game_to_two_evenings_at_once_put_it_in_one():
    game = finished_classic(["Anna", "Ben"])
    friday = Evening.objects.create(name="Friday", stake="0.10")
    saturday = Evening.objects.create(name="Saturday", stake="0.10")
    targets = [friday, saturday]

    def add_it(i):
        data = {"version": 1, "once": f"add-{i}-{'q' * 16}", "game": game.editor_token}
        data["stake"] = "0.10"
        response = Client().post(url("evening-add", targets[i].editor_token), data)
        return response.status_code, response.content.decode()

    results = run_together(2, add_it)
    assert sorted(status for status, _body in results) == [200, 302]
    assert EveningGame.objects.filter(game=game).count() == 1
    refused = next(body for status, body in results if status == 200)
    assert "counts in one evening only" in refused
    assert Event.objects.filter(kind="added").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_a_game_found_in_two_evenings_in_the_first_only():
    from django.db import connection as db
    from django.db.migrations.executor import MigrationExecutor

    before = [("scorepad", "0006_evenings")]
    after = [("scorepad", "0007_network_one_evening_per_game")]
    executor = MigrationExecutor(db)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    game = old.get_model("scorepad", "Game").objects.create(
        variant_id="classic", options={}, viewer_token="v" * 24, editor_token="e" * 24
    )
    Evening = old.get_model("scorepad", "Evening")
    EveningGame = old.get_model("scorepad", "EveningGame")
    friday = Evening.objects.create(name="Friday", stake="0.10", viewer_token="f" * 24)
    saturday = Evening.objects.create(name="Saturday", stake="0.10", viewer_token="s" * 24)
    for evening in (friday, saturday):
        EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=1)
    executor = MigrationExecutor(db)
    executor.loader.build_graph()
    executor.migrate(after)
    assert list(EveningGame.objects.values_list("evening_id", flat=True)) == [friday.pk]
    assert Evening.objects.get(pk=saturday.pk).version == 2  # an open page of it is stale
    executor = MigrationExecutor(db)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_model_refuses_a_game_counted_in_another_evening_whatever_the_view_does(two_games):  # noqa: F811
    """``Evening.add_game`` itself refuses a game of another evening (not only the page that
    calls it), and the evening it was asked of stays as it was."""
    from scorepad.models import CountedElsewhere

    game = two_games[0]
    first = Evening.objects.create(stake="0.10")
    first.add_game(game, "0.10", version=1, once=None, actor=ACTOR)
    other = Evening.objects.create(stake="0.10")
    with pytest.raises(CountedElsewhere) as refused:
        other.add_game(game, "0.10", version=1, once=None, actor=ACTOR)
    assert refused.value.evening == first
    assert Evening.objects.get(pk=other.pk).version == 1
    assert not EveningGame.objects.filter(evening=other).exists()
