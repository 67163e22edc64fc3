"""The scoring arithmetic of docs/rules.md: stake payments, ledgers, settle-up, penalty points,
running totals and standings.

Pure functions and small frozen values. Player keys (``K``) are whatever the caller uses to
name players (names, ids, seats): they only need to be hashable. Every function keeps the
order of the players it is given, so its output is deterministic. Bad input raises
:class:`ScoreError` (a ``ValueError``) with a message that names the player concerned.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, TypeGuard, TypeVar

from .cards import Card, CardError, check_copies
from .messages import EngineError, gettext_noop
from .variants import CLASSIC, CLASSIC_PAYMENTS, MAX_CARDS_DEALT, ROMME, Variant

K = TypeVar("K", bound=Hashable)

FIRST_TURN_VALUES = (None, "drawn", "undrawn")
CLASSIC_LAID_CARDS = 15  # a classic hand goes out with 15 laid cards

# The most cards a player can hold when a deal is scored (for the plausibility of points):
# contract games: the most cards a deal may deal (custom schedules included) plus the cards
# taken out of turn (the discard and a penalty card per take), the same allowance the hand
# checker makes; Rommé: the starting player's 15.
MAX_EXTRA_CONTRACT_CARDS = 12
MAX_CONTRACT_CARDS_HELD = MAX_CARDS_DEALT + MAX_EXTRA_CONTRACT_CARDS
MAX_ROMME_CARDS_HELD = 15

# Up to this many players with a balance, settle_up finds the proven minimum of transfers.
SETTLE_EXACT_MAX = 16


_NO_PLAYER = object()


class ScoreError(EngineError):
    """Input that cannot be scored; ``player`` names the player concerned, if any.

    ``player`` is also a parameter of the message (``%(player)s``), so the Django layer can
    put the player's name in its place.
    """

    def __init__(
        self,
        message: str,
        player: object = _NO_PLAYER,
        *,
        params: Mapping[str, Any] | None = None,
        **kwparams: Any,
    ):
        given = {} if player is _NO_PLAYER else {"player": player}
        super().__init__(message, params={**given, **(params or {})}, **kwparams)
        self.player = None if player is _NO_PLAYER else player


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(players: Sequence[K]) -> list[K]:
    players = list(players)
    seen = set()
    for p in players:
        if p in seen:
            raise ScoreError(gettext_noop("%(player)s is listed twice"), player=p)
        seen.add(p)
    return players


# --- classic: stake payments -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PaymentRow:
    row: str
    points: int

    def as_json(self) -> dict[str, object]:
        return {"row": self.row, "points": self.points}


@dataclass(frozen=True, slots=True)
class Payment:
    """What each other player pays the player who went out, row by row."""

    total: int
    rows: tuple[PaymentRow, ...]

    def as_json(self) -> dict[str, object]:
        return {"payment": self.total, "payment_rows": [r.as_json() for r in self.rows]}


def classic_payment(
    wild_twos: int,
    jokers: int,
    first_turn: str | None = None,
    one_suit: bool = False,
    twos_wild: bool = True,
) -> Payment:
    """The payment of a classic hand that went out (docs/rules.md#classic-payment).

    ``wild_twos`` counts the 2s laid as wild cards (a natural 2 is not counted), ``jokers``
    the jokers laid; ``first_turn`` is None, "drawn" or "undrawn"; ``one_suit`` when all 15
    laid cards are of one suit (never with a joker, which has no suit). In the jokers-only
    game (``twos_wild`` False) no 2 is wild, so ``wild_twos`` must be 0.

    Rows: ``going_out`` 1; ``wild_twos`` 1 each and ``jokers`` 2 each (present only when
    more than 0), or ``no_wild`` 10 instead of both when no wild card was laid;
    ``first_turn_drawn`` 7 or ``first_turn_undrawn`` 10; ``one_suit`` 10.
    """
    for name, value in (("wild_twos", wild_twos), ("jokers", jokers)):
        if not _is_int(value) or value < 0:
            raise ScoreError(
                gettext_noop("%(name)s must be a whole number of cards, 0 or more, not %(value)r"),
                name=name,
                value=value,
            )
    if wild_twos + jokers > CLASSIC_LAID_CARDS:
        raise ScoreError(
            gettext_noop("a hand lays %(laid)s cards, not %(wild)s wild"),
            laid=CLASSIC_LAID_CARDS,
            wild=wild_twos + jokers,
        )
    if not twos_wild and wild_twos:
        raise ScoreError(
            gettext_noop("in the jokers-only game no 2 is wild, so wild_twos must be 0")
        )
    if first_turn not in FIRST_TURN_VALUES:
        raise ScoreError(
            gettext_noop('first_turn must be "drawn", "undrawn" or None, not %(value)r'),
            value=first_turn,
        )
    if one_suit and jokers:
        raise ScoreError(
            gettext_noop("a hand with a joker is never all one suit: a joker has no suit")
        )

    rows = [PaymentRow("going_out", CLASSIC_PAYMENTS["going_out"])]
    if wild_twos == 0 and jokers == 0:
        rows.append(PaymentRow("no_wild", CLASSIC_PAYMENTS["no_wild"]))
    else:
        if wild_twos:
            rows.append(PaymentRow("wild_twos", CLASSIC_PAYMENTS["wild_twos"] * wild_twos))
        if jokers:
            rows.append(PaymentRow("jokers", CLASSIC_PAYMENTS["jokers"] * jokers))
    if first_turn is not None:
        key = f"first_turn_{first_turn}"
        rows.append(PaymentRow(key, CLASSIC_PAYMENTS[key]))
    if one_suit:
        rows.append(PaymentRow("one_suit", CLASSIC_PAYMENTS["one_suit"]))
    return Payment(total=sum(r.points for r in rows), rows=tuple(rows))


def classic_ledger(players: Sequence[K], winner: K, payment: int) -> dict[K, int]:
    """One classic deal: the winner gains payment × (n-1), every other player loses payment."""
    players = _check_players(players)
    if len(players) < 2:
        raise ScoreError(gettext_noop("a deal needs at least 2 players"))
    if winner not in players:
        raise ScoreError(
            gettext_noop("%(player)s went out but is not one of the players"), player=winner
        )
    if not _is_int(payment) or payment < 0:
        raise ScoreError(
            gettext_noop("the payment must be a whole number, 0 or more, not %(value)r"),
            value=payment,
        )
    return {p: payment * (len(players) - 1) if p == winner else -payment for p in players}


# --- settling up -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Transfer(Generic[K]):
    payer: K
    payee: K
    amount: Decimal


def settle_up(balances: Mapping[K, int], value_per_point: Decimal | int = 1) -> list[Transfer[K]]:
    """The fewest payments that square everybody's balance (positive: is owed; negative: owes).

    Exact, not greedy: with k players whose balance is not zero, the fewest transfers are
    k minus the largest number of disjoint groups of players whose balances sum to zero.
    A dynamic programme over the subsets of those players finds the groups (up to
    ``SETTLE_EXACT_MAX`` players; beyond, one greedy group, at most k-1 transfers); each
    group is then settled greedily, largest debt to largest credit, in g-1 transfers.

    Amounts are points × ``value_per_point`` as Decimal. The balances must sum to zero.
    Output: sorted by the payer's, then the payee's position in ``balances``.
    """
    if isinstance(value_per_point, bool) or not isinstance(value_per_point, int | Decimal):
        raise ScoreError(
            gettext_noop("the value of a point must be an int or a Decimal, not %(value)r"),
            value=value_per_point,
        )
    if isinstance(value_per_point, Decimal) and not value_per_point.is_finite():
        raise ScoreError(
            gettext_noop("the value of a point must be a number, not %(value)s"),
            value=value_per_point,
        )
    if value_per_point <= 0:
        raise ScoreError(
            gettext_noop("the value of a point must be more than 0, not %(value)s"),
            value=value_per_point,
        )
    keys = list(balances)
    for key in keys:
        if not _is_int(balances[key]):
            raise ScoreError(
                gettext_noop("%(player)s: the balance must be a whole number"), player=key
            )
    total = sum(balances[k] for k in keys)
    if total != 0:
        raise ScoreError(gettext_noop("the balances must sum to zero, not %(total)s"), total=total)

    nonzero = [i for i, key in enumerate(keys) if balances[key] != 0]
    values = [balances[keys[i]] for i in nonzero]
    if not nonzero:
        return []
    if len(nonzero) > SETTLE_EXACT_MAX:
        groups = [list(range(len(nonzero)))]
    else:
        groups = _zero_sum_groups(values)

    transfers: list[tuple[int, int, int]] = []
    for group in groups:
        transfers.extend(
            (nonzero[payer], nonzero[payee], amount)
            for payer, payee, amount in _settle_group(group, values)
        )
    transfers.sort()
    value = Decimal(value_per_point)
    return [Transfer(keys[a], keys[b], Decimal(amount) * value) for a, b, amount in transfers]


def _zero_sum_groups(values: list[int]) -> list[list[int]]:
    """The largest number of disjoint zero-sum groups covering all these (non-zero) values.

    ``best[m]`` is the most zero-sum groups a chain of subsets ending in ``m`` passes; it is
    max over i in m of ``best[m - i]``, plus one when ``m`` itself sums to zero. Following
    the best chain down from the full set, the zero-sum subsets met are nested, and their
    successive differences are the groups.
    """
    k = len(values)
    full = (1 << k) - 1
    sums = [0] * (full + 1)
    for m in range(1, full + 1):
        low = m & -m
        sums[m] = sums[m ^ low] + values[low.bit_length() - 1]
    best = [0] * (full + 1)
    for m in range(1, full + 1):
        top = 0
        rest = m
        while rest:
            low = rest & -rest
            if best[m ^ low] > top:
                top = best[m ^ low]
            rest ^= low
        best[m] = top + (sums[m] == 0)
    chain = []
    m = full
    while m:
        own = sums[m] == 0
        if own:
            chain.append(m)
        rest = m
        while rest:
            low = rest & -rest
            if best[m ^ low] == best[m] - own:
                m ^= low
                break
            rest ^= low
    groups = []
    for outer, inner in zip(chain, [*chain[1:], 0], strict=True):
        diff = outer & ~inner
        groups.append([i for i in range(k) if diff >> i & 1])
    return groups


def _settle_group(group: list[int], values: list[int]) -> list[tuple[int, int, int]]:
    """Greedy settling of one zero-sum group: the largest debt pays the largest credit."""
    left = {i: values[i] for i in group}
    out: list[tuple[int, int, int]] = []
    while True:
        debtors = [i for i in group if left[i] < 0]
        creditors = [i for i in group if left[i] > 0]
        if not debtors:
            return out
        payer = min(debtors, key=lambda i: (left[i], i))
        payee = min(creditors, key=lambda i: (-left[i], i))
        amount = min(-left[payer], left[payee])
        left[payer] += amount
        left[payee] -= amount
        out.append((payer, payee, amount))


# --- penalty points ------------------------------------------------------------------------------


def hand_penalty(cards: Sequence[Card], variant: Variant) -> int:
    """The penalty of the cards left in a hand: the sum of ``variant.penalty`` per card."""
    if variant.id == CLASSIC:
        raise ScoreError(gettext_noop("the classic game has no card penalties"))
    total = 0
    for c in cards:
        if not isinstance(c, Card):
            raise ScoreError(gettext_noop("not a card: %(value)r"), value=c)
        total += variant.penalty(c)
    return total


def max_cards_held(variant: Variant) -> int:
    """The most cards a player can hold when a deal of this variant is scored."""
    if variant.id == CLASSIC:
        raise ScoreError(gettext_noop("the classic game has no card penalties"))
    if variant.id == ROMME:
        return MAX_ROMME_CARDS_HELD
    return MAX_CONTRACT_CARDS_HELD


def max_hand_penalty(variant: Variant, players: int) -> int:
    """The most the cards one player can hold could be worth, with this many players.

    The sum of the most expensive ``max_cards_held`` cards of the decks in play (the most
    decks the variant uses with this many players, in any deal).
    """
    decks, jokers = variant.decks(players, deal=len(variant.schedule or ()) + 1)
    values = [variant.penalty(Card(0, ""))] * jokers
    values += [variant.penalty(Card(r, "S")) for r in range(1, 14)] * (4 * decks)
    values.sort(reverse=True)
    return sum(values[: max_cards_held(variant)])


def penalty_deal(
    variant: Variant,
    players: Sequence[K],
    went_out: K | None,
    left: Mapping[K, int | Sequence[Card]],
    handromme: bool = False,
    options=None,
) -> dict[K, int]:
    """The penalty points of one deal of a contract game or Rommé, per player.

    ``went_out`` is the player who went out (scores 0) or None when nobody did (the stock
    ran out: every hand counts). ``left`` gives each other player's hand, as points or as
    the cards themselves; the player who went out is left out of it (or given 0 / no
    cards). Points are checked for plausibility: whole and not negative, multiples of 5 in
    the contract games (every card there is worth 5, 10, 20 or 50), and no more than
    :func:`max_hand_penalty` (the most the cards a player can hold could be worth). Cards are
    checked against the decks in play, hand by hand and all hands together.

    ``handromme``: the player who went out did so with Handrommé (Rommé only, and only with
    a winner); with the option ``handromme_doubles`` the others' penalties are doubled.
    """
    if variant.id == CLASSIC:
        raise ScoreError(
            gettext_noop("the classic game is scored with payments, not penalty points")
        )
    opts = variant.resolve_options(options)
    players = _check_penalty_deal(variant, players, went_out, left, handromme)
    limits = _HandLimits.of(variant, len(players))
    all_cards: list[Card] = []
    scores: dict[K, int] = {}
    for player in players:
        if player not in left:
            if player != went_out:
                raise ScoreError(
                    gettext_noop("no points or cards given for %(player)s"), player=player
                )
            points = 0
        else:
            points = _hand_points(variant, player, left[player], limits, all_cards)
        if player == went_out and points:
            raise ScoreError(
                gettext_noop("%(player)s: leave the points empty; going out scores 0"),
                player=player,
            )
        scores[player] = points
    try:
        check_copies(all_cards, limits.decks, limits.jokers)
    except CardError as exc:
        raise ScoreError(gettext_noop("the hands together: %(error)s"), error=exc) from None
    if handromme and opts.get("handromme_doubles"):
        scores = {p: s if p == went_out else 2 * s for p, s in scores.items()}
    return scores


def penalty_errors(
    variant: Variant,
    players: Sequence[K],
    went_out: K | None,
    left: Mapping[K, int | Sequence[Card]],
    handromme: bool = False,
) -> list[ScoreError]:
    """Every problem of one deal's hands, each player's hand checked on its own, as
    :func:`penalty_deal` checks them (which stops at the first): a form shows them all at
    once. The hands together (copies of a card across hands) are penalty_deal's to check."""
    try:
        players = _check_penalty_deal(variant, players, went_out, left, handromme)
    except ScoreError as exc:
        return [exc]
    limits = _HandLimits.of(variant, len(players))
    found: list[ScoreError] = []
    for player in players:
        if player not in left:
            if player != went_out:
                found.append(
                    ScoreError(
                        gettext_noop("no points or cards given for %(player)s"), player=player
                    )
                )
            continue
        try:
            points = _hand_points(variant, player, left[player], limits, [])
        except ScoreError as exc:
            found.append(exc)
            continue
        if player == went_out and points:
            found.append(
                ScoreError(
                    gettext_noop("%(player)s: leave the points empty; going out scores 0"),
                    player=player,
                )
            )
    return found


def _check_penalty_deal(
    variant: Variant, players: Sequence[K], went_out: K | None, left: object, handromme: bool
) -> list[K]:
    """The players of a penalty deal, once the deal's arguments are known to fit together."""
    players = _check_players(players)
    n = len(players)
    if not variant.min_players <= n <= variant.max_players:
        raise ScoreError(
            gettext_noop("%(variant)s is for %(low)s to %(high)s players, not %(players)s"),
            variant=variant.name,
            low=variant.min_players,
            high=variant.max_players,
            players=n,
        )
    if went_out is not None and went_out not in players:
        raise ScoreError(
            gettext_noop("%(player)s went out but is not one of the players"), player=went_out
        )
    if handromme:
        if variant.id != ROMME:
            raise ScoreError(gettext_noop("Handrommé is a Rommé rule"))
        if went_out is None:
            raise ScoreError(gettext_noop("Handrommé needs the player who went out"))
    if not isinstance(left, Mapping):
        raise ScoreError(
            gettext_noop("give the hands left as a mapping of player to points or cards")
        )
    for key in left:
        if key not in players:
            raise ScoreError(gettext_noop("%(player)s is not one of the players"), player=key)
    return players


@dataclass(frozen=True, slots=True)
class _HandLimits:
    """What one hand left at the end of a deal can be: its points at most, its cards at most,
    and the decks and jokers its cards come from."""

    cap: int
    held: int
    decks: int
    jokers: int

    @classmethod
    def of(cls, variant: Variant, players: int) -> _HandLimits:
        decks, jokers = variant.decks(players, deal=len(variant.schedule or ()) + 1)
        return cls(max_hand_penalty(variant, players), max_cards_held(variant), decks, jokers)


def _hand_points(
    variant: Variant, player: object, value: object, limits: _HandLimits, all_cards: list[Card]
) -> int:
    """The penalty of one hand given as points or as cards (the cards join ``all_cards``)."""
    if _is_int(value):
        return _checked_points(variant, player, value, limits.cap)
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        cards = _checked_cards(player, list(value), limits)
        all_cards.extend(cards)
        return hand_penalty(cards, variant)
    raise ScoreError(
        gettext_noop("%(player)s: give the penalty as a whole number of points or a list of cards"),
        player=player,
    )


def _checked_points(variant: Variant, player: object, points: int, cap: int) -> int:
    if points < 0:
        raise ScoreError(
            gettext_noop("%(player)s: penalty points cannot be negative"), player=player
        )
    if variant.is_contract and points % 5:
        raise ScoreError(
            gettext_noop(
                "%(player)s: %(points)s is not a multiple of 5; every card is worth 5, 10, 20 or 50"
            ),
            player=player,
            points=points,
        )
    if points > cap:
        raise ScoreError(
            gettext_noop(
                "%(player)s: %(points)s points is more than a hand can be worth (%(cap)s)"
            ),
            player=player,
            points=points,
            cap=cap,
        )
    return points


def _checked_cards(player: object, cards: list, limits: _HandLimits) -> list[Card]:
    if any(not isinstance(c, Card) for c in cards):
        raise ScoreError(gettext_noop("%(player)s: give points or a list of cards"), player=player)
    if len(cards) > limits.held:
        raise ScoreError(
            gettext_noop("%(player)s: %(count)s cards, more than a player can hold (%(held)s)"),
            player=player,
            count=len(cards),
            held=limits.held,
        )
    try:
        check_copies(cards, limits.decks, limits.jokers)
    except CardError as exc:
        raise ScoreError(gettext_noop("%(player)s: %(error)s"), player=player, error=exc) from None
    return cards


# --- totals and standings ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing(Generic[K]):
    player: K
    total: int
    place: int  # 1 for the leader; tied players share a place (1, 1, 3)


def running_totals(
    deal_scores: Sequence[Mapping[K, int]], players: Sequence[K]
) -> list[dict[K, int]]:
    """The totals after each deal: one dict per deal, every player in ``players`` order."""
    players = _check_players(players)
    totals = dict.fromkeys(players, 0)
    out = []
    for number, scores in enumerate(deal_scores, start=1):
        for key in scores:
            if key not in totals:
                raise ScoreError(
                    gettext_noop("deal %(deal)s: %(player)s is not one of the players"),
                    player=key,
                    deal=number,
                )
        for player in players:
            if player not in scores:
                raise ScoreError(
                    gettext_noop("deal %(deal)s: no score for %(player)s"),
                    player=player,
                    deal=number,
                )
            value = scores[player]
            if not _is_int(value):
                raise ScoreError(
                    gettext_noop("deal %(deal)s: the score of %(player)s must be a whole number"),
                    player=player,
                    deal=number,
                )
            totals[player] += value
        out.append(dict(totals))
    return out


def standings(
    totals: Mapping[K, int], variant: Variant, left: Collection[K] = ()
) -> list[Standing[K]]:
    """Players by place: the lowest total first in penalty games, the highest in classic.

    Tied players share a place and keep the order they are given in; the next place skips
    (1, 1, 3). A player in ``left`` (who left the table and is not at it now) is ranked
    after every player at the table, the players who left among themselves by total as
    usual: a player who left cannot win (the app's choice, docs/rules.md). When nobody is
    at the table, everybody is ranked by total.
    """
    keys = list(totals)
    for key in keys:
        if not _is_int(totals[key]):
            raise ScoreError(
                gettext_noop("the total of %(player)s must be a whole number"), player=key
            )
    gone = {key for key in keys if key in left}
    if len(gone) == len(keys):
        gone = set()
    sign = -1 if variant.scoring == "payment" else 1
    ordered = sorted(keys, key=lambda k: (k in gone, sign * totals[k]))
    out: list[Standing[K]] = []
    for i, key in enumerate(ordered):
        tied = (
            bool(out) and totals[key] == out[-1].total and (key in gone) == (out[-1].player in gone)
        )
        place = out[-1].place if tied else i + 1
        out.append(Standing(key, totals[key], place))
    return out


def winners(totals: Mapping[K, int], variant: Variant, left: Collection[K] = ()) -> list[K]:
    """The players in first place (several when tied); never one who left (``standings``)."""
    return [s.player for s in standings(totals, variant, left) if s.place == 1]


__all__ = [
    "FIRST_TURN_VALUES",
    "Payment",
    "PaymentRow",
    "ScoreError",
    "Standing",
    "Transfer",
    "classic_ledger",
    "classic_payment",
    "hand_penalty",
    "max_cards_held",
    "max_hand_penalty",
    "penalty_deal",
    "running_totals",
    "settle_up",
    "standings",
    "winners",
]
