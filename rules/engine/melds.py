"""Meld validation: runs, sets and Rommé groups, and what each wild card stands for.

Two entry points:

* :func:`validate_meld` checks a meld whose roles are given (each :class:`Placed` says which
  card it is and which card it stands for) and returns it normalised as a :class:`Meld`.
* :func:`find_meld` takes unordered cards, decides whether they form a meld and chooses the
  roles of the wild cards. Its answer always passes :func:`validate_meld`.

Both raise :class:`MeldError` with a reason a person understands.

The rules of docs/rules.md, per variant (``Variant`` holds them as data):

* classic: runs only, 3 to 5 cards; any mix of natural and wild cards (even all wild).
* contract games: runs of at least 4 cards (``DealSpec.run_min``), sets of at least 3 cards
  of one rank (``DealSpec.set_min``), suits may repeat in a set. Nordic: wild cards never
  outnumber natural cards. Spanish: at least one natural card; runs go around the corner
  (Q-K-A-2), up to 13 cards.
* romme: runs of at least 3 cards; groups of 3 or 4 cards of one rank, all of different
  suits; at least one natural card.

A run is one suit in unbroken order, each rank once. The ace is low (A-2-3) or high (Q-K-A),
never both and never around the corner (K-A-2), except where the variant's runs wrap.

Natural and wild roles. A card that may be wild (``Variant.can_be_wild``) and stands for
itself is a natural card: a 2 at the 2 position of a run of its own suit in the classic game,
a red ace at an ace position of a run of its own suit or in a set of aces in the Nordic game.
In a contract set the suit does not matter, so a red ace in a set of aces is always natural:
:func:`validate_meld` refuses it standing for an ace of another suit. Any other card stands
for itself. A wild card stands for a real card (never a joker): in a run the card at its
position; in a contract set a card of the set's rank (any suit); in a Rommé group a card of
the group's rank of a suit not otherwise in the group.

Identical cards in a classic run. The classic sheet says two identical cards may never be in
the same run, and the project reads that literally (docs/rules.md#identical-cards): two
cards of the same rank and suit never share a run, whatever role they play, so ``A♠ 2♠ 3♠``
plus a second 2♠ standing for 4♠ is refused, and so is a run holding two wild 2♠. Jokers are
exempt: two jokers may share a run. (Natural cards in a run have distinct ranks anyway.)
``Variant.runs_keep_identical_apart`` switches the rule on; only the classic game has it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .cards import ALL_CARDS, RANK_CODES, SUIT_SYMBOLS, SUITS, Card
from .messages import EngineError, gettext_noop
from .variants import (
    SETS_GROUP,
    SETS_SAME_RANK,
    WILD_ANY,
    WILD_NEEDS_NATURAL,
    WILD_NOT_MORE_THAN_NATURAL,
    DealSpec,
    Variant,
)

RUN = "run"
SET = "set"
GROUP = "group"

GROUP_MAX = len(SUITS)  # a Rommé group holds each suit at most once


class MeldError(EngineError):
    """Cards that do not form the meld asked for; the message says why."""


class _WildLimitError(MeldError):
    """The cards would have the shape of a meld, but the variant's wild-card limit forbids it."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A card as laid in a meld: ``card`` is the card itself, ``stands_for`` what it counts as.

    A natural card stands for itself. A card that may be wild and stands for itself
    (a 2 at the 2 position of its own suit in the classic game, a red ace at an ace
    position of its own suit or in a set of aces in the Nordic game) is natural.
    """

    card: Card
    stands_for: Card

    @property
    def is_wild(self) -> bool:
        return self.card != self.stands_for

    def as_json(self) -> dict[str, str]:
        return {"card": self.card.code, "as": self.stands_for.code}


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str  # RUN, SET or GROUP
    placed: tuple[Placed, ...]  # runs in rank order, low to high

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(p.card for p in self.placed)

    @property
    def wild_count(self) -> int:
        return sum(1 for p in self.placed if p.is_wild)

    def as_json(self) -> list[dict[str, str]]:
        return [p.as_json() for p in self.placed]


# --- the rules that apply to one call ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Rules:
    wild: frozenset[Card]  # cards that may stand for another card
    run_min: int
    run_max: int
    wraps: bool
    set_kind: str | None  # SET, GROUP or None (runs only)
    set_min: int
    wild_limit: str
    identical_apart: bool  # no two identical physical cards (jokers aside) in one run

    @property
    def kinds(self) -> tuple[str, ...]:
        return (RUN, self.set_kind) if self.set_kind else (RUN,)


_WILD_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], frozenset[Card]] = {}


def _wild_cards(variant: Variant, opts: dict[str, Any]) -> frozenset[Card]:
    key = (variant.id, tuple(sorted(opts.items())))
    wild = _WILD_CACHE.get(key)
    if wild is None:
        wild = frozenset(c for c in ALL_CARDS if variant.can_be_wild(c, opts))
        _WILD_CACHE[key] = wild
    return wild


def _rules(variant: Variant, options: Mapping[str, Any] | None, deal: DealSpec | None) -> _Rules:
    opts = variant.resolve_options(options)
    run_min = variant.run_min
    set_min = 3
    if deal is not None:
        if not variant.is_contract:
            raise ValueError(f"{variant.id} has no deals; a deal applies to contract games only")
        run_min = deal.run_min
        set_min = deal.set_min
    if variant.sets == SETS_SAME_RANK:
        set_kind: str | None = SET
    elif variant.sets == SETS_GROUP:
        set_kind = GROUP
    else:
        set_kind = None
    return _Rules(
        wild=_wild_cards(variant, opts),
        run_min=run_min,
        run_max=variant.run_max,
        wraps=variant.run_wraps,
        set_kind=set_kind,
        set_min=set_min,
        wild_limit=variant.wild_limit,
        identical_apart=variant.runs_keep_identical_apart,
    )


def _check_kind(kind: str | None, rules: _Rules) -> None:
    if kind is None or kind in rules.kinds:
        return
    if kind not in (RUN, SET, GROUP):
        raise ValueError(f"unknown kind of meld {kind!r} (run, set or group)")
    if rules.set_kind is None:
        raise MeldError(gettext_noop("this variant has runs only, no %(kinds)s"), kinds=f"{kind}s")
    raise MeldError(
        gettext_noop("this variant has runs and %(set_kinds)s, not %(kinds)s"),
        set_kinds=f"{rules.set_kind}s",
        kinds=f"{kind}s",
    )


# --- words for messages --------------------------------------------------------------------

_RANK_PLURALS = {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}


def _name(c: Card) -> str:
    return c.symbol


def _names(cards: Sequence[Card]) -> str:
    return " ".join(_name(c) for c in cards)


def _rank_plural(rank: int) -> str:
    return _RANK_PLURALS.get(rank, f"{RANK_CODES.get(rank, rank)}s")


def _rank_card(rank: int, suit: str) -> Card:
    return Card(1 if rank == 14 else rank, suit)


def _listing(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


_AROUND_THE_CORNER = gettext_noop(
    "K-A-2 is not a run in this variant: the ace is low (A-2-3) or high (Q-K-A), never both"
)


# --- validation of explicit roles -------------------------------------------------------------


def validate_meld(
    placed: Sequence[Placed] | Meld,
    variant: Variant,
    options: Mapping[str, Any] | None = None,
    kind: str | None = None,
    deal: DealSpec | None = None,
) -> Meld:
    """Check a meld whose roles are given; return it as a Meld or raise MeldError.

    ``kind`` (RUN, SET or GROUP) is taken from a Meld passed in, or inferred when None: cards
    standing for one rank are a set (a group in Rommé), anything else a run. ``deal`` gives
    the minimum lengths of a contract deal (``run_min``, ``set_min``). The Meld returned is
    normalised: a run in rank order low to high (Q-K-A-2 for a run around the corner), a set
    or group with its natural cards first, then its wild cards, each in canonical order.
    """
    rules = _rules(variant, options, deal)
    if isinstance(placed, Meld):
        if kind is None:
            kind = placed.kind
        elif kind != placed.kind:
            raise MeldError(
                gettext_noop("this meld is a %(meld_kind)s, not a %(kind)s"),
                meld_kind=placed.kind,
                kind=kind,
            )
        items = placed.placed
    else:
        items = tuple(placed)
    for p in items:
        if not isinstance(p, Placed):
            raise TypeError("validate_meld takes Placed cards: the card and what it stands for")
    _check_kind(kind, rules)
    return _validate(items, rules, kind)


def _validate(items: tuple[Placed, ...], rules: _Rules, kind: str | None) -> Meld:
    if not items:
        raise MeldError(gettext_noop("a meld needs cards"))
    for p in items:
        if p.stands_for.is_joker:
            raise MeldError(
                gettext_noop(
                    "%(card)s cannot stand for a joker: a wild card stands for a real card"
                ),
                card=_name(p.card),
            )
        if p.is_wild and p.card not in rules.wild:
            raise MeldError(
                gettext_noop(
                    "%(card)s is not a wild card in this variant: it stands for itself, "
                    "not for %(target)s"
                ),
                card=_name(p.card),
                target=_name(p.stands_for),
            )
    if kind is None:
        same_rank = len({p.stands_for.rank for p in items}) == 1
        kind = rules.set_kind if same_rank and rules.set_kind else RUN
    ordered = _validate_run(items, rules) if kind == RUN else _validate_set(items, rules, kind)
    _check_wild_limit(ordered, rules)
    return Meld(kind, ordered)


def _check_lengths(n: int, rules: _Rules, kind: str) -> None:
    if kind == RUN:
        if n < rules.run_min:
            raise MeldError(gettext_noop("a run needs at least %(min)s cards"), min=rules.run_min)
        if n > rules.run_max:
            raise MeldError(
                gettext_noop("a run has at most %(max)s cards in this variant"), max=rules.run_max
            )
        return
    if n < rules.set_min:
        raise MeldError(
            gettext_noop("a %(kind)s needs at least %(min)s cards"), kind=kind, min=rules.set_min
        )
    if kind == GROUP and n > GROUP_MAX:
        raise MeldError(
            gettext_noop("a group has at most %(max)s cards, one of each suit"), max=GROUP_MAX
        )


def _identical_error(cards: Sequence[Card]) -> MeldError | None:
    """Two identical cards (jokers aside) among these, as the error to raise, or None."""
    counts = Counter(c for c in cards if not c.is_joker)
    twice = _sorted(c for c, k in counts.items() if k > 1)
    if not twice:
        return None
    return MeldError(
        gettext_noop("two identical cards (%(cards)s) may never be in the same run"),
        cards=_names([twice[0], twice[0]]),
    )


def _validate_run(items: tuple[Placed, ...], rules: _Rules) -> tuple[Placed, ...]:
    _check_lengths(len(items), rules, RUN)
    if rules.identical_apart:
        error = _identical_error([p.card for p in items])
        if error is not None:
            raise error
    suits = sorted({p.stands_for.suit for p in items}, key=SUITS.index)
    if len(suits) > 1:
        mixed = _listing([SUIT_SYMBOLS[s] for s in suits])
        raise MeldError(gettext_noop("a run is all one suit, not %(suits)s"), suits=mixed)
    suit = suits[0]
    counts = Counter(p.stands_for.rank for p in items)
    doubled = sorted(r for r, k in counts.items() if k > 1)
    if doubled:
        target = Card(doubled[0], suit)
        holders = [p.card for p in items if p.stands_for == target]
        if all(not p.is_wild for p in items if p.stands_for == target):
            raise MeldError(
                gettext_noop("two identical cards (%(cards)s) may never be in the same run"),
                cards=_names(holders),
            )
        raise MeldError(
            gettext_noop("two cards stand for %(card)s: a run holds each rank once"),
            card=_name(target),
        )
    order = _run_order(set(counts), rules.wraps, suit)
    position = {rank: i for i, rank in enumerate(order)}
    return tuple(sorted(items, key=lambda p: position[p.stands_for.rank]))


def _linear_orders(ranks: set[int]) -> list[list[int]]:
    """The ways these distinct ranks are one unbroken run without wrapping (ace low, ace high)."""
    found = []
    low = sorted(ranks)
    if low[-1] - low[0] == len(low) - 1:
        found.append(low)
    if 1 in ranks:
        high = sorted(14 if r == 1 else r for r in ranks)
        if high[-1] - high[0] == len(high) - 1:
            found.append([1 if r == 14 else r for r in high])
    return found


def _cyclic_order(ranks: set[int], length: int | None = None) -> list[int] | None:
    """Ranks covered by an arc of ``length`` around the corner (K-A-2), starting at a rank
    held: the arc's rank order, or None. ``length`` defaults to the number of ranks."""
    n = len(ranks) if length is None else length
    if n > 13:
        return None
    for start in sorted(ranks):
        arc = [(start - 1 + i) % 13 + 1 for i in range(n)]
        if ranks.issubset(arc):
            return arc
    return None


