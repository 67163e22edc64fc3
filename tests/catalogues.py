"""The translations compiled for a test run (tests/conftest.py), as `manage.py runtests`
does with compilemessages (the same msgfmt call): a .mo file that is missing or older than
its .po file is compiled again."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def stale_catalogues(locale: Path = LOCALE) -> list[Path]:
    """The .po files whose .mo is missing or older than they are."""
    stale = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            stale.append(po)
    return stale


def compile_catalogues(locale: Path = LOCALE) -> list[Path]:
    """Compile the stale catalogues (each written whole, then moved into place, so a second
    test run at the same time never reads half a file); the .po files compiled."""
    stale = stale_catalogues(locale)
    if stale and shutil.which("msgfmt") is None:
        raise pytest.UsageError(
            "The translations are not compiled and gettext's msgfmt is missing: install "
            "gettext, or run `python3 manage.py runtests` once (it installs it)."
        )
    for po in stale:
        mo = po.with_suffix(".mo")
        with tempfile.NamedTemporaryFile(dir=po.parent, suffix=".mo", delete=False) as part:
            pass
        try:
            subprocess.run(
                ["msgfmt", "--check-format", "-o", part.name, str(po)],
                check=True,
                capture_output=True,
                text=True,
            )
            os.replace(part.name, mo)
        finally:
            if os.path.exists(part.name):
                os.unlink(part.name)
    return stale
