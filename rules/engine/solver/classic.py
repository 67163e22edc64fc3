"""The hand solver of the classic game (Continental, the 15-card game).

``solve_classic(cards, options, first_turn)`` answers the hand checker for 15 or 16 cards:
whether the hand goes out, the arrangement that pays the most, the discard, the payment and
its rows, and for a 15-card hand that does not go out its ``waits`` (the cards that would let
it go out if drawn).

How it works
------------
A run is a window of 3-5 consecutive positions of one suit, positions 1..14 (the ace is 1
and 14). Wild cards are fungible, so a run is described by its *group* of natural cards
(distinct positions, lowest ``lo``, span at most 5) and its length ``L`` with
``max(3, span) <= L <= 5``; the free places of its window hold wild cards. Runs made of wild
cards only have no suit and are formed from the wild pool at the very end.

Per suit, a dynamic program scans the positions 1..14 with the open groups as state (how
many groups opened 1, 2, 3, 4 positions ago) and the natural cards of each position as
counts: each card at a position joins a distinct open group or opens a new one, and a group
closes at its last natural card, giving its minimal length ``max(3, span)``. The result of a
state is the set of multisets of minimal lengths (``(#3, #4, #5)``) the rest of the suit can
produce, kept as a bitmask over a small code space; only multisets that fit one of the three
allowed splits survive, so the sets stay tiny. The DP is memoised on (counts from here on,
open groups): every window fits somewhere in 1..14, so past the 2 position the absolute
position does not matter and a state is shared by all positions, suits, hands and discards
(states that still carry a flag -- the 2 position, the waits flags -- are kept apart). The
ace is split between position 1 and 14 by the caller; the 2s of a suit are split between
natural cards (the 2 position of a run of their own suit) and wild cards (the pool) by the
caller too.

Fast rejection: the minimal lengths of a suit's natural cards (2s that may be wild left out)
are at least the best cover of its ranks by windows of 5, its card count and 3 per copy of
its most repeated card; their sum must be at most 15 (18 before a discard, which takes off at
most 3). Random hands almost always stop there, and so do most discards of a hand.

Suits are combined by adding their multisets; with exactly 15 laid cards, a combined multiset
of minimal lengths that fits a split (each run gets a part at least as long as its minimal
length, the leftover parts become all-wild runs) is always fillable by the pool: the pool
holds exactly ``15 - natural cards`` cards. The only extra condition is that a 2 used as a
wild card never sits at the 2 position of a run of its own suit (it would be natural there):
per suit the DP reports the fewest wild places at its 2 position (``k``), and the pool can be
placed iff ``k_s + wild 2s of suit s <= pool`` for every suit (Hall's condition).

The payment only depends on the discard and the number of 2s used as wild cards, so the
solver evaluates every distinct discard (a suit with one card less, or a joker) against the
other three suits combined once, and reads the payment off each feasible combination
(combinations are kept as {(wild 2s, excess): bitmask of multisets}). The arrangement is
rebuilt for the winner only: per-suit options are found again by a small search guided by the
combined masks, then each suit's DP is walked forward choosing the first move whose
remainder the memoised result still contains.

``waits`` runs the same DP once per suit with two flags in the state: one extra natural card
of the suit may be inserted at any position (tagged with its position in the result code),
one card may be discarded. If the hand plus a joker does not go out no card helps (a drawn
card can always be replaced by a joker standing for it), which rejects most hands at once;
otherwise the joker and every wild 2 are waits, and the natural waits come from the flagged
pass.

Identical 2s. Two identical cards never share a run (docs/rules.md#identical-cards); only
2s can be identical in a run (natural cards of a run differ in rank, jokers are exempt), and
only when the laid cards hold two copies of one 2. The DP treats wild 2s as fungible, so for
such hands it is a relaxation: its arrangement is placed with a spread of the 2s that keeps
copies apart (``_place_twos``: a 2 of suit s goes to a run with a wild place and no other 2 of
suit s, natural or wild), and when that fails ``_best_apart`` searches every arrangement:
per suit every grouping of its natural cards (``_layouts``, up to what matters for the spread),
every way to give the groups the parts of a split, and the spread. The DP's best key of each
discard bounds what that discard can pay, so discards are tried best first and the search
stops early. ``waits`` re-checks each drawn card that makes two identical 2s the same way.

Ties between arrangements of equal payment (documented choice): prefer the split in the
order docs/rules.md lists them (3+3+3+3+3, then 4+4+4+3, then 5+4+3+3), then the discard that
comes last in canonical order (suit S, H, D, C, then rank; a joker last); the runs then come
out of a fixed enumeration order. With this rule the worked example of docs/rules.md#classic-worked-examples
discards K♥.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations

from ..cards import JOKER, SUITS, Card
from ..melds import RUN, Meld, Placed
from ..scoring import classic_payment

__all__ = ["solve_classic"]

LAID = 15
SPLITS = ((3, 3, 3, 3, 3), (4, 4, 4, 3), (5, 4, 3, 3))
NPOS = 14  # positions 1..14; 14 is the ace high

# --- code space of multisets of minimal run lengths ------------------------------------------
# code = g3 + R3 * g4 + R3 * R4 * g5; the radices leave room for one transition's increment
# (at most 5 threes, 3 fours, 1 five) on top of a valid code, so shifting a bitmask of codes
# by an increment never carries from one field into the next.
R3 = 11
R4 = 7
GSPACE = R3 * R4 * 3  # 231 codes; codes of k (or of a tag) are stacked above in strides of it
TAGS = 30  # waits: tag = extra position (0 none, 1..14) + 15 * discard used


def _split_index(g3: int, g4: int, g5: int) -> int | None:
    if g4 == 0 and g5 == 0 and g3 <= 5:
        return 0
    if g5 == 0 and g4 <= 3 and g3 + g4 <= 4:
        return 1
    if g5 <= 1 and g4 + g5 <= 2 and g3 + g4 + g5 <= 4:
        return 2
    return None


G_DECODE: dict[int, tuple[int, int, int]] = {}
SPLIT_OF: dict[int, int] = {}
VALID_G = 0  # bitmask of the codes that fit a split
for _g5 in range(3):
    for _g4 in range(R4):
        for _g3 in range(R3):
            _idx = _split_index(_g3, _g4, _g5)
            if _idx is not None:
                _code = _g3 + R3 * _g4 + R3 * R4 * _g5
                G_DECODE[_code] = (_g3, _g4, _g5)
                SPLIT_OF[_code] = _idx
                VALID_G |= 1 << _code
VALID_ALL = 0  # the valid codes under every k / tag
for _t in range(TAGS):
    VALID_ALL |= VALID_G << (GSPACE * _t)
G_ALL = (1 << GSPACE) - 1
VALID_EXTRA = 0  # the valid codes under tags 1..14 (relative to tag 1)
for _t in range(NPOS):
    VALID_EXTRA |= VALID_G << (GSPACE * _t)
TAG0_BLOCK = (1 << (GSPACE * 15)) - 1  # codes without a discard
SHIFT_DISCARD = GSPACE * 15

# DP flags
F_EXTRA = 1  # one extra natural card may still be inserted (waits)
F_DISCARD = 2  # one natural card may still be discarded (waits)
F_TRACK_K = 4  # count the wild places at the 2 position (payment search)
F_TWO_WILD = 8  # the 2 position takes no extra and no discard (2s are handled by the caller)

# Memo tables, shared by all requests of a process; each is emptied when it reaches its limit
# (a flagged entry holds a mask of up to ~7000 bits, a plain one of at most 231 bits).
_MEMO: dict[tuple, int] = {}  # flagged states (absolute positions)
_PLAIN: dict[tuple, int] = {}  # plain states (relative positions), see _plain
_MEMO_LIMIT = 100_000
_PLAIN_LIMIT = 200_000


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_TRANS: dict[tuple[int, ...], tuple] = {}


@lru_cache(maxsize=4096)
def _moves(x: int, o1: int, o2: int, o3: int, o4: int, kpos: int) -> tuple:
    """The moves at a position holding x natural cards, one by one in a fixed order: the DP
    uses them grouped (:func:`_transitions`), the rebuild one at a time.

    Each natural card joins a distinct open group or opens a new one; the groups 4 back must
    take one and close; any group that takes one may close there (a group closes at its last
    natural card). A move is (closed per offset c1 c2 c3, new open n1, new closed c0, joins
    of continuing groups jc, the increments (threes, fours, fives, k)); ``kpos`` is 1 or 2
    when the wild places at the 2 position are counted at this position (p = 1 or 2), else 0.
    """
    out = []
    if not (o4 <= x <= 5 and o4 <= 1):  # (at most one run of 5: keeps the code fields apart)
        return ()
    for c1 in range(o1 + 1):
        for c2 in range(o2 + 1):
            for c3 in range(min(o3, 3) + 1):
                closing = o4 + c1 + c2 + c3
                if closing > x:
                    break
                m1, m2, m3 = o1 - c1, o2 - c2, o3 - c3
                cont = m1 + m2 + m3
                avail = x - closing
                new_min = avail - cont if avail > cont else 0
                for n1 in range(avail + 1):
                    if n1 + cont > 5:
                        break
                    for c0 in range(max(0, new_min - n1), avail - n1 + 1):
                        if c0 + c1 + c2 > 5:
                            break
                        jc = avail - n1 - c0
                        dk = 0
                        if kpos == 1:
                            dk = c0
                        elif kpos == 2 and m1 > jc:
                            dk = m1 - jc
                        out.append((c1, c2, c3, n1, c0, jc, (c0 + c1 + c2, c3, o4, dk)))
    return tuple(out)


def _transitions(x: int, o1: int, o2: int, o3: int, o4: int, kpos: int) -> tuple:
    """The moves of :func:`_moves` grouped by the next open groups, for the DP: returns
    ((next o1..o4), code shifts) pairs; a move's shift adds its lengths to the code's counts
    of threes, fours and fives and, when ``kpos`` is 1 or 2, its wild places to ``k``.
    """
    key = (x, o1, o2, o3, o4, kpos)
    found = _TRANS.get(key)
    if found is not None:
        return found
    moves: dict[tuple[int, int, int, int], set[int]] = {}
    for c1, c2, c3, n1, _c0, _jc, (a3, a4, a5, dk) in _moves(x, o1, o2, o3, o4, kpos):
        shift = a3 + R3 * a4 + R3 * R4 * a5 + GSPACE * dk
        moves.setdefault((n1, o1 - c1, o2 - c2, o3 - c3), set()).add(shift)
    found = tuple((state, tuple(sorted(shifts))) for state, shifts in moves.items())
    _TRANS[key] = found
    return found


def _sub(rest: tuple[int, ...], n1: int, m1: int, m2: int, m3: int, flags: int) -> int:
    """The codes of the next position (dispatch to the plain DP once no flag is left)."""
    if flags:
        key = (rest, n1, m1, m2, m3, flags)
        res = _MEMO.get(key)
        return res if res is not None else _dp(rest, n1, m1, m2, m3, flags)
    if not (n1 or m1 or m2 or m3):
        # nothing open: the zero positions before the next card do not matter
        i = 0
        n = len(rest)
        while i < n and not rest[i]:
            i += 1
        if i:
            rest = rest[i:]
    res = _PLAIN.get((rest, n1, m1, m2, m3))
    return res if res is not None else _plain(rest, n1, m1, m2, m3)


def _plain(suffix: tuple[int, ...], o1: int, o2: int, o3: int, o4: int) -> int:
    """Codes (multisets of minimal lengths) that the natural cards ``suffix`` can lay, the
    open groups o1..o4 included. Positions only count relative to each other here: every
    window of 3-5 places fits somewhere in 1..14, so this is shared by all positions, suits
    and hands. ``suffix`` has no trailing zeros (no leading zeros either when nothing is open).
    """
    if not suffix:
        res = 0 if (o1 or o2 or o3 or o4) else 1
    else:
        rest = suffix[1:]
        res = 0
        for (n1, m1, m2, m3), shifts in _transitions(suffix[0], o1, o2, o3, o4, 0):
            sub = _sub(rest, n1, m1, m2, m3, 0)
            if sub:
                for shift in shifts:
                    res |= sub << shift
        res &= VALID_G
    if len(_PLAIN) >= _PLAIN_LIMIT:
        _PLAIN.clear()
    _PLAIN[(suffix, o1, o2, o3, o4)] = res
    return res


def _dp(suffix: tuple[int, ...], o1: int, o2: int, o3: int, o4: int, flags: int) -> int:
    """Codes reachable from position ``15 - len(suffix)`` with open groups o1..o4 and flags.

    ``oD`` counts the groups whose lowest natural card is D positions back; each must still
    take a natural card (a group closes at its last natural card), and a group 4 back must
    take one here. Returns a bitmask of codes ``g + GSPACE * (k or tag)``.
    """
    if not flags:
        while suffix and not suffix[-1]:
            suffix = suffix[:-1]
        return _sub(suffix, o1, o2, o3, o4, 0)
    key = (suffix, o1, o2, o3, o4, flags)
    if not suffix:
        res = 1 if not (o1 or o2 or o3 or o4) else 0
        _MEMO[key] = res
        return res
    p = 15 - len(suffix)
    rest = suffix[1:]
    x0 = suffix[0]
    nflags = flags if p < 2 else flags & (F_EXTRA | F_DISCARD)
    kpos = p if p <= 2 and flags & F_TRACK_K else 0
    special = p == 2 and flags & F_TWO_WILD
    options = [(x0, nflags, 0)]
    if flags & F_EXTRA and not special:
        options.append((x0 + 1, nflags & ~F_EXTRA, GSPACE * p))
    if flags & F_DISCARD and x0 and not special:
        options.append((x0 - 1, nflags & ~F_DISCARD, SHIFT_DISCARD))
    if not nflags:
        while rest and not rest[-1]:
            rest = rest[:-1]
    res = 0
    for x, fl, tag_shift in options:
        if not fl and nflags:
            stripped = rest
            while stripped and not stripped[-1]:
                stripped = stripped[:-1]
        else:
            stripped = rest
        for (n1, m1, m2, m3), shifts in _transitions(x, o1, o2, o3, o4, kpos):
            sub = _sub(stripped, n1, m1, m2, m3, fl)
            if sub:
                for shift in shifts:
                    res |= sub << (shift + tag_shift)
    res &= VALID_ALL
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = res
    return res


# --- per suit ------------------------------------------------------------------------------


def _suffix(v: tuple[int, ...], aces_low: int, natural_twos: int) -> tuple[int, ...]:
    return (aces_low, natural_twos, *v[2:], v[0] - aces_low)


@lru_cache(maxsize=1 << 15)
def _suit_options(v: tuple[int, ...], twos_wild: bool) -> tuple[tuple[int, int, int, int], ...]:
    """What one suit (13 counts, ace first) can lay: (g code, wild 2s, k, aces low) each.

    For each multiset of minimal lengths and each number of its 2s given to the pool, the
    fewest wild places at the 2 position (``k``) and an ace split that achieves it.
    """
    aces, twos = v[0], v[1]
    best: dict[tuple[int, int], tuple[int, int]] = {}
    for rel in range(twos + 1) if twos_wild else (0,):
        for a1 in range(aces + 1):
            mask = _dp(_suffix(v, a1, twos - rel), 0, 0, 0, 0, F_TRACK_K)
            for code in _bits(mask):
                g, k = code % GSPACE, code // GSPACE
                cur = best.get((g, rel))
                if cur is None or k < cur[0]:
                    best[(g, rel)] = (k, a1)
    return tuple((g, rel, k, a1) for (g, rel), (k, a1) in best.items())


@lru_cache(maxsize=1 << 13)
def _flagged_suit(v: tuple[int, ...], twos_wild: bool, flags: int) -> int:
    """Feasibility codes of one suit with the waits flags (extra card, discard), tagged."""
    aces, twos = v[0], v[1]
    flags |= F_TWO_WILD if twos_wild else 0
    total = 0
    for rel in range(twos + 1) if twos_wild else (0,):
        for a1 in range(aces + 1):
            mask = _dp(_suffix(v, a1, twos - rel), 0, 0, 0, 0, flags)
            total |= mask
            if rel and flags & F_DISCARD:
                # one of the 2s given to the pool is the discard instead
                total |= (mask & TAG0_BLOCK) << SHIFT_DISCARD
    return total


# --- cheap necessary condition ------------------------------------------------------------


@lru_cache(maxsize=1 << 13)
def _cover_cost(mask: int) -> int:
    """Least total minimal length of groups covering these ranks (bit r-1: rank r) once."""
    best: int | None = None
    ranks = [r for r in range(2, 14) if mask >> (r - 1) & 1]
    placements = ([1], [14]) if mask & 1 else ([],)
    for ace in placements:
        pts = sorted(ace + ranks)
        n = len(pts)
        cost = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            c: int | None = None
            for j in range(i, n):
                span = pts[j] - pts[i] + 1
                if span > 5:
                    break
                cand = max(3, span) + cost[j + 1]
                if c is None or cand < c:
                    c = cand
            assert c is not None  # j == i always fits
            cost[i] = c
        if best is None or cost[0] < best:
            best = cost[0]
    assert best is not None  # at least one placement
    return best


@lru_cache(maxsize=1 << 15)
def _suit_bound(v: tuple[int, ...], twos_wild: bool) -> int:
    """A lower bound of the total minimal run length one suit's natural cards need (2s that
    may be wild left out): the best cover of its ranks by windows of 5, its card count, and
    3 per copy of its most repeated card."""
    mask = 0
    count = 0
    most = 0
    for i, c in enumerate(v):
        if c and not (twos_wild and i == 1):
            mask |= 1 << i
            count += c
            if c > most:
                most = c
    if not count:
        return 0
    return max(_cover_cost(mask), count, 3 * most)


# --- combination of suits ----------------------------------------------------------------------
# A suit's options, and any combination of suits, as {(wild 2s, excess): bitmask of g codes}.
# The excess of a suit is k + its wild 2s when it gives 2s to the pool (else 0): the pool can
# be placed iff every suit's excess is at most the pool (Hall's condition, module docstring).


@lru_cache(maxsize=1 << 15)
def _suit_classes(v: tuple[int, ...], twos_wild: bool) -> tuple[tuple[tuple[int, int], int], ...]:
    classes: dict[tuple[int, int], int] = {}
    for g, rel, k, _a1 in _suit_options(v, twos_wild):
        key = (rel, k + rel if rel else 0)
        classes[key] = classes.get(key, 0) | (1 << g)
    return tuple(classes.items())


def _combine_masks(a: int, b: int) -> int:
    out = 0
    for g in _bits(b):
        out |= a << g
    return out & VALID_G


def _combine(acc: dict, classes) -> dict:
    """Add one suit's classes to a combination (g codes that fit no split are dropped)."""
    out: dict = {}
    for (r1, e1), m1 in acc.items():
        for (r2, e2), m2 in classes:
            m = _combine_masks(m1, m2)
            if m:
                key = (r1 + r2, e1 if e1 >= e2 else e2)
                out[key] = out.get(key, 0) | m
    return out


