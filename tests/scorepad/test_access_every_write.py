"""Every write of the site, found in the URLconf (issue 21, item 14: the access tests listed
the writes by hand, and Redo and Bring back were missing): each URL pattern that answers a
POST with anything but 405 is a write. A write behind a game's or an evening's link is
refused through a viewer link, a replaced link, an unknown link and the viewer link of a
phone that holds another game's editor rights, and changes nothing (versions and rows
alike); another game's editor link changes nothing of this game. The same data through the
editor link does change it, so each refusal is the link's, not the data's. A POST that is
not behind a link must be one of the few that start something new: a new one fails here."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.access import GAMES
from scorepad.models import (
    Circle,
    Deal,
    DealScore,
    Evening,
    EveningBalance,
    EveningGame,
    Event,
    Game,
    Person,
    Seat,
    Table,
    TableSeat,
    Tournament,
)
from scorepad.tournaments import Entrant
from tests.factories import (
    ACTOR,
    CircleFactory,
    GameFactory,
    classic_form_data,
    record_classic,
    record_penalty,
)
from tests.urlconf import routes

pytestmark = pytest.mark.django_db

# POSTs that are behind no link: they start something new (a game, an import, an evening)
# or are the JSON API. Anything else that takes a POST must sit behind a link.
NOT_BEHIND_A_LINK = {
    "game-new",
    "game-import",
    "evening-new",
    "circle-new",
    "tournament-new",
    "api-check",
}
UNKNOWN = "x" * 24


def all_routes():
    with translation.override("en"):
        return list(routes())


def sample(route, token="E" * 24):
    values = {"token": token, "number": 1, "pk": 1, "code": "de", "rest": "en/",
              "variant_id": "classic", "year": 2026}  # fmt: skip
    return route.url(**values)


def takes_post(route) -> bool:
    """A pattern is a write when a POST to it is not answered 405 (with any link or none:
    a view refuses the method before it looks the link up)."""
    return Client().post(sample(route), {}).status_code != 405


@pytest.fixture
def table(db):
    """Game A (an undone deal to redo), game B (finished), an evening of B (to carry)."""
    a = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    record_classic(a, 0, jokers=1)
    record_classic(a, 1)
    a.refresh_from_db()
    a.undo_last_deal(version=a.version, once="undo-first-0123456789", actor=ACTOR)
    a.refresh_from_db()
    b = GameFactory(variant_id="classic", players=["Eve", "Finn"])
    record_classic(b, 0)
    b.refresh_from_db()
    b.end(version=b.version, once=None, actor=ACTOR)
    evening = Evening.objects.create(stake="0.10")
    EveningGame.objects.create(evening=evening, game=b, stake="0.10", position=1)
    # A circle: Kim and Lou in one game, Mo and Nia in another, Pat merged into Nia.
    circle = CircleFactory(name="Table")
    GameFactory(circle=circle, players=["Kim", "Lou"])
    GameFactory(circle=circle, players=["Mo", "Nia"])
    Person.objects.create(circle=circle, name="Pat", merged_into=circle.find("Nia"))
    # A tournament of the circle whose first series' seating is proposed, about to start
    # ("Club"), and one whose table has ended its game, for a player to confirm ("Cup").
    club = Tournament.objects.create(name="Club", variant_id="romme", deals=1, circle=circle)
    for number, name in enumerate(["Ola", "Per", "Siv"], start=1):
        Entrant.objects.create(tournament=club, number=number, name=name)
    club.propose(version=club.version, once="club-seating-0123456789", actor=ACTOR)
    cup = Tournament.objects.create(name="Cup", variant_id="romme", deals=1)
    for number, name in enumerate(["Tor", "Una"], start=1):
        Entrant.objects.create(tournament=cup, number=number, name=name)
    cup.propose(version=cup.version, once="cup-seating-0123456789", actor=ACTOR)
    cup.start_series(version=cup.version, once="cup-series-0123456789", actor=ACTOR)
    game = Table.objects.get(tournament=cup).game
    record_penalty(game, 0, {1: 10})
    return a, b, evening


def the_circle():
    return Circle.objects.get(name="Table")


def data_for(route, a, b, evening):
    """A form that the editor link gets done: the fields every write of a kind reads."""
    a.refresh_from_db()
    evening.refresh_from_db()
    once = {"once": f"{route.name}-a-fresh-token-0123456789"}
    if route.kind in ("tournament", "player"):
        tournament = Tournament.objects.get(name="Club" if route.kind == "tournament" else "Cup")
        player = tournament.entrants.first()
        # A player's confirmation carries the version of the table's game it shows.
        version = (
            Table.objects.get(tournament=tournament).game.version
            if route.kind == "player"
            else tournament.version
        )
        return {"version": version, "name": "Zed", "player": player.pk,
                "link": "editor", "answer": "confirm", "a": 1, "b": 2,
                "person": the_circle().find("Kim").pk, **once}  # fmt: skip
    if route.kind == "circle":
        circle = the_circle()
        fields = {"version": circle.version, "link": "editor", "name": "Kimberly", **once}
        fields["person"] = circle.find("Kim").pk
        fields["into"] = circle.find("Mo").pk
        if route.name == "circle-separate":
            fields["person"] = Person.objects.get(name="Pat").pk
        return fields
    if route.kind == "evening":
        fields = {"version": evening.version, "stake": "0.10", "link": "editor", **once}
        if route.name == "evening-add":
            fields["game"] = a.editor_token
        elif route.name == "evening-remove":
            fields["game"] = b.pk
        return fields
    fields = {**classic_form_data(a, 2, jokers=1), **once, "link": "editor"}
    undone = Event.objects.filter(game=a, kind="undone").first()
    fields.update(event=undone.pk, form="join", name="Zed")
    return fields


def picture():
    """Every row and version a write could change."""
    models = (Game, Seat, Circle, Person, Event, Deal, DealScore, Event, Evening,
              EveningGame, EveningBalance, Event, Tournament, Entrant, Table,
              TableSeat)  # fmt: skip
    return {m.__name__: sorted(map(repr, m.objects.values_list())) for m in models}


def game_picture(game):
    return (
        Game.objects.filter(pk=game.pk).values_list().get(),
        sorted(map(repr, Seat.objects.filter(game=game).values_list())),
        sorted(map(repr, Deal.objects.filter(game=game).values_list())),
        sorted(map(repr, DealScore.objects.filter(deal__game=game).values_list())),
        sorted(map(repr, Event.objects.filter(game=game).values_list())),
        sorted(map(repr, EveningGame.objects.filter(game=game).values_list())),
    )


def writes_behind_links():
    return [r for r in all_routes() if r.kind and takes_post(r)]


def test_every_post_is_behind_a_link_or_starts_something_new(db):
    loose = {r.name for r in all_routes() if not r.kind and takes_post(r)}
    assert loose == NOT_BEHIND_A_LINK, "a new POST: put it behind a link, or say why not"


def test_the_walk_finds_the_writes_the_issue_names(db):
    names = {r.name for r in writes_behind_links()}
    assert {"deal-redo", "deal-restore", "game-players", "evening-carry"} <= names
    assert "game" not in names
    assert "game-history" not in names


def links(route, a, evening):
    """The viewer's link and the link that may write: for a player's write, the tournament's
    viewer link (no player's: unknown there) and the player's own."""
    if route.kind == "tournament":
        club = Tournament.objects.get(name="Club")
        return club.viewer_token, club.editor_token
    if route.kind == "player":
        cup = Tournament.objects.get(name="Cup")
        seated = TableSeat.objects.filter(table__tournament=cup).order_by("position")
        return cup.viewer_token, seated.last().entrant.token
    if route.kind == "circle":
        circle = the_circle()
        return circle.viewer_token, circle.editor_token
    if route.kind == "evening":
        return evening.viewer_token, evening.editor_token
    return a.viewer_token, a.editor_token


def url_of(route, token):
    with translation.override("en"):
        kwargs = {"token": token}
        if "number" in route.parameters:
            kwargs["number"] = 1
        return reverse(route.name, kwargs=kwargs)


def refused_and_unchanged(client, route, token, data, statuses):
    before = picture()
    response = client.post(url_of(route, token), data)
    assert response.status_code in statuses, (route.name, response.status_code)
    assert picture() == before, route.name


BEHIND_A_LINK = [r.name for r in all_routes() if r.kind]  # pages and writes; no database


@pytest.fixture(params=BEHIND_A_LINK)
def route(request, table):
    """Each pattern behind a link; one that takes no POST is a page that only shows."""
    found = next(r for r in all_routes() if r.name == request.param)
    if not takes_post(found):
        assert Client().get(sample(found)).status_code != 405  # a page, then
    return found if takes_post(found) else None


def test_a_write_is_refused_without_its_editor_link_and_changes_nothing(table, route):
    if route is None:
        return  # a page: it has no POST to refuse (the fixture checked it answers 405)
    a, b, evening = table
    viewer, _editor = links(route, a, evening)
    data = data_for(route, a, b, evening)
    refused = {404} if route.kind == "player" else {403}  # no player's link: unknown there
    refused_and_unchanged(Client(), route, viewer, data, refused)
    refused_and_unchanged(Client(), route, UNKNOWN, data, {404})
    # A phone that created another game (its session's rights) is a viewer here.
    other = Client()
    session = other.session
    session[GAMES.created] = [b.pk]
    session.save()
    refused_and_unchanged(other, route, viewer, data, refused)


def test_a_replaced_link_is_refused_by_the_write(table, route):
    if route is None:
        return
    a, b, evening = table
    if route.kind == "player":
        return  # a player's own link is not replaced; an unknown one is refused above
    if route.kind == "tournament":
        club = Tournament.objects.get(name="Club")
        old = club.editor_token
        club.replace_link("editor", version=club.version, once="replace-t-0123", actor=ACTOR)
    elif route.kind == "circle":
        circle = the_circle()
        old = circle.editor_token
        circle.replace_link("editor", version=circle.version, once="replace-c-0123", actor=ACTOR)
    elif route.kind == "evening":
        old = evening.editor_token
        evening.replace_link("editor", version=evening.version, once="replace-e-0123", actor=ACTOR)
    else:
        old = a.editor_token
        a.replace_link("editor", version=a.version, once="replace-a-0123456789", actor=ACTOR)
    refused_and_unchanged(Client(), route, old, data_for(route, a, b, evening), {404})


def evening_picture(evening):
    return (
        Evening.objects.filter(pk=evening.pk).values_list().get(),
        sorted(map(repr, EveningGame.objects.filter(evening=evening).values_list())),
        sorted(map(repr, EveningBalance.objects.filter(evening=evening).values_list())),
        sorted(map(repr, Event.objects.filter(evening=evening).values_list())),
    )


def tournament_picture(tournament):
    return (
        Tournament.objects.filter(pk=tournament.pk).values_list().get(),
        sorted(map(repr, Entrant.objects.filter(tournament=tournament).values_list())),
        sorted(map(repr, Table.objects.filter(tournament=tournament).values_list())),
        sorted(map(repr, Event.objects.filter(tournament=tournament).values_list())),
    )


def circle_picture(circle):
    return (
        Circle.objects.filter(pk=circle.pk).values_list().get(),
        sorted(map(repr, Person.objects.filter(circle=circle).values_list())),
        sorted(map(repr, Event.objects.filter(circle=circle).values_list())),
    )


def test_another_games_editor_link_changes_nothing_of_this_game(table, route):
    """Another game's (or evening's) editor link, with this one's form: at most that other
    one changes, never this one."""
    if route is None:
        return
    a, b, evening = table
    if route.kind in ("tournament", "player"):
        name = "Club" if route.kind == "tournament" else "Cup"
        mine = lambda: tournament_picture(Tournament.objects.get(name=name))  # noqa: E731
        stranger = Tournament.objects.create(name="Strangers", variant_id="romme")
        newcomer = Entrant.objects.create(tournament=stranger, number=1, name="Vi")
        other = stranger.editor_token if route.kind == "tournament" else newcomer.token
    elif route.kind == "game":
        mine, other = (lambda: game_picture(a)), b.editor_token
    elif route.kind == "circle":
        mine = lambda: circle_picture(the_circle())  # noqa: E731
        stranger = CircleFactory(name="Strangers")
        GameFactory(circle=stranger, players=["Kim", "Mo"])
        other = stranger.editor_token
    else:
        mine = lambda: evening_picture(evening)  # noqa: E731
        other = Evening.objects.create(stake="0.10").editor_token
    before = mine()
    Client().post(url_of(route, other), data_for(route, a, b, evening))
    assert mine() == before, route.name


def test_the_same_data_through_the_editor_link_changes_something(table, route):
    """So each refusal above is the link's: the same form is done through the editor link."""
    if route is None:
        return
    a, b, evening = table
    _viewer, editor = links(route, a, evening)
    before = picture()
    response = Client().post(url_of(route, editor), data_for(route, a, b, evening))
    assert response.status_code in (200, 302), (route.name, response.status_code)
    assert picture() != before, route.name
