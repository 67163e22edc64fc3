"""Every error answer is a page of the app in the phone's language (issue 45, item 6).

Django's own answers are bare English ("Bad Request (400)", an empty 405). Here each status
renders ``templates/error.html``, a page that needs nothing but the translations and the
static files: no request context, no session, no database. That matters for two of them:

- 400 for a host that is not allowed (``DisallowedHost``): any call of
  ``request.get_host()`` would raise again, so the language comes from the path, the
  language cookie or the browser's languages, and the page has no absolute link;
- 500: the database may be what failed (a lost one answers 503 in ``dbdown.py``).

405 (a GET to an address that takes only POST, say) is Django's empty answer, given its page
here by ``ErrorPagesMiddleware``, the ``Allow`` header kept; under ``/api/`` the API's own
JSON errors stay (``ApiErrorsAsJsonMiddleware``). A refused CSRF check (403) says what a
person can do: reload the page and send the form again.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

from rules import api


def _language(request: HttpRequest | None) -> str:
    """The phone's language, read without the host: the path's prefix, then the cookie and
    the browser's languages (what LocaleMiddleware would pick)."""
    if request is None:
        return settings.LANGUAGE_CODE
    chosen = getattr(request, "LANGUAGE_CODE", None)
    if chosen:
        return chosen
    try:
        return translation.get_language_from_request(request, check_path=True)
    except Exception:  # an answer about an error never fails itself
        return settings.LANGUAGE_CODE


def page(request: HttpRequest | None, status: int, title: str, text: str) -> HttpResponse:
    """The error page; ``title`` and ``text`` are gettext's, rendered in the phone's language."""
    with translation.override(_language(request)):
        body = render_to_string(
            "error.html",
            {
                "site_name": settings.SITE_NAME,
                "title": _(title),
                "text": _(text),
            },
        )
    return HttpResponse(body, status=status)


# The words of each page (marked for the catalogue here, translated when rendered).
BAD_REQUEST = (
    N_("This request cannot be answered"),
    N_(
        "The address or the form that was sent is not one this server takes. If you typed "
        "the address, check it; if you opened a link, start again from the app's home page."
    ),
)
FORBIDDEN = (N_("Not allowed"), N_("This page or change is not open to this link."))
STALE_FORM = (
    N_("The form has expired"),
    N_(
        "The page was open too long or came from another tab, so the form could not be "
        "checked. Reload the page and send it again: nothing was changed."
    ),
)
NOT_ALLOWED = (
    N_("Nothing to open here"),
    N_(
        "This address only takes what a form sends; there is no page to show. Go back to the "
        "page you came from."
    ),
)
SERVER_ERROR = (
    N_("Something went wrong on the server"),
    N_(
        "What you sent may not have been saved: reload the page to see, and send it again if "
        "it is not there."
    ),
)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return page(request, 400, *BAD_REQUEST)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return page(request, 403, *FORBIDDEN)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return page(request, 403, *STALE_FORM)


def server_error(request: HttpRequest | None = None) -> HttpResponse:
    return page(request, 500, *SERVER_ERROR)


class ErrorPagesMiddleware:
    """An empty 405 answer of Django's becomes the app's page, its ``Allow`` kept."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and not response.content
            and not request.path.startswith(api.API_PREFIX)
        ):
            answer = page(request, 405, *NOT_ALLOWED)
            if "Allow" in response:
                answer["Allow"] = response["Allow"]
            return answer
        return response