def _run_order(ranks: set[int], wraps: bool, suit: str) -> list[int]:
    linear = _linear_orders(ranks)
    if linear:
        return linear[0]
    cyclic = _cyclic_order(ranks)
    if cyclic is not None:
        if wraps:
            return cyclic
        raise MeldError(_AROUND_THE_CORNER)
    raise _gap_error(ranks, suit, wraps)


def _missing_ranks(ranks: set[int], wraps: bool) -> list[int]:
    """The fewest ranks that would close the gaps of these ranks into one run."""
    options = []
    low = sorted(ranks)
    options.append([r for r in range(low[0], low[-1] + 1) if r not in ranks])
    if 1 in ranks:
        high = sorted(14 if r == 1 else r for r in ranks)
        options.append([r for r in range(high[0], high[-1] + 1) if r not in high])
    if wraps:
        for length in range(len(ranks), 14):
            arc = _cyclic_order(ranks, length)
            if arc is not None:
                options.append([r for r in arc if r not in ranks])
                break
    return min(options, key=len)


def _gap_error(ranks: set[int], suit: str, wraps: bool) -> MeldError:
    missing = [_name(_rank_card(r, suit)) for r in _missing_ranks(ranks, wraps)]
    if len(missing) > 4:
        return MeldError(
            gettext_noop("the cards are not in unbroken order: too many cards missing for a run")
        )
    return _missing_error(missing)


