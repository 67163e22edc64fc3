"""Sharing a result (issue 27, "the night shared"): the text and the picture of a finished
game's final standings and of an evening's standings and settle-up, in the page's language,
with no link token in them; and a finished game as a BG Stats play."""

import json
import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorepad.access import circle_reference
from scorepad.models import Evening, Game
from tests.factories import ACTOR, CircleFactory, GameFactory, record_classic, record_penalty
from tests.scorepad.conftest import hidden, own

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def end(game: Game) -> Game:
    game.refresh_from_db()
    game.end(version=game.version, once=None, actor=ACTOR)
    game.refresh_from_db()
    return game


def classic(names=("Anna", "Ben", "Cleo"), winners=(0, 0, 1), circle=None, **kwargs) -> Game:
    game = GameFactory(variant_id="classic", players=list(names), circle=circle, **kwargs)
    for winner in winners:
        record_classic(game, winner)
    return end(game)


def penalty(variant="romme", names=("Anna", "Ben", "Cleo"), circle=None) -> Game:
    game = GameFactory(variant_id=variant, players=list(names), circle=circle)
    if variant != "romme":
        record_penalty(game, 0, {1: 35, 2: 10})
        return end(game)
    record_penalty(game, 0, {1: 37, 2: 11})
    record_penalty(game, 1, {0: 20, 2: 5})
    return end(game)


def url(name: str, token: str, lang: str = "en") -> str:
    with translation.override(lang):
        return reverse(name, kwargs={"token": token})


def page(client: Client, name: str, token: str, lang: str = "en") -> str:
    answer = client.get(url(name, token, lang))
    assert answer.status_code == 200
    return answer.content.decode()


def shared_text(body: str) -> str:
    found = re.search(r"<textarea[^>]*data-result-text>(.*?)</textarea>", body, re.S)
    assert found, "no text to share on the page"
    import html

    return html.unescape(found[1])


def picture(client: Client, name: str, token: str, lang: str = "en") -> tuple[str, ET.Element]:
    answer = client.get(url(name, token, lang))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("image/svg+xml")
    body = answer.content.decode()
    return body, ET.fromstring(answer.content)  # well-formed XML, or this fails


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def tokens_of(*things) -> list[str]:
    found = []
    for thing in things:
        if thing is not None:
            found += [thing.viewer_token, thing.editor_token]
    return found


# --- a game ---------------------------------------------------------------------------------


def test_a_finished_classic_game_shares_its_places_with_signed_points_in_english(client):
    game = classic()
    body = page(client, "game", game.viewer_token)
    text = shared_text(body)
    day = game.created_at.strftime("%B ") + str(game.created_at.day)
    assert text.startswith(f"Continental — the 15-card game, {day}: 1. Anna +")
    assert re.search(r"1\. Anna \+\d+ · 2\. Ben [+−]?\d+ · 3\. Cleo −\d+", text)
    assert "Share the result" in body
    _svg, root = picture(client, "game-result", game.viewer_token)
    shown = texts(root)
    assert "Final standings" in shown
    assert any(t.startswith("Anna") for t in shown)
    assert any(re.fullmatch(r"\+\d+", t) for t in shown)


def test_the_same_game_shared_in_german_writes_its_words_and_date_in_german(client):
    game = classic(names=("Jörg", "Ærlend", "Łucja"))
    body = page(client, "game", game.viewer_token, "de")
    assert "Ergebnis teilen" in body
    assert "Bild herunterladen" in body
    assert "Text kopieren" in body
    text = shared_text(body)
    months = "Januar Februar März April Mai Juni Juli August September Oktober November Dezember"
    month = months.split()[game.created_at.month - 1]
    assert f", {game.created_at.day}. {month}: 1. Jörg +" in text
    _svg, root = picture(client, "game-result", game.viewer_token, "de")
    assert "Endstand" in texts(root)
    assert any("Łucja" in t for t in texts(root))


def test_a_penalty_game_shares_its_penalties_unsigned_the_fewest_first(client):
    game = penalty("romme")
    text = shared_text(page(client, "game", game.viewer_token))
    places = re.findall(r"(\d)\. (\w+) (\d+)", text.splitlines()[0])
    assert places, text
    totals = [int(total) for _place, _name, total in places]
    assert totals == sorted(totals)
    assert "+" not in text.splitlines()[0].split(":", 1)[1]


