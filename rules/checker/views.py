"""The view of ``/<lang>/check/`` (the query it reads: see the package's docstring)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_safe
from django_htmx.http import replace_url

from ..api import counts_as_api
from .links import encode, same_query, state_pairs
from .presenter import page_context
from .state import read_state

HTMX_TARGET = "check-result"


def _server_timing(response: HttpResponse, answer: dict[str, Any]) -> None:
    if "elapsed_ms" in answer:
        response["Server-Timing"] = f"check;dur={answer['elapsed_ms']:.1f}"


@counts_as_api  # it runs the engine as /api/check does: one limit for both, per client
@require_safe
def check_page(request: HttpRequest) -> HttpResponse:
    """``/<lang>/check/``: the hand checker (see the module docstring for the query)."""
    lang = get_language()
    state = read_state(request.GET, lang)
    pairs = state_pairs(state)
    url = reverse("check") + ("?" + encode(pairs) if pairs else "")
    shared = reverse("check") + "?" + encode(state_pairs(state, shared=True))
    htmx = getattr(request, "htmx", None)
    fragment = bool(
        htmx
        and not htmx.history_restore_request
        and not htmx.boosted
        and htmx.target == HTMX_TARGET
    )
    if request.GET and not fragment and not state.notices and not same_query(request.GET, pairs):
        return redirect(url)
    settings_open = fragment and htmx is not None and htmx.trigger == "check-settings"
    context = page_context(state, lang, url, settings_open)
    context["share_url"] = shared
    context["share_link"] = request.build_absolute_uri(shared)
    if fragment:
        response = render(request, "rules/check.html#live", context)
        replace_url(response, url)
    else:
        response = render(request, "rules/check.html", context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    _server_timing(response, context["answer"])
    return response
