"""The answer of one hand check, typed: one dataclass per family of games.

:func:`rules.engine.check.check` returns a :data:`CheckResult`; the checker page reads its
fields (cards, melds, payment rows) as they are, and ``as_json()`` writes the result object
of docs/interfaces.md that ``POST /api/check`` and ``checkhand`` print. A field's JSON key
is its name, in the order declared, and its ``description`` (and bounds such as ``minimum``) go into the OpenAPI document, which
rules/openapi.py builds from these same classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .cards import Card
from .melds import Meld, Placed
from .scoring import PaymentRow
from .variants import MAX_CUSTOM_DEALS

CARDS_TEXT = "The canonical notation of the input hand."
MELDS_TEXT = "The melds laid, each a list of the cards placed in it."
DISCARD_TEXT = "The card discarded, if any."


def doc(text: str, **bounds: Any) -> dict[str, Any]:
    """A field's metadata: its description (and JSON Schema bounds) for the OpenAPI document."""
    return {"description": text, **bounds}


def to_json(value: Any) -> Any:
    """``value`` as JSON data: a card by its code, a meld as its placed cards, a result or
    a row by its fields."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Meld):
        return [to_json(p) for p in value.placed]
    if isinstance(value, Placed):
        return {"card": value.card.code, "as": value.stands_for.code}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {to_json(k): to_json(v) for k, v in value.items()}
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    return value


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract of a deal: how many sets and runs it asks for."""

    sets: int = field(metadata=doc("Sets the contract asks for.", minimum=0))
    runs: int = field(metadata=doc("Runs the contract asks for.", minimum=0))


@dataclass(frozen=True, slots=True)
class _Result:
    variant: str = field(metadata=doc("The variant asked for."))
    cards: str = field(metadata=doc(CARDS_TEXT))

    def as_json(self) -> dict[str, Any]:
        """The result object of docs/interfaces.md (the API's and checkhand's answer)."""
        out = to_json(self)
        assert isinstance(out, dict)
        return out


@dataclass(frozen=True, slots=True)
class ClassicResult(_Result):
    goes_out: bool = field(metadata=doc("The hand goes out."))
    melds: tuple[Meld, ...] = field(metadata=doc(MELDS_TEXT))
    discard: Card | None = field(metadata=doc(DISCARD_TEXT))
    payment: int | None = field(
        metadata=doc("What each other player pays; null if the hand does not go out.")
    )
    payment_rows: tuple[PaymentRow, ...] = field(
        metadata=doc(
            "The rows of the payment table that add up to the payment; empty if it does not go out."
        )
    )
    waits: tuple[Card, ...] | None = field(
        metadata=doc(
            "For a 15-card hand that does not go out: the distinct cards that would let it go out "
            "if drawn, sorted S, H, D, C then rank, joker last; null for 16-card hands and hands "
            "that go out."
        )
    )
    outs: dict[Card, int] | None = field(
        metadata=doc(
            "With `waits`: each wait (in the order of `waits`) with the copies still unseen: the "
            "table's copies of the card minus those in the hand and those in `seen`; a wait whose "
            "every copy is in the hand is left out. Their sum is the hand's outs. Null when "
            "`waits` is null.",
            minimum=0,
        )
    )


@dataclass(frozen=True, slots=True)
class ContractResult(_Result):
    deal: int = field(metadata=doc("The deal checked.", minimum=1, maximum=MAX_CUSTOM_DEALS))
    contract: Contract = field(metadata=doc("The deal's contract."))
    can_open: bool = field(metadata=doc("The contract can be laid."))
    melds: tuple[Meld, ...] = field(metadata=doc(MELDS_TEXT + " Sets first, then runs."))
    discard: Card | None = field(metadata=doc(DISCARD_TEXT))
    left_in_hand: tuple[Card, ...] = field(metadata=doc("Cards kept, the discard not included."))
    penalty: int = field(
        metadata=doc("Penalty of left_in_hand; of the whole hand if it cannot open.")
    )
    goes_out: bool = field(metadata=doc("Nothing stays in hand after laying and discarding."))


@dataclass(frozen=True, slots=True)
class RommeResult(_Result):
    opening_points: int = field(
        metadata=doc(
            "The highest value of melds the hand can lay while keeping a card to discard.",
            minimum=0,
        )
    )
    can_open: bool = field(metadata=doc("opening_points reaches the option opening_minimum."))
    handromme: bool = field(metadata=doc("Every card but one can be laid, and that one discarded."))
    melds: tuple[Meld, ...] = field(metadata=doc(MELDS_TEXT))
    discard: Card | None = field(metadata=doc(DISCARD_TEXT))


CheckResult = ClassicResult | ContractResult | RommeResult
RESULT_TYPES: tuple[type[_Result], ...] = (ClassicResult, ContractResult, RommeResult)
