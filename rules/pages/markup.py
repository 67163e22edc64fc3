"""Placeholders in the rules texts: cards drawn as card faces, numbers computed by the engine.

A rules text (Markdown) never types a card or a worked-out number; it writes a placeholder
``[[name: arguments]]`` that is replaced when the page is rendered. Cards use the canonical
notation of ``rules.engine.cards`` (``4S 10H QD JK``); a wild card may say what it stands
for with ``=`` (``JK=2D``, ``2C=7D``); ``|`` separates groups of cards.

Inline placeholders (inside a sentence):

``[[cards: 4S 5S 6S 7S | AD JK=2D 3D]]``
    card faces.
``[[meld: 4S 5S 6S 7S]]`` / ``[[no-meld: KS AS 2S]]``
    card faces of an example that is (is not) a meld of the page's game; the tests check
    every such example with ``rules.engine.melds``. ``no-meld`` is marked as refused.
``[[payment: wild_twos=1 jokers=1]]`` / ``[[payment-sum: ...]]``
    what each other player pays in the classic game (``classic_payment``; arguments
    ``wild_twos``, ``jokers``, ``first_turn=drawn|undrawn``, ``one_suit=true``,
    ``twos_wild=false``): ``4`` / ``1 + 1 + 2 = 4``.
``[[gain: players=4 wild_twos=1 jokers=1]]``
    what the player who went out gains in total (``classic_ledger``): ``12``.
``[[pay: no_wild]]``
    one row of the classic payment table (``CLASSIC_PAYMENTS``): ``10``.
``[[penalty: 5S 7H QD]]`` / ``[[penalty-sum: ...]]``
    the penalty of cards left in hand (``hand_penalty``; the page's game, or a variant id
    as the first word): ``20`` / ``5 + 5 + 10 = 20``.
``[[opening: 7H 8H 9H | QS QH QD]]`` / ``[[opening-sum: ...]]``
    the opening value of Rommé melds, each group of cards one meld: ``54`` / ``24 + 30 = 54``.
``[[fact: min_players]]``
    a number from the variant: ``min_players``, ``max_players``, ``deals``, ``cards``,
    ``run_min``, ``run_max``, and for ``players=N`` (``deal=D``) ``decks``, ``jokers`` and
    ``total`` (all the cards in play).

Block placeholders (a paragraph of their own):

``[[table: decks]]``, ``[[table: schedule]]``, ``[[table: penalties]]``, ``[[table: payments]]``
    tables built from the engine's data.
``[[table: all-decks]]``
    decks and jokers per number of players, one column per game (for the rules index).
``[[ledger: players=Anna,Ben,Cleo,Dan winner=Anna wild_twos=1 jokers=1]]``
    one classic deal: every player's gain or loss.
``[[deal: Anna=out Ben=5S,7H,QD Cleo=AH,JK]]``
    one deal of a penalty game (``penalty_deal``), with ``handromme=true`` and house-rule
    options (``handromme_doubles=true``) as further arguments.
``[[seating: romme 13]]`` (inline)
    the table sizes of a series (``tournament.table_sizes``): ``4 + 3 + 3 + 3``.
``[[placement: 5]]`` (inline)
    the placement points of each place at a table of that size: ``3, 2.25, 1.5, 0.75, 0``.
``[[draw: romme players=13 seed=482913]]``
    the seating of series 1 drawn from the seed (``tournament.draw``), start numbers 1 to n.
``[[series: romme seed=482913 | 1=40 2=85 | 3=30 4=90:left]]``
    one series of a tournament, a group per table (start number = final total, ``:left`` for
    a player who left the game): each player's place, placement points and score against
    the table (``tournament.series_scores``).
``[[ranking: romme seed=482913 order=relative | ...]]``
    the ranking after that series (``tournament.rank``), with what separated each player
    from the one above; ``order=relative`` puts the score against the table first.
``[[glossary]]``
    the glossary of the language, the entries that concern the page's game (on a page of no
    game, every entry, each limited one with the games it concerns).
``[[options]]``
    the house-rule options; filled in per request (with the reader's game marked).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from markdown import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor

from rules.engine import tournament
from rules.engine.cards import Card, CardError, parse_card
from rules.engine.scoring import (
    classic_ledger,
    classic_payment,
    hand_penalty,
    penalty_deal,
)
from rules.engine.variants import (
    CLASSIC,
    CLASSIC_PAYMENTS,
    ROMME,
    VARIANT_IDS,
    Variant,
    get_variant,
)

from .faces import face
from .words import contract_text, payment_label, rank_text, words

MINUS = "\u2212"
SLOT_OPTIONS = '<div class="rules-slot" data-slot="options"></div>'
BLOCK_TAGS = {"table", "dl", "div"}


class ContentError(ValueError):
    """A rules text that cannot be rendered: an unknown placeholder, a bad card or argument."""


@dataclass(frozen=True)
class Example:
    """A worked example on a page, kept so that tests can check it against the engine."""

    kind: str  # "meld", "no-meld", "payment", "gain", "penalty", "opening", "deal", "ledger"
    variant: str | None
    args: str
    value: Any


@dataclass
class RenderContext:
    variant: Variant | None
    lang: str
    examples: list[Example] = field(default_factory=list)

    @property
    def words(self) -> dict[str, Any]:
        return words(self.lang)

    def need_variant(self, name: str) -> Variant:
        if self.variant is None:
            raise ContentError(f"[[{name}]] needs a game's page")
        return self.variant


# --- small helpers ------------------------------------------------------------------------------


def _el(tag: str, text: str | None = None, cls: str | None = None, **attrs: str) -> etree.Element:
    el = etree.Element(tag)
    if cls:
        el.set("class", cls)
    for key, value in attrs.items():
        if value is not None:
            el.set(key.replace("_", "-"), value)
    if text is not None:
        el.text = text
    return el


def _sub(parent: etree.Element, tag: str, text: str | None = None, cls: str | None = None, **attrs):
    el = _el(tag, text, cls, **attrs)
    parent.append(el)
    return el


def _signed(n: int) -> str:
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


def _pairs(args: str) -> tuple[dict[str, str], list[str]]:
    """``key=value`` pairs and bare words of a placeholder's arguments."""
    pairs: dict[str, str] = {}
    bare: list[str] = []
    for token in args.split():
        if "=" in token:
            key, _, value = token.partition("=")
            pairs[key] = value
        else:
            bare.append(token)
    return pairs, bare


