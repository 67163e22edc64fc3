"""A bare `pytest` after a clone has compiled translations (tests/catalogues.py, called by
tests/conftest.py before the tests are collected)."""

from __future__ import annotations

import gettext
import os
import shutil

from tests.catalogues import LOCALE, compile_catalogues, stale_catalogues


def copy_of_german(tmp_path):
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(LOCALE / "de" / "LC_MESSAGES" / "django.po", folder / "django.po")
    return tmp_path, folder / "django.po", folder / "django.mo"


def test_a_missing_catalogue_is_compiled_and_then_translates(tmp_path):
    locale, po, mo = copy_of_german(tmp_path)
    assert stale_catalogues(locale) == [po]
    assert compile_catalogues(locale) == [po]
    with mo.open("rb") as f:
        catalogue = gettext.GNUTranslations(f)
    assert catalogue.gettext("Players") == "Spieler"
    assert stale_catalogues(locale) == []
    assert compile_catalogues(locale) == []  # nothing to do the second time
    # no half-written file left beside them
    assert sorted(p.name for p in mo.parent.iterdir()) == ["django.mo", "django.po"]


def test_a_catalogue_older_than_its_po_file_is_compiled_again(tmp_path):
    locale, po, mo = copy_of_german(tmp_path)
    compile_catalogues(locale)
    past = po.stat().st_mtime - 60
    os.utime(mo, (past, past))
    assert stale_catalogues(locale) == [po]
    compile_catalogues(locale)
    assert mo.stat().st_mtime >= po.stat().st_mtime


def test_this_run_has_every_catalogue_of_the_repository_compiled():
    assert sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
    assert stale_catalogues() == []
