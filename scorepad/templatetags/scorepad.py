"""Small display helpers for the score pad's templates (no arithmetic: the engine scores)."""

from __future__ import annotations

from django import template
from django.template.defaultfilters import floatformat
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from rules.engine.variants import CLASSIC, DealSpec
from rules.pages.words import contract_text, payment_label
from scorepad.charts import signed
from scorepad.kepthtml import KeptHTML

register = template.Library()


@register.filter
def again_reference(game, editor=False) -> str:
    """The "Play again" reference of a game (scorepad.access.again_reference): no link.
    ``editor``: an editor's, which keeps a circle's game in its circle."""
    from scorepad.access import again_reference as reference

    return reference(game, editor=bool(editor))


register.filter("signed", signed)


@register.filter
def points(value) -> str:
    """A tournament's placement points as the language writes them, as short as exact: 3,
    1.5, 1.875 (they are multiples of 1/8, three places at most)."""
    if value is None:
        return "–"
    return floatformat(value, -3).rstrip("0").rstrip(".,") if value % 1 else floatformat(value, 0)


@register.filter
def signed_one(value) -> str:
    """An average of the classic game with one decimal, signed as the sheet signs: +1.5, −0.3."""
    if value is None:
        return ""
    text = floatformat(value, 1)
    if text.startswith("-"):
        return "−" + text[1:]
    return text if text.strip("0.,") == "" else "+" + text


@register.filter
def contract(spec: DealSpec | None) -> str:
    return contract_text(spec) if spec is not None else ""


@register.filter
def payment_row(name: str, twos_wild: bool = True) -> str:
    """A classic payment row's label (``{{ row|payment_row:form.twos_wild }}``)."""
    return payment_label(name, get_language(), twos_wild is not False)


@register.filter
def at(sequence, index):
    """``list|at:i`` — the item at a position (for parallel lists in templates)."""
    try:
        return sequence[int(index)]
    except (IndexError, KeyError, TypeError, ValueError):
        return None


@register.filter
def variant_name(variant_id: str) -> str:
    from rules.facts import NAMES

    return str(NAMES.get(variant_id, variant_id))


@register.simple_tag
def game_rules_url(game) -> str:
    """The variant's rules in the reader's language with this game's house rules marked."""
    from rules.pages import rules_url

    return rules_url(game.variant_id, game.options)


@register.simple_tag
def game_checker_url(game, next_deal=None, token: str = "", seats=None) -> str:
    """The hand checker set up for this game: its variant, house rules, schedule and deal,
    the players at its table (the decks of the classic game's outs) and, given the link
    the sheet was opened with (``token``), the way back to the sheet. ``seats``: the game's
    seats when the caller has them (the sheet's), else they are read."""
    from rules.checker import checker_url

    deal = None
    players = None
    if game.variant.is_contract:
        total = game.total_deals
        deal = min(next_deal.number, total) if next_deal is not None else total
    elif game.variant.id == CLASSIC:
        # who plays now (one who left is not at the table); none when the count is no table
        active = sum(1 for seat in (game.seats.all() if seats is None else seats) if seat.active)
        if game.variant.min_players <= active <= game.variant.max_players:
            players = active
    back = reverse("game", kwargs={"token": token}) if token else ""
    return checker_url(
        game.variant_id,
        deal=deal,
        options=game.options,
        schedule=game.schedule,
        players=players,
        back=back,
    )


@register.simple_tag
def table_texts() -> str:
    """What the phone's scripts say to the player (static/js/messages.js), in the page's language ({n}: a count),
    for a data attribute as ``key=text`` pairs joined by ``|`` (shorter than JSON, whose every
    quote the attribute would spell ``&quot;``; no text holds a ``|``)."""
    texts = {
        "saving": _("Saving…"),
        "queued": _("No connection — saved on this phone. Waiting to be sent ({n})."),
        "waiting": _("Waiting to be sent ({n})."),
        "count": _("Waiting to be sent ({n})"),
        "attention": _("A change made on this phone needs you: see below."),
        "offline": _("No connection."),
        "sending": _("Sending what this phone kept…"),
        "sent": _("Sent from this phone: {n}."),
        "updated": _("Sheet updated."),
        "back": _("Connection back."),
        "replaced": _(
            "This link was replaced on another phone: this sheet no longer updates. "
            "Ask whoever keeps the sheet for the new link."
        ),
        "notKept": _("No connection, and this is not kept on this phone yet."),
        "keptForm": _(
            "No connection: this is the copy kept on this phone. What you save waits here "
            "until it can be sent."
        ),
        "previewOffline": _("No connection: the result is worked out when the deal is sent."),
        "offlineForm": _(
            "No connection: what you save here waits on this phone until it can be sent."
        ),
        "pending": _("Deal %(n)s: not sent yet") % {"n": "{n}"},
        "otherPlayers": _(
            "Someone who has left the table since played in deal %(n)s: it can be corrected "
            "once the connection is back."
        )
        % {"n": "{n}"},
        "review": _("Open it"),
        "discard": pgettext("a change kept on this phone", "Discard"),
        "discardConfirm": _("Discard this change? It never reached the server."),
        "refused": _("The server did not take it."),
        "gone": _("This link no longer works."),
    }
    return "|".join(f"{key}={text.replace('|', '/')}" for key, text in texts.items())