def _bool(value: str) -> bool:
    if value.lower() in ("true", "on", "yes", "1"):
        return True
    if value.lower() in ("false", "off", "no", "0"):
        return False
    raise ContentError(f"not true or false: {value!r}")


def _card(token: str) -> Card:
    try:
        return parse_card(token)
    except CardError as exc:
        raise ContentError(str(exc)) from None


@dataclass(frozen=True)
class Drawn:
    card: Card
    stands_for: Card | None = None


def parse_groups(args: str) -> list[list[Drawn]]:
    """Cards of a placeholder, in groups separated by ``|``; ``JK=2D`` gives the stand-in."""
    groups: list[list[Drawn]] = [[]]
    for token in args.replace("|", " | ").split():
        if token == "|":
            groups.append([])
            continue
        code, _, stands = token.partition("=")
        groups[-1].append(Drawn(_card(code), _card(stands) if stands else None))
    groups = [g for g in groups if g]
    if not groups:
        raise ContentError("no cards given")
    return groups


def card_face(d: Drawn, lang: str) -> etree.Element:
    """One card face, as every page draws it: the partial ``cards/face.html#face`` rendered
    (``rules.pages.faces``) and parsed into the Markdown tree."""
    return etree.fromstring(face(d.card, lang, d.stands_for)["html"])


def cards_element(groups: list[list[Drawn]], lang: str, cls: str = "pcs") -> etree.Element:
    box = _el("span", cls=cls)
    first = True
    for group in groups:
        if not first:
            sep = _sub(box, "span", "·", "pcs-sep", aria_hidden="true")
            sep.tail = " "
        first = False
        for d in group:
            face = card_face(d, lang)
            face.tail = " "
            box.append(face)
    # no trailing space inside the box
    box[-1].tail = None
    return box


# --- inline placeholders -------------------------------------------------------------------------


def _cards(ctx: RenderContext, args: str) -> etree.Element:
    return cards_element(parse_groups(args), ctx.lang)


