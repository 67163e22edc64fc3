from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules.engine.variants import VARIANTS


def api_docs(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/api.html", {"variants": VARIANTS.values()})
