"""What the checker page shows: the engine's answer for a state, arranged for the template
(card faces, payment rows, the one-line verdict, the settings with their words)."""

from __future__ import annotations

import logging
import time
from collections import Counter
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import pages
from rules.engine.cards import (
    JOKER,
    LOCAL_RANK_DISPLAY,
    RANK_CODES,
    RANKS,
    RED_SUITS,
    SUITS,
    Card,
    format_cards,
    sort_cards,
)
from rules.engine.check import CheckError, check
from rules.engine.melds import Meld
from rules.engine.outs import table_decks
from rules.engine.results import CheckResult, ClassicResult, ContractResult
from rules.engine.variants import (
    CLASSIC,
    CLASSIC_PAYMENTS,
    NORDIC,
    ROMME,
    SPANISH,
    VARIANT_IDS,
    DealSpec,
    Variant,
)
from rules.i18n import engine_message
from rules.pages.faces import face, faces
from rules.pages.words import contract_text, on_off, option_words, payment_label, words

from .links import schedule_text
from .state import MAX_EXTRA_CONTRACT_CARDS, CheckState

log = logging.getLogger(__name__)

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


@lru_cache(maxsize=16)
def card_grid(lang: str) -> dict[str, Any]:
    """The card grid's keys: a suit per row (the names of the suits for screen readers), a
    face per card, and the joker key; ``check.html#grid`` draws them."""
    suit_names = words(lang)["cards"]["suits"]
    suits = [
        {
            "name": suit_names[suit],
            "red": suit in RED_SUITS,
            "cards": [face(Card(rank, suit), lang) for rank in RANKS],
        }
        for suit in SUITS
    ]
    return {"suits": suits, "joker": face(JOKER, lang)}


def type_hint(lang: str) -> str:
    """How to type cards in this language, with an example in its own rank letters."""
    display = LOCAL_RANK_DISPLAY.get(lang, {})

    def token(rank: int, suit: str) -> str:
        return display.get(rank, RANK_CODES[rank]) + suit

    example = " ".join([token(12, "H"), token(10, "S"), token(11, "D"), token(1, "C"), "JK"])
    return gettext("Type cards like %(example)s (rank, then suit S H D C; JK for a joker).") % {
        "example": example
    }


def _meld_kind(meld: Meld, variant: Variant) -> str:
    ranks = {p.stands_for.rank for p in meld.placed}
    if len(ranks) == 1 and variant.id != CLASSIC:
        return "group" if variant.id == ROMME else "set"
    return "run"


MELD_LABELS = {"run": _("Run"), "set": _("Set"), "group": _("Group")}


def _melds(result: CheckResult, variant: Variant, lang: str) -> list[dict[str, Any]]:
    out = []
    for meld in result.melds:
        kind = _meld_kind(meld, variant)
        out.append(
            {
                "kind": kind,
                "label": MELD_LABELS[kind],
                "cards": [face(p.card, lang, p.stands_for) for p in meld.placed],
            }
        )
    return out