def _missing_error(missing: list[str], wild: int = 0) -> MeldError:
    """The run's gap: which cards are missing, and how many wild cards cannot fill it."""
    if wild == 0:
        if len(missing) == 1:
            template = gettext_noop("the run is not in unbroken order: %(missing)s is missing")
        else:
            template = gettext_noop("the run is not in unbroken order: %(missing)s are missing")
    elif wild == 1:
        if len(missing) == 1:
            template = gettext_noop(
                "the run is not in unbroken order: %(missing)s is missing, "
                "more than %(wild)s wild card can fill"
            )
        else:
            template = gettext_noop(
                "the run is not in unbroken order: %(missing)s are missing, "
                "more than %(wild)s wild card can fill"
            )
    elif len(missing) == 1:
        template = gettext_noop(
            "the run is not in unbroken order: %(missing)s is missing, "
            "more than %(wild)s wild cards can fill"
        )
    else:
        template = gettext_noop(
            "the run is not in unbroken order: %(missing)s are missing, "
            "more than %(wild)s wild cards can fill"
        )
    return MeldError(template, missing=_listing(missing), wild=wild)


def _validate_set(items: tuple[Placed, ...], rules: _Rules, kind: str) -> tuple[Placed, ...]:
    _check_lengths(len(items), rules, kind)
    ranks = {p.stands_for.rank for p in items}
    if len(ranks) > 1:
        raise MeldError(gettext_noop("a %(kind)s is all one rank"), kind=kind)
    rank = next(iter(ranks))
    if kind == SET:
        for p in items:
            if p.is_wild and p.card.rank == rank:
                raise MeldError(
                    gettext_noop(
                        "%(card)s in a set of %(ranks)s is a natural card: it stands for itself"
                    ),
                    card=_name(p.card),
                    ranks=_rank_plural(rank),
                )
    else:
        suits = Counter(p.stands_for.suit for p in items)
        doubled = [s for s in SUITS if suits[s] > 1]
        if doubled:
            raise MeldError(
                gettext_noop("two cards of the same suit in a group (%(cards)s)"),
                cards=_name(Card(rank, doubled[0])),
            )
    return tuple(sorted(items, key=lambda p: (p.is_wild, p.stands_for.sort_key, p.card.sort_key)))