def _meld(ctx: RenderContext, args: str, valid: bool = True) -> etree.Element:
    variant = ctx.need_variant("meld")
    groups = parse_groups(args)
    if len(groups) != 1:
        raise ContentError("a meld example is one group of cards")
    ctx.examples.append(Example("meld" if valid else "no-meld", variant.id, args, groups[0]))
    el = cards_element(groups, ctx.lang, "pcs meld" if valid else "pcs meld refused")
    if not valid:
        mark = _sub(el, "span", "✗", "pcs-mark")
        _sub(mark, "span", " " + ctx.words["cards"]["not_a_meld"], "visually-hidden")
        el[-2].tail = " "
    return el


def _no_meld(ctx: RenderContext, args: str) -> etree.Element:
    return _meld(ctx, args, valid=False)


def _number(kind: str, args: str, value: int, text: str | None = None) -> etree.Element:
    return _el("span", text if text is not None else str(value), "num", data_example=kind)


_PAYMENT_KEYS = {"wild_twos", "jokers", "first_turn", "one_suit", "twos_wild"}


def payment_from_args(args: str):
    pairs, bare = _pairs(args)
    if bare or set(pairs) - _PAYMENT_KEYS - {"players"}:
        raise ContentError(f"payment arguments are {sorted(_PAYMENT_KEYS)}, not {args!r}")
    return classic_payment(
        wild_twos=int(pairs.get("wild_twos", 0)),
        jokers=int(pairs.get("jokers", 0)),
        first_turn=pairs.get("first_turn"),
        one_suit=_bool(pairs.get("one_suit", "false")),
        twos_wild=_bool(pairs.get("twos_wild", "true")),
    )


def _payment(ctx: RenderContext, args: str) -> etree.Element:
    payment = payment_from_args(args)
    ctx.examples.append(Example("payment", "classic", args, payment.total))
    return _number("payment", args, payment.total)


def _payment_sum(ctx: RenderContext, args: str) -> etree.Element:
    payment = payment_from_args(args)
    ctx.examples.append(Example("payment", "classic", args, payment.total))
    text = " + ".join(str(r.points) for r in payment.rows) + f" = {payment.total}"
    return _number("payment", args, payment.total, text)


def _gain(ctx: RenderContext, args: str) -> etree.Element:
    pairs, _ = _pairs(args)
    players = int(pairs.pop("players"))
    payment = payment_from_args(" ".join(f"{k}={v}" for k, v in pairs.items()))
    ledger = classic_ledger(list(range(players)), 0, payment.total)
    ctx.examples.append(Example("gain", "classic", args, ledger[0]))
    return _number("gain", args, ledger[0])


def _pay(ctx: RenderContext, args: str) -> etree.Element:
    key = args.strip()
    if key not in CLASSIC_PAYMENTS:
        raise ContentError(f"no payment row {key!r}")
    return _number("pay", key, CLASSIC_PAYMENTS[key])


def _penalty_cards(ctx: RenderContext, args: str) -> tuple[Variant, list[Card]]:
    tokens = args.split()
    if tokens and tokens[0] in VARIANT_IDS:
        variant = get_variant(tokens.pop(0))
    else:
        variant = ctx.need_variant("penalty")
    return variant, [d.card for g in parse_groups(" ".join(tokens)) for d in g]


def _penalty(ctx: RenderContext, args: str) -> etree.Element:
    variant, cards = _penalty_cards(ctx, args)
    total = hand_penalty(cards, variant)
    ctx.examples.append(Example("penalty", variant.id, args, total))
    return _number("penalty", args, total)


def _penalty_sum(ctx: RenderContext, args: str) -> etree.Element:
    variant, cards = _penalty_cards(ctx, args)
    total = hand_penalty(cards, variant)
    ctx.examples.append(Example("penalty", variant.id, args, total))
    # one card is its value alone: "20", never "20 = 20"
    text = str(total)
    if len(cards) > 1:
        text = " + ".join(str(variant.penalty(c)) for c in cards) + f" = {total}"
    return _number("penalty", args, total, text)


