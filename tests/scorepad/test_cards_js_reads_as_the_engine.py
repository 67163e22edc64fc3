"""The phone reads typed cards exactly as the engine does (issue "Trust, part three", item
12: "W♥ D♣ JK" in Polish showed 50 beside the grid, the saved deal 70): static/js/cards.js's
readCard, run by node with the table the grid carries, against ``parse_card`` for every
rank token of every language with every suit letter and symbol, the jokers' words, other
cases and tokens that are no card."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from rules.engine.cards import (
    _JOKER_TOKENS,
    _SYMBOL_TO_SUIT,
    LOCAL_RANKS,
    SUITS,
    CardError,
    parse_card,
    reading_table,
    sort_cards,
)
from rules.engine.variants import get_variant
from scorepad.templatetags import cards as grid_tags

CARDS_JS = Path(settings.BASE_DIR) / "static" / "js" / "cards.js"
LANGUAGES = [code for code, _name in settings.LANGUAGES]

READ = """
const { readCard } = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { table, tokens } = JSON.parse(input);
  process.stdout.write(JSON.stringify(tokens.map((token) => readCard(token, table))));
});
"""


def read_in_node(table: dict, tokens: list[str]) -> list[str | None]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (python3 manage.py runtests installs it)")
    done = subprocess.run(
        [node, "-e", READ, str(CARDS_JS)],
        input=json.dumps({"table": table, "tokens": tokens}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def engine(token: str, lang: str) -> str | None:
    try:
        return parse_card(token, lang).code
    except CardError:
        return None


def every_token() -> list[str]:
    ranks = {"A", "T", "J", "Q", "K", "1", "0", "11", "X", ""} | {str(n) for n in range(2, 11)}
    for local in LOCAL_RANKS.values():
        ranks |= set(local)
    suits = set(SUITS) | set(_SYMBOL_TO_SUIT) | {"X", "♔"}
    tokens = set()
    for rank in ranks:
        for suit in suits:
            token = rank + suit
            tokens |= {token, token.lower(), token.capitalize(), f" {token} "}
    tokens |= _JOKER_TOKENS | {j.lower() for j in _JOKER_TOKENS} | {"Joker", "JKH", "★♥"}
    tokens |= {"", "S", "♥", "ß", "KnH", "kN♦", "10", "AS", "ASS", "10♡♡", "constructorS"}
    return sorted(tokens)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phone_reads_every_token_as_the_engine(lang):
    tokens = every_token()
    expected = [engine(token, lang) for token in tokens]
    read = read_in_node(reading_table(lang), tokens)
    wrong = [(t, e, r) for t, e, r in zip(tokens, expected, read, strict=True) if e != r]
    assert wrong == []
    assert sum(e is not None for e in expected) > 300  # the comparison is about real cards


def test_the_issues_hands_are_read_as_cards():
    assert read_in_node(reading_table("pl"), ["W♥", "D♣", "JK"]) == ["JH", "QC", "JK"]
    assert read_in_node(reading_table("en"), ["J♥", "Q♣", "JK"]) == ["JH", "QC", "JK"]
    assert read_in_node(reading_table("de"), ["B♥", "D♣", "W♥"]) == ["JH", "QC", None]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_grid_carries_the_engines_table_of_its_language(lang):
    grid_tags.GRIDS.clear()
    with translation.override(lang):
        grid = str(grid_tags.card_grid("id_cards_1", "", get_variant("contract-nordic")))
    carried = re.search(r'data-reading="([^"]*)"', grid)
    assert carried, "the grid carries no table"
    assert json.loads(html.unescape(carried.group(1))) == reading_table(lang)
    # Each key the table's codes name is on the grid: a card read is a key found.
    codes = {c.code for c in sort_cards(parse_card(t) for t in ["AS", "10H", "QC", "JK"])}
    for code in codes:
        assert f'data-card="{code}"' in grid
