"""The game page links to the rules and the hand checker set up for that game."""

import html

from tests.factories import GameFactory, record_penalty


def links(body: str) -> list[str]:
    import re

    return [html.unescape(h) for h in re.findall(r'href="([^"]+)"', body)]


def test_rules_of_this_game_mark_its_house_rules(client, db):
    game = GameFactory(variant_id="romme", players=["Anna", "Ben"])
    game.options = {**game.options, "opening_minimum": 40}
    game.save()
    body = client.get(f"/en/games/{game.viewer_token}/").content.decode()
    assert "/en/rules/romme/?opening_minimum=40#house-rules" in links(body)


def test_the_checker_opens_with_the_games_variant_deal_and_schedule(client, db):
    game = GameFactory(variant_id="contract-spanish", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 0, {1: 10, 2: 20})
    body = client.get(f"/en/games/{game.viewer_token}/").content.decode()
    (checker,) = [h for h in links(body) if h.startswith("/en/check/")]
    assert "variant=contract-spanish" in checker
    assert "deal=2" in checker
    answer = client.get(checker, follow=True)
    assert answer.status_code == 200
    assert "contract-spanish" in answer.content.decode()


def test_the_checker_link_of_a_classic_game_keeps_its_house_rules(client, db):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    game.options = {"twos_wild": False}
    game.save()
    body = client.get(f"/en/games/{game.viewer_token}/").content.decode()
    (checker,) = [h for h in links(body) if h.startswith("/en/check/")]
    assert "twos_wild=false" in checker
