"""One word for one thing (issue 25): no rules page, summary, words file or translation uses
a word that docs/glossary.md refuses for its language."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
CONTENT = ROOT / "rules" / "content"
LANGS = ["en", "de", "nb", "pl", "fi", "es"]

# A word quoted or in italics is mentioned, not used: „Zettel“, "Zettel", *Zettel*.
MENTION_MARKS = {"„": "“", "“": "”", '"': '"', "«": "»", "*": "*", "_": "_", "‘": "’", "'": "'"}


@dataclass(frozen=True)
class Refusal:
    lang: str
    pattern: str
    use: str

    @property
    def regex(self) -> re.Pattern[str]:
        words = [
            r"\w*".join(re.escape(piece) for piece in word.split("*"))
            for word in self.pattern.split()
        ]
        return re.compile(r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])", re.IGNORECASE)


def section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table_rows(text: str) -> list[list[str]]:
    """The cells of a Markdown table's body rows (the header and the rule left out)."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("|")
    ]
    return rows[2:]


def refusals() -> list[Refusal]:
    found = []
    for lang, refused, use in table_rows(
        section(GLOSSARY.read_text(encoding="utf-8"), "Refused words")
    ):
        for pattern in refused.split(";"):
            found.append(Refusal(lang, pattern.strip(), use))
    return found


