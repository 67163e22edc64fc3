import pytest

from rules.engine.dealing import dealers, next_playing
from rules.engine.variants import build_schedule
from scorepad.models import AlreadyDone, Deal, Event, Game, StaleVersion
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty

pytestmark = pytest.mark.django_db


def test_the_deal_passes_to_the_left_in_seating_order_in_the_classic_game():
    game = GameFactory(variant_id="classic", players=4, first_dealer=2)
    order = [0, 1, 2, 3]
    assert dealers(game.first_dealer, game.step, order, [order] * 5) == [2, 3, 0, 1, 2]
    assert next_playing(order, 2, game.step, order) == 3  # who starts the first deal


def test_the_deal_passes_to_the_right_in_the_spanish_contract_game():
    game = GameFactory(variant_id="contract-spanish", players=4, first_dealer=1)
    order = [0, 1, 2, 3]
    assert dealers(game.first_dealer, game.step, order, [order] * 3) == [1, 0, 3]
    assert next_playing(order, 1, game.step, order) == 0  # play goes counter-clockwise too


def test_a_contract_game_keeps_its_schedule_as_it_was_at_the_start():
    rows = [{"cards": 8, "sets": 1, "runs": 1}, {"cards": 10, "sets": 0, "runs": 2, "run_min": 5}]
    game = GameFactory(
        variant_id="contract-nordic", schedule=[s.as_dict() for s in build_schedule(rows)]
    )
    game = Game.objects.get(pk=game.pk)
    assert game.total_deals == 2
    assert game.deal_spec(2).run_min == 5
    assert game.cards_dealt(1) == 8
    assert game.is_complete(2)
    assert not game.is_complete(1)


def test_spanish_decks_change_with_the_deal_for_five_players():
    game = GameFactory(variant_id="contract-spanish", players=5)
    assert [game.decks(n, 5) for n in (1, 3, 5)] == [(2, 4), (3, 6), (4, 8)]


def test_tokens_are_long_random_and_distinct():
    game = GameFactory()
    assert len(game.viewer_token) >= 22
    assert len(game.editor_token) >= 22
    assert game.viewer_token != game.editor_token


def test_every_change_bumps_the_version_and_writes_the_history():
    game = GameFactory(players=3)
    record_classic(game, 0, jokers=1)
    game.refresh_from_db()
    assert game.version == 2
    event = Event.objects.get(game=game)
    assert (event.kind, event.deal_number, event.actor, event.device) == (
        "recorded",
        1,
        "creator",
        "test01",
    )
    assert event.details["after"]["scores"] == {"0": 6, "1": -3, "2": -3}


def test_a_stale_version_changes_nothing():
    game = GameFactory(players=3)
    record_classic(game, 0)
    deal = Deal.objects.get(game=game)
    with pytest.raises(StaleVersion):
        game.delete_deal(1, version=1, once="x" * 22, actor=ACTOR)
    assert Deal.objects.filter(pk=deal.pk).exists()
    game.refresh_from_db()
    assert game.version == 2


def test_a_used_one_time_token_changes_nothing_again():
    game = GameFactory(players=3)
    event = record_classic(game, 0)
    game.refresh_from_db()
    with pytest.raises(AlreadyDone):
        game.undo_last_deal(version=game.version, once=event.form_token, actor=ACTOR)
    assert game.deals.count() == 1


def test_totals_and_places_are_stored_from_the_engine():
    game = GameFactory(players=["Anna", "Ben", "Cleo"])
    record_classic(game, 1, jokers=1)  # 1 + 2 = 3: Ben +6
    record_classic(game, 0)  # no wild card: 11, Anna +22
    seats = list(game.seats.order_by("position"))
    assert [s.total for s in seats] == [19, -5, -14]
    assert [s.place for s in seats] == [1, 2, 3]


def test_deleting_a_deal_renumbers_the_later_ones():
    game = GameFactory(players=3)
    for winner in (0, 1, 2):
        record_classic(game, winner)
    game.refresh_from_db()
    game.delete_deal(2, version=game.version, once="d" * 22, actor=ACTOR)
    assert list(game.deals.order_by("number").values_list("number", "went_out")) == [(1, 0), (2, 2)]


def test_the_last_deal_of_a_contract_game_ends_it_and_deleting_it_resumes_it():
    game = GameFactory(variant_id="contract-nordic", players=3)
    for _ in range(7):
        record_penalty(game, 0, {1: 10, 2: 20})
    game.refresh_from_db()
    assert game.is_finished
    assert game.finished_at is not None
    game.undo_last_deal(version=game.version, once="u" * 22, actor=ACTOR)
    game.refresh_from_db()
    assert not game.is_finished


def test_games_in_progress_and_finished():
    running = GameFactory()
    done = GameFactory(status=Game.Status.FINISHED)
    assert list(Game.objects.in_progress()) == [running]
    assert list(Game.objects.finished()) == [done]


def test_the_game_behind_a_link_and_its_version_in_one_query_each(django_assert_num_queries):
    from django.db.models import Prefetch

    from scorepad.models import Seat

    game = GameFactory(variant_id="contract-nordic", players=3)
    other = GameFactory(variant_id="classic", players=2)
    stored = Game.objects.get(pk=game.pk)
    for token in (game.viewer_token, game.editor_token):
        with django_assert_num_queries(1):
            found = Game.objects.by_token(token).one()
        assert found == stored
        assert found != other
        assert isinstance(found.schedule, list)
        assert found.created_at.tzinfo is not None
        with django_assert_num_queries(1):
            assert Game.objects.by_token(token).version() == game.version
    assert Game.objects.by_token("x" * 24).one() is None
    assert Game.objects.by_token("x" * 24).version() is None
    seats = Prefetch("seats", queryset=Seat.objects.order_by("position"))
    found = Game.objects.by_token(game.viewer_token).prefetch_related(seats).one()
    assert len(found._prefetched_objects_cache["seats"]) == 3