def _check_wild_limit(items: tuple[Placed, ...], rules: _Rules) -> None:
    wild = sum(1 for p in items if p.is_wild)
    natural = len(items) - wild
    if rules.wild_limit == WILD_ANY:
        return
    if rules.wild_limit == WILD_NOT_MORE_THAN_NATURAL:
        if wild > natural:
            raise _WildLimitError(
                gettext_noop(
                    "wild cards outnumber natural cards (%(wild)s wild, %(natural)s natural)"
                ),
                wild=wild,
                natural=natural,
            )
        return
    if rules.wild_limit == WILD_NEEDS_NATURAL:
        if natural == 0:
            raise _WildLimitError(gettext_noop("a meld needs at least one natural card"))
        return
    raise ValueError(f"unknown wild-card limit {rules.wild_limit!r}")


# --- finding the roles ------------------------------------------------------------------------


def find_meld(
    cards: Sequence[Card],
    variant: Variant,
    options: Mapping[str, Any] | None = None,
    kind: str | None = None,
    deal: DealSpec | None = None,
) -> Meld:
    """Decide whether unordered cards form a meld; choose the roles of wild cards.

    With ``kind`` None a run is tried first, then a set (a group in Rommé). Roles are chosen
    deterministically:

    * a card that may be wild is natural wherever it can be (the most natural cards win);
    * in a run, wild cards first fill the gaps between the natural cards, then extend the
      run upward, then downward; the ace is tried low before high, and a run around the
      corner (contract-spanish) only when no straight run fits;
    * in a set or group, wild cards stand for the suits not yet in it, in the order S, H,
      D, C (again from S when a contract set holds more cards than suits);
    * wild cards take their places in canonical card order (jokers last).

    Raises MeldError with the reason when the cards form no meld of the kind asked.
    """
    rules = _rules(variant, options, deal)
    cards = tuple(cards)
    for c in cards:
        if not isinstance(c, Card):
            raise TypeError("find_meld takes Card values")
    _check_kind(kind, rules)
    if not cards:
        raise MeldError(gettext_noop("a meld needs cards"))
    kinds = (kind,) if kind is not None else rules.kinds
    errors: dict[str, MeldError] = {}
    for k in kinds:
        try:
            if k == RUN:
                return _find_run(cards, rules)
            return _find_set(cards, rules, k)
        except MeldError as exc:
            errors[k] = exc
    if len(errors) == 1:
        raise next(iter(errors.values()))
    raise _combined_error(cards, rules, errors)


