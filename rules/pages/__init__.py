"""The rules pages: Markdown texts in ``rules/content/`` rendered to HTML once per process.

Files (``rules/content/``):

* ``<variant-id>/<lang>.md`` — the full rules of a game in one language;
* ``<variant-id>/<lang>.summary.md`` — its one-page summary;
* ``index/<lang>.md`` — the introduction of the rules index;
* ``glossary/<lang>.md`` — the glossary page of the language (every entry of its words file);
* ``tournament/<lang>.md`` — how a club tournament works (series, tables, draw, ranking);
* ``words/<lang>.toml`` — page furniture, card names, house-rule texts and the glossary.

A text starts with ``key: value`` lines (``title``, ``essence``), then a blank line, then
Markdown with the placeholders of :mod:`rules.pages.markup` (cards, worked examples,
tables from the engine). Every ``##`` heading carries a fixed id (``## Overview
{#overview}``) shared by all languages, so links like ``#house-rules`` work in each.

Rendering once: :func:`get_page` keeps every rendered page in process memory
(``functools.cache``); Markdown is parsed the first time a page is asked for, never
again for later requests. The only part filled in per request is the house-rule section
(``[[options]]``), where the reader's game is marked: the rendered page is a list of
:class:`Segment` s, HTML strings and that one slot. With ``DEBUG`` on, the file's
modification time is part of the cache key, so an edited text shows on reload.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import markdown
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from markdown.extensions.toc import slugify_unicode

from rules.engine.variants import VARIANT_IDS, OptionError, Variant, get_variant

from .markup import SLOT_OPTIONS, ContentError, Example, PlaceholderExtension, RenderContext
from .words import CONTENT_DIR, DEFAULT_LANG, on_off, option_words, words

RULES = "rules"
SUMMARY = "summary"
INDEX = "index"
GLOSSARY = "glossary"
TOURNAMENT = "tournament"
KINDS = (RULES, SUMMARY, INDEX, GLOSSARY, TOURNAMENT)
# Pages of no game: the rules index, the glossary and the club tournament.
GAMELESS = (INDEX, GLOSSARY, TOURNAMENT)

# The sections of every full rules page, in order; their ids are the same in every language.
SECTION_IDS = (
    "overview",
    "players",
    "dealing",
    "turn",
    "melds",
    "wild-cards",
    "going-out",
    "scoring",
    "stock",
    "end",
    "house-rules",
    "glossary",
)

# The sections of the tournament page, in order, the same ids in every language.
TOURNAMENT_SECTION_IDS = (
    "series",
    "tables",
    "draw",
    "later-series",
    "ranking",
    "example",
    "confirmation",
    "players",
)

__all__ = [
    "GAMELESS",
    "GLOSSARY",
    "INDEX",
    "KINDS",
    "RULES",
    "SECTION_IDS",
    "SUMMARY",
    "TOURNAMENT",
    "TOURNAMENT_SECTION_IDS",
    "ContentError",
    "Example",
    "GameOptions",
    "RenderedPage",
    "Segment",
    "clear_cache",
    "content_path",
    "game_options",
    "get_page",
    "house_rule_rows",
    "render_markdown",
    "rules_url",
]


@dataclass(frozen=True)
class Segment:
    """A piece of a rendered page: ready HTML, or a slot filled per request (``options``)."""

    html: SafeString
    slot: str = ""


@dataclass(frozen=True)
class TocEntry:
    id: str
    name: str


@dataclass(frozen=True)
class RenderedPage:
    kind: str
    variant_id: str | None
    lang: str  # the language of the text (English when a translation is missing)
    title: str
    essence: str
    toc: tuple[TocEntry, ...]
    segments: tuple[Segment, ...]
    examples: tuple[Example, ...]

    @property
    def html(self) -> str:
        """The whole page body with the slot left empty (for tests and checks)."""
        return "".join(s.html for s in self.segments)


def content_path(kind: str, variant_id: str | None, lang: str) -> Path:
    if kind in GAMELESS:
        return CONTENT_DIR / kind / f"{lang}.md"
    suffix = ".summary.md" if kind == SUMMARY else ".md"
    return CONTENT_DIR / str(variant_id) / f"{lang}{suffix}"


def render_markdown(text: str, ctx: RenderContext) -> tuple[str, dict[str, Any], list[dict]]:
    """Markdown with placeholders to HTML; returns (html, meta, toc tokens)."""
    md = markdown.Markdown(
        extensions=[
            "meta",
            "tables",
            "attr_list",
            "sane_lists",
            "toc",
            PlaceholderExtension(ctx),
        ],
        extension_configs={"toc": {"slugify": slugify_unicode}},
        output_format="html",
    )
    html = md.convert(text)
    # The meta and toc extensions add these to the converter; Markdown's stubs cannot know.
    return html, md.Meta, md.toc_tokens  # type: ignore[attr-defined]


def _render(kind: str, variant_id: str | None, lang: str) -> RenderedPage:
    path = content_path(kind, variant_id, lang)
    text_lang = lang
    if not path.exists():
        text_lang = DEFAULT_LANG
        path = content_path(kind, variant_id, DEFAULT_LANG)
    variant = get_variant(variant_id) if variant_id else None
    ctx = RenderContext(variant=variant, lang=text_lang)
    try:
        html, meta, toc_tokens = render_markdown(path.read_text(encoding="utf-8"), ctx)
    except ContentError as exc:
        raise ContentError(f"{path.relative_to(CONTENT_DIR)}: {exc}") from None
    segments: list[Segment] = []
    parts = html.split(SLOT_OPTIONS)
    for i, part in enumerate(parts):
        if i:
            segments.append(Segment(mark_safe(""), "options"))
        segments.append(Segment(mark_safe(part)))
    toc = tuple(TocEntry(t["id"], t["name"]) for t in toc_tokens if t["level"] == 2)
    return RenderedPage(
        kind=kind,
        variant_id=variant_id,
        lang=text_lang,
        title=" ".join(meta.get("title", [""])),
        essence=" ".join(meta.get("essence", [""])),
        toc=toc,
        segments=tuple(segments),
        examples=tuple(ctx.examples),
    )


@cache
def _cached(kind: str, variant_id: str | None, lang: str, stamp: float) -> RenderedPage:
    return _render(kind, variant_id, lang)


def get_page(kind: str, variant_id: str | None, lang: str) -> RenderedPage:
    """The rendered page, from process memory after the first time it was asked for."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of page {kind!r}")
    if kind not in GAMELESS and variant_id not in VARIANT_IDS:
        raise ValueError(f"unknown variant {variant_id!r}")
    stamp = 0.0
    if settings.DEBUG:
        path = content_path(kind, variant_id, lang)
        stamp = path.stat().st_mtime if path.exists() else 0.0
    return _cached(kind, variant_id if kind not in GAMELESS else None, lang, stamp)


