"""Load, once in gunicorn's master process, what every worker would otherwise load on its
first requests: compiled templates, translation catalogues, URL patterns and the rendered
rules pages. The workers forked from the master share them from the start, and so does a
worker that replaces one (``max_requests``) — nothing here is state: all of it is derived
from the repository's files, and no database connection is left open across the fork.
"""

from __future__ import annotations

import gc

from django.conf import settings
from django.db import connections
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

from rules.engine.variants import VARIANT_IDS
from rules.pages import GAMELESS, KINDS, get_page
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
            for variant_id in (None,) if kind in GAMELESS else VARIANT_IDS:
                get_page(kind, variant_id, code)
                pages += 1
    connections.close_all()
    return {
        "templates": len(template_names()),
        "languages": len(settings.LANGUAGES),
        "pages": pages,
    }


def freeze() -> int:
    """Move everything loaded so far out of the garbage collector's sight (``gc.freeze``),
    just before the workers are forked; returns how many objects.

    A worker's full collection otherwise walks every object it inherited — some 90,000 of
    Django, the templates and the pages, 10-14 ms of CPU each time on this machine, more
    under load — and a request that happens to trigger one waits for it (a 3 ms poll answered
    in 30). Frozen, they are never walked: the passes see only what the worker made since it
    started. Nothing is lost: a frozen object is never freed, and nothing loaded before the
    fork is garbage (``warm`` keeps it all). Walking them also wrote to their pages, which the
    workers then stopped sharing with the master (copy on write); frozen, they keep sharing.
    """
    gc.collect()  # what is garbage now goes before the rest is set aside
    gc.freeze()
    return gc.get_freeze_count()