def _combined_error(cards: tuple[Card, ...], rules: _Rules, errors: dict[str, MeldError]):
    run_error = errors[RUN]
    set_kind = rules.set_kind or SET
    set_error = errors[set_kind]
    limited = [e for e in (run_error, set_error) if isinstance(e, _WildLimitError)]
    if len(limited) == 1:
        return limited[0]
    fixed = [c for c in cards if c not in rules.wild]
    one_suit = len({c.suit for c in fixed}) <= 1
    one_rank = len({c.rank for c in fixed}) <= 1
    if one_suit and not one_rank:
        return run_error
    if one_rank and not one_suit:
        return set_error
    if str(run_error) == str(set_error):
        return run_error
    return MeldError(
        gettext_noop("not a run (%(run_error)s) and not a %(set_kind)s (%(set_error)s)"),
        run_error=run_error,
        set_kind=set_kind,
        set_error=set_error,
    )


def _sorted(cards) -> list[Card]:
    return sorted(cards, key=lambda c: c.sort_key)


def _unique_by(cards: list[Card], key) -> list[Card]:
    seen = set()
    out = []
    for c in cards:
        k = key(c)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def _remove(pool: list[Card], taken) -> list[Card]:
    rest = list(pool)
    for c in taken:
        rest.remove(c)
    return rest


def _first_error(errors: list[MeldError]) -> MeldError:
    """The most useful of the errors met while trying: a wild-card limit beats a shape."""
    for e in errors:
        if isinstance(e, _WildLimitError):
            return e
    return errors[0]


def _find_run(cards: tuple[Card, ...], rules: _Rules) -> Meld:
    n = len(cards)
    _check_lengths(n, rules, RUN)
    fixed = _sorted(c for c in cards if c not in rules.wild)
    flexible = _sorted(c for c in cards if c in rules.wild and not c.is_joker)
    suits = sorted({c.suit for c in fixed}, key=SUITS.index)
    if len(suits) > 1:
        raise MeldError(
            gettext_noop("a run is all one suit, not %(suits)s"),
            suits=_listing([SUIT_SYMBOLS[s] for s in suits]),
        )
    if rules.identical_apart:
        error = _identical_error(cards)
        if error is not None:
            raise error
    counts = Counter(fixed)
    twice = [c for c in fixed if counts[c] > 1]
    if twice:
        raise MeldError(
            gettext_noop("two identical cards (%(cards)s) may never be in the same run"),
            cards=_names(twice[:2]),
        )
    fixed_ranks = {c.rank for c in fixed}
    # With no card that must be natural, the suits of the cards that may be; all wild: spades.
    suit_choices = suits or sorted({c.suit for c in flexible}, key=SUITS.index) or [SUITS[0]]

    # (suit, natural cards) in order of preference: the most natural cards first.
    candidates: list[tuple[str, list[Card]]] = []
    for suit in suit_choices:
        may_be_natural = _unique_by(
            [c for c in flexible if c.suit == suit and c.rank not in fixed_ranks],
            key=lambda c: c.rank,
        )
        for size in range(len(may_be_natural), -1, -1):
            for chosen in combinations(may_be_natural, size):
                candidates.append((suit, fixed + list(chosen)))
    candidates.sort(key=lambda sc: -len(sc[1]))

    errors: list[MeldError] = []
    for suit, naturals in candidates:
        wilds = _sorted(_remove(list(cards), naturals))
        order = _run_window([c.rank for c in naturals], n, rules, suit)
        if isinstance(order, MeldError):
            errors.append(order)
            continue
        by_rank = {c.rank: c for c in naturals}
        queue = iter(wilds)
        placed = []
        for rank in order:
            target = Card(rank, suit)
            natural = by_rank.get(rank)
            placed.append(Placed(natural, target) if natural else Placed(next(queue), target))
        try:
            return _validate(tuple(placed), rules, RUN)
        except MeldError as exc:
            errors.append(exc)
    raise _first_error(errors)