@pytest.mark.parametrize("variant", ["contract-nordic", "contract-spanish"])
def test_a_contract_game_shares_its_penalties(client, variant):
    game = penalty(variant)
    text = shared_text(page(client, "game", game.viewer_token, "pl"))
    assert re.search(r"1\. Anna 0 · 2\. Cleo 10 · 3\. Ben 35", text), text
    _svg, root = picture(client, "game-result", game.viewer_token, "pl")
    shown = texts(root)
    assert shown.index("Ben") > shown.index("Cleo") > shown.index("Anna ★")
    assert "35" in shown
    assert "+35" not in shown


def test_a_classic_game_with_money_shares_the_money_and_who_pays_whom(client):
    game = classic(value_per_point=Decimal("0.10"))
    text = shared_text(page(client, "game", game.viewer_token, "de"))
    first, payments, note = text.splitlines()
    assert re.search(r"1\. Anna \+\d+ \(\+\d+,\d\d\)", first)
    assert re.fullmatch(r"[^·]+ zahlt [^·]*\d+,\d\d[^·]*( · [^·]+ zahlt [^·]*)*", payments)
    assert note == "0,10 pro Punkt." or "0,10" in note
    _svg, root = picture(client, "game-result", game.viewer_token, "de")
    shown = texts(root)
    assert any(re.fullmatch(r"\w+ zahlt \d+,\d\d an \w+", t) for t in shown)


