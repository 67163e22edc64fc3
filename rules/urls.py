from django.urls import path

from . import checker, views

urlpatterns = [
    path("api/", views.api_docs, name="api-docs"),
]

# The rules pages (under the language prefix): index, glossary, one game, its one-page summary.
urlpatterns += [
    path("rules/", views.rules_index, name="rules-index"),
    path("rules/glossary/", views.rules_glossary, name="rules-glossary"),  # before the games
    path("rules/tournament/", views.rules_tournament, name="rules-tournament"),
    path("rules/<slug:variant_id>/", views.rules_variant, name="rules-variant"),
    path("rules/<slug:variant_id>/summary/", views.rules_summary, name="rules-summary"),
]

# The hand checker (under the language prefix); its query string is documented in rules.checker.
urlpatterns += [
    path("check/", checker.check_page, name="check"),
]