PHONE_KINDS = {
    "iphone": _lazy("iPhone %(code)s"),
    "ipad": _lazy("iPad %(code)s"),
    "android": _lazy("Android phone %(code)s"),
    "chromebook": _lazy("Chromebook %(code)s"),
    "windows": _lazy("Windows computer %(code)s"),
    "mac": _lazy("Mac %(code)s"),
    "linux": _lazy("Linux computer %(code)s"),
}


@register.simple_tag(takes_context=True)
def phone_name(context, device: str) -> str:
    """A phone of the history as a person at the table recognises it: "this phone" for the
    one reading, else its kind and code ("iPhone 3f2a"), or "phone 443360" for a phone
    named before kinds were kept (scorepad/access.py, device)."""
    from scorepad.access import DEVICE, DEVICE_SHAPE

    request = context.get("request")
    own = request.session.get(DEVICE) if request is not None else None
    if device and device == own:
        return _("this phone")
    found = DEVICE_SHAPE.fullmatch(device or "")
    if found is None:
        return _("phone %(code)s") % {"code": device or "—"}
    kind = PHONE_KINDS.get(found["family"] or "")
    return str(kind or _("phone %(code)s")) % {"code": found["code"]}


# The sheet's rows as rendered: the table is rendered again for every version of a game (for
# its editor and its viewers) while only its newest row is new. A row is kept under exactly
# what its template is given (scorepad/kepthtml.py): a corrected deal, a total changed by it,
# another language or the correction link of another game is another key.
# 16 million characters (some 25,000 rows, 16-32 MB a worker at most) hold the rows of the
# tables of a busy server between one deal and the next (bench/load.py: 1,500 tables at a
# deal a minute render some 60,000 rows a minute, spread over the workers).
ROWS = KeptHTML(16_000_000)
ROW_TEMPLATE = "scorepad/game.html#row"


@register.simple_tag
def sheet_row(sheet, row, can_edit: bool, token: str) -> str:
    """A row of the score sheet (``game.html#row``) for the editor (``can_edit``: the deal's
    number is its correction link, carrying the deal's values for the held form) or a
    viewer."""
    number = row.deal.number
    values = offline_values(sheet, row) if can_edit and sheet.next_deal else ""
    context = {
        "number": number,
        "abandoned": row.deal.is_abandoned,
        "flaw": row.flaw,
        "edit_url": reverse("deal-edit", args=(token, number)) if can_edit else "",
        "values": values,
        "cells": [
            {
                "points": cell.points,
                "went_out": cell.went_out,
                "away": cell.away,
                "shown": cell.shown,
                "total_shown": cell.total_shown,
            }
            for cell in row.cells
        ],
    }
    return ROWS.render(ROW_TEMPLATE, context, lambda: get_template(ROW_TEMPLATE).render(context))


def offline_values(sheet, row) -> str:
    """A deal's correction as stored, for the form the sheet holds for a phone without a
    connection (static/js/offline-form.js fills it in): its values as a form would post them,
    in JSON; "" for a flagged deal. That form is made for the players at the table now: for a
    deal some of them were not in (they joined since), ``seats`` names the deal's players,
    and the phone leaves the others' controls out; for a deal of a player who has left since
    (no control of theirs in it), only ``{"left": true}``: the phone says why it cannot
    correct that deal without a connection."""
    import json

    from scorepad.forms.data import form_data
    from scorepad.forms.deals import deal_form_class

    playing = {seat.position for seat in sheet.seats if seat.active}
    played = {
        seat.position for seat, cell in zip(sheet.seats, row.cells, strict=True) if not cell.away
    }
    if row.flaw:
        return ""
    if not played <= playing:
        return json.dumps({"left": True})
    values: dict[str, object] = {**form_data(deal_form_class(sheet.game).initial_from(row.deal))}
    if played != playing:
        values["seats"] = sorted(played)
    return json.dumps(values, separators=(",", ":"))