def msgstr_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a .po file that belong to a msgstr (continuation lines included)."""
    lines, inside = [], False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line.startswith("msgstr"):
            inside = True
            line = line.split(" ", 1)[1] if " " in line else ""
        elif not line.startswith('"'):
            inside = False
        if inside:
            lines.append((number, line[1:-1]))
    return lines


def texts(lang: str) -> list[tuple[Path, int, str]]:
    """Every line a reader of the language may see: rules pages, summaries, the index, the
    words file and the msgstrs of the catalogue."""
    found = []
    paths = sorted(CONTENT.glob(f"*/{lang}.md")) + sorted(CONTENT.glob(f"*/{lang}.summary.md"))
    paths.append(CONTENT / "words" / f"{lang}.toml")
    for path in paths:
        toml = path.suffix == ".toml"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if toml:  # a key is the code's name, not a word a reader sees
                line = re.sub(r'^\s*"?[\w-]+"?\s*=', "=", line)
            else:  # nor a placeholder (it becomes cards and numbers) or a heading's id
                line = re.sub(r"\[\[.*?\]\]|\{#[^}]*\}", " ", line)
            found.append((path, number, line))
    po = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
    if po.is_file():
        found += [(po, number, line) for number, line in msgstr_lines(po)]
    return found


def is_mention(line: str, start: int, end: int) -> bool:
    before, after = line[start - 1 : start], line[end : end + 1]
    return before in MENTION_MARKS and MENTION_MARKS[before] == after


def uses(refusal: Refusal, line: str) -> list[str]:
    return [
        match.group(0)
        for match in refusal.regex.finditer(line)
        if not is_mention(line, match.start(), match.end())
    ]


def test_the_glossary_names_a_word_in_every_language_for_every_concept():
    rows = table_rows(section(GLOSSARY.read_text(encoding="utf-8"), "The words"))
    assert len(rows) >= 30
    for row in rows:
        assert len(row) == 1 + len(LANGS), row
        assert all(row), row
    circle = next(row for row in rows if row[0].startswith("circle"))
    assert circle[1:] == ["circle", "Stammtisch", "gjeng", "ekipa", "porukka", "peña"]


def test_every_refusal_is_for_a_language_of_the_site_and_says_what_to_use():
    found = refusals()
    assert len(found) >= 40
    for refusal in found:
        assert refusal.lang in LANGS, refusal
        assert refusal.pattern, refusal
        assert refusal.use, refusal


@pytest.mark.parametrize(
    ("pattern", "line", "hits"),
    [
        ("Zettel*", "Zurück zum Zettel, dann zum Punktezettel.", ["Zettel"]),
        ("Zettel*", "Die Zettelwirtschaft endet.", ["Zettelwirtschaft"]),
        ("Zettel*", "Man sagt auch „Zettel“ dazu.", []),
        ("*łeś", "gdy to wpisywałeś i byłeś tu", ["wpisywałeś", "byłeś"]),
        ("et avbrutt giv", "Et  avbrutt giv gir ingen poeng", ["Et  avbrutt giv"]),
        ("0.10", "z. B. 0.10 oder 0,10 oder 10.105", ["0.10"]),
        ("ajuste", "un solo ajuste al final; ajustes", ["ajuste"]),
    ],
)
def test_a_refused_pattern_finds_whole_words_and_their_endings_but_not_a_mention(
    pattern, line, hits
):
    assert uses(Refusal("xx", pattern, "-"), line) == hits


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_words_file_or_translation_uses_a_refused_word(lang):
    mine = [refusal for refusal in refusals() if refusal.lang == lang]
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: “{word}” — use “{refusal.use}”"
        for path, number, line in texts(lang)
        for refusal in mine
        for word in uses(refusal, line)
    ]
    assert offenders == [], "\n".join(offenders)


# --- words refused in some games only ---------------------------------------------------------


def scoped_refusals() -> list[tuple[Refusal, list[str]]]:
    found = []
    text = GLOSSARY.read_text(encoding="utf-8")
    for lang, games, refused, use in table_rows(section(text, "Refused in some games only")):
        for pattern in refused.split(";"):
            found.append(
                (Refusal(lang, pattern.strip(), use), [g.strip() for g in games.split(";")])
            )
    return found


def test_a_word_refused_in_some_games_names_real_games():
    found = scoped_refusals()
    assert found
    games = {path.name for path in CONTENT.iterdir() if (path / "en.summary.md").is_file()}
    for refusal, named in found:
        assert refusal.lang in LANGS, (refusal, named)
        assert set(named) <= games, (refusal, named)


@pytest.mark.parametrize("lang", LANGS)
def test_no_game_page_uses_a_word_refused_for_that_game(lang):
    offenders = []
    for refusal, games in scoped_refusals():
        if refusal.lang != lang:
            continue
        for game in games:
            for path in sorted((CONTENT / game).glob(f"{lang}*.md")):
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    offenders += [
                        f"{path.relative_to(ROOT)}:{number}: “{word}” — use “{refusal.use}”"
                        for word in uses(refusal, line)
                    ]
    assert offenders == [], "\n".join(offenders)


# --- the interface's names: a catalogue entry naming a concept uses its word ------------------

NAMED = {
    "joker": r"jokers?",
    "rating": r"ratings?",
    "standings": r"standings",
    "score sheet": r"score sheets?",
    "head-to-head": r"head-to-head",
    "settle up": r"settle[- ]ups?",
    "evening": r"evenings?",
    "discard pile": r"discard piles?",
    "penalty points": r"penalty points",
    "circle": r"circles?",
    "streak": r"streaks?",
}


def words_of(concept: str) -> dict[str, list[str]]:
    """The glossary's forms of a concept per language: the cell's comma-separated words and
    those in its parentheses ("masculine:" and the like left out)."""
    rows = table_rows(section(GLOSSARY.read_text(encoding="utf-8"), "The words"))
    row = next(row for row in rows if row[0].split(" (")[0] == concept)
    found = {}
    for lang, cell in zip(LANGS, row[1:], strict=True):
        cell = re.sub(r"\w+:", "", cell.replace("(", ",").replace(")", ","))
        found[lang] = [
            form.strip() for form in cell.split(",") if form.strip() and " is " not in form
        ]
    return found


def has_form(forms: list[str], text: str) -> bool:
    """A form is there when every word of it is, inflected: all of the word but its last two
    letters (at least four), in a word of the text (compounds count: *Endstand*)."""
    text = text.lower()
    return any(
        all(word.lower()[: max(4, len(word) - 2)] in text for word in form.split())
        for form in forms
    )


def mentions(concept: str, english: str) -> bool:
    """The English text names the concept itself, by its first word ("jokers and red aces are
    wild" speaks of wild cards too)."""
    first = words_of(concept)["en"][0].split()[0]
    return re.search(r"(?<![\w-])" + re.escape(first), english, re.IGNORECASE) is not None


def kept_apart() -> dict[str, str]:
    text = section(GLOSSARY.read_text(encoding="utf-8"), "The interface's names")
    return {row[0]: row[1] for row in table_rows(text)}


def catalogue(lang: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of every entry of a language's catalogue, plural forms joined."""
    path = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        msgid = re.search(r'^msgid ((?:"[^\n]*"\n?)+)', block, re.M)
        msgstrs = re.findall(r'^msgstr(?:\[\d\])? ((?:"[^\n]*"\n?)+)', block, re.M)
        if msgid and msgstrs:
            joined = ["".join(re.findall(r'"(.*)"', part)) for part in [msgid.group(1), *msgstrs]]
            if joined[0]:
                entries.append((joined[0], " ".join(joined[1:])))
    return entries


def test_the_interface_names_table_names_concepts_of_the_glossary():
    apart = kept_apart()
    assert {"joker", "rating", "standings"} <= set(apart)
    for concept, other in apart.items():
        assert words_of(concept)
        assert words_of(other)
    assert set(apart) <= set(NAMED)


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_a_message_that_names_a_concept_uses_its_word(lang):
    apart = kept_apart()
    offenders = []
    for concept, english in NAMED.items():
        forms = words_of(concept)[lang]
        other = words_of(apart[concept])[lang] if concept in apart else []
        for msgid, msgstr in catalogue(lang):
            if not re.search(r"(?<![\w-])" + english + r"(?![\w-])", msgid, re.IGNORECASE):
                continue
            if not has_form(forms, msgstr):
                offenders.append(f"{concept}: “{msgid}” → “{msgstr}” lacks “{forms[0]}”")
            elif other and has_form(other, msgstr) and not mentions(apart[concept], msgid):
                offenders.append(f"{concept}: “{msgid}” → “{msgstr}” says “{other[0]}”")
    assert offenders == [], "\n".join(offenders)


@pytest.mark.parametrize(
    ("lang", "msgid", "msgstr", "ok"),
    [
        ("es", "Rating", "Valoración", True),
        ("es", "Rating", "Clasificación", False),
        ("es", "Standings", "Valoración", False),
        ("es", "%(count)s jokers entered", "%(count)s comodines anotados", False),
        ("es", "%(count)s jokers entered", "%(count)s jokers anotados", True),
        ("fi", "Games of the evening", "Illan pelit", True),
        ("de", "Score sheet", "Punkteblock", False),
    ],
)
def test_the_names_check_tells_a_right_word_from_a_wrong_one(lang, msgid, msgstr, ok):
    apart = kept_apart()
    concept = next(c for c, rx in NAMED.items() if re.search(rx, msgid, re.IGNORECASE))
    right = has_form(words_of(concept)[lang], msgstr)
    if concept in apart:
        right = right and not has_form(words_of(apart[concept])[lang], msgstr)
    assert right is ok


# Every word issue 25 found in use for another's concept, in a sentence of the kind it stood
# in: the refusals of its language catch each one (so none can come back unnoticed).
ISSUE_25 = [
    ("de", "Trag es in den Punkteblock ein."),
    ("de", "Der Zettel zeigt alle Runden."),
    ("de", "Zurück zum Punktezettel"),
    ("de", "Der Spielzettel markiert die Runde."),
    ("de", "Teile den Spielblock."),
    ("de", "Kopf-an-Kopf"),
    ("de", "Auszahlung am Ende"),
    ("de", "Spiele derselben Runde"),
    ("de", "Weitere Folgen hat das nicht."),
    ("de", "Die Spielrunde trifft sich freitags."),
    ("nb", "et avbrutt giv teller ikke"),
    ("nb", "dette givet"),
    ("nb", "poengene for hvert giv"),
    ("nb", "så et rettet giv teller med en gang"),
    ("nb", "Del poengblokken"),
    ("nb", "poengarket markerer"),
    ("nb", "bare classic"),
    ("nb", "Sette kort"),
    ("nb", "Rating"),
    ("nb", "én joker per stokk"),
    ("nb", "den tredje stokken"),
    ("nb", "For fire spillere sier arket bare at man begynner med to"),
    ("pl", "gdy to wpisywałeś"),
    ("pl", "byłeś tu"),
    ("pl", "Bartek zaczął z 50 punktami"),
    ("pl", "notes wyników"),
    ("pl", "arkusz wyników"),
    ("pl", "np. 0.10"),
    ("pl", "kto wyszedł"),
    ("pl", "w tym wieczorze"),
    ("pl", "Czterech graczy: każde z trojga pozostałych płaci"),
    ("pl", "Rozdanie przy czterech graczach"),
    # Issue 45: a calque the Polish sheet never uses.
    ("pl", "Uwaga: dwójka jest dziką kartą"),
    ("pl", "jokery i czerwone asy są dzikie"),
    ("fi", "poistopakka"),
    ("fi", "poistopakasta"),
    ("fi", "sakkopisteet"),
    ("fi", "Kuka meni ulos?"),
    ("fi", "Rahaselvitys"),
    ("fi", "Illan nimi (vapaaehtoinen)"),
    ("fi", "kaikki korttisi on pöydätty tai lisätty yhdistelmiin"),
    # Issue 45: the Finnish sheet's words, kolmikko for a set and heittää for discarding.
    ("fi", "sopimus vaatii kaksi settiä"),
    ("fi", "Setti: vähintään 3 samanarvoista"),
    ("es", "dos barajas y 2 comodines"),
    ("es", "un comodín por baraja"),
    ("es", "3 comodines anotados"),
    ("es", "Ajustar cuentas"),
    ("es", "otro teléfono"),
    ("es", "p. ej. 0.10"),
    ("es", "la hoja de reglas"),
    ("es", "Las hojas solo dicen que cierra quien se queda sin cartas."),
    ("es", "el montón de descartes"),
]


@pytest.mark.parametrize(("lang", "line"), ISSUE_25)
def test_each_word_the_issue_found_is_refused(lang, line):
    assert any(uses(refusal, line) for refusal in refusals() if refusal.lang == lang), line


@pytest.mark.parametrize(
    ("lang", "line", "refused_in", "allowed_in"),
    [
        ("fi", "sääntö koskee ryhmiä", "contract-spanish", "romme"),
        ("de", "Die Regel betrifft also die Gruppen.", "contract-spanish", "romme"),
        ("es", "la regla afecta a los grupos", "contract-nordic", "romme"),
        ("pl", "zasada dotyczy grup", "classic", "romme"),
        ("nb", "regelen gjelder gruppene", "contract-spanish", "romme"),
        ("de", "Ein Satz aus drei Achten", "romme", "contract-nordic"),
        ("fi", "kolmen kasin kolmikko", "romme", "contract-spanish"),
        ("es", "un trío de ochos", "romme", "contract-spanish"),
        ("pl", "zestaw trzech ósemek", "romme", "contract-nordic"),
    ],
)
def test_a_set_and_a_group_keep_their_words_in_their_own_games(lang, line, refused_in, allowed_in):
    scoped = [(r, games) for r, games in scoped_refusals() if r.lang == lang]
    assert any(uses(r, line) and refused_in in games for r, games in scoped)
    assert not any(allowed_in in games for r, games in scoped if uses(r, line))


# Money is written with the language's decimal separator (docs/glossary.md, "Money"): a
# point in English, a comma in the other five; any amount, not only the 0.10 of the examples.
SEPARATOR = {"en": re.compile(r"(?<![\d.,])\d+,\d{2}(?!\d)")} | {
    lang: re.compile(r"(?<![\d.,])\d+\.\d{2}(?![\d.])") for lang in LANGS if lang != "en"
}


@pytest.mark.parametrize("lang", LANGS)
def test_amounts_use_the_languages_decimal_separator(lang):
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: “{found}”"
        for path, number, line in texts(lang)
        for found in SEPARATOR[lang].findall(line)
    ]
    assert offenders == [], "\n".join(offenders)


@pytest.mark.parametrize(
    ("lang", "line", "found"),
    [
        ("de", "z. B. 0.70 oder 1,50", ["0.70"]),
        ("es", "paga 12.50 a Ana, versión 1.2.30", ["12.50"]),
        ("pl", "np. 0,10", []),
        ("en", "Ben pays Anna 0,70, Cleo 0.80", ["0,70"]),
    ],
)
def test_the_separator_check_finds_a_wrong_amount(lang, line, found):
    assert SEPARATOR[lang].findall(line) == found


# The game's words on the glossary page (rules/content/words/<lang>.toml, [[glossary]]): each
# concept of the game has its entry, under the word this glossary gives it.
GAME_CONCEPTS = [
    "deal",
    "dealer",
    "contract",
    "set",
    "run",
    "group",
    "meld",
    "natural card",
    "wild card",
    "joker",
    "deck",
    "stock",
    "discard pile",
    "discard",
    "lay down",
    "laying off",
    "going out",
    "penalty points",
    "payment",
    "house rule",
]


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_page_has_an_entry_for_every_word_of_the_game(lang):
    import tomllib

    with open(CONTENT / "words" / f"{lang}.toml", "rb") as source:
        terms = [entry["term"] for entry in tomllib.load(source)["glossary"]]
    missing = [
        f"{concept}: {words_of(concept)[lang][0]}"
        for concept in GAME_CONCEPTS
        if not {form.lower() for form in words_of(concept)[lang]} & {term.lower() for term in terms}
    ]
    assert missing == [], f"{lang}: {missing} (terms: {terms})"


@pytest.mark.parametrize("game", ["classic", "contract-nordic", "contract-spanish", "romme"])
def test_a_finnish_page_discards_with_the_sheets_verb_and_keeps_the_piles_name(game):
    """Issue 45: *poistaa* reads as deleting; the Finnish sheet throws the card (*heittää*)
    onto the *poistopino*, which keeps its name."""
    scoped = [r for r, games in scoped_refusals() if r.lang == "fi" and game in games]

    def refused(line: str) -> list[str]:
        return [word for refusal in scoped for word in uses(refusal, line)]

    assert refused("Poista yksi kortti kuvapuoli ylöspäin poistopinoon.") == ["Poista"]
    assert refused("kuten minkä tahansa poistetun kortin") == ["poistetun"]
    assert refused("Heitä yksi kortti kuvapuoli ylöspäin poistopinoon.") == []
