"""Key facts of each variant for pages, taken from the engine's data (never typed twice)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

from rules.engine.variants import CLASSIC, NORDIC, ROMME, SPANISH, VARIANT_IDS, get_variant

NAMES = {
    CLASSIC: _("Continental — the 15-card game"),
    NORDIC: _("Continental — seven contracts (Nordic rules)"),
    SPANISH: _("Continental — seven contracts (Spanish rules)"),
    ROMME: _("Rommé with the 51-point opening"),
}
ESSENCE = {
    CLASSIC: _("Hold 15 cards in runs only, lay them all at once, and everybody pays you."),
    NORDIC: _("Seven deals with growing contracts of sets and runs; jokers and red aces are wild."),
    SPANISH: _("Seven deals from 6 to 12 cards; jokers are wild and runs go around the corner."),
    ROMME: _(
        "Runs and groups, a 51-point opening, and Handrommé: going out in one turn "
        "without having opened."
    ),
}
SCORING = {
    CLASSIC: _("Stake payments: every other player pays the one who goes out."),
    NORDIC: _("Penalty points for the cards left in hand; lowest total after seven deals wins."),
    SPANISH: _("Penalty points for the cards left in hand; lowest total after seven deals wins."),
    ROMME: _("Penalty points for the cards left in hand; lowest total wins."),
}


@dataclass(frozen=True)
class VariantFacts:
    id: str
    name: str
    essence: str
    players: str
    decks: list[str]
    cards: StrOrPromise
    deals: StrOrPromise
    scoring: str


def _decks_line(decks: int, jokers: int) -> str:
    return ngettext(
        "%(decks)d decks and %(jokers)d joker",
        "%(decks)d decks and %(jokers)d jokers",
        jokers,
    ) % {"decks": decks, "jokers": jokers}


def _player_range(low: int, high: int) -> str:
    if low == high:
        return ngettext("%(n)d player", "%(n)d players", low) % {"n": low}
    return _("%(low)d–%(high)d players") % {"low": low, "high": high}


def deck_lines(variant_id: str) -> list[str]:
    """Decks and jokers by player count (and by deal in contract-spanish), grouped."""
    v = get_variant(variant_id)
    lines: list[str] = []
    if v.id == SPANISH:
        deals = len(v.schedule or ())
        for players in range(v.min_players, v.max_players + 1):
            per_deal = [v.decks(players, d) for d in range(1, deals + 1)]
            parts = []
            start = 1
            for d in range(2, deals + 2):
                if d == deals + 1 or per_deal[d - 1] != per_deal[start - 1]:
                    decks, jokers = per_deal[start - 1]
                    span = (
                        _("deal %(a)d") % {"a": start}
                        if start == d - 1
                        else _("deals %(a)d–%(b)d") % {"a": start, "b": d - 1}
                    )
                    parts.append(f"{span}: {_decks_line(decks, jokers)}")
                    start = d
            lines.append(f"{_player_range(players, players)}: " + "; ".join(parts))
        # Collapse identical lines for neighbouring player counts.
        return _collapse(lines, v.min_players)
    start = v.min_players
    for players in range(v.min_players, v.max_players + 2):
        if players == v.max_players + 1 or v.decks(players) != v.decks(start):
            decks, jokers = v.decks(start)
            lines.append(f"{_player_range(start, players - 1)}: {_decks_line(decks, jokers)}")
            start = players
    return lines


def _collapse(lines: list[str], first_players: int) -> list[str]:
    out: list[str] = []
    groups: list[tuple[int, int, str]] = []
    for i, line in enumerate(lines):
        players = first_players + i
        body = line.split(": ", 1)[1]
        if groups and groups[-1][2] == body:
            groups[-1] = (groups[-1][0], players, body)
        else:
            groups.append((players, players, body))
    for low, high, body in groups:
        out.append(f"{_player_range(low, high)}: {body}")
    return out


def facts(variant_id: str) -> VariantFacts:
    v = get_variant(variant_id)
    cards: StrOrPromise
    deals: StrOrPromise
    if v.id == CLASSIC:
        cards = _("%(n)d cards each") % {"n": v.cards_dealt()}
        deals = _("As many deals as the table agrees")
    elif v.id == ROMME:
        cards = _("%(n)d cards each, %(m)d for the starting player") % {
            "n": v.cards_dealt(),
            "m": v.starter_cards(),
        }
        deals = _("As many deals as the table agrees")
    else:
        counts = sorted({spec.cards for spec in v.schedule or ()})
        if len(counts) == 1:
            cards = _("%(n)d cards each in every deal") % {"n": counts[0]}
        else:
            cards = _("%(low)d to %(high)d cards each, one more every deal") % {
                "low": counts[0],
                "high": counts[-1],
            }
        deals = ngettext("%(n)d deal", "%(n)d deals", len(v.schedule or ())) % {
            "n": len(v.schedule or ())
        }
    return VariantFacts(
        id=v.id,
        name=str(NAMES[v.id]),
        essence=str(ESSENCE[v.id]),
        players=_player_range(v.min_players, v.max_players),
        decks=deck_lines(v.id),
        cards=str(cards),
        deals=str(deals),
        scoring=str(SCORING[v.id]),
    )


def all_facts() -> list[VariantFacts]:
    return [facts(vid) for vid in VARIANT_IDS]
