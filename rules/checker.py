"""The hand checker page, ``/<lang>/check/``: tap or type a hand, see whether it goes out and why.

The page is a GET form: every state is a URL, so a checked hand can be shared or bookmarked
and the page works without JavaScript. htmx only makes it quicker (each tap updates the hand
and the answer in place, and the address bar follows).

Linking to the checker (e.g. "compute from the winner's hand" on a game's page)
-------------------------------------------------------------------------------
Build the link with :func:`checker_url`::

    checker_url("contract-spanish", deal=3, options=game.options, schedule=game.schedule)

or by hand::

    /<lang>/check/?variant=contract-spanish&deal=3&schedule=<JSON>&<option>=<value>&cards=<tokens>

* ``variant`` -- ``classic`` (the default), ``contract-nordic``, ``contract-spanish``, ``romme``.
* ``deal`` -- contract games: the deal number, 1 up to the schedule's length (default 1).
* ``schedule`` -- contract games, optional: the game's own deal schedule as a JSON list of
  rows ``{"cards": 6, "sets": 2, "runs": 0, "set_min": 3, "run_min": 4}`` (what
  ``Game.schedule`` stores, ``DealSpec.as_dict()``; ``set_min``/``run_min`` may be left out).
* house rules -- one parameter per option, with the engine's names and values
  (``Variant.options``): ``twos_wild=false``, ``opening_minimum=40``,
  ``handromme_doubles=true``; or ``options=<JSON object>`` as the rules pages accept.
  Options left out take their defaults; only options of the chosen variant are read.
* ``first_turn`` -- classic only: ``drawn`` (16 cards) or ``undrawn`` (15 cards).
* ``cards`` -- the hand: canonical tokens separated by spaces (``+`` in a URL) or commas,
  ``cards=4S+5S+10H+JK``. Any order; the page keeps them sorted.

The page's own buttons add actions that are applied once and then dropped: ``add=<token>``
(repeatable), ``remove=<token>`` (one copy), ``type=<text>`` (typed cards, local rank letters
of the page's language allowed), ``clear=1``. A plain request that carries an action or a
non-canonical spelling is redirected to the canonical URL (variant, deal, schedule, options
that differ from the defaults, first_turn, cards); an htmx request gets the updated fragments
and the canonical URL in ``HX-Replace-Url``. What cannot be read is named on the page (status
200), never a 500.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django_htmx.http import replace_url

from rules import pages
from rules.engine.cards import (
    JOKER,
    LOCAL_RANK_DISPLAY,
    RANK_CODES,
    RANKS,
    RED_SUITS,
    SUITS,
    Card,
    CardError,
    format_cards,
    local_code,
    parse_card,
    sort_cards,
)
from rules.engine.check import CheckError, check_hand
from rules.engine.messages import gettext_noop
from rules.engine.variants import (
    CLASSIC,
    NORDIC,
    ROMME,
    SPANISH,
    VARIANT_IDS,
    VARIANTS,
    DealSpec,
    OptionError,
    Variant,
    build_schedule,
    get_variant,
)
from rules.i18n import engine_message
from rules.pages.words import card_name, rank_text, words

log = logging.getLogger(__name__)

MAX_CARDS = 40  # more than any hand a variant checks (a custom deal of 20 + 13 drawn)
MAX_TEXT = 600  # characters read from one query value
MAX_SCHEDULE_TEXT = 4000  # a schedule of 20 deals as JSON rows takes about 1500
MAX_ACTIONS = 60  # add/remove values read from one request
MAX_EXTRA_CONTRACT_CARDS = 12  # as the engine: out-of-turn takes add up to 12 cards
HTMX_TARGET = "check-result"
BRIEF_WAITS = 6  # up to this many waits are drawn in the one-line verdict

VARIANT_LABELS = {
    CLASSIC: _("15-card game"),
    NORDIC: _("Contract, Nordic"),
    SPANISH: _("Contract, Spanish"),
    ROMME: _("Rommé"),
}
FIRST_TURN_LABELS = (
    ("", _("Not the first turn")),
    ("drawn", _("First turn, after drawing")),
    ("undrawn", _("First turn, without drawing")),
)
PAYMENT_LABELS = {
    "going_out": _("Going out"),
    "wild_twos": _("Each 2 as a wild card"),
    "jokers": _("Each joker"),
    "no_wild": _("No wild card"),
    "first_turn_drawn": _("First turn, after drawing"),
    "first_turn_undrawn": _("First turn, without drawing"),
    "one_suit": _("All one suit"),
}
PAYMENT_EACH = {"wild_twos": 1, "jokers": 2}  # points per card, to show "× n"


# --- the state of the page: read from the query string -------------------------------------


@dataclass
class Notice:
    """A message on the page: ``where`` is the part it belongs to (hand, type, settings)."""

    text: str
    where: str = "hand"


@dataclass
class CheckState:
    variant: Variant
    options: dict[str, Any]  # every option of the variant, resolved
    deal: int | None = None  # contract games
    schedule: tuple[DealSpec, ...] | None = None  # a game's own schedule, when given
    first_turn: str | None = None  # classic
    cards: list[Card] = field(default_factory=list)  # sorted
    typed: str = ""  # typed text that could not be added, kept in the field
    notices: list[Notice] = field(default_factory=list)

    @property
    def deal_spec(self) -> DealSpec | None:
        if not self.variant.is_contract:
            return None
        return (self.schedule or self.variant.schedule)[(self.deal or 1) - 1]

    @property
    def changed_options(self) -> dict[str, Any]:
        return {
            spec.name: self.options[spec.name]
            for spec in self.variant.options
            if self.options[spec.name] != spec.default
        }

    def error(self, text: str, where: str = "hand") -> None:
        self.notices.append(Notice(str(text), where))

    def engine_request(self) -> dict[str, Any]:
        request: dict[str, Any] = {
            "variant": self.variant.id,
            "cards": format_cards(self.cards),
            "options": self.options,
        }
        if self.variant.is_contract:
            request["deal"] = self.deal
            if self.schedule:
                request["schedule"] = [spec.as_dict() for spec in self.schedule]
        else:
            request["first_turn"] = self.first_turn
        return request


def _text(query: Mapping, name: str, limit: int = MAX_TEXT) -> str:
    value = query.get(name)
    return value[:limit] if isinstance(value, str) else ""


def _values(query, name: str) -> list[str]:
    """Every value of a repeatable parameter (``add=QH&add=KH``), a bounded number of them."""
    return [v[:MAX_TEXT] for v in query.getlist(name)[:MAX_ACTIONS]]


def _read_options(state: CheckState, query) -> None:
    variant = state.variant
    text = query.get("options")
    if isinstance(text, str) and len(text) > MAX_TEXT:
        state.error(gettext("The house rules in the link are too long to read."), "settings")
        query = {k: query.get(k) for k in query if k != "options"}
    try:
        given = pages.game_options(variant, query)
    except (RecursionError, ValueError, TypeError):  # pathological JSON
        state.error(gettext("The house rules in the link could not be read."), "settings")
        return
    if given.values:
        state.options = variant.resolve_options(given.values)
    if given.errors:
        state.error(
            gettext("These house rules could not be read and were left out: %(rules)s")
            % {"rules": ", ".join(given.errors)},
            "settings",
        )


def _read_schedule(state: CheckState, text: str) -> None:
    if not text:
        return
    try:
        rows = json.loads(text)
        state.schedule = build_schedule(rows)
    except (ValueError, TypeError, OverflowError, RecursionError, OptionError) as exc:
        detail = (
            engine_message(exc) if isinstance(exc, OptionError) else gettext("not a list of deals")
        )
        state.error(
            gettext(
                "The game's deal schedule could not be read (%(detail)s); the usual seven deals are used."
            )
            % {"detail": detail},
            "settings",
        )


def _read_deal(state: CheckState, text: str) -> None:
    deals = len(state.schedule or state.variant.schedule)
    if not text:
        state.deal = 1
        return
    try:
        deal = int(text.strip())
    except ValueError:
        deal = 0
    if not 1 <= deal <= deals:
        state.error(
            gettext("There is no deal “%(deal)s”: choose one from 1 to %(deals)s.")
            % {"deal": text.strip()[:20], "deals": deals},
            "settings",
        )
        deal = 1
    state.deal = deal


def _tokens(text: str) -> list[str]:
    return [t for t in text.replace(",", " ").replace(";", " ").split() if t]


def _parse_token(token: str, lang: str | None) -> Card:
    try:
        return parse_card(token)
    except CardError:
        if lang is None:
            raise
        return parse_card(token, lang)


def _copies_left(state: CheckState, card: Card) -> tuple[bool, int]:
    """Whether one more copy of ``card`` fits the decks of the variant, and the limit."""
    decks, jokers = state.variant.max_decks()
    limit = jokers if card.is_joker else decks
    return sum(1 for c in state.cards if c == card) < limit, limit


def _refuse_copy(state: CheckState, card: Card, limit: int, lang: str, where: str) -> None:
    if card.is_joker:
        text = ngettext(
            "No more jokers: this game has only %(limit)s joker.",
            "No more jokers: this game has only %(limit)s jokers.",
            limit,
        ) % {"limit": limit}
    else:
        text = gettext("No more %(card)s: the decks of this game hold only %(limit)s.") % {
            "card": card_name(card, lang),
            "limit": limit,
        }
    state.error(text, where)


def _add(state: CheckState, cards: Iterable[Card], lang: str, where: str) -> bool:
    """Add cards if every one fits the decks' limit and the hand's size; else add none."""
    cards = list(cards)
    before = list(state.cards)
    for card in cards:
        if len(state.cards) >= MAX_CARDS:
            state.cards = before
            state.error(gettext("A hand holds at most %(n)s cards here.") % {"n": MAX_CARDS}, where)
            return False
        ok, limit = _copies_left(state, card)
        if not ok:
            state.cards = before
            _refuse_copy(state, card, limit, lang, where)
            return False
        state.cards.append(card)
    return True


def _bad_card_text(token: str) -> str:
    return gettext("“%(token)s” is not a card.") % {"token": token[:30]}


def read_state(query, lang: str) -> CheckState:
    """Read the checker's query string into a state, applying add/remove/type/clear."""
    variant_id = _text(query, "variant")
    variant = VARIANTS.get(variant_id) or VARIANTS[CLASSIC]
    state = CheckState(variant=variant, options=variant.default_options())
    if variant_id and variant_id not in VARIANTS:
        state.error(
            gettext("There is no game “%(variant)s”; here is the 15-card game.")
            % {"variant": variant_id[:40]},
            "settings",
        )
    _read_options(state, query)
    if variant.is_contract:
        _read_schedule(state, _text(query, "schedule", MAX_SCHEDULE_TEXT))
        _read_deal(state, _text(query, "deal"))
    else:
        first_turn = _text(query, "first_turn")
        if first_turn in ("drawn", "undrawn"):
            state.first_turn = first_turn
        elif first_turn not in ("", "none", "null"):
            state.error(
                gettext("“%(value)s” is not a first turn; the hand is checked as any turn.")
                % {"value": first_turn[:20]},
                "settings",
            )

    # The hand in the link: canonical tokens (local letters are read too); bad ones named.
    bad: list[str] = []
    refused: set[Card] = set()
    for token in _tokens(_text(query, "cards")):
        try:
            card = _parse_token(token, lang)
        except CardError:
            bad.append(token)
            continue
        if len(state.cards) >= MAX_CARDS:
            state.error(gettext("A hand holds at most %(n)s cards here.") % {"n": MAX_CARDS})
            break
        ok, limit = _copies_left(state, card)
        if ok:
            state.cards.append(card)
        elif card not in refused:
            refused.add(card)
            _refuse_copy(state, card, limit, lang, "hand")
    for token in bad[:3]:
        state.error(
            gettext("“%(token)s” in the link is not a card and was left out.")
            % {"token": token[:30]}
        )

    # The page's actions, in the order the form sends them.
    if query.get("clear"):
        state.cards = []
    for token in _values(query, "remove"):
        try:
            card = _parse_token(token, lang)
        except CardError:
            continue
        if card in state.cards:
            state.cards.remove(card)
    typed = _text(query, "type").strip()
    if typed:
        try:
            cards = [parse_card(t, lang) for t in _tokens(typed)]
        except CardError as exc:
            state.typed = typed
            state.error(_bad_card_text(exc.token or typed), "type")
        else:
            if not _add(state, cards, lang, "type"):
                state.typed = typed
    for token in _values(query, "add"):
        try:
            card = parse_card(token)
        except CardError:
            state.error(_bad_card_text(token))
            continue
        _add(state, [card], lang, "hand")
    state.cards = sort_cards(state.cards)
    return state


