"""A game's history as the page shows it: one entry per stored event, of any shape.

An event's ``details`` is JSON kept as it was written, and a backup restores it as it was:
an entry from an older version (a rename kept its ``before`` as the old name, a deal its
snapshot) or a hand-edited file may hold anything. Every value is read here with the type
it should have, and what does not fit is left out of the entry, so the history always renders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from rules.engine.cards import CardError, parse_card
from rules.pages.faces import face

from .models import Event

# The entries of a deal: what it was before the change, what it is after.
DEAL_KINDS = frozenset({"recorded", "edited", "deleted", "undone", "restored"})
# Which of the two columns each shows: a deal recorded or brought back has only its scores
# after, a deal taken away only before, a correction both.
COLUMNS = {
    "recorded": (False, True),
    "restored": (False, True),
    "edited": (True, True),
    "deleted": (True, False),
    "undone": (True, False),
}


def mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def number(value: Any) -> int | None:
    """An integer as stored (not a boolean, not a text), or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def text(value: Any) -> str:
    return value if isinstance(value, str) else ""


@dataclass
class Entry:
    event: Event
    note: str = ""
    before: str = ""
    after: str = ""
    changes: list[tuple[str, int | None, int | None]] = field(default_factory=list)
    show_before: bool = False
    show_after: bool = False
    draw: list[list[tuple[str, Any]]] = field(default_factory=list)
    bring_back: bool = False


def describe(side: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One line for a deal as the history kept it: who went out, and the payment."""
    if not side:
        return ""
    if side.get("status") == "abandoned":
        return _("abandoned, no score")
    went_out = side.get("went_out")
    who = names.get(str(went_out), "?") if isinstance(went_out, (int, str)) else "?"
    parts = [
        _("%(name)s went out") % {"name": who} if went_out is not None else _("nobody went out")
    ]
    if side.get("handromme") is True:
        parts.append(_("Handrommé"))
    payment = number(side.get("payment"))
    if payment is not None:
        parts.append(_("payment %(n)d") % {"n": payment})
    return ", ".join(parts)


def took_over(name: str, before: str, deal: int) -> str:
    """ "Ola took over from Marek after deal 6.": the history, the sheet and the share text."""
    values = {"name": name, "before": before, "deal": deal}
    if deal:
        return _("%(name)s took over from %(before)s after deal %(deal)s.") % values
    return _("%(name)s took over from %(before)s before the first deal.") % values


def table_note(kind: str, details: Mapping[str, Any]) -> str:
    """One line for a change of the table: who joined, left, came back or was renamed, the
    target; or that the target was reached."""
    if kind == "joined":
        return _("%(name)s sat down, starting with %(n)d.") % {
            "name": text(details.get("name")) or "?",
            "n": number(details.get("start")) or 0,
        }
    if kind in ("left", "returned"):
        return text(details.get("name"))
    if kind == "took_over":
        return took_over(
            text(details.get("name")) or "?",
            text(details.get("before")) or "?",
            number(details.get("deal")) or 0,
        )
    if kind == "renamed":
        before, after = details.get("before"), details.get("after")
        # Kept as the old and the new name; a mapping from another shape names them too.
        before = text(before) or text(mapping(before).get("name"))
        after = text(after) or text(mapping(after).get("name"))
        if before and after:
            return _("%(before)s is now called %(after)s.") % {"before": before, "after": after}
        return before or after
    if kind == "target":
        parts = []
        score, deals = number(details.get("score")), number(details.get("deals"))
        if score:
            parts.append(_("a total of %(n)d") % {"n": score})
        if deals:
            parts.append(_("after deal %(n)d") % {"n": deals})
        return ", ".join(parts) or _("no target")
    if details.get("target") is True:
        return _("The target was reached: the game ended.")
    return ""


def scores(side: Mapping[str, Any]) -> Mapping[str, int | None]:
    return {str(k): number(v) for k, v in mapping(side.get("scores")).items()}


def draw_rounds(value: Any, names: Mapping[str, str], lang: str) -> list[list[tuple[str, Any]]]:
    """The cards drawn for the first dealer, round by round; a card that does not read is
    left out."""
    rounds = []
    for rnd in value if isinstance(value, list) else []:
        cards = []
        for pos, card in mapping(rnd).items():
            if not isinstance(card, str):
                continue
            try:
                cards.append((names.get(pos, pos), face(parse_card(card), lang)))
            except CardError:
                continue
        if cards:
            rounds.append(cards)
    return rounds


def entries(
    events: Iterable[Event], names: Mapping[str, str], lang: str, open_slot: bool
) -> list[Entry]:
    """The history's entries, newest first as ``events`` come; ``names`` by seat position (as
    text, the keys of a snapshot's scores); ``open_slot``: a deal may be brought back now."""
    kept = list(events)
    restored = {number(mapping(e.details).get("source")) for e in kept if e.kind == "restored"}
    result = []
    for event in kept:
        details = mapping(event.details)
        entry = Entry(event=event, note=table_note(event.kind, details))
        if event.kind in DEAL_KINDS:
            before, after = mapping(details.get("before")), mapping(details.get("after"))
            entry.before, entry.after = describe(before, names), describe(after, names)
            entry.show_before, entry.show_after = COLUMNS[event.kind]
            was, now = scores(before), scores(after)
            entry.changes = [
                (name, was.get(pos), now.get(pos))
                for pos, name in names.items()
                if pos in was or pos in now
            ]
        entry.draw = draw_rounds(details.get("draw"), names, lang)
        entry.bring_back = (
            open_slot
            and event.kind in ("undone", "deleted")
            and number(event.deal_number) is not None
            and event.pk not in restored
        )
        result.append(entry)
    return result
