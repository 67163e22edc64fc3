"""The grant table (docs/architecture.md, "Who a link lets in"): for each kind of link, the
links of other things its pages may show and the writes it grants. Every page the URLconf
has is opened with each kind of link in each place a link may be given, and every link and
signed reference found in the answers must be one the table grants to that kind."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import translation

from continental.logfilters import LINK_PARAMETERS
from scorepad.access import CIRCLES, EVENINGS, GAMES, again_game, circle_grant, evening_grant
from scorepad.models import Evening, EveningGame
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic
from tests.urlconf import routes

pytestmark = pytest.mark.django_db

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def finished(players, circle=None):
    game = GameFactory(variant_id="classic", players=players, circle=circle)
    record_classic(game, 0, jokers=1)
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    game.refresh_from_db()
    return game


@dataclass
class World:
    """A circle with three games (two in its evening, which was carried to the next one),
    and outside any circle two games, one of them in an evening."""

    circle: object
    games: dict
    evenings: dict

    def things(self):
        yield "circle", self.circle
        yield from self.games.items()
        yield from self.evenings.items()


@pytest.fixture
def world():
    circle = CircleFactory()
    players = ["Anna", "Ben", "Cleo"]
    games = {
        "circle game": finished(players, circle),
        "other circle game": finished(players, circle),
        "circle game in play": GameFactory(players=players, circle=circle),
        "lone game": finished(players),
        "other lone game": finished(players),
    }
    evening = Evening.objects.create(stake="0.10", circle=circle)
    for position, key in enumerate(["circle game", "other circle game"], start=1):
        EveningGame.objects.create(
            evening=evening, game=games[key], stake="0.10", position=position
        )
    evening.refresh_from_db()
    following = evening.carry({}, version=evening.version, once=None, actor=ACTOR)
    lone = Evening.objects.create(stake="0.10")
    EveningGame.objects.create(evening=lone, game=games["lone game"], stake="0.10", position=1)
    return World(
        circle, games, {"circle evening": evening, "next evening": following, "lone evening": lone}
    )


def shown_by(client, kind, token):
    """Every answer to a GET of a page with ``token`` in each place a link may be given."""
    values = {"number": 1, "code": "de", "variant_id": "classic", "year": 2026, "pk": 1}
    for route in routes():
        if route.kind == kind:
            yield client.get(route.url(token=token, **values))
        elif not route.kind and "rest" not in route.parameters:
            for name in LINK_PARAMETERS:
                value = f"/en/games/{token}/" if name == "back" else token
                yield client.get(f"{route.url(**values)}?{name}={value}")


# A signed value (``signing.Signer``): its data and signature, and a time before them once.
SIGNED = re.compile(r"[\w.-]+(?::[\w-]+){1,2}")


def found_in(world, answers):
    """The links of ``world`` (``"<thing>.viewer"``/``".editor"``) and the signed
    references (``"<thing>.circle-ref"``, ``"<thing>.again"``, ``"<thing>.next-game"``) in
    ``answers``."""
    found = set()
    for response in answers:
        if response.status_code == 405:
            continue
        text = response.content.decode(errors="replace") + response.headers.get("Location", "")
        text = unquote(text.replace("&amp;", "&"))
        for name, thing in world.things():
            for which in ("viewer", "editor"):
                if getattr(thing, f"{which}_token") in text:
                    found.add(f"{name}.{which}")
        for value in set(SIGNED.findall(text)):
            grant = circle_grant(value)
            if grant is not None:
                found.add(f"{name_of(world, grant.game or grant.circle)}.circle-ref")
            again, in_circle = again_game(value)
            if again is not None and in_circle:
                found.add(f"{name_of(world, again)}.again")
            evening = evening_grant(value)
            if evening is not None:
                found.add(f"{name_of(world, evening)}.next-game")
    return found


def name_of(world, obj):
    return next(name for name, thing in world.things() if thing == obj)


# --- the table ---------------------------------------------------------------------------------


@dataclass
class Row:
    kind: str  # "game", "evening", "circle" or "" (no link)
    role: str  # "viewer", "editor" or ""
    shows: set[str]
    writes: set[str]


def table() -> list[Row]:
    text = ARCHITECTURE.read_text()
    part = text[text.index("### Who a link lets in") :]
    rows = []
    for line in part.splitlines()[
        part.splitlines().index("| Link | Its pages may show | Writes it grants |") + 2 :
    ]:
        if not line.startswith("|"):
            break
        link, shows, writes = (cell.strip() for cell in line.strip("|").split("|"))
        words = link.split()
        kind, role = (words[0], words[1]) if words[0] != "no" else ("", "")
        rows.append(
            Row(
                kind,
                role,
                set(re.findall(r"`([^`]+)`", shows)),
                set(re.findall(r"`([^`]+)`", writes)),
            )
        )
    return rows


def kind_of(name: str) -> str:
    return "circle" if name == "circle" else "evening" if "evening" in name else "game"


def expand(world, name: str, codes: set[str]) -> set[str]:
    """What a row's codes mean for the thing ``name`` of ``world``."""
    thing = dict(world.things())[name]
    related = {"self": [name]}
    if kind_of(name) == "evening":
        games = {e.game_id for e in EveningGame.objects.filter(evening=thing)}
        related["games"] = [n for n, g in world.games.items() if g.pk in games]
        near = {
            thing.next_evening_id,
            getattr(Evening.objects.filter(next_evening=thing).first(), "pk", None),
        }
        related["neighbours"] = [n for n, e in world.evenings.items() if e.pk in near]
    if kind_of(name) == "circle":
        related["games"] = [n for n, g in world.games.items() if g.circle_id == thing.pk]
        related["evenings"] = [n for n, e in world.evenings.items() if e.circle_id == thing.pk]
    out = set()
    for code in codes:
        relation, _dot, what = code.partition(".")
        out |= {f"{other}.{what}" for other in related.get(relation, [])}
    return out