# --- canonical URLs -------------------------------------------------------------------------


def _option_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _schedule_json(rows: list[dict[str, Any]]) -> str:
    return json.dumps(rows, separators=(",", ":"))


def query_pairs(
    variant: Variant,
    options: Mapping[str, Any] | None = None,
    deal: int | None = None,
    schedule: Iterable[Mapping[str, Any]] | None = None,
    first_turn: str | None = None,
    cards: Iterable[Card] = (),
) -> list[tuple[str, str]]:
    """The canonical query of a checker state, as ordered (name, value) pairs."""
    pairs = [("variant", variant.id)]
    if variant.is_contract:
        pairs.append(("deal", str(deal or 1)))
        if schedule:
            pairs.append(("schedule", _schedule_json([dict(row) for row in schedule])))
    resolved = variant.resolve_options(options)
    for spec in variant.options:
        if resolved[spec.name] != spec.default:
            pairs.append((spec.name, _option_value(resolved[spec.name])))
    if variant.id == CLASSIC and first_turn:
        pairs.append(("first_turn", first_turn))
    hand = sort_cards(cards)
    if hand:
        pairs.append(("cards", format_cards(hand)))
    return pairs


def state_pairs(state: CheckState) -> list[tuple[str, str]]:
    return query_pairs(
        state.variant,
        state.options,
        state.deal,
        [spec.as_dict() for spec in state.schedule] if state.schedule else None,
        state.first_turn,
        state.cards,
    )