def opening_values(groups: list[list[Drawn]]) -> list[int]:
    """The opening value of each Rommé meld: the card values of what each card stands for.

    docs/rules.md#romme: 2-10 face value, J Q K ten, ace eleven, a joker the value of the card it stands
    for. These are the Rommé penalty values of natural cards, so the engine's
    ``Variant.penalty`` of the card each one stands for (found by ``find_meld``) gives them.
    """
    from rules.engine.melds import Placed, find_meld, validate_meld

    romme = get_variant(ROMME)
    values = []
    for group in groups:
        if any(d.stands_for for d in group):
            meld = validate_meld([Placed(d.card, d.stands_for or d.card) for d in group], romme)
        else:
            meld = find_meld([d.card for d in group], romme)
        values.append(sum(romme.penalty(p.stands_for) for p in meld.placed))
    return values


def _opening(ctx: RenderContext, args: str) -> etree.Element:
    total = sum(opening_values(parse_groups(args)))
    ctx.examples.append(Example("opening", ROMME, args, total))
    return _number("opening", args, total)


def _opening_sum(ctx: RenderContext, args: str) -> etree.Element:
    values = opening_values(parse_groups(args))
    ctx.examples.append(Example("opening", ROMME, args, sum(values)))
    text = " + ".join(str(v) for v in values) + f" = {sum(values)}"
    return _number("opening", args, sum(values), text)


def _fact(ctx: RenderContext, args: str) -> etree.Element:
    variant = ctx.need_variant("fact")
    pairs, bare = _pairs(args)
    name = bare[0] if bare else ""
    if name == "min_players":
        value = variant.min_players
    elif name == "max_players":
        value = variant.max_players
    elif name == "deals":
        value = len(variant.schedule or ())
    elif name == "cards":
        value = variant.cards_dealt(int(pairs.get("deal", 1)))
    elif name in ("run_min", "run_max"):
        value = getattr(variant, name)
    elif name in ("decks", "jokers", "total"):
        decks, jokers = variant.decks(int(pairs["players"]), int(pairs.get("deal", 1)))
        value = {"decks": decks, "jokers": jokers, "total": 52 * decks + jokers}[name]
    else:
        raise ContentError(f"unknown fact {args!r}")
    return _number("fact", args, value)


# --- block placeholders ------------------------------------------------------------------------


@dataclass(frozen=True)
class RowSpan:
    """A row header standing for several rows (the rows below give None in its place)."""

    text: str
    rows: int


def _table(head: list[str], rows: list[list[Any]], cls: str) -> etree.Element:
    table = _el("table", cls=cls)
    thead = _sub(table, "thead")
    tr = _sub(thead, "tr")
    for h in head:
        _sub(tr, "th", h, scope="col")
    tbody = _sub(table, "tbody")
    for row in rows:
        tr = _sub(tbody, "tr")
        for i, cell in enumerate(row):
            if cell is None:  # covered by a row header spanning several rows
                continue
            td = _sub(tr, "th" if i == 0 else "td", scope="row" if i == 0 else None)
            if isinstance(cell, RowSpan):
                td.set("rowspan", str(cell.rows))
                td.set("scope", "rowgroup")
                cell = cell.text
            if isinstance(cell, etree.Element):
                td.append(cell)
            else:
                td.text = str(cell)
    return table


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def _decks_table(ctx: RenderContext) -> etree.Element:
    v = ctx.need_variant("table: decks")
    w = ctx.words["tables"]
    deals = len(v.schedule or ()) or 1
    # (players, per-deal tuple) grouped over neighbouring player counts
    per_players = [
        (p, tuple(v.decks(p, d) for d in range(1, deals + 1)))
        for p in range(v.min_players, v.max_players + 1)
    ]
    groups: list[tuple[int, int, tuple]] = []
    for p, per_deal in per_players:
        if groups and groups[-1][2] == per_deal:
            groups[-1] = (groups[-1][0], p, per_deal)
        else:
            groups.append((p, p, per_deal))
    by_deal = any(len(set(g[2])) > 1 for g in groups)
    rows = []
    for low, high, per_deal in groups:
        if not by_deal:
            decks, jokers = per_deal[0]
            rows.append([_span(low, high), decks, jokers])
            continue
        start = 1
        group: list[list[Any]] = []
        for d in range(2, deals + 2):
            if d == deals + 1 or per_deal[d - 1] != per_deal[start - 1]:
                decks, jokers = per_deal[start - 1]
                group.append([None, _span(start, d - 1), decks, jokers])
                start = d
        label = _span(low, high)
        group[0][0] = RowSpan(label, len(group)) if len(group) > 1 else label
        rows.extend(group)
    head = [w["players"], w["decks"], w["jokers"]]
    if by_deal:
        head.insert(1, w["deals"])
    return _table(head, rows, "rules-table decks")


