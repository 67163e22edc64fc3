"""The hand solver of Rommé: the best opening a hand can lay, and Handrommé.

Readings of docs/rules.md#romme this module implements:

* Melds: runs of 3 to 13 cards of one suit in order (ace low or high, never K-A-2) and
  groups of 3 or 4 cards of one rank in different suits. A joker stands for any card, any
  number of jokers may sit in a meld (two in a run, as the rules show, or more), but every
  meld needs at least one natural card.
* Opening value: 2-10 face value, J Q K ten, ace eleven (one in a low run, A-2-3..., with
  the option ``ace_low_is_one``); a joker counts as the card it stands for, and the solver
  places jokers where they count most.
* ``opening_points`` is the highest total value of melds the hand can lay while keeping at
  least one card to discard (0 when it has no meld); ``can_open`` compares it with the
  option ``opening_minimum``.
* ``handromme``: every card but exactly one can be laid, that one discarded (no minimum).
  A hand whose 15 cards could all be laid but no 14 of them is not a Handrommé: the turn
  has to end with a discard.
* What is shown: with a Handrommé, ``melds`` and ``discard`` show the Handrommé (of those,
  the one worth most); otherwise, when the hand can open, the best opening and as discard
  the most expensive card kept (its penalty: face value, J Q K ten, ace eleven, joker
  twenty); otherwise no melds and no discard. So the melds shown are always ones the player
  may lay this turn. The value of a Handrommé shown can be below ``opening_points`` when a
  smaller arrangement is worth more.
* Ties: the highest value first, then the lowest penalty of the cards kept, then a fixed
  search order, so an answer never changes from one run to the next.

The algorithm: a depth-first search over the hand with memoisation on the cards left. The
lowest natural card left (suit order S H D C, then rank) is either kept in hand or laid in
a meld in which it is the lowest natural card: a group with cards of its rank in later
suits and jokers, or a run of its suit going up from it with jokers below it (a lower card
of its suit has been dealt with already) — every natural and joker of such a meld chosen
in every way. For each set of cards left the search keeps the best value for each number
of cards kept: none, exactly one, two or more.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from ..cards import JOKER, SUITS, Card
from ..melds import GROUP, RUN, Meld, Placed
from ..variants import get_variant

_NONE = -(1 << 40)
_SCALE = 1024  # objective = value * _SCALE - penalty of the cards kept (at most 15 * 20)


def solve_romme(cards: list[Card], options: Mapping[str, Any]) -> dict[str, Any]:
    """Check a Rommé hand after drawing; see the module docstring for the rules read.

    Returns ``opening_points``, ``can_open``, ``handromme``, ``melds`` and ``discard``.
    """
    variant = get_variant("romme")
    opts = variant.resolve_options(options)
    return _Solver(cards, variant, opts).solve()


class _Solver:
    def __init__(self, cards, variant, options):
        self.cards = list(cards)
        self.variant = variant
        self.minimum = int(options["opening_minimum"])
        self.ace_low_one = bool(options["ace_low_is_one"])
        self.counts = bytearray(53)  # 52 naturals (suit * 13 + rank - 1), then the jokers
        for c in self.cards:
            if c.is_joker:
                self.counts[52] += 1
            else:
                self.counts[SUITS.index(c.suit) * 13 + c.rank - 1] += 1
        self.pen = [variant.penalty(Card(i % 13 + 1, SUITS[i // 13])) for i in range(52)]
        self.pen_joker = variant.penalty(JOKER)
        # opening value of a card standing at run position q (1 = ace low .. 14 = ace high)
        self.pos_value = [0, 1 if self.ace_low_one else 11] + [min(q, 10) for q in range(2, 14)]
        self.pos_value.append(11)
        self.group_value = [0, 11] + [min(r, 10) for r in range(2, 14)]
        self.memo: dict[bytes, tuple] = {}

    # --- the search -------------------------------------------------------------------
    def _moves(self, i: int):
        """Every meld in which natural ``i`` is the lowest natural card, as
        (value, naturals taken (indices), jokers taken, description)."""
        counts = self.counts
        jokers = counts[52]
        s, r = divmod(i, 13)
        r += 1
        # groups: cards of rank r in later suits, jokers for the missing suits
        later = [t for t in range(s + 1, 4) if counts[t * 13 + r - 1]]
        for size in (3, 4):
            for k in range(0, min(len(later), size - 1) + 1):
                j = size - 1 - k
                if j > jokers:
                    continue
                for chosen in combinations(later, k):
                    naturals = [i] + [t * 13 + r - 1 for t in chosen]
                    yield (size * self.group_value[r], naturals, j, ("group", s, r, chosen, j))
        # runs of suit s holding card i at position p
        base = s * 13
        for p in (r, 14) if r == 1 else (r,):
            # have[q]: the natural for position q (other than p) is still in hand
            have = [False] * 15
            for q in range(1, 15):
                if q != p:
                    have[q] = counts[base + (0 if q == 14 else q - 1)] > 0
            for lo in range(max(1, p - 12), p + 1):
                missing_below = sum(1 for q in range(lo, p) if not have[q])
                if missing_below > jokers:
                    continue
                missing = missing_below
                for hi in range(p, min(14, lo + 12) + 1):
                    if hi > p and not have[hi]:
                        missing += 1
                        if missing > jokers:
                            break
                    if hi - lo < 2:
                        continue
                    value = sum(self.pos_value[lo : hi + 1])
                    present = [q for q in range(lo, hi + 1) if have[q]]
                    spare = jokers - missing
                    for n_swap in range(0, min(spare, len(present)) + 1):
                        for swapped in combinations(present, n_swap):
                            nat_pos = tuple(q for q in present if q not in swapped)
                            naturals = [i] + [base + (0 if q == 14 else q - 1) for q in nat_pos]
                            yield (
                                value,
                                naturals,
                                missing + n_swap,
                                ("run", s, lo, hi, p, nat_pos),
                            )

    def _best(self) -> tuple:
        """(best objective for 0, 1, 2+ cards kept, and how each was reached) for the cards left."""
        counts = self.counts
        key = bytes(counts)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        i = next((k for k in range(52) if counts[k]), None)
        if i is None:
            j = counts[52]
            empty: list[Any] = [_NONE, _NONE, _NONE, None, None, None]
            empty[min(j, 2)] = -j * self.pen_joker
            self.memo[key] = tuple(empty)
            return self.memo[key]
        best = [_NONE, _NONE, _NONE]
        how: list = [None, None, None]
        # keep card i in hand
        counts[i] -= 1
        sub = self._best()
        counts[i] += 1
        for k in range(3):
            if sub[k] > _NONE:
                shifted = min(k + 1, 2)
                obj = sub[k] - self.pen[i]
                if obj > best[shifted]:
                    best[shifted] = obj
                    how[shifted] = (None, k)
        # or lay it in a meld
        for value, naturals, jokers, desc in list(self._moves(i)):
            for idx in naturals:
                counts[idx] -= 1
            counts[52] -= jokers
            sub = self._best()
            counts[52] += jokers
            for idx in naturals:
                counts[idx] += 1
            gain = value * _SCALE
            for k in range(3):
                if sub[k] > _NONE and sub[k] + gain > best[k]:
                    best[k] = sub[k] + gain
                    how[k] = ((value, naturals, jokers, desc), k)
        result = (best[0], best[1], best[2], how[0], how[1], how[2])
        self.memo[key] = result
        return result

    def _arrangement(self, cls: int) -> tuple[list[Meld], list[Card]]:
        """Follow the recorded choices from the whole hand for ``cls`` cards kept."""
        melds: list[Meld] = []
        kept: list[Card] = []
        counts = self.counts
        saved = bytes(counts)
        while True:
            node = self._best()
            how = node[3 + cls]
            i = next((k for k in range(52) if counts[k]), None)
            if i is None:
                kept.extend([JOKER] * counts[52])
                break
            move, cls = how
            if move is None:
                kept.append(Card(i % 13 + 1, SUITS[i // 13]))
                counts[i] -= 1
                continue
            _value, naturals, jokers, desc = move
            melds.append(self._meld(desc))
            for idx in naturals:
                counts[idx] -= 1
            counts[52] -= jokers
        counts[:] = saved
        return melds, kept

    def _meld(self, desc) -> Meld:
        if desc[0] == "group":
            _kind, s, r, chosen, jokers = desc
            suits = [s, *chosen]
            placed = [Placed(Card(r, SUITS[t]), Card(r, SUITS[t])) for t in suits]
            missing = [t for t in range(4) if t not in suits]
            placed += [Placed(JOKER, Card(r, SUITS[t])) for t in missing[:jokers]]
            return Meld(GROUP, tuple(placed))
        _kind, s, lo, hi, p, nat_pos = desc
        suit = SUITS[s]
        placed = []
        for q in range(lo, hi + 1):
            stands = Card(1 if q == 14 else q, suit)
            natural = q == p or q in nat_pos
            placed.append(Placed(stands if natural else JOKER, stands))
        return Meld(RUN, tuple(placed))

    def solve(self) -> dict[str, Any]:
        root = self._best()
        opening_obj = max(root[1], root[2])
        opening = max(0, -(-opening_obj // _SCALE)) if opening_obj > _NONE else 0
        can_open = opening > 0 and opening >= self.minimum
        handromme = root[1] > _NONE
        melds: list[Meld] = []
        discard = None
        if handromme or can_open:
            cls = 1 if handromme else (1 if root[1] >= root[2] else 2)
            melds, kept = self._arrangement(cls)
            kept.sort(key=lambda c: c.sort_key)
            discard = max(kept, key=self.variant.penalty)
        return {
            "opening_points": opening,
            "can_open": can_open,
            "handromme": handromme,
            "melds": melds,
            "discard": discard,
        }