def checker_url(
    variant_id: str = CLASSIC,
    *,
    deal: int | None = None,
    options: Mapping[str, Any] | None = None,
    schedule: list[Mapping[str, Any]] | None = None,
    cards: str | Iterable[str | Card] | None = None,
    first_turn: str | None = None,
) -> str:
    """The checker's URL (in the active language) for a game's variant, deal and house rules.

    ``options`` and ``schedule`` as a game stores them (``Game.options``, ``Game.schedule``);
    ``cards`` canonical tokens (a string or a list). Raises OptionError or CardError for values
    the engine refuses, so a bad link is found where it is made.
    """
    variant = get_variant(variant_id)
    if first_turn not in (None, "drawn", "undrawn"):
        raise OptionError(
            gettext_noop("first_turn must be drawn, undrawn or None, not %(value)r"),
            value=first_turn,
        )
    if schedule:
        schedule = [spec.as_dict() for spec in build_schedule(list(schedule))]
    if isinstance(cards, str):
        hand = [parse_card(t) for t in _tokens(cards)]
    else:
        hand = [c if isinstance(c, Card) else parse_card(c) for c in cards or ()]
    pairs = query_pairs(variant, options, deal, schedule, first_turn, hand)
    return reverse("check") + "?" + urlencode(pairs)