def _all_decks_table(ctx: RenderContext) -> etree.Element:
    """Decks and jokers per number of players, one column per game (for a page of no game).

    A cell is ``decks / jokers``; where they change during a game (the Spanish rules), the
    figures of each stretch of deals follow one another with arrows. No game: a dash.
    """
    w = ctx.words
    variants = [get_variant(vid) for vid in VARIANT_IDS]
    low = min(v.min_players for v in variants)
    high = max(v.max_players for v in variants)
    rows: list[list[Any]] = []
    for players in range(low, high + 1):
        row: list[Any] = [players]
        for v in variants:
            if not v.min_players <= players <= v.max_players:
                row.append("–")
                continue
            deals = len(v.schedule or ()) or 1
            stretches: list[tuple[int, int]] = []
            for deal in range(1, deals + 1):
                figures = v.decks(players, deal)
                if not stretches or stretches[-1] != figures:
                    stretches.append(figures)
            # a stretch never breaks inside; a narrow screen wraps the cell at the arrows
            row.append(" → ".join(f"{d}\u00a0/\u00a0{j}" for d, j in stretches))
        rows.append(row)
    head = [w["tables"]["players"], *(w["games"][v.id] for v in variants)]
    return _table(head, rows, "rules-table all-decks")


def _schedule_table(ctx: RenderContext) -> etree.Element:
    v = ctx.need_variant("table: schedule")
    if not v.schedule:
        raise ContentError(f"{v.id} has no deal schedule")
    w = ctx.words["tables"]
    rows = [[s.number, contract_text(s, ctx.lang), s.minimum_cards, s.cards] for s in v.schedule]
    return _table(
        [w["deal"], w["contract"], w["minimum"], w["dealt"]], rows, "rules-table schedule"
    )


def _rank_label(ranks: list[int], lang: str) -> str:
    texts = [rank_text(Card(r, "S"), lang) for r in ranks]
    if len(ranks) > 2 and all(2 <= r <= 10 for r in ranks):
        return f"{texts[0]}–{texts[-1]}"
    return ", ".join(texts)


def _penalties_table(ctx: RenderContext) -> etree.Element:
    v = ctx.need_variant("table: penalties")
    w = ctx.words["tables"]
    order = [*range(2, 14), 1]
    # "face value" when every number card counts its number (Rommé)
    face_values = all(v.penalty(Card(r, "S")) == r for r in range(2, 11))
    groups: list[tuple[list[int], Any]] = []
    for r in order:
        value = v.penalty(Card(r, "S"))
        key = "face" if face_values and 2 <= r <= 10 else value
        if groups and groups[-1][1] == key:
            groups[-1][0].append(r)
        else:
            groups.append(([r], key))
    rows: list[list[Any]] = []
    for ranks, key in groups:
        rows.append([_rank_label(ranks, ctx.lang), w["face_value"] if key == "face" else key])
    rows.append([ctx.words["cards"]["joker"].capitalize(), v.penalty(Card(0, ""))])
    return _table([w["card"], w["points"]], rows, "rules-table penalties")


def _payments_table(ctx: RenderContext) -> etree.Element:
    w = ctx.words
    rows = []
    for key, points in CLASSIC_PAYMENTS.items():
        label = payment_label(key, ctx.lang)
        if key == "no_wild":
            label += f" ({w['payments']['no_wild_note']})"
        rows.append([label, points])
    return _table([w["tables"]["what"], w["tables"]["points"]], rows, "rules-table payments")


def _table_block(ctx: RenderContext, args: str) -> etree.Element:
    builders: dict[str, Callable[[RenderContext], etree.Element]] = {
        "decks": _decks_table,
        "all-decks": _all_decks_table,
        "schedule": _schedule_table,
        "penalties": _penalties_table,
        "payments": _payments_table,
    }
    name = args.strip()
    if name not in builders:
        raise ContentError(f"unknown table {name!r}")
    wrap = _el("div", cls="table-wrap")
    if name == "all-decks":
        # wide enough to scroll on a small phone: reachable by keyboard, named by its section
        # (the rules index's "## … {#decks}")
        wrap.set("tabindex", "0")
        wrap.set("role", "region")
        wrap.set("aria-labelledby", "decks")
    wrap.append(builders[name](ctx))
    return wrap