def _combine_extra(tagged: int, b: int) -> int:
    out = 0
    for g in _bits(b):
        out |= tagged << g
    return out & VALID_EXTRA


SPLIT_MASKS = tuple(
    sum(1 << g for g, idx in SPLIT_OF.items() if idx == i) for i in range(len(SPLITS))
)


def _first_split(mask: int) -> int:
    for i, m in enumerate(SPLIT_MASKS):
        if mask & m:
            return i
    raise AssertionError("no split")


def _sub_code(a: int, b: int) -> int | None:
    """The g code a - b, or None when b is not contained in a."""
    a3, a4, a5 = G_DECODE[a]
    b3, b4, b5 = G_DECODE.get(b, (99, 0, 0))
    if b3 > a3 or b4 > a4 or b5 > a5:
        return None
    return a - b


def _payment_value(wild_twos: int, jokers: int) -> int:
    if wild_twos == 0 and jokers == 0:
        return 11
    return 1 + wild_twos + 2 * jokers


def _vectors(cards: list[Card]) -> tuple[list[list[int]], int]:
    vecs = [[0] * 13 for _ in SUITS]
    jokers = 0
    for c in cards:
        if c.rank == 0:
            jokers += 1
        else:
            vecs[SUITS.index(c.suit)][c.rank - 1] += 1
    return vecs, jokers


