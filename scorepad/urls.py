from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from rules import api

urlpatterns = [
    path("api/check", api.check, name="api-check"),
]

urlpatterns += i18n_patterns(
    path("", include("scorepad.site_urls")),
    path("", include("rules.urls")),
    prefix_default_language=True,
)
