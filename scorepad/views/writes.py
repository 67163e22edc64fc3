"""One write of a shared thing (a game, an evening, a circle), read top to bottom.

A view checks what was posted against the thing as it is (``access.shared_view`` has read
and locked it), then calls ``write``:

1. the form's version and one-time token (``posted_version``, ``posted_once``): a write
   without both changes nothing ("the form was incomplete");
2. the change, through the kernel (``kernel.Shared.change``: one version, one entry of the
   history, a replay "already done", a stale form refused);
3. what runs once it is committed (``after_commit``): a game's viewers' sheet kept ahead of
   their phones (``warm.changed``, registered with ``transaction.on_commit``), from the rows
   the change left loaded (``reading.pin``);
4. the answer, chosen once (``answer``): a phone's outbox gets JSON, an htmx request the
   page's part it swaps in, a plain form a message and a redirect to the page.

A refusal of the thing's own (an evening closed, a name taken) is a message on the page;
a stale form is the view's ``stale`` answer (the fresh page with a note, 409), or, for the
outbox, a conflict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import reading, warm
from ..access import KINDS, Access, actor, remember_created, resolve
from ..forms.data import small_int
from ..kernel import AlreadyDone, Event, StaleVersion
from ..models import Game
from ..tokens import TOKEN_MAX
from .common import LaterResponse, partial_wanted

INFO, ERROR, SUCCESS = messages.INFO, messages.ERROR, messages.SUCCESS

OUTBOX_STATUS = {"saved": 200, "already": 200, "conflict": 409, "invalid": 422, "gone": 410}


def posted_version(request: HttpRequest) -> int | None:
    """The version the posted form was made at; None when missing or not a number."""
    return small_int(request.POST.get("version", ""))


def posted_once(request: HttpRequest) -> str:
    """The one-time token a write posted, cut to the longest a token can be (a longer text is
    none the app made: it matches nothing)."""
    return request.POST.get("once", "")[:TOKEN_MAX]


def used_once(request: HttpRequest) -> bool:
    """Whether the posted one-time token is in any history already: a copy of a write made
    (a token is unique across every kind of thing)."""
    once = posted_once(request)
    return bool(once) and Event.objects.filter(form_token=once).exists()


def from_outbox(request: HttpRequest) -> bool:
    """Whether this write was kept on a phone while it had no connection, and is sent now."""
    return request.headers.get("X-Scorepad-Outbox") == "1"


def outbox_reply(access: Access, outcome: str, message: str, **extra: Any) -> JsonResponse:
    """The answer to a write sent from a phone's outbox: what became of it, and the thing's
    version now (the next write of the same phone is based on it)."""
    shared = access.shared
    manager: Any = type(shared)._default_manager
    version = manager.filter(pk=shared.pk).version()
    body = {"outcome": outcome, "version": version, "message": str(message), **extra}
    return JsonResponse(body, status=OUTBOX_STATUS[outcome])


def form_refused(access: Access, form: Any) -> JsonResponse:
    """The outbox's answer to a kept form with mistakes: "invalid", with the form's errors
    (what the page would have shown beside its fields)."""
    errors = [str(e) for field_errors in form.errors.values() for e in field_errors]
    return outbox_reply(access, "invalid", " ".join(errors), errors=errors)


def part_after_saving(
    request: HttpRequest, access: Access, render: Callable[[HttpRequest, Access], HttpResponse]
) -> Callable[[], HttpResponse] | None:
    """What htmx swaps in after a saved change of an evening or a circle: the part of its
    page that ``render`` gives htmx (``common.part_or_page``), from the thing read again
    once the change is committed (``LaterResponse``: the write's lock is not held while it
    renders); None for a request that is not htmx's. (A game's sheet has its own, rendered
    from the rows the change left loaded: ``common.sheet_after_saving``.)"""
    if not partial_wanted(request):
        return None
    kind = KINDS[type(access.shared)]

    def part() -> HttpResponse:
        return render(request, resolve(request, access.token, kind=kind))

    return lambda: LaterResponse(lambda: part().content.decode())


def page_url(access: Access, name: str | None = None) -> str:
    """The thing's page (or its page ``name``) under the link this phone used."""
    return reverse(name or KINDS[type(access.shared)].page, kwargs={"token": access.token})


def answer(
    request: HttpRequest,
    access: Access,
    outcome: str,
    message: str,
    level: int = SUCCESS,
    *,
    tags: str = "",
    to: str | None = None,
    swapped: Callable[[], HttpResponse] | None = None,
) -> HttpResponse:
    """The answer to a write, chosen here once: the outbox's JSON; for a saved change asked
    by htmx, ``swapped()`` (the part of the page it swaps in, with the message); else the
    message and back to the page (``to``: another page of the thing). ``tags``: the
    message's own (``redo``: the Redo beside an undo's message)."""
    if from_outbox(request):
        return outbox_reply(access, outcome, message)
    messages.add_message(request, level, message, extra_tags=tags)
    if outcome == "saved" and swapped is not None:
        return swapped()
    return redirect(page_url(access, to))