def _one_suit(laid: list[Card]) -> bool:
    suits = {c.suit for c in laid}
    return len(suits) == 1 and "" not in suits


def _best(cards: list[Card], twos_wild: bool, keys: dict | None = None):
    """The best way to go out, or None (identical 2s may share a run here: see _solve).

    ``keys``, when given, receives per discard (None for 15 cards) its best key and way out.

    Returns (discard, per-suit vectors laid, wild 2s, jokers laid, g code, one suit, laid
    cards, pool limit).
    """
    vecs, jokers = _vectors(cards)
    tvecs = [tuple(v) for v in vecs]
    discard_allowed = len(cards) > LAID
    bounds = [_suit_bound(v, twos_wild) for v in tvecs]
    total_bound = sum(bounds)
    if total_bound > LAID + (3 if discard_allowed else 0):
        return None
    base = [_suit_classes(v, twos_wild) for v in tvecs]
    # combinations of all suits but one, for each suit
    allbut = []
    for s in range(4):
        acc = {(0, 0): 1}
        for t in range(4):
            if t != s:
                acc = _combine(acc, base[t])
                if not acc:
                    break
        allbut.append(acc)

    # (discard card or None, suit vectors laid, jokers laid)
    candidates: list[tuple[Card | None, list[tuple[int, ...]], int]] = []
    if not discard_allowed:
        candidates.append((None, tvecs, jokers))
    else:
        if jokers and total_bound <= LAID:
            candidates.append((JOKER, tvecs, jokers - 1))
        for s, suit in enumerate(SUITS):
            if not allbut[s]:
                continue
            v = tvecs[s]
            for i, c in enumerate(v):
                if c:
                    w = (*v[:i], c - 1, *v[i + 1 :])
                    if total_bound - bounds[s] + _suit_bound(w, twos_wild) > LAID:
                        continue
                    laid_vecs = [*tvecs[:s], w, *tvecs[s + 1 :]]
                    candidates.append((Card(i + 1, suit), laid_vecs, jokers))

    best = None
    best_key = None
    for discard, laid_vecs, jokers_laid in candidates:
        if discard is None or discard.is_joker:
            combined = _combine(allbut[0], base[0])
        else:
            s = SUITS.index(discard.suit)
            combined = _combine(allbut[s], _suit_classes(laid_vecs[s], twos_wild))
        if not combined:
            continue
        feasible: dict[int, int] = {}  # wild 2s -> g codes
        for (rel, excess), mask in combined.items():
            if excess <= jokers_laid + rel:
                feasible[rel] = feasible.get(rel, 0) | mask
        if not feasible:
            continue
        if discard is not None:  # always one where a discard is allowed
            laid = list(cards)
            laid.remove(discard)
        else:
            laid = cards
        one_suit = jokers_laid == 0 and _one_suit(laid)
        dkey = discard.sort_key if discard is not None else (0, 0)
        for rel, mask in feasible.items():
            value = _payment_value(rel, jokers_laid) + (10 if one_suit else 0)
            split = _first_split(mask)
            key = (value, -split, dkey)
            if keys is not None and (discard not in keys or key > keys[discard][0]):
                g_key = next(_bits(mask & SPLIT_MASKS[split]))
                keys[discard] = (key, (discard, laid_vecs, rel, jokers_laid, g_key, one_suit, laid))
            if best_key is None or key > best_key:
                best_key = key
                g = next(_bits(mask & SPLIT_MASKS[split]))
                best = (discard, laid_vecs, rel, jokers_laid, g, one_suit, laid)
    return best