def _same_query(query, pairs: list[tuple[str, str]]) -> bool:
    given = sorted((k, v) for k in query for v in query.getlist(k))
    return given == sorted(pairs)


# --- cards as the page draws them ---------------------------------------------------------------


@lru_cache(maxsize=4096)
def face(card: Card, lang: str, stands_for: Card | None = None) -> dict[str, Any]:
    """One card face: rank over suit, red suits red, a joker marked, a wild card saying what it
    stands for; ``html`` draws it like the rules pages (``.pc``), labelled for screen readers.
    """
    w = words(lang)["cards"]
    wild = stands_for is not None and stands_for != card
    label = card_name(card, lang)
    if wild:
        label = w["stands_for"].format(card=label, **{"as": card_name(stands_for, lang)})
    rank = w["joker_face"] if card.is_joker else rank_text(card, lang)
    suit = "★" if card.is_joker else local_code(card, lang)[-1]
    classes = "pc joker" if card.is_joker else "pc red" if card.is_red else "pc"
    stands = ""
    if wild:
        classes += " wild"
        stands = format_html(
            '<span class="{}">{}</span>',
            "pc-as red" if stands_for.is_red else "pc-as",
            local_code(stands_for, lang),
        )
    html = format_html(
        '<span class="{}" role="img" aria-label="{}"><span class="pc-rank">{}</span>'
        '<span class="pc-suit">{}</span>{}</span>',
        classes,
        label,
        rank,
        suit,
        stands,
    )
    return {"code": card.code, "rank": rank, "suit": suit, "label": label, "html": html}