def clear_cache() -> None:
    _cached.cache_clear()
    words.cache_clear()


# --- the reader's game: house rules marked ---------------------------------------------------------


@dataclass(frozen=True)
class GameOptions:
    """House-rule values read from a link; ``values`` is None when the link gives none."""

    values: dict[str, Any] | None
    errors: tuple[str, ...] = ()


def _pairs_text(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in text.replace(";", ",").split(","):
        if not item.strip():
            continue
        sep = "=" if "=" in item else ":"
        key, _, value = item.partition(sep)
        out[key.strip()] = value.strip()
    return out


def game_options(variant: Variant, query) -> GameOptions:
    """The house rules of the reader's game, from the query string of a rules page.

    Two spellings, which may be mixed:

    * ``?options=<JSON object>`` — ``?options={"twos_wild": false}`` (URL-encoded), or
      ``key=value`` pairs separated by commas: ``?options=twos_wild=false``;
    * one parameter per option: ``?twos_wild=false&opening_minimum=40``.

    Values follow the engine (``OptionSpec.clean``): true/false/on/off for switches, one of
    the listed values otherwise. What cannot be read is left out and named in ``errors``;
    other query parameters are ignored.
    """
    raw: dict[str, Any] = {}
    errors: list[str] = []
    names = {spec.name for spec in variant.options}
    text = query.get("options")
    if text:
        try:
            given = json.loads(text)
        except ValueError:
            given = _pairs_text(text)
        except RecursionError:  # thousands of nested brackets: not options
            given = None
        if isinstance(given, dict):
            raw.update(given)
        else:
            errors.append(f"options={text}")
    for key in query:
        if key in names:
            raw[key] = query.get(key)
    if not raw and not errors:
        return GameOptions(values=None)
    values: dict[str, Any] = {}
    for name, value in raw.items():
        try:
            values[name] = variant.option(str(name)).clean(value)
        except OptionError:
            errors.append(f"{name}={json.dumps(value) if not isinstance(value, str) else value}")
    return GameOptions(values=values, errors=tuple(errors))


def rules_url(variant_id: str, options: dict[str, Any] | None = None, summary: bool = False) -> str:
    """The link "rules of this game": the variant's rules page in the active language, with
    the game's house rules in the query (only those that differ from the defaults) and the
    house-rule section as the target. For the score pad's game page.
    """
    from urllib.parse import urlencode

    from django.urls import reverse

    variant = get_variant(variant_id)
    url = reverse("rules-summary" if summary else "rules-variant", args=[variant.id])
    given = {
        name: value
        for name, value in variant.resolve_options(options).items()
        if value != variant.option(name).default
    }
    if given:
        url += "?" + urlencode(
            {k: str(v).lower() if isinstance(v, bool) else v for k, v in given.items()}
        )
    return url if summary else url + "#house-rules"


def _show(value: Any, lang: str) -> str:
    return on_off(value, lang) if isinstance(value, bool) else str(value)


def house_rule_rows(variant: Variant, lang: str, game: GameOptions) -> list[dict[str, Any]]:
    """One row per house-rule option: its words, default and (when given) the game's value."""
    rows = []
    for spec in variant.options:
        label, help_text = option_words(spec.name, lang)
        row: dict[str, Any] = {
            "name": spec.name,
            "label": label,
            "help": help_text,
            "default": _show(spec.default, lang),
            "given": False,
        }
        if game.values is not None:
            value = game.values.get(spec.name, spec.default)
            row.update(
                given=True,
                value=_show(value, lang),
                changed=value != spec.default,
            )
        rows.append(row)
    return rows


def error_texts(variant: Variant, lang: str, game: GameOptions, *, named: bool) -> list[str]:
    """What of the link could not be read, as ``game_options`` names it (``name=value``), or,
    ``named``, with a known option's label in the page's language (``Label: value``): the
    printable summary speaks the reader's words, not the engine's keys."""
    if not named:
        return list(game.errors)
    known = {spec.name for spec in variant.options}
    texts = []
    for error in game.errors:
        name, sep, value = error.partition("=")
        texts.append(f"{option_words(name, lang)[0]}: {value}" if sep and name in known else error)
    return texts
