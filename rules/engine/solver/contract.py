"""The hand solver of the contract games (``contract-nordic``, ``contract-spanish``).

Given the hand as it is after drawing and the contract of the deal (``deal.sets`` sets of at
least ``deal.set_min`` cards of one rank, ``deal.runs`` runs of at least ``deal.run_min``
cards of one suit in order), it finds the way to lay the contract that leaves the lowest
penalty in hand, exactly.

Readings of docs/rules.md#the-contract-games this module implements:

* The player lays exactly the contract's number of sets and runs, each extended with every
  card that fits (more cards of the set's rank, runs at either end and in their gaps, wild
  cards as far as the wild rules allow). Two sets of one rank, or two runs of one suit that
  share no card, are separate melds.
* The turn ends with a discard while the player has a card left: of the cards that stay
  after laying, the most expensive is the discard and the penalty is that of the others.
  If every card of the hand can be laid, the player goes out with no discard
  (``discard`` is None). ``goes_out`` is true when nothing stays in hand after laying and
  discarding (so at most one card was not laid).
* Among arrangements with the same penalty the one that lays the most cards wins (that is
  what "extended with every card that fits" asks); among those, the first found in a fixed
  order, so an answer never changes from one run to the next.
* Wild cards: a set takes any number of wild cards and a run has at most ``variant.run_max``
  (13) cards, within the limit of the variant: ``contract-nordic`` allows no more wild than
  natural cards in a meld (a red ace in a set of aces or at an ace position of a run of its
  own suit is natural); ``contract-spanish`` needs one natural card in every meld and its
  runs go around the corner (Q-K-A-2).
* When the contract cannot be laid, nothing is laid and the penalty is the whole hand's.

The algorithm (see ``_Solver``): the ranks of the sets are enumerated (most promising
first, pruned by a lower bound on the penalty); for each choice the runs are searched depth
first, each run given by its suit, the span of its natural cards and which of the naturals
inside the span it leaves to another meld; a span that could take an adjacent natural that
no other meld wants is dominated and skipped. Every leaf is priced in closed form: the sets
take every remaining natural of their rank, wild cards go where the melds need them and
then wherever they may still go (jokers first, as they cost most), and a run that is full
(13 cards) may swap a cheap natural for a wild card that would otherwise stay in hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations_with_replacement, product
from typing import Any

from ..cards import JOKER, SUITS, Card
from ..melds import RUN, SET, Meld, Placed
from ..variants import WILD_NOT_MORE_THAN_NATURAL, DealSpec, Variant

_INF = 1 << 30
_RANKS = range(1, 14)


def solve_contract(
    cards: list[Card], variant: Variant, options: Mapping[str, Any], deal: DealSpec
) -> dict[str, Any]:
    """Check a contract-game hand after drawing; see the module docstring for the rules read.

    Returns ``can_open``, ``melds`` (sets first, then runs), ``discard`` (Card or None),
    ``left_in_hand`` (sorted canonically, the discard not included), ``penalty`` and
    ``goes_out``.
    """
    return _Solver(cards, variant, options, deal).solve()


class _Run:
    """A run chosen in the search: suit, span and the positions of its natural cards."""

    __slots__ = ("cap", "fc", "fv", "key", "length", "lo", "n", "nat", "need", "suit")

    def __init__(self, suit, lo, length, nat, need, cap, fv, fc):
        self.suit = suit
        self.lo = lo
        self.length = length
        # the order in which runs are chosen (a combination is tried once): what the run
        # holds, never how it was found, so a run has the same key in every search state
        self.key = (suit, lo, length, tuple(nat))
        self.nat = nat  # positions holding a natural card, in run order
        self.n = len(nat)
        self.need = need  # wild cards it cannot do without
        self.cap = cap  # wild cards it may hold at most
        self.fv = fv  # penalty of its naturals that no set could take (dual cards left out)
        self.fc = fc  # and their number


class _Solver:
    def __init__(self, cards, variant, options, deal):
        self.cards = list(cards)
        self.variant = variant
        self.wrap = bool(variant.run_wraps)
        self.halves = variant.wild_limit == WILD_NOT_MORE_THAN_NATURAL
        self.run_max = variant.run_max
        self.set_min = deal.set_min
        self.run_min = deal.run_min
        self.n_sets = deal.sets
        self.n_runs = deal.runs
        # a set of k naturals may hold k wild cards (nordic) or any number (spanish)
        self.nat_min = (deal.set_min + 1) // 2 if self.halves else 1

        self.avail = [[0] * 14 for _ in SUITS]  # natural copies by suit and rank
        self.dual = [[False] * 14 for _ in SUITS]  # may stand as itself or as a wild card
        self.jokers = 0
        for s, suit in enumerate(SUITS):
            for r in _RANKS:
                self.dual[s][r] = variant.can_be_wild(Card(r, suit), options)
        for c in self.cards:
            if c.is_joker:
                self.jokers += 1
            else:
                self.avail[SUITS.index(c.suit)][c.rank] += 1
        self.pen_rank = [0] + [variant.penalty(Card(r, "S")) for r in _RANKS]
        for suit in SUITS:
            for r in _RANKS:
                if variant.penalty(Card(r, suit)) != self.pen_rank[r]:
                    raise ValueError("contract penalties must depend on the rank only")
        self.pen_joker = variant.penalty(JOKER)
        # remaining plain naturals (never wild) by rank, and dual cards by rank
        self.rc = [0] * 14
        self.dr = [0] * 14
        for s in range(4):
            for r in _RANKS:
                if self.dual[s][r]:
                    self.dr[r] += self.avail[s][r]
                else:
                    self.rc[r] += self.avail[s][r]
        self.dual_ranks = [r for r in _RANKS if any(self.dual[s][r] for s in range(4))]
        if any(self.pen_rank[r] > self.pen_joker for r in self.dual_ranks):
            raise ValueError("a joker must cost at least as much as any other wild card")
        self.pool_max = self.jokers + sum(self.dr)  # wild cards the hand could lay at most
        self.total_pen = sum(
            self.pen_joker if c.is_joker else self.pen_rank[c.rank] for c in self.cards
        )

        self.kset: dict[int, int] = {}
        self.runs: list[_Run] = []
        self.best = (_INF, _INF)
        self.best_config = None
        self._cand_cache: dict = {}
        self._best_run: dict = {}

    # --- positions of runs --------------------------------------------------------
    def _rank(self, pos: int) -> int:
        return 1 if pos == 14 else pos

    def _positions(self, lo: int, length: int) -> list[int]:
        if self.wrap:
            return [(lo - 1 + i) % 13 + 1 for i in range(length)]
        return list(range(lo, lo + length))

    # --- the search -------------------------------------------------------------------
    def solve(self) -> dict[str, Any]:
        for kset in self._set_choices():
            self.kset = kset
            if self.n_runs:
                self._init_layers()
                if self._bound(self.n_runs) >= self.best:
                    continue
                self._search_runs(self.n_runs, None, 0, 0)
            else:
                self._evaluate(0, 0)
            if self.best == (0, 0):
                break
        return self._answer()

    def _set_choices(self) -> list[dict[int, int]]:
        if not self.n_sets:
            return [{}]
        ranks = [r for r in _RANKS if self.rc[r] + self.dr[r] >= self.nat_min]
        choices = []
        for combo in combinations_with_replacement(ranks, self.n_sets):
            kset: dict[int, int] = {}
            for r in combo:
                kset[r] = kset.get(r, 0) + 1
            have = {r: self.rc[r] + self.dr[r] for r in kset}
            if any(have[r] < k * self.nat_min for r, k in kset.items()):
                continue
            if sum(max(0, k * self.set_min - have[r]) for r, k in kset.items()) > self.pool_max:
                continue
            choices.append(kset)
        if self.n_runs and len(choices) > 1:
            keyed = []
            for i, kset in enumerate(choices):
                self.kset = kset
                self._init_layers()
                keyed.append((self._bound(self.n_runs), i, kset))
            keyed.sort(key=lambda t: (t[0], t[1]))
            choices = [t[2] for t in keyed]
        return choices

    def _init_layers(self) -> None:
        """Per suit, the value of the naturals a run could still take (for ``_bound``).

        ``layer_val[s][i]`` is the penalty sum of the ranks of suit ``s`` without a set
        (dual cards left out) that have at least ``i`` copies left: the most a run of
        suit ``s`` takes is layer 1, two runs layers 1 and 2, and so on.
        """
        kset = self.kset
        pen = self.pen_rank
        copies = max(max(row) for row in self.avail) + 1
        self.layer_val = [[0] * (copies + 1) for _ in SUITS]
        self.layer_cnt = [[0] * (copies + 1) for _ in SUITS]
        self.free_val = self.free_cnt = 0
        for s in range(4):
            row = self.avail[s]
            for r in _RANKS:
                a = row[r]
                if a and r not in kset and not self.dual[s][r]:
                    self.free_val += a * pen[r]
                    self.free_cnt += a
                    for i in range(1, a + 1):
                        self.layer_val[s][i] += pen[r]
                        self.layer_cnt[s][i] += 1

    def _bound(
        self, runs_left: int, first_suit: int = 0, pool: int | None = None
    ) -> tuple[int, int]:
        """A lower bound (penalty, cards not laid) for any completion of the current node.

        Naturals of ranks without a set can only go into the runs still to choose, which
        are of suits ``first_suit`` and after; ``i`` runs of one suit take at most the
        first ``i`` layers of it, and each at most what its best single run takes. Wild
        cards are assumed all laid and the most expensive free natural discarded.
        """
        kset = self.kset
        pen = self.pen_rank
        rc = self.rc
        top = 0
        for r in _RANKS:
            if rc[r] and pen[r] > top and r not in kset:
                top = pen[r]
        total = self.free_val
        count = self.free_cnt
        if runs_left:
            gains_val: list[int] = []
            gains_cnt: list[int] = []
            depth = min(runs_left, len(self.layer_val[0]) - 1)
            for s in range(first_suit, 4):
                lv = self.layer_val[s]
                if not lv[1]:
                    continue
                lc = self.layer_cnt[s]
                single_val, single_cnt = self._best_single(s, pool)
                prev_v = prev_c = sum_v = sum_c = 0
                for i in range(1, depth + 1):
                    sum_v += lv[i]
                    sum_c += lc[i]
                    cur_v = min(i * single_val, sum_v)
                    cur_c = min(i * single_cnt, sum_c)
                    gains_val.append(cur_v - prev_v)
                    gains_cnt.append(cur_c - prev_c)
                    prev_v, prev_c = cur_v, cur_c
            gains_val.sort()
            gains_cnt.sort()
            total -= sum(gains_val[-runs_left:])
            count -= sum(gains_cnt[-runs_left:])
        return (max(0, total - top), count)

    def _candidates(self, s: int, runs_after: int) -> list[_Run]:
        """The runs of suit ``s`` worth trying with the naturals left, in key order."""
        row = self.avail[s]
        kset = self.kset
        kranks = tuple(r for r in sorted(kset) if row[r])
        cache_key = (s, runs_after, tuple(row), kranks)
        cached = self._cand_cache.get(cache_key)
        if cached is not None:
            return cached
        wrap = self.wrap
        run_max = self.run_max
        run_min = self.run_min
        halves = self.halves
        pool = self.pool_max
        dual = self.dual[s]
        pen = self.pen_rank
        # may a natural of this rank be better off outside the run? (another meld may want it)
        wanted = [dual[r] or r in kset or row[r] <= runs_after for r in range(14)]
        free = [not dual[r] and r not in kset for r in range(14)]
        if wrap:
            present = [q for q in range(1, 14) if row[q]]
        else:
            present = [q for q in range(1, 15) if row[1 if q == 14 else q]]
        count = len(present)
        out: list[_Run] = []
        for i, lo in enumerate(present):
            for j in range(count) if wrap else range(i, count):
                hi = present[j]
                if wrap:
                    length = (hi - lo) % 13 + 1
                    inside = (j - i) % count + 1
                else:
                    length = hi - lo + 1
                    if length > run_max:
                        break
                    inside = j - i + 1
                if length - inside + max(0, run_min - length) > pool:
                    continue
                if length < run_max:
                    # an adjacent natural nobody else wants is better taken: skip this span
                    if wrap:
                        below, above = (lo - 2) % 13 + 1, hi % 13 + 1
                    else:
                        below, above = lo - 1, hi + 1
                    if below >= 1 and row[below] and not wanted[below]:
                        continue
                    if above <= 14:
                        r = 1 if above == 14 else above
                        if row[r] and not wanted[r]:
                            continue
                shortfall = max(0, run_min - length)
                if halves and length - inside + shortfall > inside:
                    continue  # more wild than natural cards even with every natural in
                positions = self._positions(lo, length)
                nat = []
                optional = []
                last = length - 1
                for k, q in enumerate(positions):
                    r = 1 if q == 14 else q
                    if row[r]:
                        nat.append(q)
                        if 0 < k < last and wanted[r]:
                            optional.append(q)
                variants = [nat]
                if optional:
                    for mask in product((False, True), repeat=len(optional)):
                        if any(mask):
                            excluded = {q for q, ex in zip(optional, mask, strict=True) if ex}
                            variants.append([q for q in nat if q not in excluded])
                for naturals in variants:
                    n = len(naturals)
                    need = length - n + shortfall
                    cap = min(n, run_max - n) if halves else run_max - n
                    if need > cap or need > pool:
                        continue
                    fv = fc = 0
                    for q in naturals:
                        r = 1 if q == 14 else q
                        if free[r]:
                            fv += pen[r]
                            fc += 1
                    out.append(_Run(s, lo, length, naturals, need, cap, fv, fc))
        out.sort(key=lambda run: run.key)
        self._cand_cache[cache_key] = out
        return out

    def _best_single(self, s: int, pool: int | None) -> tuple[int, int]:
        """At most how much free penalty (and how many free naturals) one run of suit ``s``
        takes now: the best window of at most ``run_max`` positions whose gaps ``pool`` wild
        cards could fill."""
        row = self.avail[s]
        kset = self.kset
        if pool is None:
            pool = self.pool_max
        key = (s, pool, tuple(row), tuple(r for r in sorted(kset) if row[r]))
        best = self._best_run.get(key)
        if best is not None:
            return best
        pen = self.pen_rank
        dual = self.dual[s]
        ranks = list(range(1, 14)) * 2 if self.wrap else [*list(range(1, 14)), 1]
        vals = []
        cnts = []
        has = []
        for r in ranks:
            ok = row[r] > 0
            has.append(ok)
            freeish = ok and not dual[r] and r not in kset
            vals.append(pen[r] if freeish else 0)
            cnts.append(1 if freeish else 0)
        run_max = self.run_max
        best_v = best_c = 0
        size = 13 if self.wrap else len(ranks)
        for lo in range(size):
            if not has[lo]:
                continue
            gaps = v = c = 0
            for hi in range(lo, min(lo + run_max, len(ranks))):
                if has[hi]:
                    v += vals[hi]
                    c += cnts[hi]
                    if v > best_v:
                        best_v = v
                    if c > best_c:
                        best_c = c
                else:
                    gaps += 1
                    if gaps > pool:
                        break
        best = (best_v, best_c)
        self._best_run[key] = best
        return best

    def _take(self, run: _Run) -> None:
        s = run.suit
        row = self.avail[s]
        dual = self.dual[s]
        kset = self.kset
        for q in run.nat:
            r = 1 if q == 14 else q
            if dual[r]:
                self.dr[r] -= 1
            else:
                self.rc[r] -= 1
                if r not in kset:
                    p = self.pen_rank[r]
                    self.layer_val[s][row[r]] -= p
                    self.layer_cnt[s][row[r]] -= 1
                    self.free_val -= p
                    self.free_cnt -= 1
            row[r] -= 1

    def _put_back(self, run: _Run) -> None:
        s = run.suit
        row = self.avail[s]
        dual = self.dual[s]
        kset = self.kset
        for q in run.nat:
            r = 1 if q == 14 else q
            row[r] += 1
            if dual[r]:
                self.dr[r] += 1
            else:
                self.rc[r] += 1
                if r not in kset:
                    p = self.pen_rank[r]
                    self.layer_val[s][row[r]] += p
                    self.layer_cnt[s][row[r]] += 1
                    self.free_val += p
                    self.free_cnt += 1

    def _search_runs(self, runs_left: int, last_key, need: int, cap: int) -> None:
        first_suit = last_key[0] if last_key else 0
        runs_after = runs_left - 1
        pool = self.jokers + sum(self.dr[r] for r in self.dual_ranks)
        choices = []
        for s in range(first_suit, 4):
            for run in self._candidates(s, runs_after):
                if (last_key is None or run.key >= last_key) and need + run.need <= pool:
                    choices.append(run)
        choices.sort(key=lambda run: -run.fv)  # most promising first
        if runs_after == 0:
            # the last run: stop once none can beat the best
            top = 0
            for r in _RANKS:
                if self.rc[r] and self.pen_rank[r] > top and r not in self.kset:
                    top = self.pen_rank[r]
            for run in choices:
                low = max(0, self.free_val - run.fv - top)
                if low > self.best[0]:
                    break
                if (low, self.free_cnt - run.fc) >= self.best:
                    continue
                self._take(run)
                self.runs.append(run)
                self._evaluate(need + run.need, cap + run.cap)
                self.runs.pop()
                self._put_back(run)
                if self.best == (0, 0):
                    return
            return
        for run in choices:
            self._take(run)
            self.runs.append(run)
            if self._bound(runs_after, run.suit, pool - need - run.need) < self.best:
                self._search_runs(runs_after, run.key, need + run.need, cap + run.cap)
            self.runs.pop()
            self._put_back(run)
            if self.best == (0, 0):
                return

    # --- pricing a leaf -----------------------------------------------------------
    def _evaluate(self, run_need: int, run_cap: int) -> None:
        kset = self.kset
        rc = self.rc
        pen = self.pen_rank
        nat_sum = nat_cnt = nat_max = 0
        for r in _RANKS:
            c = rc[r]
            if c and r not in kset:
                nat_sum += c * pen[r]
                nat_cnt += c
                if pen[r] > nat_max:
                    nat_max = pen[r]
        if (max(0, nat_sum - nat_max), nat_cnt) >= self.best:
            return
        dual_in_sets = [r for r in self.dual_ranks if r in kset and self.dr[r]]
        free_dual = [(r, self.dr[r]) for r in self.dual_ranks if r not in kset and self.dr[r]]
        for xs in product(*(range(self.dr[r] + 1) for r in dual_in_sets)):
            x = dict(zip(dual_in_sets, xs, strict=True))
            result = self._price(run_need, run_cap, x, free_dual, nat_sum, nat_cnt, nat_max)
            if result is None:
                continue
            pen_left, cnt_left, swaps = result
            if (pen_left, cnt_left) < self.best:
                self.best = (pen_left, cnt_left)
                self.best_config = (dict(kset), list(self.runs), x, swaps)

    def _price(self, run_need, run_cap, x, free_dual, nat_sum, nat_cnt, nat_max):
        need = run_need
        cap = run_cap
        m = self.set_min
        wild_pens: list[int] = []  # pool of wild cards that are not jokers, by penalty
        for r, d in free_dual:
            wild_pens.extend([self.pen_rank[r]] * d)
        for r, k in self.kset.items():
            n = self.rc[r] + x.get(r, 0)
            if n < k * self.nat_min:
                return None
            need += max(0, k * m - n)
            cap += n if self.halves else _INF
            if r in x:
                wild_pens.extend([self.pen_rank[r]] * (self.dr[r] - x[r]))
        pool = self.jokers + len(wild_pens)
        if need > pool:
            return None
        placed = min(pool, cap)
        jokers_left = self.jokers - min(self.jokers, placed)
        others_placed = placed - (self.jokers - jokers_left)
        wild_pens.sort(reverse=True)
        others_left = wild_pens[others_placed:]
        left_wilds = [self.pen_joker] * jokers_left + others_left
        total = nat_sum + sum(left_wilds)
        count = nat_cnt + len(left_wilds)
        top = max([nat_max, *left_wilds])
        best_pen = total - top if count else 0
        best_swaps = 0
        if left_wilds and self.runs:
            cheap = self._swappable()
            for t in range(1, min(len(left_wilds), len(cheap)) + 1):
                s_total = total - sum(left_wilds[:t]) + sum(cheap[:t])
                s_top = max([nat_max, *left_wilds[t:], *cheap[:t]])
                if s_total - s_top < best_pen:
                    best_pen = s_total - s_top
                    best_swaps = t
        return best_pen, count, best_swaps

    def _swap_limit(self, run: _Run) -> int:
        """How many naturals a run holding all the wild cards it may hold can give up."""
        if run.n + run.cap < self.run_max:
            return 0
        if self.halves:
            return max(0, (2 * run.n - self.run_max) // 2)
        return run.n - 1

    def _swappable_items(self, runs: list[_Run], kset) -> list[tuple[int, int, int, int]]:
        items = []
        for j, run in enumerate(runs):
            limit = self._swap_limit(run)
            if not limit:
                continue
            own = []
            for q in run.nat:
                r = 1 if q == 14 else q
                if not self.dual[run.suit][r] and r not in kset:
                    own.append((self.pen_rank[r], j, run.nat.index(q), q))
            own.sort()
            items.extend(own[:limit])
        items.sort()
        return items

    def _swappable(self) -> list[int]:
        return [item[0] for item in self._swappable_items(self.runs, self.kset)]

    # --- the answer ----------------------------------------------------------------
    def _answer(self) -> dict[str, Any]:
        if self.best_config is None:
            left = sorted(self.cards, key=lambda c: c.sort_key)
            return {
                "can_open": False,
                "melds": [],
                "discard": None,
                "left_in_hand": left,
                "penalty": self.total_pen,
                "goes_out": False,
            }
        melds, unlaid = self._build(*self.best_config)
        unlaid.sort(key=lambda c: c.sort_key)
        discard = None
        if unlaid:
            discard = max(unlaid, key=self.variant.penalty)  # first of the most expensive
            unlaid.remove(discard)
        penalty = sum(self.variant.penalty(c) for c in unlaid)
        assert (penalty, len(unlaid) + (discard is not None)) == self.best
        return {
            "can_open": True,
            "melds": melds,
            "discard": discard,
            "left_in_hand": unlaid,
            "penalty": penalty,
            "goes_out": not unlaid,
        }

    def _build(self, kset, runs, x, swaps):
        """Lay out the arrangement the search priced: melds and the cards not laid."""
        avail = [row[:] for row in self.avail]  # the whole hand again
        for run in runs:
            for q in run.nat:
                avail[run.suit][self._rank(q)] -= 1
        # sets: every remaining natural of the rank (dual cards: as many as chosen)
        set_nats: list[list[Card]] = []
        set_ranks: list[int] = []
        for r in sorted(kset):
            nats = []
            for s, suit in enumerate(SUITS):
                if not self.dual[s][r]:
                    nats.extend([Card(r, suit)] * avail[s][r])
                    avail[s][r] = 0
            want = x.get(r, 0)
            for s, suit in enumerate(SUITS):
                if self.dual[s][r] and want:
                    use = min(want, avail[s][r])
                    nats.extend([Card(r, suit)] * use)
                    avail[s][r] -= use
                    want -= use
            k = kset[r]
            parts: list[list[Card]] = [[] for _ in range(k)]
            i = 0
            for goal in (self.nat_min, self.set_min):
                for part in parts:
                    while len(part) < goal and i < len(nats):
                        part.append(nats[i])
                        i += 1
            parts[0].extend(nats[i:])
            set_nats.extend(parts)
            set_ranks.extend([r] * k)
        # the wild pool: jokers, then the other wild cards dearest first
        pool: list[Card] = [JOKER] * self.jokers
        for r in self.dual_ranks:
            for s, suit in enumerate(SUITS):
                if self.dual[s][r]:
                    pool.extend([Card(r, suit)] * avail[s][r])
                    avail[s][r] = 0
        pool[self.jokers :] = sorted(
            pool[self.jokers :], key=lambda c: (-self.variant.penalty(c), c.sort_key)
        )
        # wild cards per meld: first what each needs, then round the melds while room is left
        needs = []
        caps = []
        for part in set_nats:
            needs.append(max(0, self.set_min - len(part)))
            caps.append(len(part) if self.halves else _INF)
        for run in runs:
            needs.append(run.need)
            caps.append(run.cap)
        wild = needs[:]
        extra = min(len(pool), sum(caps)) - sum(needs)
        while extra > 0:
            for i in range(len(wild)):
                if extra and wild[i] < caps[i]:
                    wild[i] += 1
                    extra -= 1
        placed_wild = pool[: sum(wild)]
        unlaid = pool[sum(wild) :]
        # full runs give up their cheapest naturals for the wild cards left over
        swapped = self._swappable_items(runs, kset)[:swaps]
        swap_out = {(item[1], item[3]) for item in swapped}
        for item in swapped:
            unlaid.append(Card(self._rank(item[3]), SUITS[runs[item[1]].suit]))
        # the swapped-in wild cards: the dearest of those left over
        swap_in = unlaid[:swaps]
        unlaid = unlaid[swaps:]
        placed_wild = placed_wild + swap_in
        # hand out the wild cards: dual cards where they are natural, if such a slot exists
        melds: list[Meld] = []
        slots: list[tuple[str, int, Card]] = []  # (meld kind, index, card it stands for)
        set_melds: list[list[Placed]] = []
        for idx, part in enumerate(set_nats):
            set_melds.append([Placed(c, c) for c in part])
            for stand in self._set_stand_for(set_ranks[idx], part, wild[idx]):
                slots.append(("set", idx, stand))
        run_layouts: list[list[Placed | None]] = []  # None: a place a wild card fills
        for j, run in enumerate(runs):
            w = wild[len(set_nats) + j]
            positions = self._run_window(run, w)
            layout: list[Placed | None] = []
            for q in positions:
                stands = Card(self._rank(q), SUITS[run.suit])
                if q in run.nat and (j, q) not in swap_out:
                    layout.append(Placed(stands, stands))
                else:
                    layout.append(None)
                    slots.append(("run", j, stands))
            run_layouts.append(layout)
        fill = self._assign_wilds(slots, placed_wild)
        for (kind, idx, stands), card in zip(slots, fill, strict=True):
            placed = Placed(card, card if self._natural_in(card, kind, stands) else stands)
            if kind == "set":
                set_melds[idx].append(placed)
            else:
                holes = run_layouts[idx]
                holes[holes.index(None)] = placed
        for placed_cards in set_melds:
            melds.append(Meld(SET, tuple(placed_cards)))
        for layout in run_layouts:
            filled = [p for p in layout if p is not None]
            assert len(filled) == len(layout), "a wild place of a run was left empty"
            melds.append(Meld(RUN, tuple(filled)))
        for s, suit in enumerate(SUITS):
            for r in _RANKS:
                unlaid.extend([Card(r, suit)] * avail[s][r])
        return melds, unlaid

    def _set_stand_for(self, rank: int, naturals: list[Card], wild: int) -> list[Card]:
        """What the wild cards of a set stand for: the rank, in the suits the set lacks first."""
        have = {c.suit for c in naturals}
        order = [suit for suit in SUITS if suit not in have] + [
            suit for suit in SUITS if suit in have
        ]
        return [Card(rank, order[i % 4]) for i in range(wild)]

    def _natural_in(self, card: Card, kind: str, stands: Card) -> bool:
        if card.is_joker:
            return False
        if kind == "set":
            return card.rank == stands.rank
        return card == stands

    def _assign_wilds(self, slots, cards: list[Card]) -> list[Card]:
        """Give each wild slot a card; a dual card goes where it counts as natural if it can."""
        fill: list[Card | None] = [None] * len(slots)
        rest = []
        for card in cards:
            if card.is_joker:
                rest.append(card)
                continue
            for i, (kind, _idx, stands) in enumerate(slots):
                if fill[i] is None and self._natural_in(card, kind, stands):
                    fill[i] = card
                    break
            else:
                rest.append(card)
        it = iter(rest)
        return [f if f is not None else next(it) for f in fill]

    def _run_window(self, run: _Run, wild: int) -> list[int]:
        """The positions of a run holding ``wild`` wild cards: its span, then high, then low."""
        extra = wild - (run.length - run.n)
        lo, length = run.lo, run.length
        if self.wrap:
            return self._positions(lo, length + extra)
        hi = lo + length - 1
        up = min(extra, 14 - hi)
        return list(range(lo - (extra - up), hi + up + 1))