def after_commit(request: HttpRequest, access: Access, event: Event) -> None:
    """What a change does once committed, registered here: what this request renders for
    the cache is kept in one transaction at the end of its answer (``reading.defer_writes``);
    a game's viewers get the new sheet kept ahead of their asking (``warm.changed``, run by
    the commit), rendered from the rows the change left loaded when it kept them up to date
    (``reading.pin``), the game handed to the viewers' request as the change left it."""
    reading.defer_writes()
    game = access.shared
    if not isinstance(game, Game):
        return
    if game.loaded_rows(game.version) is not None:
        reading.pin(game, game.version, event)
    warm.changed(request, game)


def replayed_start(request: HttpRequest, owner: str, page: str) -> HttpResponse | None:
    """The answer to a form that starts a thing (a circle, an evening, a tournament) sent
    again: its one-time token is in the history already. The thing it started: this phone
    is its editor, back to its page; another form's token: nothing happened, home. None: a
    form never sent."""
    once = posted_once(request)
    earlier = Event.objects.filter(form_token=once).first() if once else None
    if earlier is None:
        return None
    messages.info(request, already_done())
    thing = getattr(earlier, owner) if earlier.kind == "started" else None
    if thing is None:
        return redirect("home")
    remember_created(request, thing)
    return redirect(reverse(page, kwargs={"token": thing.editor_token}))


def incomplete() -> str:
    return _("The form was incomplete; nothing was changed.")


def already_done() -> str:
    return _("That was already done; it happened once.")


def write(
    request: HttpRequest,
    access: Access,
    change: Callable[..., Event],
    done: str | Callable[[Event], str],
    *,
    stale: Callable[[HttpRequest, Access], HttpResponse],
    refused: dict[type[Exception], Callable[[Any], str]] | None = None,
    tags: str = "",
    to: str | None = None,
    swapped: Callable[[], HttpResponse] | None = None,
) -> HttpResponse:
    """One write: ``change(version=, once=, actor=)`` through the kernel, then the answer
    (``answer``). ``done``: the message of a saved change (or made from its history entry);
    ``stale(request, fresh)``: the answer to a stale form, given the thing read again;
    ``refused``: the thing's own refusals, by exception, each with its message."""
    version, once = posted_version(request), posted_once(request)
    if version is None or not once:
        return answer(request, access, "invalid", incomplete(), ERROR, to=to)
    try:
        event = change(version=version, once=once, actor=actor(request, access))
    except AlreadyDone:
        return answer(request, access, "already", already_done(), INFO, to=to)
    except StaleVersion:
        fresh = _fresh(request, access)
        if from_outbox(request):
            return outbox_reply(fresh, "conflict", stale_notice(fresh))
        return stale(request, fresh)
    except tuple(refused or ()) as exc:
        message = (refused or {})[type(exc)](exc)
        return answer(request, access, "invalid", message, ERROR, to=to)
    after_commit(request, access, event)
    message = done(event) if callable(done) else done
    return answer(request, access, "saved", message, tags=tags, to=to, swapped=swapped)


def _fresh(request: HttpRequest, access: Access) -> Access:
    """The thing read again after a stale form, reached as before: through its link, or, for
    a tournament player's own link (not a link of the tournament), by its id."""
    if access.via == "player_link":
        shared = type(access.shared)._default_manager.get(pk=access.shared.pk)
        return Access(shared, access.token, access.role, access.via)
    return resolve(request, access.token, kind=KINDS[type(access.shared)])


def stale_notice(access: Access) -> str:
    """What a phone whose form was stale reads above the fresh page."""
    if isinstance(access.shared, Game):
        return _(
            "The sheet changed while you were entering this: another phone saved a change. "
            "Here is the fresh sheet; check it and save again if still needed."
        )
    if KINDS[type(access.shared)].page == "tournament":
        return _(
            "The tournament changed while you were on this page: another phone saved a "
            "change. Here is the fresh tournament; check it and do it again if still needed."
        )
    if KINDS[type(access.shared)].page == "evening":
        return _(
            "The evening changed while you were on this page: another phone saved a change. "
            "Here is the fresh evening; check it and do it again if still needed."
        )
    return _(
        "The circle changed while you were on this page: another phone saved a change. "
        "Here is the fresh circle; check it and do it again if still needed."
    )


def replace_link(request: HttpRequest, access: Access, *, to: str | None = None) -> HttpResponse:
    """Replace the thing's viewer or editor link (whatever its state: a link that went too
    far must stop working). A phone that used the replaced link goes on under the new one;
    a stale form replaces nothing and says so, back on the page it came from."""
    shared = access.shared
    which = request.POST.get("link", "")
    if which not in shared.LINKS:
        return answer(request, access, "invalid", _("Choose which link to replace."), ERROR, to=to)
    field = shared.LINKS[which]
    old = getattr(shared, field)

    def change(**kwargs: Any) -> Event:
        event = shared.replace_link(which, **kwargs)
        if access.token == old:  # this phone goes on under the new link
            access.token = getattr(shared, field)
        return event

    def stale(request: HttpRequest, fresh: Access) -> HttpResponse:
        message = _("Another phone changed it meanwhile; nothing was replaced. Try again.")
        return answer(request, fresh, "conflict", message, ERROR, to=to)

    if which == "viewer":
        done = _("The old viewer link no longer works; share the new one.")
    else:
        done = _("The old editor link no longer works; share the new one.")
    return write(request, access, change, done, stale=stale, to=to)
