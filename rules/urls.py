from django.urls import path

from . import views

urlpatterns = [
    path("api/", views.api_docs, name="api-docs"),
]
