"""The rules texts are written in the project's own words, never copied from the rule sheets.

Every rules page, summary, index and words file of a language is compared with every original
rule sheet of that language (`<lang>` in `<game>.<lang>.txt`) in `../shared/seeds/` beside the
repository, or in the folder named by `RULES_SEEDS_DIR`. A run of COPIED_RUN or more identical
words within one paragraph, heading or list of a page (or one string of a words file) fails
the test, naming the text, the sheet and the words. Words are compared in lower case without
punctuation; the `[[...]]` placeholders (cards, numbers) and heading ids are left out. The
sheets are compared as one stream of words, so a copy may take its words from two of their
paragraphs.
"""

import os
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from rules.pages.words import CONTENT_DIR

COPIED_RUN = 8
LANGS = [code for code, _ in settings.LANGUAGES]
REPO = Path(__file__).resolve().parents[2]

_PLACEHOLDER = re.compile(r"\[\[.*?\]\]", re.DOTALL)
_HEADING_ID = re.compile(r"\{#[^}]*\}")
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")


class SheetsMissing(Exception):
    pass


@dataclass(frozen=True)
class Copy:
    text: str  # the rules text, relative to the content folder
    sheet: str  # the file name of the rule sheet
    words: str  # the copied run

    def __str__(self) -> str:
        return f"{self.text} copies {self.sheet}: “{self.words}”"


def words(text: str) -> list[str]:
    """The words of a text, lower case, punctuation and placeholders removed."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‑", "-")
    text = _HEADING_ID.sub(" ", _PLACEHOLDER.sub(" ", text))
    return _WORD.findall(text.lower())


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def text_words(path: Path) -> list[list[str]]:
    """The words of a rules text in parts a copy is looked for in: each TOML string, and each
    Markdown block between blank lines (a heading is not joined to the paragraph after it)."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        return [words(s) for s in _strings(tomllib.loads(source))]
    return [words(block) for block in re.split(r"\n\s*\n", source)]


def copied_runs(text: list[str], sheet: list[str], n: int = COPIED_RUN) -> list[str]:
    """Every longest run of n or more consecutive words of text that also occurs in sheet."""
    grams = {tuple(sheet[i : i + n]) for i in range(len(sheet) - n + 1)}
    found, i = [], 0
    while i <= len(text) - n:
        if tuple(text[i : i + n]) in grams:
            j = i + n
            while j < len(text) and tuple(text[j - n + 1 : j + 1]) in grams:
                j += 1
            found.append(" ".join(text[i:j]))
            i = j
        else:
            i += 1
    return found


def seeds_folder() -> Path:
    named = os.environ.get("RULES_SEEDS_DIR")
    return Path(named) if named else REPO.parent / "shared" / "seeds"


def load_sheets(folder: Path) -> dict[str, dict[str, list[str]]]:
    """The words of every sheet in folder, by language and file name; SheetsMissing if none."""
    if not folder.is_dir():
        raise SheetsMissing(
            f"The original rule sheets are needed to check that the rules pages do not copy "
            f"them, but {folder} is not a folder. Put the sheets there (<game>.<lang>.txt) or "
            f"set RULES_SEEDS_DIR to the folder that holds them."
        )
    sheets: dict[str, dict[str, list[str]]] = {}
    for path in sorted(folder.glob("*.*.txt")):
        lang = path.name.rsplit(".", 2)[-2]
        sheets.setdefault(lang, {})[path.name] = words(path.read_text(encoding="utf-8"))
    if not sheets:
        raise SheetsMissing(
            f"{folder} holds no rule sheet (<game>.<lang>.txt): the copy check has nothing to "
            f"compare with. Set RULES_SEEDS_DIR to the folder of the original sheets."
        )
    return sheets


def texts_of(lang: str, content: Path = CONTENT_DIR) -> list[Path]:
    """Every rules text of a language: pages, summaries, the index and the words file."""
    texts = sorted(content.glob(f"*/{lang}.md")) + sorted(content.glob(f"*/{lang}.summary.md"))
    return texts + sorted(content.glob(f"words/{lang}.toml"))