def _ledger(ctx: RenderContext, args: str) -> etree.Element:
    pairs, _ = _pairs(args)
    players = pairs.pop("players").split(",")
    winner = pairs.pop("winner")
    payment = payment_from_args(" ".join(f"{k}={v}" for k, v in pairs.items()))
    ledger = classic_ledger(players, winner, payment.total)
    ctx.examples.append(Example("ledger", "classic", args, ledger))
    w = ctx.words["tables"]
    rows = [
        [p, _number("ledger", args, ledger[p], _signed(ledger[p]))]
        for p in players  # keep the order given
    ]
    wrap = _el("div", cls="table-wrap")
    wrap.append(_table([w["player"], w["score"]], rows, "rules-table ledger"))
    return wrap


_DEAL_KEYS = {"handromme"}


def _deal(ctx: RenderContext, args: str) -> etree.Element:
    variant = ctx.need_variant("deal")
    pairs, _ = _pairs(args)
    handromme = _bool(pairs.pop("handromme", "false"))
    option_names = {o.name for o in variant.options}
    options = {k: pairs.pop(k) for k in list(pairs) if k in option_names}
    went_out = None
    left: dict[str, list[Card]] = {}
    players = []
    for name, value in pairs.items():
        players.append(name)
        if value == "out":
            went_out = name
        else:
            left[name] = [d.card for g in parse_groups(value.replace(",", " ")) for d in g]
    scores = penalty_deal(variant, players, went_out, left, handromme=handromme, options=options)
    ctx.examples.append(Example("deal", variant.id, args, scores))
    w = ctx.words["tables"]
    rows = []
    for p in players:
        if p == went_out:
            cell: Any = _el("em", w["went_out"])
        else:
            cell = cards_element([[Drawn(c) for c in left[p]]], ctx.lang)
        rows.append([p, cell, _number("deal", args, scores[p])])
    wrap = _el("div", cls="table-wrap")
    wrap.append(_table([w["player"], w["left"], w["penalty"]], rows, "rules-table deal"))
    return wrap


# --- the club tournament ----------------------------------------------------------------------


def decimal(value: Fraction, lang: str, signed: bool = False) -> str:
    """A placement point or a relative score as the language writes it: at most two decimals
    (``2.25``, ``1.5``, ``3``), a comma but in English, a minus sign (``−60``), a plus sign
    when ``signed``."""
    text = f"{float(abs(value)):.2f}".rstrip("0").rstrip(".")
    if lang != "en":
        text = text.replace(".", ",")
    if value < 0:
        return f"{MINUS}{text}"
    return f"+{text}" if signed and value > 0 else text


def _tournament_variant(word: str) -> Variant:
    if word not in VARIANT_IDS:
        raise ContentError(f"the first word is a game, one of {list(VARIANT_IDS)}, not {word!r}")
    return get_variant(word)


def _seating(ctx: RenderContext, args: str) -> etree.Element:
    pairs, bare = _pairs(args)
    if len(bare) != 2 or pairs:
        raise ContentError("give a game and a number of players: [[seating: romme 13]]")
    sizes = tournament.table_sizes(int(bare[1]), _tournament_variant(bare[0]))
    ctx.examples.append(Example("seating", bare[0], args, sizes))
    return _number("seating", args, sizes[0], " + ".join(map(str, sizes)))


def _placement(ctx: RenderContext, args: str) -> etree.Element:
    size = int(args.strip())
    points = [tournament.placement_points(size, place) for place in range(1, size + 1)]
    ctx.examples.append(Example("placement", None, args, tuple(points)))
    return _number("placement", args, size, ", ".join(decimal(p, ctx.lang) for p in points))


def _region(section: str = "", label: str = "") -> etree.Element:
    """A wrap for a wide table: scrolled sideways on a small phone, so reachable by keyboard
    and named, by its section's heading (the tournament page's ``## … {#draw}``) or a label
    (two rankings in one section)."""
    wrap = _el("div", cls="table-wrap", tabindex="0", role="region")
    if label:
        wrap.set("aria-label", label)
    else:
        wrap.set("aria-labelledby", section)
    return wrap