def _payment_rows(result: ClassicResult, options: dict[str, Any], lang: str) -> list[dict]:
    twos_wild = options.get("twos_wild", True)
    rows = []
    for row in result.payment_rows:
        name, points = row.row, row.points
        each = CLASSIC_PAYMENTS[name] if name in ("wild_twos", "jokers") else None
        rows.append(
            {
                "name": name,
                "label": payment_label(name, lang, twos_wild),
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
        spec = state.deal_spec
        assert spec is not None  # a contract game has its deal
        low = spec.cards + 1
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
        result = check(state.engine_request(), lang)
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
        "discard": face(result.discard, lang) if result.discard else None,
    }
    if isinstance(result, ClassicResult):
        answer["payment_rows"] = _payment_rows(result, state.options, lang)
        answer["waits"] = faces(result.waits, lang) if result.waits is not None else None
        if result.outs is not None:
            answer["outs"] = [
                {"face": face(card, lang), "left": left} for card, left in result.outs.items()
            ]
            answer["outs_total"] = sum(result.outs.values())
            answer["outs_faces"] = [o["face"] for o in answer["outs"]]
            decks, jokers = table_decks(state.variant, state.players, [*state.cards, *state.seen])
            answer["outs_basis"] = gettext(
                "Cards left: of %(decks)s decks and %(jokers)s jokers, less the cards in the "
                "hand and those marked as seen."
            ) % {"decks": decks, "jokers": jokers}
    elif isinstance(result, ContractResult):
        answer["left"] = faces(result.left_in_hand, lang)
    elif result.melds:
        # Rommé: what stays in hand besides the melds and the discard
        left = Counter(state.cards)
        left.subtract(p.card for meld in result.melds for p in meld.placed)
        if result.discard:
            left[result.discard] -= 1
        answer["left"] = [face(c, lang) for c in sort_cards(left.elements())]
    return answer


# --- the page --------------------------------------------------------------------------------


def _settings_context(state: CheckState, lang: str) -> dict[str, Any]:
    options = []
    for spec in state.variant.options:
        label, help_text = option_words(spec.name, lang)
        value = state.options[spec.name]
        if spec.is_bool:
            choices = [("true", on_off(True, lang), value is True)]
            choices.append(("false", on_off(False, lang), not value))
        else:
            choices = [(str(c), str(c), c == value) for c in spec.choices]
        options.append(
            {
                "name": spec.name,
                "label": label,
                "help": help_text,
                "choices": choices,
                "changed": value != spec.default,
            }
        )
    players = []
    if state.variant.id == CLASSIC:
        players = [{"value": "", "label": gettext("Not given"), "selected": state.players is None}]
        players += [
            {"value": str(n), "label": str(n), "selected": state.players == n}
            for n in range(state.variant.min_players, state.variant.max_players + 1)
        ]
    deals = []
    if state.variant.is_contract:
        for deal in state.schedule or state.variant.schedule or ():
            deals.append({"number": deal.number, "selected": deal.number == state.deal})
    return {
        "variants": [
            {"id": vid, "label": VARIANT_LABELS[vid], "selected": vid == state.variant.id}
            for vid in VARIANT_IDS
        ],
        "options": options,
        "options_changed": sum(1 for o in options if o["changed"]),
        "players": players,
        "deals": deals,
        "first_turns": [
            {"value": value, "label": label, "selected": (state.first_turn or "") == value}
            for value, label in FIRST_TURN_LABELS
        ],
        "schedule_value": (
            schedule_text([spec.as_dict() for spec in state.schedule]) if state.schedule else ""
        ),
    }


def _classic_brief(r: ClassicResult, answer: dict[str, Any]) -> dict[str, Any]:
    """The verdict of a classic hand: its payment, or the cards it waits for."""
    if r.goes_out:
        return {
            "kind": "yes",
            "text": gettext("Goes out · payment %(n)s") % {"n": r.payment},
        }
    waits = r.waits
    if waits and not r.outs:  # every copy of each wait is in the hand
        return {"kind": "no", "text": gettext("Does not go out · no card left completes it")}
    if waits:
        waits = tuple(r.outs or ())  # the waits that can still be drawn
    if waits and len(waits) <= BRIEF_WAITS:
        return {
            "kind": "no",
            "text": gettext("Does not go out · waits:"),
            "cards": answer["outs_faces"],
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


def brief(state: CheckState, answer: dict[str, Any]) -> dict[str, Any]:
    """One line under the hand: the verdict at a glance (the answer below has the reasons)."""
    status = answer["status"]
    if status["kind"] != "result":
        return {"kind": status["kind"], "text": status["text"]}
    r = answer["result"]
    if isinstance(r, ClassicResult):
        return _classic_brief(r, answer)
    if isinstance(r, ContractResult):
        if r.can_open and r.goes_out:
            return {"kind": "yes", "text": gettext("Contract laid · goes out")}
        if r.can_open:
            text = gettext("Contract laid · penalty %(n)s") % {"n": r.penalty}
            return {"kind": "yes", "text": text}
        text = gettext("No contract · penalty %(n)s") % {"n": r.penalty}
        return {"kind": "no", "text": text}
    values = {"points": r.opening_points, "minimum": state.options["opening_minimum"]}
    if r.handromme:
        text = gettext("Handrommé · opening value %(points)s") % values
    elif r.can_open:
        text = gettext("Can open · %(points)s of %(minimum)s") % values
    else:
        text = gettext("Cannot open yet · %(points)s of %(minimum)s") % values
    return {"kind": "yes" if r.can_open or r.handromme else "no", "text": text}


def _settings_brief(state: CheckState, spec: DealSpec | None) -> str:
    parts = []
    if spec:
        parts.append(
            gettext("deal %(n)s: %(contract)s")
            % {"n": spec.number, "contract": contract_text(spec)}
        )
    if state.first_turn:
        parts.append(str(dict(FIRST_TURN_LABELS)[state.first_turn]))
    if state.players is not None:
        parts.append(
            ngettext("%(n)s player", "%(n)s players", state.players) % {"n": state.players}
        )
    changed = len(state.changed_options)
    if changed:
        parts.append(
            ngettext("%(n)s house rule changed", "%(n)s house rules changed", changed)
            % {"n": changed}
        )
    elif state.variant.options:
        parts.append(gettext("usual rules"))
    return " · ".join(parts)


def page_context(state: CheckState, lang: str, url: str, settings_open: bool) -> dict[str, Any]:
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
        "seen": [face(c, lang) for c in state.seen],
        "seen_value": format_cards(state.seen),
        "back_url": state.back,
        "grid": card_grid(lang),
        "type_hint": type_hint(lang),
        "notices": {
            where: [n for n in state.notices if n.where == where]
            for where in ("hand", "type", "settings", "seen")
        },
        "answer": answer,
        "brief": brief(state, answer),
        "rules_url": pages.rules_url(state.variant.id, state.options),
        **_settings_context(state, lang),
    }