def copies(lang: str, sheets: dict[str, list[str]], content: Path = CONTENT_DIR) -> list[Copy]:
    found = []
    for path in texts_of(lang, content):
        for part in text_words(path):
            for name, sheet in sheets.items():
                for run in copied_runs(part, sheet):
                    found.append(Copy(str(path.relative_to(content)), name, run))
    return found


@pytest.fixture(scope="module")
def sheets() -> dict[str, dict[str, list[str]]]:
    try:
        return load_sheets(seeds_folder())
    except SheetsMissing as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.mark.parametrize("lang", LANGS)
def test_no_rules_text_copies_a_rule_sheet_of_its_language(lang, sheets):
    texts = texts_of(lang)
    assert len(texts) >= 10, f"{lang}: the rules texts are missing from {CONTENT_DIR}"
    found = copies(lang, sheets.get(lang, {}))
    assert not found, f"{len(found)} run(s) of {COPIED_RUN}+ words copied:\n" + "\n".join(
        map(str, found)
    )


# --- the comparison itself --------------------------------------------------------------------


SHEET = (
    "Ziehstapel und Ablagestapel: Die übrigen Karten bilden verdeckt den Ziehstapel. Die "
    "oberste Karte deckt der Geber auf und legt sie daneben."
)


def _tree(tmp_path: Path, page: str) -> tuple[Path, dict[str, list[str]]]:
    """A content folder with one German page and a seeds folder with one German sheet."""
    content = tmp_path / "content"
    (content / "classic").mkdir(parents=True)
    (content / "words").mkdir()
    (content / "classic" / "de.md").write_text(page, encoding="utf-8")
    (content / "words" / "de.toml").write_text('[page]\nrules = "Regeln"\n', encoding="utf-8")
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "classic-15-card.de.txt").write_text(SHEET, encoding="utf-8")
    return content, load_sheets(seeds)["de"]


def test_a_planted_copy_is_found_and_named_despite_case_punctuation_and_placeholders(tmp_path):
    page = (
        "title: Probe\n\n## Geben {#dealing}\n\nDann gilt: die OBERSTE Karte, [[cards: 7S]] "
        "deckt der Geber — auf, und legt sie daneben! Weiter geht es.\n"
    )
    content, sheets = _tree(tmp_path, page)
    assert copies("de", sheets, content) == [
        Copy(
            "classic/de.md",
            "classic-15-card.de.txt",
            "die oberste karte deckt der geber auf und legt sie daneben",
        )
    ]


def test_seven_words_in_a_row_are_not_a_copy_and_eight_are(tmp_path):
    content, sheets = _tree(tmp_path, "Hier: der Geber auf und legt sie daneben, fertig.")
    assert copies("de", sheets, content) == []
    sheet = sheets["classic-15-card.de.txt"]
    assert copied_runs(words("Hier deckt der Geber auf und legt sie daneben."), sheet) == [
        "deckt der geber auf und legt sie daneben"
    ]


def test_a_copy_in_a_words_file_is_found_but_not_across_two_entries(tmp_path):
    content, sheets = _tree(tmp_path, "Nichts.")
    (content / "words" / "de.toml").write_text(
        '[glossary_probe]\na = "Die übrigen Karten"\n'
        'b = "bilden verdeckt den Ziehstapel. Die oberste"\n'
        'c = "Ja: die übrigen Karten bilden verdeckt den Ziehstapel. Die oberste"\n',
        encoding="utf-8",
    )
    assert copies("de", sheets, content) == [
        Copy(
            "words/de.toml",
            "classic-15-card.de.txt",
            "die übrigen karten bilden verdeckt den ziehstapel die oberste",
        )
    ]


def test_without_the_sheets_the_check_fails_with_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setenv("RULES_SEEDS_DIR", str(tmp_path / "nowhere"))
    assert seeds_folder() == tmp_path / "nowhere"
    with pytest.raises(SheetsMissing, match="RULES_SEEDS_DIR"):
        load_sheets(seeds_folder())
    (tmp_path / "empty").mkdir()
    with pytest.raises(SheetsMissing, match="holds no rule sheet"):
        load_sheets(tmp_path / "empty")
    monkeypatch.delenv("RULES_SEEDS_DIR")
    assert seeds_folder() == REPO.parent / "shared" / "seeds"
