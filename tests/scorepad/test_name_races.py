"""The writes that touch one person or one seat of a circle, interleaved deterministically
(issue "Trust, part three", items 3 and 4), on SQLite and on PostgreSQL (DATABASE_URL).

Each pair is played in both orders: one request runs in a thread up to a named point of
``scorepad.pauses`` (between what it read and what it writes) and is held there while the
other runs, until that one is done, is held at its own point, or waits for a lock (asked of
PostgreSQL's ``pg_stat_activity``, or of SQLite's writer lock, continental/sqlite); then
they go on in that order. No timing is hoped for: each step waits for an event.

- a merge of Bob into Anna and a new game that seats both;
- a merge of Bob into Anna and Bob joining a game where Anna sits;
- two new games with one new name, "Zoe".

After each, the invariants: one seat per person per game, one person per name (by the name
rule) per circle, and once the games ended, every person's page, the circle's year and the
carry of an evening holding the games answer without an error.
"""

from __future__ import annotations

import fcntl
import threading
import time
import types
from collections.abc import Callable

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from continental.sqlite import base as sqlite_base
from scorepad import pauses
from scorepad.access import CIRCLES, circle_reference
from scorepad.models import Circle, Evening, EveningGame, Game, Person, roots
from scorepad.naming import name_key
from tests.factories import ACTOR, CircleFactory, record_classic

pytestmark = pytest.mark.django_db(transaction=True)

POINTS = ["new_game.start", "new_game.seat", "person.new", "merge.write", "join.write"]
WAIT = 20  # seconds: only a hung step waits this long


class Step:
    """One request in a thread of its own, held once at ``point``."""

    here = threading.local()

    def __init__(self, label: str, point: str, body: Callable[[], object]):
        self.label, self.point, self.body = label, point, body
        self.arrived, self.go, self.done = threading.Event(), threading.Event(), threading.Event()
        self.result: object = None
        self.error: BaseException | None = None
        self.pid: int | None = None
        self.ident: int | None = None
        self.thread = threading.Thread(target=self._run, name=label)

    def _run(self) -> None:
        Step.here.step = self
        self.ident = threading.get_ident()
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    self.pid = cursor.fetchone()[0]
            with translation.override("en"):
                self.result = self.body()
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            connection.close()
            self.done.set()

    @staticmethod
    def hook(name: str) -> None:
        step = getattr(Step.here, "step", None)
        if step is not None and name == step.point and not step.arrived.is_set():
            step.arrived.set()
            assert step.go.wait(WAIT), f"{step.label} was never released"


class WriterLock:
    """SQLite's writer lock (continental/sqlite/base.py) seen from the test: which threads
    found it taken and wait for it."""

    def __init__(self) -> None:
        self.waiting: set[int] = set()

    def flock(self, fd: int, op: int) -> None:
        try:
            fcntl.flock(fd, op)
        except BlockingIOError:
            self.waiting.add(threading.get_ident())
            raise
        self.waiting.discard(threading.get_ident())


