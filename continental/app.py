"""The installable app: its manifest, its service worker and the page it shows offline.

How a phone at the table copes with a flaky connection (the scripts say it in short):

- The service worker (``static/js/sw.js``, served here at ``/sw.js`` so that its scope is the
  whole site, with the deploy's file names and a version set above it) answers static files
  (hashed names, never changed) from the phone's copy. Pages, the forms htmx opens over a
  sheet and an evening's or a circle's part come from the network and are kept as they
  come; with no answer (no connection, or a server silent for a few seconds) the kept copy
  is shown, marked as a copy
  (``data-offline-copy`` on the page, ``X-Offline-Copy`` on a partial), else the offline
  page of the language. Writes, the live update, the API and the exports always go to the
  network. Browsers run a service worker only over HTTPS or on localhost.
- The page's scripts (``static/js/table.js`` wires them: ``outbox-page.js``,
  ``offline-form.js``, ``messages.js``, ``scroll.js``, ``wake.js``, each with its design in its
  header) show the connection state, keep the sheet's
  latest state with the worker after every change (no extra request). The next deal's form
  is in the sheet itself (``#offline-deal``, templates/scorepad/game.html), with or without
  a service worker: offline, "Record deal" opens it, numbered after the deals the phone
  keeps, with a one-time token the phone makes; the deals it keeps show as pending sheet
  rows. The same form corrects a deal offline: each deal's link carries the deal as stored
  (``data-values``; for a deal before someone joined, its players, the others' controls left
  out). Of the last three deals, only those the form cannot correct (an ended game's, a
  flagged deal, a deal of a player who has left since: the phone says why) have their
  forms fetched once per version, so they open offline too where a service worker keeps
  them; in a game being played, none is.
- A write to a game, an evening or a circle that cannot reach the server is kept on the phone
  and sent in order when the connection is back (the outbox, ``static/js/outbox.js``: its
  design is in its header; ``scorepad/views/writes.py`` answers its posts in JSON). ``bench/chaos.py`` drives
  this protocol from six phones while the server fails.
- The screen is kept awake with the Screen Wake Lock API where the browser has one (a
  toggle, remembered on the phone).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

HTMX = "django_htmx/htmx-2.min.js"
# What every page needs, kept by the service worker when it is installed. The card grid's
# script (js/cards.js) is not: a deal form loads it when it opens, and the worker keeps it
# then, as every static file it fetched.
# The phone's scripts by job, as templates/base.html loads them (a test holds the two alike).
PAGE_SCRIPTS = (
    "js/outbox.js",
    "js/messages.js",
    "js/offline-form.js",
    "js/outbox-page.js",
    "js/scroll.js",
    "js/wake.js",
    "js/table.js",
    "js/live.js",
)
SHELL = ("css/app.css", HTMX, *PAGE_SCRIPTS, "img/icon.svg")
ICONS = (
    ("img/icon-192.png", "192x192", "any"),
    ("img/icon-512.png", "512x512", "any"),
    ("img/icon-maskable-512.png", "512x512", "maskable"),
)


# These three answers hold no token or other secret, so compressing them is safe (BREACH
# concerns pages that carry one); the game pages stay as they are.
@require_GET
@gzip_page
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the language asked for (``?lang=``), English otherwise."""
    codes = dict(settings.LANGUAGES)
    lang = request.GET.get("lang", "")
    lang = lang if lang in codes else settings.LANGUAGE_CODE
    with translation.override(lang):
        document = {
            "name": str(settings.SITE_NAME),
            "short_name": str(settings.SITE_NAME),
            "description": _(
                "Keep the score sheet, work out what every deal is worth, check a hand, "
                "read the rules."
            ),
            "lang": lang,
            "id": "/",
            "start_url": reverse("home"),
            "scope": "/",
            "display": "standalone",
            "orientation": "portrait",
            "background_color": "#f7f6f2",
            "theme_color": "#1d6b45",
            "icons": [
                {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
                for path, sizes, purpose in ICONS
            ]
            + [{"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
        }
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "public, max-age=86400"
    return response


@cache
def _worker_source() -> str:
    """static/js/sw.js with what it must know of this deploy: the static files' names (they
    change with their content), each language's offline page, and a version that changes
    with any of them, so that a new deploy installs a new worker."""
    path = finders.find("js/sw.js")
    if not isinstance(path, str):
        raise FileNotFoundError("static/js/sw.js")
    with open(path, encoding="utf-8") as source:
        code = source.read()
    config = {
        "shell": [static(name) for name in SHELL],
        "offline": {code_: f"/{code_}/offline/" for code_, _name in settings.LANGUAGES},
        "static": settings.STATIC_URL,
    }
    config["version"] = hashlib.sha256(
        (json.dumps(config, sort_keys=True) + code).encode()
    ).hexdigest()[:12]
    return f"self.SCOREPAD = {json.dumps(config)};\n{code}"


@require_GET
@gzip_page
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that its scope is every page."""
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every visit; the file itself is small.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@gzip_page
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the service worker for a page this phone never opened, when it has no
    connection; the games this phone keeps are listed by its script."""
    return render(request, "app/offline.html")