def _picks(laid_vecs, twos_wild: bool, g: int, rel: int, limit: int) -> list:
    """Per suit, an option (g, wild 2s, k, aces low) making up g and rel within the limit."""
    options = [_suit_options(v, twos_wild) for v in laid_vecs]
    later: list = [None] * 4  # later[s]: suits s+1..3 combined
    acc = {(0, 0): 1}
    for s in range(3, 0, -1):
        acc = _combine(acc, _suit_classes(laid_vecs[s], twos_wild))
        later[s - 1] = acc

    def search(s: int, g_left: int, r_left: int):
        for opt in options[s]:
            g_s, r_s, k_s = opt[0], opt[1], opt[2]
            if r_s > r_left or (r_s and k_s + r_s > limit):
                continue
            rest = _sub_code(g_left, g_s)
            if rest is None:
                continue
            if s == 3:
                if rest == 0 and r_s == r_left:
                    return [opt]
                continue
            if not any(
                r == r_left - r_s and e <= limit and m >> rest & 1 for (r, e), m in later[s].items()
            ):
                continue
            found = search(s + 1, rest, r_left - r_s)
            if found is not None:
                return [opt, *found]
        return None

    found = search(0, g, rel)
    assert found is not None, "the combination lost its way"
    return found


# --- rebuilding the arrangement ----------------------------------------------------------------


