"""The installable app: its manifest, its service worker and the page it shows offline."""

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
from django.views.decorators.http import require_GET

HTMX = "django_htmx/htmx-2.min.js"
# What every page needs, kept by the service worker when it is installed.
SHELL = ("css/app.css", HTMX, "js/cards.js", "js/table.js", "img/icon.svg")
ICONS = (
    ("img/icon-192.png", "192x192", "any"),
    ("img/icon-512.png", "512x512", "any"),
    ("img/icon-maskable-512.png", "512x512", "maskable"),
)


@require_GET
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
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that its scope is every page."""
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    # The browser checks for a new worker on every visit; the file itself is small.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the service worker for a page this phone never opened, when it has no
    connection; the games this phone keeps are listed by its script."""
    return render(request, "app/offline.html")