def test_a_game_in_progress_offers_no_result_and_has_no_picture(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(game, 0)
    own(client, game)
    for token in (game.viewer_token, game.editor_token):
        body = page(client, "game", token)
        assert "data-share-result" not in body
        assert "bgstats" not in body
        answer = client.get(url("game-result", token, "es"))
        assert answer.status_code == 404
        assert "Aún no hay resultado para compartir" in answer.content.decode()


def test_the_viewer_and_the_editor_both_get_the_result_and_the_bgstats_link(client):
    game = classic()
    for token in (game.viewer_token, game.editor_token):
        body = page(Client(), "game", token)
        assert "data-share-result" in body
        assert "https://app.bgstatsapp.com/createPlay.html?data=" in body
        assert "data-bgstats" in body


def test_neither_the_text_the_picture_nor_the_link_to_bgstats_holds_a_token(client):
    circle = CircleFactory()
    game = classic(circle=circle, value_per_point=Decimal("0.05"))
    own(client, game)
    secrets = tokens_of(game, circle)
    for token in (game.viewer_token, game.editor_token):
        body = page(client, "game", token)
        text = shared_text(body)
        bgstats = re.search(r'href="(https://app\.bgstatsapp\.com[^"]+)"', body)[1]
        svg, _root = picture(client, "game-result", token)
        answer = client.get(url("game-result", token))
        for secret in secrets:
            assert secret not in text
            assert secret not in svg
            assert secret not in bgstats
            assert secret not in answer["Content-Disposition"]
        assert 'download="classic-' in body


# --- an evening -------------------------------------------------------------------------------


def start_evening(client: Client, games, circle=None, name="Friday", stake="0.15") -> Evening:
    ref = circle_reference(circle) if circle else ""
    form = client.get(reverse("evening-new"), {"circle": ref} if ref else {}).content.decode()
    answer = client.post(
        reverse("evening-new"),
        {
            **({"circle": ref} if ref else {}),
            "name": name,
            "stake": stake,
            "once": hidden(form, "once"),
            "games": [g.editor_token for g in games],
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return Evening.objects.get(name=name)


def test_an_evening_shares_its_standings_and_settle_up_in_its_language(client):
    circle = CircleFactory()
    first = classic(circle=circle)
    second = penalty("romme", circle=circle)
    evening = start_evening(client, [first, second], circle)
    text = shared_text(page(client, "evening", evening.viewer_token, "de"))
    first_line, payments = text.splitlines()
    assert first_line.startswith("Friday, ")
    assert re.search(r"1\. \w+ \+\d+,\d\d · 2\. \w+ [+−]\d+,\d\d", first_line)
    assert "so far" not in first_line
    assert "bisher" not in first_line
    assert " zahlt " in payments
    svg, root = picture(client, "evening-result", evening.viewer_token, "de")
    shown = texts(root)
    assert "Stand" in shown
    assert any(" zahlt " in t for t in shown)
    for secret in tokens_of(evening, circle, first, second):
        assert secret not in text
        assert secret not in svg
    # the same in Finnish: the words change, the names and numbers stay
    fi = shared_text(page(client, "evening", evening.viewer_token, "fi"))
    assert fi != text
    assert " zahlt " not in fi
    assert fi.split(":", 1)[1].split("\n")[0].replace(" ", "") == first_line.split(":", 1)[
        1
    ].replace(" ", "")


def test_an_evening_with_a_game_in_progress_shares_its_standings_so_far(client):
    first = classic()
    second = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    record_classic(second, 2)
    own(client, first)
    own(client, second)
    evening = start_evening(client, [first, second], name="Saturday")
    text = shared_text(page(client, "evening", evening.viewer_token))
    assert text.startswith("Saturday, ")
    assert ", so far: 1. " in text
    _svg, root = picture(client, "evening-result", evening.viewer_token)
    assert "Standings so far" in texts(root)


def test_a_carried_evening_shares_its_final_standings_and_that_nobody_pays_now(client):
    first = classic()
    own(client, first)
    evening = start_evening(client, [first], name="Sunday")
    body = page(client, "evening", evening.editor_token)
    answer = client.post(
        url("evening-carry", evening.editor_token),
        {"version": evening.version, "once": hidden(body, "once")},
    )
    assert answer.status_code == 302
    text = shared_text(page(client, "evening", evening.viewer_token, "es"))
    summary, note = text.splitlines()
    assert re.match(r"Sunday, \d+ de \w+: 1\. Anna \+", summary), summary
    assert " paga " not in text
    assert note == "Los saldos de esta velada se pasaron a la siguiente."
    _svg, root = picture(client, "evening-result", evening.viewer_token, "es")
    assert "Clasificación final" in texts(root)


def test_an_evening_without_games_offers_nothing(client):
    game = classic()
    own(client, game)
    evening = start_evening(client, [], name="Empty")
    assert "data-share-result" not in page(client, "evening", evening.viewer_token)
    assert client.get(url("evening-result", evening.viewer_token)).status_code == 404


# --- the picture ------------------------------------------------------------------------------


def test_the_picture_is_svg_with_the_players_marks_and_no_style_element(client):
    game = classic(names=("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus"), winners=(0, 6))
    svg, root = picture(client, "game-result", game.viewer_token)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title") is not None
    assert not list(root.iter(f"{SVG}style"))
    assert "style=" not in svg
    assert "<script" not in svg
    assert "href" not in svg
    paths = [p for p in root.iter(f"{SVG}path") if p.get("fill-rule") == "evenodd"]
    assert len(paths) == 7
    assert len({p.get("d") for p in paths}) == 7
    assert sum(p.get("d").count("M") == 2 for p in paths) == 1  # the seventh's mark: hollow
    height = int(root.get("height"))
    assert int(root.get("viewBox").split()[3]) == height
    for text in root.iter(f"{SVG}text"):
        assert 0 < float(text.get("y")) <= height


def test_a_long_name_is_cut_in_the_picture_and_whole_in_the_text(client):
    long = "Maximiliane Wilhelmine von Hohenzollern"
    game = classic(names=(long, "Ben", "Cleo"), value_per_point=Decimal("0.10"))
    _svg, root = picture(client, "game-result", game.viewer_token)
    assert not any(long in t for t in texts(root)[:-1] if not t.startswith("1."))
    assert any(t.startswith("Maximiliane Wilhelm") and "…" in t for t in texts(root))
    text = shared_text(page(client, "game", game.viewer_token))
    assert f"1. {long} +" in text
    assert f"pays {long} " in text
    payment = next(t for t in root.iter(f"{SVG}text") if " pays " in "".join(t.itertext()))
    assert "Maximiliane Wilhelmin…" in payment.text
    assert long not in payment.text


def test_a_line_too_long_for_the_picture_is_squeezed_into_it():
    from scorepad.results import Place, Result

    long = Result(
        title="Ein sehr langer Name für einen Abend am See",
        date="3. Dezember",
        heading="Stand",
        places=[Place(1, "Anna", "+1,00"), Place(2, "Ben", "−1,00")],
        payments=[("Maximiliane Wilhelmine von Hohenzollern", "Bartholomäus Ferdinand", "1,00")],
    )
    assert long.title_length == "890"
    [(_y, text, length)] = long.payment_rows
    assert text == "Maximiliane Wilhelmin… pays Bartholomäus Ferdinand 1,00"
    assert length == "960"
    short = Result(title="Freitag", date="", heading="", places=[], payments=[("A", "B", "1")])
    assert short.title_length == ""
    assert short.payment_rows[0][2] == ""


def test_the_pictures_colours_are_the_stylesheets():
    from pathlib import Path

    from django.conf import settings

    from scorepad.results import COLOURS

    css = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()
    light = re.search(r":root \{ --shade: [^;]+; (--p0[^}]+)\}", css)[1]
    assert tuple(re.findall(r"--p\d: (#[0-9a-f]{6});", light)) == COLOURS


# --- BG Stats -----------------------------------------------------------------------------------


def play(body: str) -> dict:
    import html

    link = html.unescape(re.search(r'href="(https://app\.bgstatsapp\.com[^"]+)"', body)[1])
    parts = urlsplit(link)
    assert parts.path == "/createPlay.html"
    return json.loads(parse_qs(parts.query)["data"][0])


@pytest.mark.parametrize(
    ("variant", "highest"),
    [("classic", True), ("contract-nordic", False), ("contract-spanish", False), ("romme", False)],
)
def test_the_bgstats_link_carries_the_play_of_each_game(client, variant, highest):
    names = ("Åse", "Jürgen", "Zoë")
    game = classic(names=names) if variant == "classic" else penalty(variant, names=names)
    data = play(page(client, "game", game.viewer_token, "nb"))
    assert data["sourceName"] == "Continental"
    assert data["game"]["sourceGameId"] == variant
    assert data["game"]["highestWins"] is highest
    assert data["game"]["noPoints"] is False
    assert data["game"]["cooperative"] is False
    assert "bggId" not in data["game"]
    assert data["game"]["name"].startswith(("Continental", "Rommé"))  # English, not Norwegian
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    assert isinstance(data["durationMin"], int)
    assert data["durationMin"] >= 0
    players = data["players"]
    assert [p["name"] for p in players] == list(names)
    assert [p["seatOrder"] for p in players] == [1, 2, 3]
    assert [p["sourcePlayerId"] for p in players] == ["seat-1", "seat-2", "seat-3"]
    assert sum(p["startPlayer"] for p in players) == 1
    assert data["sourcePlayId"] == f"game-{game.pk}"  # a play sent twice is one play
    assert [p["rank"] >= 1 for p in players] == [True] * 3
    assert [p["winner"] for p in players] == [p["rank"] == 1 for p in players]
    # the player after the first dealer (seat 1) starts: to the left, or to the right
    starter = (game.first_dealer + game.step) % 3 + 1
    assert [p["seatOrder"] for p in players if p["startPlayer"]] == [starter]
    seats = {s.name: s for s in game.seats.all()}
    for p in players:
        assert p["score"] == str(seats[p["name"]].total)
    best = (max if highest else min)(seats[p["name"]].total for p in players)
    assert [p["winner"] for p in players] == [int(p["score"]) == best for p in players]
    for secret in tokens_of(game):
        assert secret not in json.dumps(data)


def test_in_a_circle_the_bgstats_player_is_the_circles_person_not_a_link(client):
    circle = CircleFactory()
    game = classic(circle=circle)
    data = play(page(client, "game", game.viewer_token))
    people = {s.name: s.person_id for s in game.seats.all()}
    assert [p["sourcePlayerId"] for p in data["players"]] == [
        f"person-{people[p['name']]}" for p in data["players"]
    ]
    for secret in tokens_of(game, circle):
        assert secret not in json.dumps(data)
