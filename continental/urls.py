from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from rules import api, openapi

from . import app, views

# Every error answer is a page of the app in the phone's language (errors.py); a lost
# database connection outside a view answers 503, not the 500 page (dbdown.py).
handler400 = "continental.errors.bad_request"
handler403 = "continental.errors.permission_denied"
handler500 = "continental.dbdown.server_error"

urlpatterns = [
    path("sw.js", app.service_worker, name="service-worker"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("language/<str:code>/", views.choose_language, name="choose-language"),
    path("language/<str:code>/<path:rest>", views.choose_language, name="choose-language"),
    path("api/check", api.check, name="api-check"),
    path("api/openapi.json", openapi.openapi_json, name="api-openapi"),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("offline/", app.offline, name="offline"),
    path("", include("scorepad.urls")),
    path("", include("rules.urls")),
    prefix_default_language=True,
)

if settings.BENCH_VIEWS:
    urlpatterns.append(path("bench/bare", views.bench_bare, name="bench-bare"))