def _draw(ctx: RenderContext, args: str) -> etree.Element:
    pairs, bare = _pairs(args)
    if len(bare) != 1 or set(pairs) != {"players", "seed"}:
        raise ContentError("give a game, players=N and seed=S")
    variant = _tournament_variant(bare[0])
    players = range(1, int(pairs["players"]) + 1)
    seating = tournament.draw(list(players), variant, pairs["seed"], 1)
    ctx.examples.append(Example("draw", variant.id, args, seating.tables))
    w = ctx.words["tournament"]
    rows = [
        [w["table"] % {"n": n}, _number("draw", args, n, ", ".join(map(str, table)))]
        for n, table in enumerate(seating.tables, start=1)
    ]
    wrap = _region("draw")
    wrap.append(_table([w["table_head"], w["start_numbers"]], rows, "rules-table draw"))
    return wrap


@dataclass(frozen=True)
class TournamentExample:
    """The arguments of ``[[series: …]]`` and ``[[ranking: …]]`` read: the game, the seed, the
    ranking's order, one result per table (start numbers as players)."""

    variant: Variant
    seed: str
    order: str
    tables: tuple[tournament.TableResult[int], ...]

    @property
    def players(self) -> list[int]:
        return sorted(p for table in self.tables for p in table.totals)


def tournament_example(args: str) -> TournamentExample:
    head, *groups = args.split("|")
    pairs, bare = _pairs(head)
    if len(bare) != 1 or "seed" not in pairs or set(pairs) - {"seed", "order"} or not groups:
        raise ContentError("give a game, seed=S (order=relative), then | and a group per table")
    order = pairs.get("order", tournament.POINTS_FIRST)
    if order not in (tournament.POINTS_FIRST, tournament.RELATIVE_FIRST):
        raise ContentError(f"no ranking order {order!r}")
    tables = []
    for group in groups:
        totals: dict[int, int] = {}
        left = set()
        for token in group.split():
            number, _, value = token.partition("=")
            total, _, mark = value.partition(":")
            if mark not in ("", "left"):
                raise ContentError(f"a player is number=total or number=total:left, not {token!r}")
            totals[int(number)] = int(total)
            if mark:
                left.add(int(number))
        tables.append(tournament.TableResult(totals, frozenset(left)))
    return TournamentExample(_tournament_variant(bare[0]), pairs["seed"], order, tuple(tables))


def _series(ctx: RenderContext, args: str) -> etree.Element:
    example = tournament_example(args)
    scores = tournament.series_scores(example.tables, example.variant)
    ctx.examples.append(Example("series", example.variant.id, args, scores))
    w = ctx.words["tournament"]
    total = ctx.words["tables"]["points" if example.variant.id == CLASSIC else "penalty"]
    rows: list[list[Any]] = []
    for number, result in enumerate(example.tables, start=1):
        for i, player in enumerate(result.totals):
            score = scores[player]
            shared = sum(1 for s in result.totals if scores[s].place == score.place) > 1
            place = f"{score.place}{' =' if shared else ''}"
            shown = str(result.totals[player])
            if player in result.left:
                shown += f" ({w['left']})"
            rows.append(
                [
                    RowSpan(w["table"] % {"n": number}, len(result.totals)) if i == 0 else None,
                    str(player),
                    shown,
                    place,
                    _number("series", args, 0, decimal(score.points, ctx.lang)),
                    _number("series", args, 0, decimal(score.relative, ctx.lang, signed=True)),
                ]
            )
    head = [w["table_head"], w["player"], total, w["place"], w["points"], w["relative"]]
    wrap = _region("example")
    wrap.append(_table(head, rows, "rules-table series"))
    return wrap