def blocked(step: Step, lock: WriterLock) -> bool:
    """Whether ``step`` waits for a lock: a row lock (PostgreSQL) or the writer lock."""
    if connection.vendor != "postgresql":
        return step.ident in lock.waiting
    if step.pid is None:
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [step.pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def state(step: Step, lock: WriterLock) -> str:
    """Wait until ``step`` is done, held at its point (and not let go), or waiting for a
    lock another step holds."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if step.done.is_set():
            return "done"
        if step.arrived.is_set() and not step.go.is_set():
            return "held"
        if blocked(step, lock):
            return "blocked"
        time.sleep(0.002)
    raise AssertionError(f"{step.label} hung")


def interleave(first: Step, second: Step, lock: WriterLock) -> list[str]:
    """``first`` to its point; ``second`` as far as it goes; then each goes on."""
    seen = []
    with pauses.holding(POINTS, Step.hook):
        first.thread.start()
        seen.append(state(first, lock))
        assert seen[-1] == "held", f"{first.label} never reached {first.point}"
        second.thread.start()
        seen.append(state(second, lock))
        if seen[-1] == "held":  # the second went first to its point: it goes on first
            second.go.set()
            seen.append(state(second, lock))
        first.go.set()
        second.go.set()
        for step in (first, second):
            step.thread.join(WAIT)
            assert not step.thread.is_alive(), f"{step.label} hung"
    for step in (first, second):
        assert step.error is None, f"{step.label}: {step.error!r}"
        status = getattr(step.result, "status_code", 500)
        assert status < 500, f"{step.label} answered {status}"
    return seen


@pytest.fixture
def race(monkeypatch):
    """``race(first, second)``: the two steps interleaved, SQLite's writer lock watched."""
    lock = WriterLock()
    shim = types.SimpleNamespace(
        flock=lock.flock, LOCK_EX=fcntl.LOCK_EX, LOCK_NB=fcntl.LOCK_NB, LOCK_UN=fcntl.LOCK_UN
    )
    monkeypatch.setattr(sqlite_base, "fcntl", shim)
    return lambda first, second: interleave(first, second, lock)


# --- the table and its requests ----------------------------------------------------------


@pytest.fixture
def circle():
    circle = CircleFactory(name="Friday table")
    for name in ("Anna", "Bob", "Cleo"):
        Person.objects.create(circle=circle, name=name)
    return circle


def person(circle: Circle, name: str) -> Person:
    return Person.objects.get(circle=circle, key=name_key(name))


def editor(circle: Circle) -> Client:
    client = Client()
    session = client.session
    session[CIRCLES.created] = [circle.pk]
    session.save()
    return client


def new_game(circle: Circle, seats: list[str]) -> Callable[[], object]:
    data = {
        "variant": "classic",
        "op": "start",
        "first_dealer": "0",
        "circle": circle_reference(circle),
        "seat": seats,
    }
    return lambda: Client().post(reverse("game-new"), data)


def merge(circle: Circle, name: str, into: str, once: str) -> Callable[[], object]:
    circle.refresh_from_db()
    data = {
        "version": circle.version,
        "once": once,
        "person": person(circle, name).pk,
        "into": person(circle, into).pk,
    }
    url = reverse("circle-merge", kwargs={"token": circle.editor_token})
    client = editor(circle)
    return lambda: client.post(url, data)


def join(game: Game, name: str) -> Callable[[], object]:
    game.refresh_from_db()
    data = {
        "form": "join",
        "version": game.version,
        "once": f"join-{game.pk}-{game.version}-race",
        "name": name,
        "start": "zero",
    }
    url = reverse("game-players", kwargs={"token": game.editor_token})
    return lambda: Client().post(url, data)


def table(circle: Circle, names: list[str]) -> Game:
    """A game of the circle where these people sit, started as the new-game page starts it."""
    new_game(circle, [f"p:{person(circle, n).pk}" for n in names])()
    return Game.objects.filter(circle=circle).latest("pk")


# --- the invariants ----------------------------------------------------------------------


def check(circle: Circle) -> None:
    who = roots(circle.pk)
    games = list(Game.objects.filter(circle=circle).order_by("pk"))
    for game in games:
        sitting = [who[s.person_id] for s in game.seats.all()]
        assert len(sitting) == len(set(sitting)), f"a person sits twice in game {game.pk}"
    names = [name_key(p.name) for p in Person.objects.filter(circle=circle)]
    assert len(names) == len(set(names)), f"two people of one name: {sorted(names)}"
    # Every game ended with a deal; the pages that read them, and an evening's carry.
    for game in games:
        game.refresh_from_db()
        if not game.is_finished:
            record_classic(game, 0)
            game.refresh_from_db()
            game.end(version=game.version, once=f"end-{game.pk}-race", actor=ACTOR)
    viewer = Client()
    token = circle.viewer_token
    for pk in set(who.values()):
        page = viewer.get(reverse("circle-player", kwargs={"token": token, "pk": pk}))
        assert page.status_code == 200, f"person {pk}: {page.status_code}"
    if games:  # the year of a circle that finished no game is no page (404)
        year = timezone.localdate().year
        page = viewer.get(reverse("circle-year", kwargs={"token": token, "year": year}))
        assert page.status_code == 200
    evening = Evening.objects.create(name="Race", stake="0.10", circle=circle)
    for i, game in enumerate(games, start=1):
        EveningGame.objects.create(evening=evening, game=game, stake="0.10", position=i)
    url = reverse("evening-carry", kwargs={"token": evening.editor_token})
    carried = Client().post(url, {"version": evening.version, "once": f"carry-{evening.pk}"})
    assert carried.status_code == 302, carried.status_code
    evening.refresh_from_db()
    assert evening.is_closed
    page = viewer.get(reverse("evening", kwargs={"token": evening.next_evening.editor_token}))
    assert page.status_code == 200


# --- merge x new game ---------------------------------------------------------------------


@pytest.mark.parametrize("first", ["new_game.start", "new_game.seat", "merge.write"])
def test_a_merge_and_a_new_game_that_seats_both_never_seat_one_person_twice(race, circle, first):
    """The new game held after it read the people (before its transaction) or once it
    locked the circle to seat them, or the merge held after its check of the seats."""
    seats = [f"p:{person(circle, n).pk}" for n in ("Anna", "Bob", "Cleo")]
    point = first if first.startswith("new_game") else "-"
    start = Step("new game", point, new_game(circle, seats))
    merging = Step("merge", "merge.write", merge(circle, "Bob", "Anna", "race-merge-1"))
    seen = race(start, merging) if first.startswith("new_game") else race(merging, start)
    # Held outside its transaction, the new game locks nothing; inside, the other waits.
    assert ("blocked" in seen) == (first != "new_game.start")
    merged = person(circle, "Bob").merged_into_id == person(circle, "Anna").pk
    started = Game.objects.filter(circle=circle).exists()
    assert merged != started  # the one that went second was refused, and said why
    if merged:
        assert "are one person of the circle now" in start.result.content.decode()
    else:
        said = [str(m) for m in get_messages(merging.result.wsgi_request)]
        assert any("sat in the same game" in m for m in said), said
    check(circle)


# --- merge x join -------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["join", "merge"])
def test_a_merge_and_a_join_never_seat_one_person_twice(race, circle, first):
    game = table(circle, ["Anna", "Cleo"])
    joining = Step("join", "join.write", join(game, "Bob"))
    merging = Step("merge", "merge.write", merge(circle, "Bob", "Anna", "race-merge-2"))
    seen = race(joining, merging) if first == "join" else race(merging, joining)
    assert seen[1] == "blocked"  # the circle's lock (PostgreSQL), the writer lock (SQLite)
    bob, anna = person(circle, "Bob"), person(circle, "Anna")
    bob_sits = game.seats.filter(person=bob).exists()
    # One of the two went through: Bob sits, unmerged, or Bob is Anna and stays away.
    assert bob_sits != (bob.merged_into_id == anna.pk)
    check(circle)


# --- new game x new game, one new name ------------------------------------------------------


@pytest.mark.parametrize("point", ["new_game.start", "person.new"])
def test_two_new_games_with_one_new_name_make_one_person(race, circle, point):
    anna, cleo = person(circle, "Anna"), person(circle, "Cleo")
    one = Step("first game", point, new_game(circle, [f"p:{anna.pk}", "n:Zoe"]))
    two = Step("second game", "-", new_game(circle, [f"p:{cleo.pk}", "n:zoe\u200b"]))
    seen = race(one, two)
    assert ("blocked" in seen) == (point != "new_game.start")
    zoe = Person.objects.filter(circle=circle, key="zoe")
    assert zoe.count() == 1
    assert Game.objects.filter(circle=circle, seats__person=zoe.get()).count() == 2
    check(circle)
