from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules.facts import all_facts


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"variants": all_facts()})
