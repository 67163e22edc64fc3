"""The printable summaries speak the page's language: house-rule options by their labels,
never by the engine's keys (issue 14, item 15)."""

import re
from html import unescape

import pytest

from rules.engine.variants import VARIANT_IDS, VARIANTS
from rules.pages.words import option_words, words
from tests.rules.test_rules_pages import LANGS, body_of

pytestmark = pytest.mark.django_db


def shown_text(html: str) -> str:
    """The text a reader sees (and prints): tags, attributes and the page's head left out."""
    body = html.split("<main", 1)[1].split("</main>", 1)[0]
    return unescape(re.sub(r"<[^>]+>", " ", body))


def every_option(variant_id: str) -> str:
    """A link that gives every house rule of the game a value, the defaults flipped."""
    pairs = []
    for spec in VARIANTS[variant_id].options:
        value = spec.choices[0] if spec.choices[0] != spec.default else spec.choices[-1]
        pairs.append(f"{spec.name}={str(value).lower()}")
    return "&".join(pairs)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_summary_names_its_house_rules_in_words_never_by_key(client, lang, variant):
    for query in ("", every_option(variant)):
        text = shown_text(body_of(client.get(f"/{lang}/rules/{variant}/summary/?{query}")))
        for spec in VARIANTS[variant].options:
            assert spec.name not in text, f"{spec.name} on the {lang} summary of {variant}"
            assert words(lang)["option"][spec.name]["label"] in text  # its own, not English


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_a_summary_names_an_unreadable_house_rule_by_its_label(client, lang):
    text = shown_text(body_of(client.get(f"/{lang}/rules/romme/summary/?opening_minimum=99")))
    assert "opening_minimum" not in text
    assert f"{option_words('opening_minimum', lang)[0]}: 99" in text


def test_the_full_rules_page_still_gives_the_keys_the_api_takes(client):
    body = body_of(client.get("/en/rules/romme/?opening_minimum=99"))
    assert "<code>opening_minimum</code>" in body
    assert "<code>opening_minimum=99</code>" in body