def _rebuild_suit(v: tuple[int, ...], opt: tuple[int, int, int, int]) -> list[tuple]:
    """The groups of one suit for an option: a list of (lo, hi, natural positions)."""
    g, rel, k, a1 = opt
    t3, t4, t5 = G_DECODE[g]
    tk = k
    suffix = _suffix(v, a1, v[1] - rel)
    opens: dict[int, list[list[int]]] = {1: [], 2: [], 3: [], 4: []}
    closed: list[list[int]] = []
    last = max((i + 1 for i, c in enumerate(suffix) if c), default=0)
    for p in range(1, last + 1):
        if p == 1:
            rest = suffix[1:]
            nflags = F_TRACK_K
        else:
            rest = suffix[p:last]
            nflags = 0
        o1, o2, o3, o4 = len(opens[1]), len(opens[2]), len(opens[3]), len(opens[4])
        choice = None
        for move in _moves(suffix[p - 1], o1, o2, o3, o4, p if p <= 2 else 0):
            a3, a4, a5, dk = move[6]
            l3, l4, l5, lk = t3 - a3, t4 - a4, t5 - a5, tk - dk
            if l3 < 0 or l4 < 0 or l5 < 0 or lk < 0:
                continue
            code = l3 + R3 * l4 + R3 * R4 * l5 + GSPACE * lk
            c1, c2, c3, n1 = move[0], move[1], move[2], move[3]
            if _sub(rest, n1, o1 - c1, o2 - c2, o3 - c3, nflags) >> code & 1:
                choice = move
                t3, t4, t5, tk = l3, l4, l5, lk
                break
        assert choice is not None, "rebuild lost its way"
        c1, c2, c3, n1, c0, jc, _inc = choice
        # the group 4 back takes a card and closes
        for grp in opens[4]:
            grp.append(p)
            closed.append(grp)
        nxt: dict[int, list[list[int]]] = {1: [], 2: [], 3: [], 4: []}
        continuing: list[tuple[int, list[int]]] = []
        for d, cnt in ((1, c1), (2, c2), (3, c3)):
            for grp in opens[d][:cnt]:
                grp.append(p)
                closed.append(grp)
            continuing.extend((d, grp) for grp in opens[d][cnt:])
        for i, (d, grp) in enumerate(continuing):
            if i < jc:  # offset 1 first: at the 2 position that is what k counted
                grp.append(p)
            nxt[d + 1].append(grp)
        closed.extend([p] for _ in range(c0))
        nxt[1].extend([p] for _ in range(n1))
        opens = nxt
    assert (t3, t4, t5, tk) == (0, 0, 0, 0)
    return [(grp[0], grp[-1], grp) for grp in closed]


def _position_card(pos: int, suit: str) -> Card:
    return Card(1 if pos == 14 else pos, suit)


def _assign_wilds(slots: list[Card], pool: list[Card]) -> list[Card]:
    """Give every wild place a pool card; a 2 never goes to the 2 position of its own suit."""

    def fits(card: Card, slot: Card) -> bool:
        return not (card.rank == 2 and slot.rank == 2 and card.suit == slot.suit)

    owner: list[int | None] = [None] * len(pool)

    def augment(si: int, seen: set[int]) -> bool:
        for pi, card in enumerate(pool):
            if pi in seen or not fits(card, slots[si]):
                continue
            seen.add(pi)
            held = owner[pi]
            if held is None or augment(held, seen):
                owner[pi] = si
                return True
        return False

    for si in range(len(slots)):
        if not augment(si, set()):
            raise AssertionError("wild cards cannot be placed")
    placed = {si: pool[pi] for pi, si in enumerate(owner) if si is not None}
    return [placed[si] for si in range(len(slots))]


def _windows(groups: list[tuple], lengths: list[int], wild_runs: list[int]) -> list[list]:
    """Per run the list of (stands_for, natural card or None) of its places: each group
    (minimal length, suit index, lo, hi, positions) in a window of its length, from its lowest
    natural card up (down from the ace high when that does not fit), then the all-wild runs."""
    windows = []
    for (_minlen, s, lo, _hi, positions), length in zip(groups, lengths, strict=True):
        start = lo if lo + length - 1 <= NPOS else NPOS - length + 1
        suit = SUITS[s]
        present = set(positions)
        windows.append(
            [
                (_position_card(q, suit), _position_card(q, suit) if q in present else None)
                for q in range(start, start + length)
            ]
        )
    for length in wild_runs:
        windows.append([(Card(q, "S"), None) for q in range(3, 3 + length)])
    return windows


def _melds(windows: list[list], filled: list[Card]) -> list[Meld]:
    it = iter(filled)
    return [
        Meld(RUN, tuple(Placed(nat if nat is not None else next(it), sf) for sf, nat in w))
        for w in windows
    ]


