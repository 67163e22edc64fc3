"""factory-boy factories for the score pad, and helpers that record deals the way the
deal forms do (through the engine), so every stored score is one the engine computed."""

from __future__ import annotations

from typing import Any

import factory
from factory.django import DjangoModelFactory

from rules.engine.variants import get_variant
from scorepad.forms.change import once_token
from scorepad.forms.data import form_data
from scorepad.forms.deals import ClassicDealForm, PenaltyDealForm
from scorepad.models import Actor, Circle, Game, Person, Seat

ACTOR = Actor("creator", "test01")


class CircleFactory(DjangoModelFactory):
    class Meta:
        model = Circle

    name = factory.Sequence(lambda n: f"Circle {n + 1}")


def _schedule(variant_id: str):
    variant = get_variant(variant_id)
    return [s.as_dict() for s in variant.schedule] if variant.is_contract else None


class GameFactory(DjangoModelFactory):
    """A game with seats: ``GameFactory(players=["Anna", "Ben"])`` or ``players=4``; with
    ``circle=`` its seats are people of the circle (found by name, or new)."""

    class Meta:
        model = Game
        skip_postgeneration_save = True

    variant_id = "classic"
    options = factory.LazyAttribute(lambda o: get_variant(o.variant_id).default_options())
    schedule = factory.LazyAttribute(lambda o: _schedule(o.variant_id))

    @factory.post_generation
    def players(self, create, extracted, **kwargs):
        if not create:
            return
        if extracted is None:
            extracted = max(get_variant(self.variant_id).min_players, 3)
        names = (
            [f"Player {i + 1}" for i in range(extracted)]
            if isinstance(extracted, int)
            else extracted
        )
        for position, name in enumerate(names):
            person = None
            if self.circle_id is not None:
                person = self.circle.find(name) or Person.objects.create(
                    circle=self.circle, name=name
                )
            Seat.objects.create(game=self, name=name, person=person, position=position)


def seats(game: Game) -> list[Seat]:
    return list(game.seats.order_by("position"))


def classic_form_data(game: Game, went_out, **fields) -> dict[str, str]:
    values = {"version": game.version, "once": once_token(), "went_out": went_out, "mode": "rows"}
    values.update(fields)
    return form_data(values)


def penalty_form_data(game: Game, went_out, points=None, cards=None, **fields) -> dict[str, str]:
    values: dict[str, Any] = {"version": game.version, "once": once_token(), "went_out": went_out}
    for pos, value in (points or {}).items():
        values[f"points_{pos}"] = value
    for pos, value in (cards or {}).items():
        values[f"cards_{pos}"] = value
    values.update(fields)
    return form_data(values)


def record(game: Game, data: dict[str, str]):
    """Record a deal through its form and the engine, as the view does."""
    game.refresh_from_db()
    form_class = ClassicDealForm if game.variant_id == "classic" else PenaltyDealForm
    data = {**data, "version": str(game.version)}
    form = form_class(data, game=game, seats=[s for s in seats(game) if s.active])
    assert form.is_valid(), form.errors
    return game.record_deal(form.result, version=game.version, once=data["once"], actor=ACTOR)


def record_classic(game: Game, winner: int, **fields):
    return record(game, classic_form_data(game, winner, **fields))


def record_penalty(game: Game, went_out, points: dict[int, int], **fields):
    return record(game, penalty_form_data(game, went_out, points, **fields))
