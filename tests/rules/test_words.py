"""One vocabulary: each word of the game has one source, and every screen says it the same way.

Payment rows, house-rule options and card names come from ``rules/content/words/<lang>.toml``;
the contract of a deal from one function (``contract_text``, gettext for the plurals). The
checker, the score pad and the rules pages are compared with that source here.
"""

import html
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from rules.engine.scoring import classic_payment
from rules.engine.variants import CLASSIC_PAYMENTS, VARIANT_IDS, get_variant
from rules.pages.words import option_words, payment_label, words
from tests.factories import GameFactory, classic_form_data
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db
LANGS = [code for code, _ in settings.LANGUAGES]


def test_the_engine_payment_rows_are_spelled_as_the_payment_table_and_the_word_files():
    """``wild_twos``/``jokers`` everywhere: the engine's rows (the API's ``payment_rows[].row``),
    its table of points and the words of every language use the same keys."""
    rows = {
        r.row
        for args in [(0, 0, "drawn", True), (3, 2, "undrawn", False), (0, 0, None, False)]
        for r in classic_payment(*args).rows
    }
    assert rows == set(CLASSIC_PAYMENTS)
    assert {"wild_twos", "jokers"} <= rows
    for lang in LANGS:
        assert set(CLASSIC_PAYMENTS) <= set(words(lang)["payments"]), lang


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_has_its_words_in_every_language(lang):
    for variant_id in VARIANT_IDS:
        for spec in get_variant(variant_id).options:
            label, help_text = option_words(spec.name, lang)
            assert label
            assert help_text
            assert (label, help_text) == (
                words(lang)["option"][spec.name]["label"],
                words(lang)["option"][spec.name]["help"],
            )


def test_the_new_game_form_the_checker_and_the_rules_page_say_an_option_alike(client):
    """The same label and help for ``handromme_doubles`` on all three screens, in German."""
    label, help_text = option_words("handromme_doubles", "de")
    new_game = html.unescape(client.get("/de/games/new/").content.decode())
    checker = html.unescape(client.get("/de/check/?variant=romme").content.decode())
    rules = html.unescape(client.get("/de/rules/romme/").content.decode())
    for body in (new_game, checker, rules):
        assert label in body
        assert help_text in body


def test_the_checker_and_the_deal_preview_label_payment_rows_from_the_word_files(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    own(client, game)
    with translation.override("de"):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    data = {**classic_form_data(game, 0, wild_twos=1, jokers=1), "preview": "1"}
    preview = html.unescape(client.post(url, data).content.decode())
    hand = "4S+5S+6S+7S+9H+10H+JH+QH+10C+JC+QC+KC+AD+2D+KH+JK"
    checker = html.unescape(client.get(f"/de/check/?cards={hand}", follow=True).content.decode())
    for row in ("going_out", "wild_twos", "jokers"):
        label = payment_label(row, "de")
        assert f"<span>{label}</span>" in preview, row
        assert re.search(rf'<th scope="row">{re.escape(label)}[ <]', checker), row


def test_the_jokers_only_game_calls_the_no_wild_row_no_joker_everywhere(client):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben"], options={"twos_wild": False})
    own(client, game)
    with translation.override("en"):
        url = reverse("deal-new", kwargs={"token": game.editor_token})
    data = {**classic_form_data(game, 0), "preview": "1"}
    preview = client.post(url, data).content.decode()
    assert f"<span>{payment_label('no_wild', 'en', twos_wild=False)}</span>" in preview
    assert payment_label("no_wild", "en", twos_wild=False) == words("en")["payments"]["no_joker"]
    assert payment_label("no_wild", "en") == words("en")["payments"]["no_wild"]


def test_the_rules_payment_table_adds_its_note_to_the_no_wild_row():
    from rules import pages

    for lang in LANGS:
        page = pages.get_page(pages.RULES, "classic", lang)
        w = words(lang)["payments"]
        label = f"{w['no_wild']} ({w['no_wild_note']})"
        assert f'<th scope="row">{label}</th>' in html.unescape(page.html), lang