def _run_traits(window: list) -> tuple[str, int, bool, bool]:
    """(suit, wild places, holds its own natural 2, its 2 position is a wild place)."""
    suit = window[0][0].suit
    wild = sum(1 for _sf, nat in window if nat is None)
    nat2 = any(nat is not None and nat.rank == 2 for _sf, nat in window)
    kslot = any(nat is None and sf.rank == 2 for sf, nat in window)
    return suit, wild, nat2, kslot


def _place_twos(traits: list[tuple[str, int, bool, bool]], twos: dict[str, int]):
    """Spread the wild 2s over the runs so that no run holds two identical cards.

    ``twos`` counts the wild 2s per suit. A 2 of suit s goes to a run with a wild place that
    holds no other 2 of suit s and no natural 2 of suit s; in a run of suit s whose 2 position
    is a wild place it needs a second wild place (it is natural at the 2 position). Jokers
    fill the rest. Returns per run the suits of the 2s it takes, or None when no spread works.
    """
    cap = [t[1] for t in traits]
    taken: list[list[str]] = [[] for _ in traits]
    order = [suit for suit in SUITS if twos.get(suit)]

    def eligible(suit: str) -> list[int]:
        return [
            j
            for j, (rs, wild, nat2, kslot) in enumerate(traits)
            if cap[j] >= 1 and not (rs == suit and (nat2 or (kslot and wild < 2)))
        ]

    def place(i: int) -> bool:
        if i == len(order):
            return True
        suit = order[i]
        for runs in combinations(eligible(suit), twos[suit]):
            for j in runs:
                cap[j] -= 1
                taken[j].append(suit)
            if place(i + 1):
                return True
            for j in runs:
                cap[j] += 1
                taken[j].pop()
        return False

    return taken if place(0) else None


def _fill_apart(windows: list[list], pool: list[Card]) -> list[Card] | None:
    """The wild places' cards (in window order) with no two identical 2s in one run, or None.

    The pool is the laid wild 2s and jokers; each run gets the 2s :func:`_place_twos` gives
    it, its own suit's 2 first (in the first wild place other than the 2 position), the
    others in the following places, jokers in the rest.
    """
    twos: dict[str, int] = {}
    for c in pool:
        if not c.is_joker:
            twos[c.suit] = twos.get(c.suit, 0) + 1
    traits = [_run_traits(w) for w in windows]
    spread = _place_twos(traits, twos)
    if spread is None:
        return None
    out: list[Card] = []
    for w, (suit, _wild, _nat2, _kslot), suits in zip(windows, traits, spread, strict=True):
        slots = [sf for sf, nat in w if nat is None]
        cards: list[Card | None] = [None] * len(slots)
        mine = sorted(suits, key=lambda x: (x != suit, SUITS.index(x)))
        for x in mine:
            for i, sf in enumerate(slots):
                if cards[i] is None and not (sf.rank == 2 and sf.suit == x):
                    cards[i] = Card(2, x)
                    break
            else:
                raise AssertionError("a 2 found no place")
        out.extend(JOKER if c is None else c for c in cards)
    return out


def _twin_twos(cards, twos_wild: bool) -> bool:
    """Two identical 2s among these cards (with 2s wild): the only cards the rule that no
    run holds two identical cards can bind (natural cards of a run differ in rank)."""
    if not twos_wild:
        return False
    seen = set()
    for c in cards:
        if c.rank == 2:
            if c.suit in seen:
                return True
            seen.add(c.suit)
    return False


def _arrangement(best, twos_wild: bool) -> list[Meld] | None:
    """The runs of the best way out; None when its twin 2s cannot be kept apart (then
    :func:`_best_apart` searches every arrangement)."""
    _discard, laid_vecs, rel, jokers_laid, g, _one, laid = best
    picks = _picks(laid_vecs, twos_wild, g, rel, jokers_laid + rel)
    groups = []  # (minimal length, suit index, lo, hi, positions)
    pool: list[Card] = []
    for s, opt in enumerate(picks):
        for lo, hi, positions in _rebuild_suit(laid_vecs[s], opt):
            groups.append((max(3, hi - lo + 1), s, lo, hi, positions))
        pool.extend([Card(2, SUITS[s])] * opt[1])
    groups.sort(key=lambda grp: grp[1:4])
    pool.extend([JOKER] * jokers_laid)
    parts = list(SPLITS[SPLIT_OF[g]])
    # longest minimal length gets the longest part; ties in suit and position order
    order = sorted(range(len(groups)), key=lambda i: (-groups[i][0], groups[i][1], groups[i][2]))
    lengths = [0] * len(groups)
    for rank_i, gi in enumerate(order):
        lengths[gi] = parts[rank_i]
        assert parts[rank_i] >= groups[gi][0]
    windows = _windows(groups, lengths, parts[len(groups) :])
    pool.sort(key=lambda c: c.sort_key)
    if _twin_twos(laid, twos_wild):
        filled = _fill_apart(windows, pool)
        if filled is None:
            return None
    else:
        slots = [sf for w in windows for sf, nat in w if nat is None]
        filled = _assign_wilds(slots, pool)
    return _melds(windows, filled)


# --- twin 2s: every arrangement ----------------------------------------------------------------
# The DP above treats the wild 2s as fungible, which is exact unless the laid cards hold two
# identical 2s: then two of them must not share a run. When the DP's best arrangement cannot
# keep them apart, this slower search looks at every arrangement: per suit every way to group
# its natural cards (up to what matters for the pool: minimal length, natural cards, a natural
# 2, a wild 2 position), every way to give the groups the parts of a split, and the spread of
# the wild 2s (:func:`_place_twos`).