def _run_window(
    natural_ranks: list[int], n: int, rules: _Rules, suit: str
) -> list[int] | MeldError:
    """The ranks (1..13, in run order) of an n-card run holding these natural ranks."""
    if not natural_ranks:
        return list(range(1, n + 1))
    ranks = set(natural_ranks)
    mappings = [sorted(ranks)]
    if 1 in ranks:
        mappings.append(sorted(14 if r == 1 else r for r in ranks))
    for positions in mappings:
        low, high = positions[0], positions[-1]
        extra = n - (high - low + 1)
        if extra < 0:
            continue
        up = min(extra, 14 - high)
        start, end = low - (extra - up), high + up
        if start < 1 or (start == 1 and end == 14):
            continue
        return [1 if r == 14 else r for r in range(start, end + 1)]
    cyclic = _cyclic_order(ranks, n)
    if cyclic is not None:
        if rules.wraps:
            return cyclic
        return MeldError(_AROUND_THE_CORNER)
    missing = _missing_ranks(ranks, rules.wraps)
    wild = n - len(ranks)
    names = [_name(_rank_card(r, suit)) for r in missing]
    if len(names) > 4:
        return MeldError(gettext_noop("the cards are too far apart to make a run"))
    return _missing_error(names, wild)


def _find_set(cards: tuple[Card, ...], rules: _Rules, kind: str) -> Meld:
    n = len(cards)
    _check_lengths(n, rules, kind)
    fixed = _sorted(c for c in cards if c not in rules.wild)
    flexible = _sorted(c for c in cards if c in rules.wild and not c.is_joker)
    ranks = sorted({c.rank for c in fixed})
    if len(ranks) > 1:
        raise MeldError(gettext_noop("a %(kind)s is all one rank"), kind=kind)
    if kind == GROUP:
        counts = Counter(c.suit for c in fixed)
        doubled = [c for c in fixed if counts[c.suit] > 1]
        if doubled:
            raise MeldError(
                gettext_noop("two cards of the same suit in a group (%(cards)s)"),
                cards=_names(doubled[:2]),
            )
    rank_choices = ranks or sorted({c.rank for c in flexible}) or [1]

    errors: list[MeldError] = []
    for rank in rank_choices:
        same_rank = [c for c in flexible if c.rank == rank]
        if kind == SET:
            natural_choices = [same_rank]  # a card of the set's rank is natural in a set
        else:
            taken = {c.suit for c in fixed}
            may_be_natural = _unique_by(
                [c for c in same_rank if c.suit not in taken], key=lambda c: c.suit
            )
            natural_choices = [
                list(chosen)
                for size in range(len(may_be_natural), -1, -1)
                for chosen in combinations(may_be_natural, size)
            ]
        for chosen in natural_choices:
            naturals = fixed + chosen
            wilds = _sorted(_remove(list(cards), naturals))
            present = {c.suit for c in naturals}
            free = [s for s in SUITS if s not in present]
            if kind == SET:
                free = free + list(SUITS) * len(wilds)
            placed = [Placed(c, c) for c in naturals]
            placed += [Placed(w, Card(rank, s)) for w, s in zip(wilds, free, strict=False)]
            if len(placed) != n:  # more wild cards than free suits in a group
                errors.append(
                    MeldError(
                        gettext_noop("a group has at most %(max)s cards, one of each suit"),
                        max=GROUP_MAX,
                    )
                )
                continue
            try:
                return _validate(tuple(placed), rules, kind)
            except MeldError as exc:
                errors.append(exc)
    raise _first_error(errors)
