from django.urls import path

from . import views

urlpatterns = [
    path("api/", views.api_docs, name="api-docs"),
]

# The rules pages (under the language prefix): index, one game, its one-page summary.
urlpatterns += [
    path("rules/", views.rules_index, name="rules-index"),
    path("rules/<slug:variant_id>/", views.rules_variant, name="rules-variant"),
    path("rules/<slug:variant_id>/summary/", views.rules_summary, name="rules-summary"),
]