@lru_cache(maxsize=1 << 15)
def _layouts(counts: tuple[int, ...], groups: int, slack: int) -> dict[tuple, tuple]:
    """Ways to group natural cards (counts at positions 1..14) into runs' natural groups.

    A group holds distinct positions spanning at most 5. Returns {sorted signatures: groups},
    a signature being (minimal length, natural cards, holds the 2, its 2 position is wild)
    and the groups (lo, hi, positions) one representative; at most ``groups`` groups, whose
    minimal lengths exceed their natural cards by at most ``slack`` in all (the wild cards).
    """
    p = next((i for i, c in enumerate(counts) if c), None)
    if p is None:
        return {(): ()}
    if sum(counts) > 5 * groups:
        return {}
    out: dict[tuple, tuple] = {}
    near = [q for q in range(p + 1, min(p + 5, NPOS)) if counts[q]]
    for size in range(len(near) + 1):
        for more in combinations(near, size):
            members = (p, *more)
            positions = tuple(q + 1 for q in members)
            lo, hi = positions[0], positions[-1]
            minlen = max(3, hi - lo + 1)
            if minlen - len(positions) > slack:
                continue
            rest = list(counts)
            for q in members:
                rest[q] -= 1
            sig = (minlen, len(positions), 2 in positions, lo == 1 and 2 not in positions)
            sub = _layouts(tuple(rest), groups - 1, slack - minlen + len(positions))
            for subsig, subgroups in sub.items():
                key = tuple(sorted((*subsig, sig)))
                if key not in out:
                    out[key] = ((lo, hi, positions), *subgroups)
    return out


def _suit_layouts(
    v: tuple[int, ...], twos_wild: bool, groups: int, slack: int
) -> list[tuple[int, tuple, tuple]]:
    """One suit's layouts: (wild 2s, signatures, groups), one per distinct pair. ``slack``:
    the most wild cards there can be if every 2 is wild; each natural 2 of the suit is one
    fewer."""
    aces, twos = v[0], v[1]
    found: dict[tuple[int, tuple], tuple] = {}
    for rel in range(twos + 1) if twos_wild else (0,):
        for a1 in range(aces + 1):
            counts = (a1, twos - rel, *v[2:], aces - a1)
            room = slack - (twos - rel if twos_wild else 0)
            for sigs, reps in _layouts(counts, groups, room).items():
                found.setdefault((rel, sigs), reps)
    return [(rel, sigs, reps) for (rel, sigs), reps in found.items()]


def _traits_of(sigs_by_suit, lengths, wild_runs) -> list[tuple[str, int, bool, bool]]:
    traits = [
        (SUITS[s], length - sig[1], sig[2], sig[3])
        for (s, sig), length in zip(sigs_by_suit, lengths, strict=True)
    ]
    traits.extend(("", length, False, False) for length in wild_runs)
    return traits


