"""The glossary page: the words of the games in each language, linked from the rules index."""

import html
import re

import pytest

from rules import pages
from rules.engine.variants import VARIANT_IDS
from rules.pages.words import words

LANGS = ["en", "de", "nb", "pl", "fi", "es"]


def body_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_page_answers_in_every_language_with_every_word(client, lang):
    body = body_of(client.get(f"/{lang}/rules/glossary/"))
    page = pages.get_page(pages.GLOSSARY, None, lang)
    assert page.lang == lang  # written in the language, not a fallback
    assert f'<html lang="{lang}">' in body
    assert f'<article class="rules rules-glossary" lang="{lang}" id="rules-glossary">' in body
    assert f"<h1>{page.title}</h1>" in body
    assert "[[" not in body
    assert "style=" not in body
    glossary = body.split('<dl class="glossary">', 1)[1].split("</dl>", 1)[0]
    entries = words(lang)["glossary"]
    terms = [html.unescape(t) for t in re.findall(r"<dt>([^<]*)</dt>", glossary)]
    assert terms == [e["term"] for e in entries]
    # a word of some games only says which, in the page's language
    games = words(lang)["games"]
    limited = [e for e in entries if "variants" in e]
    shown = [html.unescape(t) for t in re.findall(r'<dd class="glossary-games">([^<]*)</dd>', body)]
    assert shown == [
        games["only"].format(games=" · ".join(games[v] for v in e["variants"])) for e in limited
    ]
    assert all(games[v] for v in VARIANT_IDS)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_index_links_to_the_glossary_and_the_glossary_back(client, lang):
    index = body_of(client.get(f"/{lang}/rules/"))
    link = html.escape(words(lang)["page"]["glossary"], quote=False)
    assert f'<a href="/{lang}/rules/glossary/">{link}</a>' in index
    glossary = body_of(client.get(f"/{lang}/rules/glossary/"))
    assert f'<a href="/{lang}/rules/">' in glossary
    for other in LANGS:
        if other != lang:
            assert f'href="/{other}/rules/glossary/" hreflang="{other}"' in glossary


def test_a_games_page_keeps_only_its_words_and_names_no_games():
    nordic = pages.get_page(pages.RULES, "contract-nordic", "en").html
    glossary = nordic.split('<dl class="glossary">', 1)[1].split("</dl>", 1)[0]
    assert "glossary-games" not in glossary
    assert "<dt>group</dt>" not in glossary  # a Rommé word
    assert "<dt>set</dt>" in glossary