def _faces(codes: Iterable[str], lang: str) -> list[dict[str, Any]]:
    return [face(parse_card(code), lang) for code in codes]


@lru_cache(maxsize=64)
def grid_html(lang: str, action: str) -> SafeString:
    """The card grid: a suit per row (two lines on a phone), a submit button per card, and the
    joker key. Each button adds its card (``add=QH``), by htmx or as a plain form.
    """
    key = (
        '<button type="submit" name="add" value="{}" class="{}" hx-get="{}">'
        '<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span></button>'
    )
    suit_names = words(lang)["cards"]["suits"]
    rows = []
    for suit in SUITS:
        faces = [face(Card(rank, suit), lang) for rank in RANKS]
        keys = format_html_join(
            "",
            key,
            ((f["code"], "card-key", action, f["rank"] + f["suit"], f["label"]) for f in faces),
        )
        red = " red-suit" if suit in RED_SUITS else ""
        rows.append((red, suit_names[suit], keys))
    j = face(JOKER, lang)
    joker = format_html(
        key, j["code"], "card-key check-joker", action, f"{j['rank']} {j['suit']}", j["label"]
    )
    suits = format_html_join(
        "\n", '<div class="card-suit{}" role="group" aria-label="{}">{}</div>', rows
    )
    return format_html('{}\n<div class="check-tools">{}</div>', suits, joker)


def type_hint(lang: str) -> str:
    """How to type cards in this language, with an example in its own rank letters."""
    display = LOCAL_RANK_DISPLAY.get(lang, {})

    def token(rank: int, suit: str) -> str:
        return display.get(rank, RANK_CODES[rank]) + suit

    example = " ".join([token(12, "H"), token(10, "S"), token(11, "D"), token(1, "C"), "JK"])
    return gettext("Type cards like %(example)s (rank, then suit S H D C; JK for a joker).") % {
        "example": example
    }


# --- the answer ------------------------------------------------------------------------------


def contract_text(spec: DealSpec) -> str:
    sets = ngettext("%(n)s set", "%(n)s sets", spec.sets) % {"n": spec.sets}
    runs = ngettext("%(n)s run", "%(n)s runs", spec.runs) % {"n": spec.runs}
    if spec.sets and spec.runs:
        text = gettext("%(sets)s and %(runs)s") % {"sets": sets, "runs": runs}
    else:
        text = sets if spec.sets else runs
    sizes = []
    if spec.sets and spec.set_min != 3:
        sizes.append(gettext("sets of %(n)s+") % {"n": spec.set_min})
    if spec.runs and spec.run_min != 4:
        sizes.append(gettext("runs of %(n)s+") % {"n": spec.run_min})
    if sizes:
        text += " (" + ", ".join(sizes) + ")"
    return text


