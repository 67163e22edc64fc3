from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from rules import api, openapi
from scorepad.views import app, home

# A lost database connection outside a view answers 503, not the 500 page (dbdown.py).
handler500 = "continental.dbdown.server_error"

urlpatterns = [
    path("sw.js", app.service_worker, name="service-worker"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("language/<str:code>/", home.choose_language, name="choose-language"),
    path("language/<str:code>/<path:rest>", home.choose_language, name="choose-language"),
    path("api/check", api.check, name="api-check"),
    path("api/openapi.json", openapi.openapi_json, name="api-openapi"),
]

urlpatterns += i18n_patterns(
    path("", include("scorepad.site_urls")),
    path("", include("rules.urls")),
    prefix_default_language=True,
)

BARE_PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bare</title></head>'
    "<body><p>A fixed page: no template, no database.</p></body></html>"
)


def bench_bare(request: HttpRequest) -> HttpResponse:
    """The baseline of bench/load.py: a fixed small page through the same middleware."""
    return HttpResponse(BARE_PAGE)


if settings.BENCH_VIEWS:
    urlpatterns.append(path("bench/bare", bench_bare, name="bench-bare"))
