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
        assert len(row) == 1 + len(LANGS) and all(row), row
    circle = next(row for row in rows if row[0].startswith("circle"))
    assert circle[1:] == ["circle", "Stammtisch", "gjeng", "ekipa", "porukka", "peña"]


def test_every_refusal_is_for_a_language_of_the_site_and_says_what_to_use():
    found = refusals()
    assert len(found) >= 40
    for refusal in found:
        assert refusal.lang in LANGS and refusal.pattern and refusal.use, refusal


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