def _meld_kind(meld: list[dict[str, str]], variant: Variant) -> str:
    ranks = {parse_card(p["as"]).rank for p in meld}
    if len(ranks) == 1 and variant.id != CLASSIC:
        return "group" if variant.id == ROMME else "set"
    return "run"


MELD_LABELS = {"run": _("Run"), "set": _("Set"), "group": _("Group")}


def _melds(result: dict[str, Any], variant: Variant, lang: str) -> list[dict[str, Any]]:
    out = []
    for meld in result.get("melds") or []:
        kind = _meld_kind(meld, variant)
        out.append(
            {
                "kind": kind,
                "label": MELD_LABELS[kind],
                "cards": [face(parse_card(p["card"]), lang, parse_card(p["as"])) for p in meld],
            }
        )
    return out


def _payment_rows(result: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for row in result.get("payment_rows") or []:
        name, points = row["row"], row["points"]
        label = PAYMENT_LABELS.get(name, name)
        if name == "no_wild" and not options.get("twos_wild", True):
            label = gettext("No joker")
        each = PAYMENT_EACH.get(name)
        rows.append(
            {
                "name": name,
                "label": label,
                "count": points // each if each else None,
                "points": points,
            }
        )
    return rows


def _count_status(state: CheckState) -> dict[str, Any] | None:
    """Guidance while the hand has too few or too many cards; None when it can be checked."""
    n = len(state.cards)
    variant = state.variant
    if variant.id == CLASSIC:
        wanted = {None: (15, 16), "drawn": (16,), "undrawn": (15,)}[state.first_turn]
    elif variant.id == ROMME:
        wanted = (15,)
    else:
        low = state.deal_spec.cards + 1
        wanted = (low, low + MAX_EXTRA_CONTRACT_CARDS)
    low, high = wanted[0], wanted[-1]
    if low <= n <= high:
        return None
    if n == 0:
        return {"kind": "empty", "text": gettext("Tap the cards of the hand, or type them.")}
    if n < low:
        more = low - n
        if variant.id == CLASSIC and state.first_turn is None:
            text = ngettext(
                "%(n)s more card: 15 cards show the cards that would complete the hand, "
                "16 show whether it goes out.",
                "%(n)s more cards: 15 cards show the cards that would complete the hand, "
                "16 show whether it goes out.",
                more,
            )
        elif variant.id == CLASSIC:
            text = ngettext(
                "%(n)s more card: on the first turn the hand holds %(total)s cards.",
                "%(n)s more cards: on the first turn the hand holds %(total)s cards.",
                more,
            )
        else:
            text = ngettext(
                "%(n)s more card: the hand is checked after drawing, with %(total)s cards.",
                "%(n)s more cards: the hand is checked after drawing, with %(total)s cards.",
                more,
            )
        return {"kind": "short", "more": more, "text": text % {"n": more, "total": low}}
    over = n - high
    if variant.id == CLASSIC and state.first_turn == "undrawn" and n == 16:
        text = gettext(
            "On the first turn without drawing the hand holds 15 cards: remove one, or choose "
            "another first turn."
        )
    elif high == low:
        text = ngettext(
            "%(n)s card too many: the hand holds %(total)s cards.",
            "%(n)s cards too many: the hand holds %(total)s cards.",
            over,
        ) % {"n": over, "total": high}
    else:
        text = ngettext(
            "%(n)s card too many: the hand holds %(low)s to %(total)s cards.",
            "%(n)s cards too many: the hand holds %(low)s to %(total)s cards.",
            over,
        ) % {"n": over, "low": low, "total": high}
    return {"kind": "long", "text": text}


def evaluate(state: CheckState, lang: str) -> dict[str, Any]:
    """The answer for the page: count guidance, an error, or the engine's result decorated."""
    status = _count_status(state)
    if status is not None:
        return {"status": status}
    started = time.perf_counter()
    try:
        result = check_hand(state.engine_request(), lang)
    except CheckError as exc:
        return {"status": {"kind": "error", "text": engine_message(exc)}}
    except Exception:  # a solver bug must not cost the player the page
        log.exception("hand check failed: %s", state.engine_request())
        return {
            "status": {
                "kind": "error",
                "text": gettext("Sorry, this hand could not be worked out. Please try again."),
            }
        }
    elapsed = time.perf_counter() - started
    answer: dict[str, Any] = {
        "status": {"kind": "result"},
        "result": result,
        "elapsed_ms": elapsed * 1000,
        "melds": _melds(result, state.variant, lang),
        "discard": face(parse_card(result["discard"]), lang) if result.get("discard") else None,
    }
    if state.variant.id == CLASSIC:
        answer["payment_rows"] = _payment_rows(result, state.options)
        answer["waits"] = _faces(result["waits"], lang) if result.get("waits") is not None else None
    elif state.variant.is_contract:
        answer["left"] = _faces(result.get("left_in_hand") or [], lang)
    elif result.get("melds"):
        # Rommé: what stays in hand besides the melds and the discard
        left = Counter(state.cards)
        left.subtract(parse_card(p["card"]) for meld in result["melds"] for p in meld)
        if result.get("discard"):
            left[parse_card(result["discard"])] -= 1
        answer["left"] = [face(c, lang) for c in sort_cards(left.elements())]
    return answer


# --- the page --------------------------------------------------------------------------------


def _settings_context(state: CheckState, lang: str) -> dict[str, Any]:
    w = words(lang)
    options = []
    for spec in state.variant.options:
        texts = w.get("option", {}).get(spec.name, {})
        value = state.options[spec.name]
        if spec.is_bool:
            choices = [("true", gettext("on"), value is True), ("false", gettext("off"), not value)]
        else:
            choices = [(str(c), str(c), c == value) for c in spec.choices]
        options.append(
            {
                "name": spec.name,
                "label": texts.get("label", spec.label),
                "help": texts.get("help", spec.help),
                "choices": choices,
                "changed": value != spec.default,
            }
        )
    deals = []
    if state.variant.is_contract:
        for spec in state.schedule or state.variant.schedule:
            deals.append({"number": spec.number, "selected": spec.number == state.deal})
    return {
        "variants": [
            {"id": vid, "label": VARIANT_LABELS[vid], "selected": vid == state.variant.id}
            for vid in VARIANT_IDS
        ],
        "options": options,
        "options_changed": sum(1 for o in options if o["changed"]),
        "deals": deals,
        "first_turns": [
            {"value": value, "label": label, "selected": (state.first_turn or "") == value}
            for value, label in FIRST_TURN_LABELS
        ],
        "schedule_json": (
            _schedule_json([spec.as_dict() for spec in state.schedule]) if state.schedule else ""
        ),
    }


def brief(state: CheckState, answer: dict[str, Any]) -> dict[str, Any]:
    """One line under the hand: the verdict at a glance (the answer below has the reasons)."""
    status = answer["status"]
    if status["kind"] != "result":
        return {"kind": status["kind"], "text": status["text"]}
    r = answer["result"]
    if state.variant.id == CLASSIC:
        if r["goes_out"]:
            return {
                "kind": "yes",
                "text": gettext("Goes out · payment %(n)s") % {"n": r["payment"]},
            }
        waits = r.get("waits")
        if waits and len(waits) <= BRIEF_WAITS:
            return {
                "kind": "no",
                "text": gettext("Does not go out · waits:"),
                "cards": answer["waits"],
            }
        if waits:
            text = ngettext(
                "Does not go out · %(n)s card completes it",
                "Does not go out · %(n)s cards complete it",
                len(waits),
            ) % {"n": len(waits)}
        elif waits is not None:
            text = gettext("Does not go out · no single card completes it")
        else:
            text = gettext("Does not go out")
        return {"kind": "no", "text": text}
    if state.variant.is_contract:
        if r["can_open"] and r["goes_out"]:
            return {"kind": "yes", "text": gettext("Contract laid · goes out")}
        if r["can_open"]:
            text = gettext("Contract laid · penalty %(n)s") % {"n": r["penalty"]}
            return {"kind": "yes", "text": text}
        text = gettext("No contract · penalty %(n)s") % {"n": r["penalty"]}
        return {"kind": "no", "text": text}
    values = {"points": r["opening_points"], "minimum": state.options["opening_minimum"]}
    if r["handromme"]:
        text = gettext("Handrommé · opening value %(points)s") % values
    elif r["can_open"]:
        text = gettext("Can open · %(points)s of %(minimum)s") % values
    else:
        text = gettext("Cannot open yet · %(points)s of %(minimum)s") % values
    return {"kind": "yes" if r["can_open"] or r["handromme"] else "no", "text": text}


def _settings_brief(state: CheckState, spec: DealSpec | None) -> str:
    parts = []
    if spec:
        parts.append(
            gettext("deal %(n)s: %(contract)s")
            % {"n": spec.number, "contract": contract_text(spec)}
        )
    if state.first_turn:
        parts.append(str(dict(FIRST_TURN_LABELS)[state.first_turn]))
    changed = len(state.changed_options)
    if changed:
        parts.append(
            ngettext("%(n)s house rule changed", "%(n)s house rules changed", changed)
            % {"n": changed}
        )
    elif state.variant.options:
        parts.append(gettext("usual rules"))
    return " · ".join(parts)


def _context(state: CheckState, lang: str, url: str, settings_open: bool) -> dict[str, Any]:
    spec = state.deal_spec
    answer = evaluate(state, lang)
    return {
        "state": state,
        "variant": state.variant,
        "variant_label": VARIANT_LABELS[state.variant.id],
        "settings_brief": _settings_brief(state, spec),
        "settings_open": settings_open or any(n.where == "settings" for n in state.notices),
        "lang": lang,
        "url": url,
        "action": reverse("check"),
        "spec": spec,
        "contract": contract_text(spec) if spec else "",
        "deal_text": (
            gettext("Deal %(n)s: %(contract)s · %(cards)s cards dealt")
            % {"n": spec.number, "contract": contract_text(spec), "cards": spec.cards}
            if spec
            else ""
        ),
        "hand": [face(c, lang) for c in state.cards],
        "cards_value": format_cards(state.cards),
        "grid": grid_html(lang, reverse("check")),
        "type_hint": type_hint(lang),
        "notices": {
            where: [n for n in state.notices if n.where == where]
            for where in ("hand", "type", "settings")
        },
        "answer": answer,
        "brief": brief(state, answer),
        "rules_url": pages.rules_url(state.variant.id, state.options),
        **_settings_context(state, lang),
    }


def _server_timing(response: HttpResponse, answer: dict[str, Any]) -> None:
    if "elapsed_ms" in answer:
        response["Server-Timing"] = f"check;dur={answer['elapsed_ms']:.1f}"


@require_safe
def check_page(request: HttpRequest) -> HttpResponse:
    """``/<lang>/check/``: the hand checker (see the module docstring for the query)."""
    lang = get_language()
    state = read_state(request.GET, lang)
    pairs = state_pairs(state)
    url = reverse("check") + ("?" + urlencode(pairs) if pairs else "")
    htmx = getattr(request, "htmx", None)
    fragment = bool(
        htmx
        and not htmx.history_restore_request
        and not htmx.boosted
        and htmx.target == HTMX_TARGET
    )
    if request.GET and not fragment and not state.notices and not _same_query(request.GET, pairs):
        return redirect(url)
    settings_open = fragment and htmx.trigger == "check-settings"
    context = _context(state, lang, url, settings_open)
    if fragment:
        response = render(request, "rules/check.html#live", context)
        replace_url(response, url)
    else:
        response = render(request, "rules/check.html", context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    _server_timing(response, context["answer"])
    return response
