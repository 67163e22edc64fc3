"""Load, once in gunicorn's master process, what every worker would otherwise load on its
first requests: compiled templates, translation catalogues, URL patterns and the rendered
rules pages. The workers forked from the master share them from the start, and so does a
worker that replaces one (``max_requests``) — nothing here is state: all of it is derived
from the repository's files, and no database connection is left open across the fork.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connections
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

from rules.engine.variants import VARIANT_IDS
from rules.pages import GLOSSARY, INDEX, KINDS, get_page
from scorepad.board import PARTS, TEMPLATE


def template_names() -> list[str]:
    root = settings.BASE_DIR / "templates"
    names = [str(path.relative_to(root)) for path in sorted(root.glob("**/*.html"))]
    return names + [f"{TEMPLATE}#{name}" for name in (*PARTS, "sheet", "game")]


def warm() -> dict[str, int]:
    """Load everything listed above; returns how many of each, for the log."""
    for name in template_names():
        get_template(name)
    get_resolver().url_patterns  # noqa: B018 (resolving imports every view module)
    pages = 0
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Deal")
        for kind in KINDS:
            for variant_id in (None,) if kind in (INDEX, GLOSSARY) else VARIANT_IDS:
                get_page(kind, variant_id, code)
                pages += 1
    connections.close_all()
    return {
        "templates": len(template_names()),
        "languages": len(settings.LANGUAGES),
        "pages": pages,
    }
