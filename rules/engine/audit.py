"""Audits of a whole deal: the cards entered for it, and the stake game's zero sum.

Two checks that look at every player of a deal at once, not at one hand:

- :func:`excess_cards` / :func:`check_deal_cards`: the cards entered as penalties in one
  deal, all hands together, against the decks and jokers *of that deal* (a Spanish table of
  five shuffles two decks for the first two deals and four for the last ones): a card
  entered more often than the decks hold it, or more jokers than there are, names the card
  and every player holding it.
- :func:`stake_deal_flaw`: a classic deal as stored is zero-sum: every payment the others
  make is received by the player who went out, each of them pays the deal's payment, and an
  abandoned deal moves nothing. A stored deal that breaks it (a row edited in the database)
  is reported, so the sheet can flag it and leave it out of the totals instead of adding it.

Players are whatever hashable keys the caller uses (seat positions, names); the output keeps
the order they are given in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .cards import Card, copies
from .messages import EngineError, gettext_noop

K = TypeVar("K", bound=Hashable)


class AuditError(EngineError):
    """What an audit found wrong with a deal, as a message a person may see."""


@dataclass(frozen=True, slots=True)
class Excess(Generic[K]):
    """One card entered more often in a deal than the deal's decks hold it."""

    card: Card
    count: int  # how many were entered, all hands together
    limit: int  # how many the deal's decks hold (jokers: how many jokers are in play)
    holders: tuple[K, ...]  # the players whose hands hold it, in the order given

    def error(self) -> AuditError:
        """The message naming the card and the players holding it (``players`` is the list of
        player keys; the Django layer puts their names, joined, in its place)."""
        if self.card.is_joker:
            return AuditError(
                gettext_noop(
                    "%(count)s jokers entered, held by %(players)s, but this deal has only "
                    "%(limit)s"
                ),
                count=self.count,
                limit=self.limit,
                players=list(self.holders),
            )
        return AuditError(
            gettext_noop(
                "%(count)s × %(card)s entered, held by %(players)s, but the %(limit)s decks of "
                "this deal hold only %(limit)s"
            ),
            count=self.count,
            card=self.card.code,
            limit=self.limit,
            players=list(self.holders),
        )


def excess_cards(hands: Mapping[K, Sequence[Card]], decks: int, jokers: int) -> list[Excess[K]]:
    """Every card entered in this deal more often than ``decks`` decks and ``jokers`` jokers
    hold it, all hands together, in the canonical card order (jokers last)."""
    counts: Counter[Card] = Counter()
    holders: dict[Card, list[K]] = {}
    for player, cards in hands.items():
        for c in cards:
            counts[c] += 1
            who = holders.setdefault(c, [])
            if player not in who:
                who.append(player)
    found = []
    for c in sorted(counts, key=lambda c: c.sort_key):
        limit = copies(c, decks, jokers)
        if counts[c] > limit:
            found.append(Excess(c, counts[c], limit, tuple(holders[c])))
    return found


def check_deal_cards(hands: Mapping[K, Sequence[Card]], decks: int, jokers: int) -> None:
    """Raise the :class:`AuditError` of the first card entered too often (see excess_cards)."""
    found = excess_cards(hands, decks, jokers)
    if found:
        raise found[0].error()


def stake_deal_flaw(
    players: Sequence[K],
    scores: Mapping[K, int],
    went_out: K | None,
    payment: int | None,
    abandoned: bool = False,
) -> AuditError | None:
    """What breaks the zero sum of one stored classic deal, or None when nothing does.

    ``scores`` are the stored scores by player (a player without a stored score is missing
    from it). A scored deal: every player has a score, they sum to zero, each player but
    the one who went out pays ``payment`` and that player receives all of it. An abandoned
    deal: nobody scores anything.
    """
    if abandoned:
        for player in players:
            if scores.get(player, 0) != 0:
                return AuditError(
                    gettext_noop(
                        "an abandoned deal scores nothing, but %(player)s has %(points)s here"
                    ),
                    player=player,
                    points=scores[player],
                )
        return None
    for player in players:
        if player not in scores:
            return AuditError(gettext_noop("the score of %(player)s is missing"), player=player)
    extra = [key for key in scores if key not in players]
    if extra:
        return AuditError(
            gettext_noop("a score is stored for %(player)s, who is not at the table"),
            player=extra[0],
        )
    total = sum(scores[p] for p in players)
    if total != 0:
        return AuditError(
            gettext_noop(
                "the scores sum to %(total)s, not 0: a payment is not received by anyone, "
                "or received without being paid"
            ),
            total=total,
        )
    if went_out not in players or payment is None:
        return AuditError(gettext_noop("the deal does not say who went out and what each paid"))
    for player in players:
        expected = payment * (len(players) - 1) if player == went_out else -payment
        if scores[player] != expected:
            return AuditError(
                gettext_noop(
                    "%(player)s has %(points)s, but a payment of %(payment)s makes it %(expected)s"
                ),
                player=player,
                points=scores[player],
                payment=payment,
                expected=expected,
            )
    return None


__all__ = ["AuditError", "Excess", "check_deal_cards", "excess_cards", "stake_deal_flaw"]