def sessions(name: str, thing) -> dict:
    key = {"game": GAMES.created, "evening": EVENINGS.created, "circle": CIRCLES.created}[
        kind_of(name)
    ]
    return {key: [thing.pk]}


def client_with(session: dict | None = None) -> Client:
    client = Client()
    if session:
        stored = client.session
        stored.update(session)
        stored.save()
    return client


# The things whose starter's session is walked too (it holds the editor's rights).
STARTED = ("circle", "circle game", "circle evening")


def test_every_page_shows_only_the_links_its_link_grants_and_every_grant_is_seen(world):
    rows = {(row.kind, row.role): row for row in table()}
    used: dict[tuple[str, str], set[str]] = {key: set() for key in rows}
    wrong = []
    for name, thing in world.things():
        if name.startswith("other"):  # there to be shown where it must not be
            continue
        kind = kind_of(name)
        for role in ("viewer", "editor", "starter") if name in STARTED else ("viewer", "editor"):
            which = "viewer" if role == "starter" else role
            client = client_with(sessions(name, thing) if role == "starter" else None)
            found = found_in(world, shown_by(client, kind, getattr(thing, f"{which}_token")))
            row = rows[(kind, "editor" if role == "starter" else role)]
            allowed = expand(world, name, row.shows)
            if found - allowed:
                wrong.append((name, role, sorted(found - allowed)))
            for code in row.shows:
                if found & expand(world, name, {code}):
                    used[(row.kind, row.role)].add(code)
    assert not wrong, wrong
    # The kinds this world holds (a tournament's rows are walked by tests/scorepad/
    # test_tournaments.py, whose pages show them).
    walked = {kind_of(name) for name, _thing in world.things()}
    unseen = {key: rows[key].shows - seen for key, seen in used.items() if key[0] in walked}
    assert not any(unseen.values()), f"the table names what no page shows: {unseen}"


def test_every_write_is_in_the_table_and_no_viewer_link_grants_one():
    from tests.whole.test_walk import NOT_WRITES, url_methods

    rows = table()
    kinds = {route.name: route.kind for route in routes()}
    posting = {name for name, allowed in url_methods().items() if allowed and "POST" in allowed}
    for row in rows:
        if row.role == "viewer":
            assert not row.writes, row
    granted = set().union(*(row.writes for row in rows))
    assert posting - granted == set(), "writes the grant table does not give"
    assert granted - posting - NOT_WRITES == set(), "the table grants writes the app has not"
    for row in rows:
        if row.role == "editor":
            own = {name for name in posting if kinds.get(name) == row.kind}
            assert own <= row.writes, (row.kind, own - row.writes)
