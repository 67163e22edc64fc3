"""Engine messages in the active language.

The engine raises :class:`~rules.engine.messages.EngineError` with an English %-format
``template`` (marked with ``gettext_noop``, so ``makemessages`` extracts it) and its
``params``; here the template is translated and then formatted.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext

from rules.engine.messages import EngineError

# The parameters in which the engine names the kind of a meld, in English ("set", "groups").
MELD_KIND_PARAMS = ("kind", "kinds", "set_kind", "set_kinds", "meld_kind")


def meld_kind_word(kind: str) -> str:
    """The engine's name of a kind of meld in the active language (docs/glossary.md)."""
    words = {
        "run": pgettext("kind of meld", "run"),
        "runs": pgettext("kind of meld", "runs"),
        "set": pgettext("kind of meld", "set"),
        "sets": pgettext("kind of meld", "sets"),
        "group": pgettext("kind of meld", "group"),
        "groups": pgettext("kind of meld", "groups"),
    }
    return words.get(kind, kind)


def engine_message(exc: BaseException, **overrides: Any) -> str:
    """The message of ``exc`` for a person, in the active language.

    ``overrides`` replace parameters of the message (e.g. ``player`` by the player's name).
    Parameters that are engine errors themselves are translated too. Anything else than an
    EngineError gives ``str(exc)``.
    """
    if not isinstance(exc, EngineError):
        return str(exc)
    params = {
        key: engine_message(value) if isinstance(value, EngineError) else value
        for key, value in exc.params.items()
    }
    for key in MELD_KIND_PARAMS:
        if isinstance(params.get(key), str):
            params[key] = meld_kind_word(params[key])
    params.update(overrides)
    try:
        return gettext(exc.template) % params
    except (KeyError, ValueError, TypeError):  # a broken translation must not break the page
        try:
            return exc.template % params
        except (KeyError, ValueError, TypeError):
            return str(exc)
