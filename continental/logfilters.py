"""Keep the game links out of the logs: a viewer or editor link is the only key to a game,
so whoever reads a log line with ``/games/<editor token>/`` could change that game. The
same goes for an evening's and a circle's links (``/evenings/<token>/``,
``/circles/<token>/``), a circle's reference given to the new-game and new-evening pages
(``?circle=``, which starts games in the circle), and a game's link given to the
new-evening page (``?game=<token>``) or, in an old "Play again" link, to the new-game page
(``?again=<token>``).

``MaskTokens`` is a logging filter that rewrites every game token in a record's message,
arguments and traceback to ``<token>`` (Django's request logger writes the path of every
403, 404, 409 and 429). ``GunicornLogger`` puts the same filter on gunicorn's access and
error logs (the request line, the path and the referrer of every request).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from scorepad.tokens import LINK_MIN, TOKEN_CHARS

# A token is the path segment after /games/ or /evenings/ (a link: LINK_MIN to TOKEN_MAX of
# TOKEN_CHARS, scorepad/tokens.py; a longer run is masked too), or the value of a ``game`` query
# parameter (a game's link given to the new-evening page) or of ``again`` (old "Play again"
# links); a percent-encoded one reaches
# the game too, so it is masked too. The path may itself be percent-encoded, as in the hand
# checker's ``back=%2Fen%2Fgames%2F...`` (the way back to the sheet, which a form sends
# with its slashes encoded).
TOKEN = re.compile(
    r"(?:(?<=/games/)|(?<=%2[Ff]games%2[Ff])|(?<=/evenings/)|(?<=%2[Ff]evenings%2[Ff])"
    r"|(?<=/circles/)|(?<=%2[Ff]circles%2[Ff])"
    r"|(?<=[?&]game=)|(?<=[?&]again=)|(?<=[?&]circle=))"
    rf"(?:[{TOKEN_CHARS}]|%(?![2][Ff])[0-9A-Fa-f]{{2}}){{{LINK_MIN},}}"
)
MASK = "<token>"
# The query parameters that may carry a link (or, for ``back``, a path with one): a new
# one is added here, and tests/scorepad/test_editor_link_leaks.py tries each.
LINK_PARAMETERS = ("game", "again", "back", "circle")
MARKERS = (
    "/games/",
    "games%2",
    "/evenings/",
    "evenings%2",
    "/circles/",
    "circles%2",
    "game=",
    "again=",
    "circle=",
)


def _has_link(text: str) -> bool:
    return any(marker in text for marker in MARKERS)


def mask(text: str) -> str:
    """``text`` with every game or evening token replaced by ``<token>``."""
    return TOKEN.sub(MASK, text) if _has_link(text) else text


def _masked(value: Any) -> Any:
    """A log argument with its tokens masked; a non-text argument (an exception, a URL
    object) whose text holds a token becomes its masked text."""
    if isinstance(value, str):
        return mask(value)
    if value is None or isinstance(value, int | float | bool):
        return value
    text = str(value)
    return mask(text) if _has_link(text) else value


class MaskTokens(logging.Filter):
    """Mask game tokens in a record; never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        elif record.msg is not None and _has_link(str(record.msg)):
            record.msg = mask(str(record.msg))
        args = record.args
        if isinstance(args, dict):
            # In place: gunicorn's access atoms are a dict subclass that answers "-" for
            # headers a request did not send.
            for key, value in args.items():
                args[key] = _masked(value)
        elif isinstance(args, tuple):
            record.args = tuple(_masked(a) for a in args)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        if record.stack_info:
            record.stack_info = mask(record.stack_info)
        return True


try:
    from gunicorn.glogging import Logger as _GunicornBase
except ImportError:  # pragma: no cover - gunicorn is a dependency; a bare Django works without
    _GunicornBase = object


class GunicornLogger(_GunicornBase):
    """gunicorn's logger, with game tokens masked in the access and the error log."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for log in (self.access_log, self.error_log):
            if not any(isinstance(f, MaskTokens) for f in log.filters):
                log.addFilter(MaskTokens())
