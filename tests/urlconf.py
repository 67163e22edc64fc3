"""The URL patterns of the site, walked from the URLconf (never listed by hand), and URLs
made of them with given links: what the access and cache tests go through, so that a new
page or write is covered the day it is added."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import LocalePrefixPattern, RoutePattern

PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class Route:
    name: str
    route: str  # e.g. "en/games/<token:token>/deals/<int:number>/edit/"
    callback: object

    @property
    def parameters(self) -> dict[str, str]:
        return {m["name"]: m["converter"] or "str" for m in PARAMETER.finditer(self.route)}

    @property
    def kind(self) -> str:
        """ "game", "evening", "circle" or "tournament" for a route behind the link of one,
        "player" behind a tournament player's own link, else ""."""
        if "token" not in self.parameters:
            return ""
        for kind in ("circle", "evening", "tournament"):
            if f"{kind}s/<token" in self.route:
                return kind
        return "player" if "tournaments/players/<token" in self.route else "game"

    def url(self, **values: object) -> str:
        return "/" + PARAMETER.sub(lambda m: str(values[m["name"]]), self.route)


def routes(patterns=None, prefix: str = "") -> Iterator[Route]:
    """Every named URL pattern of the site, with its whole route (the language prefix of
    the active language included)."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        pattern = entry.pattern
        if isinstance(pattern, LocalePrefixPattern):
            part = pattern.language_prefix
        elif isinstance(pattern, RoutePattern):
            part = str(pattern)
        else:  # a regex pattern: none in this site; a new one is told
            raise AssertionError(f"a URL pattern the walk cannot read: {pattern!r}")
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + part)
        elif isinstance(entry, URLPattern):
            yield Route(entry.name or "", prefix + part, entry.callback)
