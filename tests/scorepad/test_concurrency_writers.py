"""Eight phones writing at the same moment, on PostgreSQL and on SQLite.

``test_concurrency.py`` covers two to six phones racing on one version and one form sent
twice. Here every phone has its own deal and retries on "the sheet changed" the way a
person would (fresh sheet, save again), while two more phones replay one-time tokens that
are already in flight; a watcher reads the sheet all along. On SQLite the eight writers
queue on one database lock: IMMEDIATE transactions and the busy timeout must make them
wait, never answer "database is locked".
"""

import threading
import time

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.db.models import Count, Sum
from django.db.models.functions import Coalesce
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.forms.deals import ClassicDealForm
from scorepad.models import Deal, DealScore, Event, Game, Seat
from tests.factories import GameFactory, classic_form_data, seats

pytestmark = pytest.mark.django_db(transaction=True)

# "The sheet changed while…", or "Another phone recorded deal N while…" (test_conflicts.py)
STALE = "while you were entering this"
ALREADY = "That was already saved; it is recorded once."

# (went out, payment rows): six different deals of a classic game of four.
DEALS = [
    (0, {}),
    (1, {"jokers": 1}),
    (2, {"wild_twos": 1}),
    (3, {"jokers": 2}),
    (0, {"jokers": 1, "wild_twos": 1}),
    (1, {"wild_twos": 2}),
]
REPLAYS = [0, 1]  # two more phones send again the forms of deals 0 and 1
WRITERS = len(DEALS) + len(REPLAYS)  # eight
# A phone is told "the sheet changed" only when another deal was saved since it read the
# sheet; with six deals to save, nobody needs more than seven tries.
MAX_TRIES = len(DEALS) + 1


def run_threads(workers, watcher=None):
    """Release every worker at once (a barrier) and run ``watcher`` until they are done."""
    barrier = threading.Barrier(len(workers) + (watcher is not None))
    done = threading.Event()
    results = [None] * len(workers)
    errors = []

    def guarded(body):
        try:
            with translation.override("en"):
                barrier.wait(timeout=30)
                return body()
        except Exception as exc:  # reported below, with its type: OperationalError, ...
            errors.append(exc)
        finally:
            connection.close()

    def work(i):
        results[i] = guarded(workers[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(workers))]
    if watcher is not None:
        threads.append(threading.Thread(target=guarded, args=(lambda: watcher(done),)))
    for t in threads:
        t.start()
    for t in threads[: len(workers)]:
        t.join(timeout=120)
    done.set()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors
    return results


@pytest.fixture
def game():
    return GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])


def url(game):
    with translation.override("en"):
        return reverse("deal-new", kwargs={"token": game.editor_token})


def expected_scores(game, data):
    form = ClassicDealForm(data, game=game, seats=seats(game))
    assert form.is_valid(), form.errors
    return {pos: form.result.scores.get(pos, 0) for pos in range(4)}


def consistent(game_id, checks):
    """One statement each (one snapshot): totals are the sum of the deals, one version per deal."""
    rows = Seat.objects.filter(game_id=game_id).annotate(summed=Coalesce(Sum("scores__points"), 0))
    for total, summed in rows.values_list("total", "summed"):
        assert total == summed, (total, summed)
    version, deals, events = (
        Game.objects.filter(pk=game_id)
        .annotate(d=Count("deals", distinct=True), e=Count("events", distinct=True))
        .values_list("version", "d", "e")
        .get()
    )
    assert version == 1 + deals == 1 + events, (version, deals, events)
    checks.append(deals)


def test_eight_phones_each_saving_a_deal_with_replays_record_each_deal_once(game):
    forms = [classic_form_data(game, went_out, **rows) for went_out, rows in DEALS]
    forms += [dict(forms[i]) for i in REPLAYS]  # same one-time token, sent again
    expected = {data["once"]: expected_scores(game, data) for data in forms}
    checks = []

    def phone(i):
        client, data = Client(), dict(forms[i])
        for tries in range(1, MAX_TRIES + 1):
            data["version"] = str(Game.objects.values_list("version", flat=True).get(pk=game.pk))
            response = client.post(url(game), data)
            if response.status_code == 302:
                said = [str(m) for m in get_messages(response.wsgi_request)]
                return tries, said
            assert response.status_code == 409, response.status_code
            assert STALE in response.content.decode()
        return tries, ["gave up"]

    def watcher(done):
        while not done.is_set():
            consistent(game.pk, checks)
            time.sleep(0.002)
        consistent(game.pk, checks)

    results = run_threads([lambda i=i: phone(i) for i in range(WRITERS)], watcher)

    # Every phone got an answer within the bound, each a clear one.
    assert all(tries <= MAX_TRIES and said != ["gave up"] for tries, said in results), results
    recorded = [said for _, said in results if said[0].startswith("Deal ")]
    already = [said for _, said in results if said == [ALREADY]]
    assert len(recorded) == len(DEALS), results
    assert len(already) == len(REPLAYS), results
    assert sorted(said[0] for said in recorded) == [f"Deal {n} recorded." for n in range(1, 7)]
    # Each deal once, under its own one-time token, with the scores its form gave.
    events = Event.objects.filter(game=game)
    assert sorted(events.values_list("form_token", flat=True)) == sorted(expected)
    for event in events:
        deal = Deal.objects.get(game=game, number=event.deal_number)
        stored = dict(deal.scores.values_list("seat__position", "points"))
        assert stored == expected[event.form_token]
    assert sorted(Deal.objects.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert DealScore.objects.count() == 6 * 4
    # The totals are the sum of the deals, at every moment the watcher looked and at the end.
    assert checks
    assert checks[-1] == 6
    assert checks == sorted(checks)
    game.refresh_from_db()
    assert game.version == 7
    assert len(expected) == len(DEALS)  # by one-time token: the replays are the same deals
    for seat in game.seats.all():
        assert seat.total == sum(scores[seat.position] for scores in expected.values())


def test_eight_phones_writing_to_eight_games_at_once_all_succeed_first_time():
    """No version conflicts here: on SQLite the writers only queue on the database lock,
    and every save must wait its turn and succeed, three times in a row."""
    games = [GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])]
    games += [GameFactory(variant_id="classic", players=4) for _ in range(WRITERS - 1)]

    def phone(i):
        client, statuses = Client(), []
        for went_out in range(3):
            version = Game.objects.values_list("version", flat=True).get(pk=games[i].pk)
            data = classic_form_data(games[i], went_out, jokers=1)
            data["version"] = str(version)
            statuses.append(client.post(url(games[i]), data).status_code)
        return statuses

    results = run_threads([lambda i=i: phone(i) for i in range(WRITERS)])
    assert results == [[302, 302, 302]] * WRITERS
    for g in games:
        g.refresh_from_db()
        assert g.version == 4
        assert g.deals.count() == 3
        consistent(g.pk, [])
    assert DealScore.objects.count() == WRITERS * 3 * 4
