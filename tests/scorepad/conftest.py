import re

import pytest

from scorepad.access import GAMES
from tests.factories import GameFactory


@pytest.fixture
def game(db):
    """A classic game of Anna, Ben, Cleo and Dan, created by the ``creator`` client's phone."""
    return GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])


def own(client, game):
    """Make ``client`` the phone that created ``game`` (its session grants editor rights)."""
    session = client.session
    session[GAMES.created] = [*session.get(GAMES.created, []), game.pk]
    session.save()
    return client


@pytest.fixture
def creator(client, game):
    return own(client, game)


def hidden(body: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', body)
    assert match, f"no hidden {name}"
    return match.group(1)


@pytest.fixture(autouse=True)
def english():
    """URLs reversed in tests carry /en/, whatever language an earlier request activated."""
    from django.utils import translation

    with translation.override("en"):
        yield
