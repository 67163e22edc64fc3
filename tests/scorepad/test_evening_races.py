"""The writes that touch one evening's money, interleaved deterministically (issue "Trust,
part three", races), on SQLite and PostgreSQL: a carry and an undo of one of its games, and
one game added to two evenings at once. The machinery (a request held at a named point of
``scorepad.pauses`` while the other runs) is ``test_name_races``'s.

After each: a game counts in one evening at most, and every carried evening's next one
starts where it ends now (the chain of evenings adds up)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorepad.evenings import build_evening, evening_prefetch
from scorepad.models import Evening, EveningBalance, EveningGame, Game
from tests.factories import ACTOR, GameFactory, record_classic
from tests.scorepad.conftest import own
from tests.scorepad.test_name_races import POINTS, Step, race  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

POINTS.extend(["game.write", "evening.write"])  # the points these races hold


def finished(names, winners):
    game = GameFactory(variant_id="classic", players=names)
    for winner in winners:
        record_classic(game, winner, no_wild=True)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    return Game.objects.get(pk=game.pk)


def final(evening: Evening) -> dict[str, int]:
    evening = Evening.objects.prefetch_related(*evening_prefetch()).get(pk=evening.pk)
    page = build_evening(evening)
    return {n: c for n, c in zip(page.names, page.balances, strict=True) if c}


def carried(evening: Evening) -> dict[str, int]:
    return {b.name: b.cents for b in EveningBalance.objects.filter(evening=evening) if b.cents}


def adds_up() -> None:
    counted = list(EveningGame.objects.values_list("game_id", flat=True))
    assert len(counted) == len(set(counted)), "a game counts in two evenings"
    for evening in Evening.objects.filter(next_evening__isnull=False):
        assert carried(evening.next_evening) == final(evening), (
            f"evening {evening.pk} ends at {final(evening)}, the next starts at "
            f"{carried(evening.next_evening)}"
        )


def hidden(page: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', page).group(1)


def carry(evening: Evening):
    url = reverse("evening-carry", kwargs={"token": evening.editor_token})
    data = {"version": evening.version, "once": f"carry-{evening.pk}-race-xxxx"}
    return lambda: Client().post(url, data)


def undo(game: Game):
    url = reverse("deal-undo", kwargs={"token": game.editor_token})
    data = {"version": game.version, "once": f"undo-{game.pk}-race-xxxxxx"}
    return lambda: Client().post(url, data)


@pytest.mark.parametrize("first", ["carry", "undo"])
def test_a_carry_and_an_undo_of_one_of_its_games_never_lose_the_undo(race, first):  # noqa: F811
    game = finished(["Anna", "Ben"], [0, 1, 1])
    evening = Evening.objects.create(stake="0.10")
    evening.add_game(game, "0.10", version=1, once=None, actor=ACTOR)
    evening.refresh_from_db()
    game = Game.objects.get(pk=game.pk)
    carrying = Step("carry", "evening.write", carry(evening))
    undoing = Step("undo", "game.write", undo(game))
    if first == "carry":
        race(carrying, undoing)
    else:
        race(undoing, carrying)
    undone = Game.objects.get(pk=game.pk).deals.count() == 2
    closed = Evening.objects.get(pk=evening.pk).is_closed
    assert undone or closed  # each went through, or was stale and changed nothing
    adds_up()


def add(evening: Evening, game: Game, phone: Client):
    page = phone.get(reverse("evening", kwargs={"token": evening.editor_token})).content.decode()
    data = {
        "game": game.editor_token,
        "stake": "0.10",
        "version": hidden(page, "version"),
        "once": hidden(page, "once"),
    }
    url = reverse("evening-add", kwargs={"token": evening.editor_token})
    return lambda: phone.post(url, data)


def test_one_game_added_to_two_evenings_at_once_counts_in_one(race):  # noqa: F811
    game = finished(["Anna", "Ben"], [0])
    one, two = Evening.objects.create(stake="0.10"), Evening.objects.create(stake="0.20")
    phone = own(Client(), game)
    first = Step("add to one", "evening.write", add(one, game, phone))
    second = Step("add to two", "evening.write", add(two, game, phone))
    race(first, second)
    assert EveningGame.objects.filter(game=game).count() == 1
    refused = second if EveningGame.objects.get(game=game).evening == one else first
    assert "counts in the evening" in refused.result.content.decode()
    adds_up()
