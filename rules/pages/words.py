"""The vocabulary of the game per language: one source for each word, and where it lives.

``rules/content/words/<lang>.toml`` holds the words *of the game* that the rules pages define
and every screen reuses: card names (ranks, suits, the joker, "… as …"), the rows of the
classic payment table, the house-rule options (label and help), the glossary, and the rules
pages' own furniture and table headings. The checker, the score pad and the rules pages take
these words from here (``card_name``, ``payment_label``, ``option_words``), never from a table
of their own, so the page that explains a rule and the screen that applies it say the same.

``locale/<lang>/LC_MESSAGES/django.po`` holds the *interface*: buttons, headings, form labels,
messages and errors (the engine's too, see ``rules/i18n.py``), and every text that counts
something, since only gettext knows each language's plural forms. The contract of a deal
("1 set and 2 runs") is such a text: ``contract_text`` is its one writer, used by the checker,
the score pad and the rules pages' schedule table. No word has two sources: a word the
pages share with the interface in the same role comes from the catalogue (``FROM_CATALOGUE``).
Five English texts still stand in both files ("Players", "Deals", "went out", "Going out"),
each for two roles that other languages say differently: a table's heading or a payment row
here, a page title or a button there (Finnish "Pelaajia" over a count of players, "Pelaajat"
as a title; German "Fürs Fertigwerden" as a payment row, "Fertig werden" as the checker's
answer).

TOML files are loaded once per process and language.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, ngettext

from rules.engine.cards import RED_SUITS, Card, local_code
from rules.engine.variants import DealSpec

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
DEFAULT_LANG = "en"


# Words the rules pages share with the interface, in the same role: their one source is the
# catalogue (.po), and the pages take them from it.
FROM_CATALOGUE = {
    ("page", "rules"): "Rules",
    ("options", "default"): "Default",
    ("tables", "deal"): "Deal",
    ("tables", "player"): "Player",
    ("tables", "penalty"): "Penalty",
    # the club tournament's tables: the words of the tournament's standings
    ("tournament", "table"): "Table %(n)s",
    ("tournament", "points"): "Placement points",
    ("tournament", "relative"): "Against the table",
    ("tournament", "separated"): "Behind the one above on",
    ("tournament", "dropped"): "dropped out",
    ("tournament", "by_dropped"): "dropped out",
    ("tournament", "by_points"): "placement points",
    ("tournament", "by_relative"): "score against the table",
    ("tournament", "by_best"): "best single series",
    ("tournament", "by_lot"): "the lot",
    ("tournament", "standings"): "Standings",
    ("tournament", "order_points"): "placement points first",
    ("tournament", "order_relative"): "score against the table first",
}


@cache
def words(lang: str) -> dict[str, Any]:
    """The words of one language; a language without its file falls back to English."""
    path = CONTENT_DIR / "words" / f"{lang}.toml"
    if not path.exists():
        path = CONTENT_DIR / "words" / f"{DEFAULT_LANG}.toml"
    with path.open("rb") as f:
        found = tomllib.load(f)
    with translation.override(lang):
        for (section, key), text in FROM_CATALOGUE.items():
            found.setdefault(section, {})[key] = gettext(text)
    return found


def rank_text(c: Card, lang: str) -> str:
    """The rank as the language writes it on a card face: German ``D`` for a queen."""
    return local_code(c, lang)[:-1]


def card_name(c: Card, lang: str) -> str:
    """The full name read out by a screen reader: ``queen of hearts``, ``Herz-Dame``."""
    w = words(lang)["cards"]
    if c.is_joker:
        return w["joker"]
    return w["name"].format(rank=w["ranks"][c.rank - 1], suit=w["suits"][c.suit])


def is_red(c: Card) -> bool:
    return c.suit in RED_SUITS


def payment_label(row: str, lang: str, twos_wild: bool = True) -> str:
    """The label of a classic payment row (``payment_rows[].row``: ``going_out``,
    ``wild_twos``, ``jokers``, ``no_wild``, ``first_turn_drawn``, ``first_turn_undrawn``,
    ``one_suit``). In the jokers-only game (``twos_wild`` False) ``no_wild`` means no joker."""
    w = words(lang)["payments"]
    if row == "no_wild" and not twos_wild:
        return w["no_joker"]
    return w.get(row, row)


def option_words(name: str, lang: str) -> tuple[str, str]:
    """(label, help) of a house-rule option in this language (English when missing)."""
    text = words(lang).get("option", {}).get(name) or words(DEFAULT_LANG)["option"][name]
    return text["label"], text["help"]


def on_off(value: bool, lang: str) -> str:
    """How a house-rule switch is shown: "on" or "off" in this language."""
    return words(lang)["options"]["on" if value else "off"]


def contract_text(spec: DealSpec, lang: str | None = None) -> str:
    """The contract of a deal: "2 sets", "1 set and 2 runs (runs of 5+)"; a meld size is named
    only when it differs from the usual (sets of 3, runs of 4). In the active language, or in
    ``lang`` when given (the rules pages render outside a request)."""
    if lang is not None:
        with translation.override(lang):
            return contract_text(spec)
    sets = ngettext("%(n)s set", "%(n)s sets", spec.sets) % {"n": spec.sets}
    runs = ngettext("%(n)s run", "%(n)s runs", spec.runs) % {"n": spec.runs}
    if spec.sets and spec.runs:
        text = gettext("%(sets)s and %(runs)s") % {"sets": sets, "runs": runs}
    else:
        text = sets if spec.sets else runs
    sizes = []
    if spec.sets and spec.set_min != 3:
        sizes.append(gettext("sets of %(n)s+") % {"n": spec.set_min})
    if spec.runs and spec.run_min != 4:
        sizes.append(gettext("runs of %(n)s+") % {"n": spec.run_min})
    if sizes:
        text += " (" + ", ".join(sizes) + ")"
    return text