def _ranking(ctx: RenderContext, args: str) -> etree.Element:
    example = tournament_example(args)
    ranking = tournament.rank(
        example.players, [example.tables], example.variant, example.seed, order=example.order
    )
    ctx.examples.append(Example("ranking", example.variant.id, args, ranking))
    w = ctx.words["tournament"]
    rows: list[list[Any]] = []
    for row in ranking.rows:
        by = w[f"by_{row.separated_by}"] if row.separated_by else ""
        rows.append(
            [
                str(row.place),
                str(row.player) + (f" ({w['dropped']})" if row.dropped else ""),
                _number("ranking", args, 0, decimal(row.points, ctx.lang)),
                _number("ranking", args, 0, decimal(row.relative, ctx.lang, signed=True)),
                decimal(row.best, ctx.lang),
                str(row.lot),
                by,
            ]
        )
    head = ["#", w["player"], w["points"], w["relative"], w["best"], w["lot"], w["separated"]]
    if example.order == tournament.RELATIVE_FIRST:
        head[2], head[3] = head[3], head[2]
        for row_cells in rows:
            row_cells[2], row_cells[3] = row_cells[3], row_cells[2]
    wrap = _region(label=f"{w['standings']}: {w['order_' + example.order]}")
    wrap.append(_table(head, rows, "rules-table ranking"))
    return wrap


def _glossary(ctx: RenderContext, args: str) -> etree.Element:
    vid = ctx.variant.id if ctx.variant else None
    dl = _el("dl", cls="glossary")
    games = ctx.words.get("games", {})
    for entry in ctx.words.get("glossary", []):
        if vid and "variants" in entry and vid not in entry["variants"]:
            continue
        _sub(dl, "dt", entry["term"])
        _sub(dl, "dd", entry["text"])
        if not vid and "variants" in entry:  # the glossary page: which games use the word
            names = " · ".join(games[v] for v in entry["variants"])
            _sub(dl, "dd", games["only"].format(games=names), "glossary-games")
    return dl


def _options_slot(ctx: RenderContext, args: str) -> etree.Element:
    return _el("div", cls="rules-slot", data_slot="options")


HANDLERS: dict[str, Callable[[RenderContext, str], etree.Element]] = {
    "cards": _cards,
    "meld": _meld,
    "no-meld": _no_meld,
    "payment": _payment,
    "payment-sum": _payment_sum,
    "gain": _gain,
    "pay": _pay,
    "penalty": _penalty,
    "penalty-sum": _penalty_sum,
    "opening": _opening,
    "opening-sum": _opening_sum,
    "fact": _fact,
    "table": _table_block,
    "ledger": _ledger,
    "deal": _deal,
    "seating": _seating,
    "placement": _placement,
    "draw": _draw,
    "series": _series,
    "ranking": _ranking,
    "glossary": _glossary,
    "options": _options_slot,
}

PLACEHOLDER_RE = r"\[\[([a-z][a-z-]*)(?::[ \t]*([^\]]*?))?[ \t]*\]\]"


class _PlaceholderProcessor(InlineProcessor):
    def __init__(self, pattern: str, ctx: RenderContext):
        super().__init__(pattern)
        self.ctx = ctx

    def handleMatch(  # type: ignore[override]
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | str, int, int]:
        name, args = m.group(1), m.group(2) or ""
        handler = HANDLERS.get(name)
        if handler is None:
            raise ContentError(f"unknown placeholder [[{name}]]")
        try:
            el = handler(self.ctx, args)
        except ContentError as exc:
            raise ContentError(f"[[{name}: {args}]]: {exc}") from None
        except (ValueError, KeyError) as exc:
            raise ContentError(f"[[{name}: {args}]]: {exc!r}") from exc
        return el, m.start(0), m.end(0)


class _UnwrapBlocks(Treeprocessor):
    """A paragraph holding only a table, glossary or slot becomes that block itself."""

    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            for i, child in enumerate(list(parent)):
                if (
                    child.tag == "p"
                    and len(child) == 1
                    and not (child.text or "").strip()
                    and not (child[0].tail or "").strip()
                    and child[0].tag in BLOCK_TAGS
                ):
                    block = child[0]
                    block.tail = child.tail
                    parent.remove(child)
                    parent.insert(i, block)


class PlaceholderExtension(Extension):
    def __init__(self, ctx: RenderContext, **kwargs):
        self.ctx = ctx
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        # Before every built-in inline pattern, so that [[...]] is never read as a link.
        md.inlinePatterns.register(_PlaceholderProcessor(PLACEHOLDER_RE, self.ctx), "rules", 200)
        # After the inline patterns (priority 20) have turned placeholders into elements.
        md.treeprocessors.register(_UnwrapBlocks(md), "rules-unwrap", 5)
