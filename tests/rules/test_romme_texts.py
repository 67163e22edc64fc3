"""What the texts say about Rommé agrees with the German rule sheet (issue 15)."""

import pytest
from django.utils import translation

from rules import pages
from rules.engine.variants import ROMME
from rules.facts import ESSENCE

LANGS = ["en", "de", "nb", "pl", "fi", "es"]
# The word each language used for the bonus that Rommé does not have.
BONUS = {"en": "bonus", "de": "bonus", "nb": "bonus", "pl": "premi", "fi": "bonus", "es": "bonific"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_promises_no_bonus_for_going_out_in_one_go(client, lang):
    """Going out in one turn is Handrommé; it pays double only under a house rule."""
    with translation.override(lang):
        essence = str(ESSENCE[ROMME])
    assert "Handrommé" in essence
    assert BONUS[lang] not in essence.lower()
    body = client.get(f"/{lang}/").content.decode()
    romme = body.split('id="variant-romme"', 1)[1].split("</li>", 1)[0]
    assert f"<p>{essence}</p>" in romme


@pytest.mark.parametrize("lang", ["en", "de", "es"])
@pytest.mark.parametrize("kind", [pages.RULES, pages.SUMMARY])
def test_the_romme_texts_show_how_a_joker_between_two_cards_of_a_rank_is_freed(lang, kind):
    """The sheet: a joker in 6♣ JK 6♥ comes free only when both 6♠ and 6♦ are laid."""
    source = pages.content_path(kind, ROMME, lang).read_text(encoding="utf-8")
    assert "[[cards: 6C JK 6H]]" in source
    if kind == pages.RULES:
        assert "[[cards: 6S 6D]]" in source


@pytest.mark.parametrize("lang", LANGS)
def test_the_romme_page_marks_its_reading_of_the_first_round_as_a_choice(lang):
    """'In the first round' the sheet frees the discard of any duty; the page says how the
    app reads that, among the choices."""
    source = pages.content_path(pages.RULES, ROMME, lang).read_text(encoding="utf-8")
    choices = source.split("{#choices}", 1)[1].split("{#glossary}", 1)[0]
    quoted = {
        "en": "“in the first round”",
        "de": "„in der ersten Runde“",
        "nb": "«i første runde»",
        "pl": "„w pierwszej rundzie”",
        "fi": "”ensimmäisellä\n  kierroksella”",
        "es": "«en la primera",
    }
    assert quoted[lang] in choices


# Issue 25: the free discard is taken *and kept* on each player's first turn of a deal (the
# choice above), in the summary as on the page; "without laying 51" alone said less.
FIRST_TURN_KEPT = {
    "en": ("first turn of a deal", ("keep it", "without that duty")),
    "de": ("ersten Zug einer Runde", ("behalten", "ohne diese Pflicht")),
    "nb": ("første tur i en giv", ("beholde det",)),
    "pl": ("pierwszym ruchu w rozdaniu", ("zatrzymać",)),
    "fi": ("Jaon ensimmäisellä vuorollasi", ("pitää sen",)),
    "es": ("primer turno de una ronda", ("quedártela", "sin esa obligación")),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", [pages.RULES, pages.SUMMARY])
def test_the_romme_texts_let_the_first_turn_take_the_discard_and_keep_it(lang, kind):
    source = pages.content_path(kind, ROMME, lang).read_text(encoding="utf-8")
    flat = " ".join(source.split())
    turn, kept = FIRST_TURN_KEPT[lang]
    assert turn in flat
    sentence = flat.split(turn, 1)[1].split(".", 1)[0]
    assert any(word in sentence for word in kept), sentence
    assert "51" not in sentence
