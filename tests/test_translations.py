"""Every message of the interface is translated, and not fuzzy, in every language."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LANGS = [code for code, _ in settings.LANGUAGES if code != "en"]


def read_po(path: Path) -> list[dict]:
    """A small .po reader: entries with msgid, msgid_plural, msgstr[n] and flags."""
    entries, entry, field = [], None, None
    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            if entry and "msgid" in entry:
                entries.append(entry)
            entry, field = None, None
            continue
        if entry is None:
            entry = {"flags": set(), "msgstr": {}}
        if line.startswith("#,"):
            entry["flags"].update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural "):
            field = ("msgid_plural", None)
            entry["msgid_plural"] = _unquote(line[13:])
        elif line.startswith("msgid "):
            field = ("msgid", None)
            entry["msgid"] = _unquote(line[6:])
        elif m := re.match(r"msgstr(?:\[(\d+)\])? (.*)", line):
            index = int(m.group(1) or 0)
            field = ("msgstr", index)
            entry["msgstr"][index] = _unquote(m.group(2))
        elif line.startswith('"') and field:
            name, index = field
            if name == "msgstr":
                entry["msgstr"][index] += _unquote(line)
            else:
                entry[name] += _unquote(line)
    return [e for e in entries if e["msgid"] != ""]


def _unquote(text: str) -> str:
    return text.strip()[1:-1].encode().decode("unicode_escape").encode("latin-1").decode()


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_and_not_fuzzy(lang):
    po = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
    assert po.exists(), f"{po} is missing"
    entries = read_po(po)
    assert entries
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"].values())]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert untranslated == [], f"{lang}: untranslated: {untranslated[:10]}"
    assert fuzzy == [], f"{lang}: fuzzy: {fuzzy[:10]}"


def test_the_catalogues_hold_every_message_of_the_source(tmp_path):
    """makemessages on a copy of the tree finds no message the committed catalogues lack."""
    if shutil.which("xgettext") is None:
        pytest.fail("gettext is not installed: run the README's test command")
    copy = tmp_path / "tree"
    ignore = shutil.ignore_patterns(
        ".venv", "node_modules", ".git", "data", "staticfiles", "__pycache__", "screenshots"
    )
    shutil.copytree(ROOT, copy, ignore=ignore)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--no-location", "-v", "0"],
        cwd=copy,
        check=True,
        env={"SECRET_KEY": "x", "PATH": "/usr/bin:/bin"},
    )
    fresh = {e["msgid"] for e in read_po(copy / "locale/de/LC_MESSAGES/django.po")}
    for lang in LANGS:
        committed = {e["msgid"] for e in read_po(ROOT / f"locale/{lang}/LC_MESSAGES/django.po")}
        missing = sorted(fresh - committed)
        assert missing == [], f"{lang}: run makemessages; missing {missing[:10]}"
