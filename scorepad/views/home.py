from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from rules.facts import all_facts

from ..access import known_games, private_to_editors
from ..models import Game


@private_to_editors
def home(request: HttpRequest) -> HttpResponse:
    games = known_games(request, Game.objects.in_progress())[:10]
    return render(request, "home.html", {"variants": all_facts(), "games_in_progress": games})
