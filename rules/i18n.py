"""Engine messages in the active language.

The engine raises :class:`~rules.engine.messages.EngineError` with an English %-format
``template`` (marked with ``gettext_noop``, so ``makemessages`` extracts it) and its
``params``; here the template is translated and then formatted.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from rules.engine.messages import EngineError


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
    params.update(overrides)
    try:
        return gettext(exc.template) % params
    except (KeyError, ValueError, TypeError):  # a broken translation must not break the page
        try:
            return exc.template % params
        except (KeyError, ValueError, TypeError):
            return str(exc)