def _best_apart(cards: list[Card], twos_wild: bool, bounds: dict, first_only: bool = False):
    """The best way out keeping identical cards apart, searched over every arrangement.

    ``bounds`` are _best's keys per discard, found without the rule: upper bounds, so the
    discards are tried best first and the search stops when none can beat what it has.
    Returns (discard, wild 2s, jokers laid, one suit, melds) or None. Ties as in _best: the
    first split, then the last discard. ``first_only``: stop at the first way out found.
    """
    ranked = sorted(bounds.items(), key=lambda item: item[1][0], reverse=True)
    if first_only:  # any way out will do: first the DP's own arrangement of each discard
        for _discard, (_bound, way) in ranked:
            melds = _arrangement(way, twos_wild)
            if melds is not None:
                discard, _vecs, rel, jokers_laid, _g, one_suit, _laid = way
                return discard, rel, jokers_laid, one_suit, melds
    best_key = None
    best = None
    for discard, (bound, _way) in ranked:
        if best_key is not None and bound <= best_key:
            break
        laid = list(cards)
        if discard is not None:
            laid.remove(discard)
        vecs, jokers = _vectors(laid)
        tvecs = [tuple(v) for v in vecs]
        if sum(_suit_bound(v, twos_wild) for v in tvecs) > LAID:
            continue
        # every card that cannot be wild is natural, so at most 15 less those are wild; a
        # suit's groups leave room for the others' (a group per 5 natural cards)
        fixed = [sum(v) - (v[1] if twos_wild else 0) for v in tvecs]
        slack = LAID - sum(fixed)
        need = [-(-n // 5) for n in fixed]
        per_suit = [
            _suit_layouts(v, twos_wild, 5 - sum(need) + need[s], slack) for s, v in enumerate(tvecs)
        ]
        one_suit = jokers == 0 and _one_suit(laid)
        dkey = discard.sort_key if discard is not None else (0, 0)
        for combo in _combos(per_suit, 0, 0, 0, ()):
            rel = sum(option[0] for option in combo)
            value = _payment_value(rel, jokers) + (10 if one_suit else 0)
            if best_key is not None and (value, 0, dkey) <= best_key:
                continue
            sigs_by_suit = [(s, sig) for s, option in enumerate(combo) for sig in option[1]]
            twos = {SUITS[s]: option[0] for s, option in enumerate(combo) if option[0]}
            for split_i, parts in enumerate(SPLITS):
                if best_key is not None and (value, -split_i, dkey) <= best_key:
                    break
                found = _give_parts(sigs_by_suit, parts, twos)
                if found is not None:
                    best_key = (value, -split_i, dkey)
                    best = (discard, combo, found, rel, jokers, one_suit)
                    if first_only:
                        return _apart_result(best)
                    break
    return _apart_result(best) if best is not None else None


def _combos(per_suit: list, s: int, ngroups: int, places: int, chosen: tuple):
    """Every choice of one layout per suit with at most 5 groups and 15 places."""
    if s == 4:
        yield chosen
        return
    for option in per_suit[s]:
        n = ngroups + len(option[1])
        m = places + sum(x[0] for x in option[1])
        if n <= 5 and m <= LAID:
            yield from _combos(per_suit, s + 1, n, m, (*chosen, option))


def _give_parts(sigs_by_suit, parts: tuple[int, ...], twos: dict[str, int]):
    """Lengths for the groups from the parts of a split (the rest all-wild runs) with a spread
    of the wild 2s that keeps identical 2s apart, or None."""
    n = len(sigs_by_suit)
    if n > len(parts):
        return None
    for lengths in sorted(set(permutations(parts, n)), reverse=True):
        if any(length < sig[0] for (_s, sig), length in zip(sigs_by_suit, lengths, strict=True)):
            continue
        wild_runs = list(parts)
        for length in lengths:
            wild_runs.remove(length)
        if _place_twos(_traits_of(sigs_by_suit, lengths, wild_runs), twos) is not None:
            return list(lengths), wild_runs
    return None


def _apart_result(best):
    discard, combo, (lengths, wild_runs), rel, jokers, one_suit = best
    groups = []
    for s, (_rel, _sigs, reps) in enumerate(combo):
        for lo, hi, positions in reps:
            groups.append((max(3, hi - lo + 1), s, lo, hi, positions))
    # the lengths follow the signatures' order; match each representative group to its own
    sig_order = [
        (s, (max(3, hi - lo + 1), len(pos), 2 in pos, lo == 1 and 2 not in pos))
        for s, (_rel, _sigs, reps) in enumerate(combo)
        for lo, hi, pos in reps
    ]
    expected = [(s, sig) for s, option in enumerate(combo) for sig in option[1]]
    remaining = list(zip(expected, lengths, strict=True))
    group_lengths = []
    for key in sig_order:
        i = next(i for i, (k, _length) in enumerate(remaining) if k == key)
        group_lengths.append(remaining.pop(i)[1])
    pool = sorted(
        [Card(2, SUITS[s]) for s, option in enumerate(combo) for _ in range(option[0])]
        + [JOKER] * jokers,
        key=lambda c: c.sort_key,
    )
    windows = _windows(groups, group_lengths, wild_runs)
    filled = _fill_apart(windows, pool)
    assert filled is not None, "the spread of the 2s was lost"
    return discard, rel, jokers, one_suit, _melds(windows, filled)


# --- waits -----------------------------------------------------------------------------------


def _waits(cards: list[Card], twos_wild: bool) -> list[Card]:
    vecs, jokers = _vectors(cards)
    tvecs = [tuple(v) for v in vecs]
    if sum(_suit_bound(v, twos_wild) for v in tvecs) > LAID + 3:
        return []
    # can the hand plus a joker go out? (one discard among the hand's cards)
    plain = []
    for v in tvecs:
        m = _flagged_suit(v, twos_wild, F_DISCARD)
        plain.append((m & G_ALL, (m >> SHIFT_DISCARD) & G_ALL))

    def others(s: int) -> tuple[int, int]:
        """Codes of the other suits without a discard and with exactly one discard."""
        a = VALID_G & 1  # the empty multiset
        d = 0
        for t in range(4):
            if t == s:
                continue
            at, dt = plain[t]
            d = _combine_masks(d, at) | _combine_masks(a, dt)
            a = _combine_masks(a, at)
        return a, d

    _a_all, d_all = others(-1)
    if not d_all:
        return []
    found = {JOKER}
    if twos_wild:
        found.update(Card(2, s) for s in SUITS)
    for s, suit in enumerate(SUITS):
        a_o, d_o = others(s)
        if not a_o and not d_o:
            continue
        m = _flagged_suit(tvecs[s], twos_wild, F_EXTRA | F_DISCARD)
        extra = (m >> GSPACE) & ((1 << (GSPACE * NPOS)) - 1)
        extra_d = (m >> (SHIFT_DISCARD + GSPACE)) & ((1 << (GSPACE * NPOS)) - 1)
        res = 0
        if d_o:
            res |= _combine_extra(extra, d_o)
        if a_o:
            res |= _combine_extra(extra_d, a_o)
            if jokers:
                res |= _combine_extra(extra, a_o)
        for i in range(NPOS):
            if (res >> (GSPACE * i)) & G_ALL:
                pos = i + 1
                found.add(_position_card(pos, suit))
    # The DP lets identical 2s share a run; a drawn card that makes two identical 2s is a
    # wait only if the hand then goes out keeping them apart.
    waits = []
    for c in sorted(found, key=lambda c: c.sort_key):
        hand = [*cards, c]
        if not _twin_twos(hand, twos_wild) or _solve(hand, twos_wild, first_only=True):
            waits.append(c)
    return waits


def clear_caches() -> None:
    """Forget every memoised result (for benchmarks that want cold figures)."""
    _MEMO.clear()
    _PLAIN.clear()
    _suit_options.cache_clear()
    _flagged_suit.cache_clear()
    _cover_cost.cache_clear()
    _layouts.cache_clear()
    _suit_bound.cache_clear()
    _suit_classes.cache_clear()


# --- entry point -----------------------------------------------------------------------------


def _solve(cards: list[Card], twos_wild: bool, first_only: bool = False):
    """(discard, wild 2s, jokers laid, one suit, melds) of the best way out, or None."""
    bounds: dict = {}
    best = _best(cards, twos_wild, bounds)
    if best is None:
        return None
    melds = _arrangement(best, twos_wild)
    if melds is None:  # twin 2s the DP's arrangement cannot keep apart: search them all
        return _best_apart(cards, twos_wild, bounds, first_only)
    discard, _vecs, rel, jokers_laid, _g, one_suit, _laid = best
    return discard, rel, jokers_laid, one_suit, melds


def solve_classic(cards: list[Card], options: dict, first_turn: str | None) -> dict:
    """Check a classic hand of 15 or 16 cards (see the module docstring for the method)."""
    twos_wild = bool(options.get("twos_wild", True))
    cards = list(cards)
    found = _solve(cards, twos_wild)
    if found is None:
        return {
            "goes_out": False,
            "melds": [],
            "discard": None,
            "payment": None,
            "payment_rows": [],
            "waits": _waits(cards, twos_wild) if len(cards) == LAID else None,
        }
    discard, rel, jokers_laid, one_suit, melds = found
    payment = classic_payment(
        rel, jokers_laid, first_turn=first_turn, one_suit=one_suit, twos_wild=twos_wild
    )
    return {
        "goes_out": True,
        "melds": melds,
        "discard": discard,
        "payment": payment.total,
        "payment_rows": list(payment.rows),
        "waits": None,
    }
