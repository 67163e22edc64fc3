"""Translatable engine messages, without Django.

The engine speaks English, but every message a person may see is marked with
:func:`gettext_noop` (``makemessages`` extracts calls of that name) and raised as an
:class:`EngineError` carrying the English %-format ``template`` and its ``params``. The
Django layer translates ``template`` and formats it with ``params`` (``rules.i18n``);
``str()`` of the error is the English message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Mark a message for translation; the engine itself keeps the English text."""
    return message


class EngineError(ValueError):
    """An error whose message a person may see: ``template % params`` is the English text.

    ``template`` uses named placeholders only (``%(token)s``); ``params`` values may be
    other EngineErrors (their own message is inserted, translated alike by the Django layer).
    """

    template: str
    params: dict[str, Any]

    def __init__(
        self, template: str, /, *, params: Mapping[str, Any] | None = None, **kwparams: Any
    ):
        self.template = template
        self.params = {**(params or {}), **kwparams}
        super().__init__(self._english())

    def _english(self) -> str:
        try:
            return self.template % self.params
        except (KeyError, ValueError, TypeError):  # a plain message holding a literal %
            return self.template

    def __str__(self) -> str:
        return self._english()
