"""The Players page of a game: who is at the table, a player joining or leaving during the
game, a new name, and the table's target. Every change carries the version and a one-time
token like the deal forms; a stale one changes nothing and shows the page as it is now."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from rules.facts import NAMES

from ..access import Access, game_view
from ..forms.change import once_token
from ..forms.data import small_int
from ..forms.players import JoinForm, LeaveForm, RenameForm, TakeOverForm, TargetForm
from ..models import Event
from .writes import ERROR, INFO, already_done, answer, incomplete, used_once, write

PAGE = "game-players"
FORMS = {
    "join": JoinForm,
    "takeover": TakeOverForm,
    "rename": RenameForm,
    "leave": LeaveForm,
    "target": TargetForm,
}


def _page(request: HttpRequest, access: Access, bound=None, notice="", status=200):
    game = access.game
    forms = {
        kind: form_class(initial={"version": game.version, "once": once_token()}, game=game)
        for kind, form_class in FORMS.items()
    }
    forms["target"].initial.update(
        target_score=game.target_score or "", target_deals=game.target_deals or ""
    )
    if bound is not None:
        forms[bound[0]] = bound[1]
    # In a circle's game the circle's people not at the table are offered to pick (typed
    # names are matched against them only, in Game.join); outside a circle, names only.
    roster = []
    circle = game.circle
    if circle is not None:
        sitting = {s.person_id for s in game.seats.all()}
        roster = [p for p in circle.people() if p.pk not in sitting]
        forms["join"].fields["name"].widget.attrs["list"] = "circle-people"
    context = {
        "roster": roster,
        "access": access,
        "game": game,
        "forms": forms,
        "bound": bound[0] if bound else "",
        "bound_form": bound[1] if bound else None,
        "bound_position": bound[1].data.get("position") if bound else None,
        "seats": list(game.seats.all()),
        "once": once_token(),
        "notice": notice,
        "variant_name": NAMES[game.variant_id],
        # ?leave=<seat>: the question before a player leaves (issue 23, item 10)
        "confirm_leave": small_int(request.GET.get("leave", "")),
    }
    return render(request, "scorepad/seats.html", context, status=status)


def _change(form, access: Access) -> tuple[Callable[..., Event], str]:
    """The change the valid ``form`` asks for, and the message that says it was done."""
    game, data = access.game, form.cleaned_data
    if isinstance(form, JoinForm):
        done = _("%(name)s joins the table from the next deal, starting with %(n)d.") % {
            "name": data["name"],
            "n": data["start_total"],
        }
        return partial(game.join, data["name"], data["start_total"]), done
    if isinstance(form, TakeOverForm):
        seat = data["seat"]
        done = _(
            "%(name)s takes over from %(before)s from the next deal, with the total %(n)d."
        ) % {
            "name": data["name"],
            "before": seat.name,
            "n": seat.total,
        }
        return partial(game.take_over, seat.position, data["name"]), done
    if isinstance(form, RenameForm):
        before = data["seat"].name
        done = _("%(before)s is now called %(after)s.") % {"before": before, "after": data["name"]}
        return partial(game.rename, data["seat"].position, data["name"]), done
    if isinstance(form, LeaveForm):
        back = data["op"] == "back"
        name = data["seat"].name
        if back:
            done = _("%(name)s is back at the table from the next deal.") % {"name": name}
        else:
            done = _("%(name)s left the table: no more deals for them; their total stays.") % {
                "name": name
            }
        return partial(game.seat_leaves, data["seat"].position, back=back), done
    if not (data["target_score"] or data["target_deals"]):
        done = _("No target: the table decides when the game ends.")
    else:
        done = _("Target saved: the game ends by itself when it is reached.")
    return partial(game.set_target, data["target_score"], data["target_deals"]), done


def _stale(request: HttpRequest, fresh: Access) -> HttpResponse:
    notice = _(
        "The table changed while you were entering this: another phone saved a change. "
        "Here is the page as it is now; check it and save again if still needed."
    )
    return _page(request, fresh, notice=notice, status=409)


@require_http_methods(["GET", "POST"])
@game_view(editor=True)
def game_players(request: HttpRequest, access: Access) -> HttpResponse:
    if request.method == "GET":
        return _page(request, access)
    kind = request.POST.get("form", "")
    form_class = FORMS.get(kind)
    if form_class is None:
        return answer(request, access, "invalid", incomplete(), ERROR, to=PAGE)
    # A copy of a change already made (the same one-time token) is "already done" before the
    # form is checked against the state that change made (game_view holds the game locked).
    if used_once(request):
        return answer(request, access, "already", already_done(), INFO, to=PAGE)
    form = form_class(request.POST, game=access.game)
    if not form.is_valid():
        return _page(request, access, bound=(kind, form), status=422)
    change, done = _change(form, access)
    return write(request, access, change, done, stale=_stale, to=PAGE)
