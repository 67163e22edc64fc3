"""The whole app walked at random by three phones (hypothesis' RuleBasedStateMachine).

Phone A starts games and evenings (its session makes it their editor), phone B holds the
editor links A shared with it, phone C only the viewer links. Every rule is one thing a
person at the table does through the pages, as a browser without JavaScript posts it: start a
game of any variant and schedule; record a deal by rows, points or cards (through the
server's form, or the one the editor's sheet holds, as static/js/table.js opens it); correct one, also
from a form opened before another phone's change; undo, Redo, delete, bring back; end and
resume; join, leave, come back, rename a seat, set a target; start an evening, add and take
out a game, carry the balances; start a circle, start its game from its page (its last
game's people seated), rename a person across the circle, merge two people and separate them
again (each of the evening's and the circle's writes as a plain form, through htmx or from
the phone's outbox); replace a link; export a game and import it; back up the whole database and restore
it; post an old form again; and try every write with a viewer link.

After every step the pages of what the step touched answer (200 where the link may open them,
its refusal where not, never a 500) in a language drawn at random, every SVG on them is
well-formed with a visible stroke on each line, and the totals of every game and the money of
every evening equal the model's (``tests/whole/model.py``); nothing a step did not touch has
changed, and circles are isolated: a seat's person is of its game's circle, a game outside
any circle has none, and a step on one circle changes no other circle. At the end of each
example every page answers in all six languages.

A new write of the app gets its rule here (CONTRIBUTING in the README says so), and
``test_every_write_has_a_rule`` fails until it has one.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from decimal import Decimal
from html import escape, unescape
from xml.etree import ElementTree

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.test import Client, override_settings
from django.urls import get_resolver, reverse
from django.utils import timezone, translation
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from rules.engine.cards import parse_cards
from rules.engine.scoring import hand_penalty
from rules.engine.variants import VARIANT_IDS, get_variant
from scorepad import board
from scorepad.models import Evening, EveningGame, Event, Game
from tests.whole.browser import Form, Page, Phone, forms_of, path_of
from tests.whole.model import (
    MEvening,
    MGame,
    MSeat,
    classic_deal,
    penalty_deal,
)

LANGS = ("en", "de", "nb", "pl", "fi", "es")
NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gro", "Hugo", "Ida", "Jon", "Kari", "Leo"]
GAME_PAGES = ("", "history/", "share/", "players/", "evenings/", "export.json", "export.csv")
EDITOR_ONLY = ("players/",)
# The writes of the app (URL names) and the rule of this walk that makes each one.
WRITES = {
    "game-new": "start_game",
    "game-import": "export_and_import",
    "game-share": "replace_game_link",
    "game-end": "end_or_resume",
    "game-players": "join|leave_or_come_back|take_over|rename|set_target",
    "deal-new": "record_deal",
    "deal-undo": "undo",
    "deal-redo": "redo",
    "deal-restore": "bring_back",
    "deal-edit": "correct_deal",
    "deal-delete": "delete_deal",
    "evening-new": "start_evening",
    "evening-add": "add_to_evening",
    "evening-remove": "take_out_of_evening",
    "evening-carry": "carry_balances",
    "evening-link": "replace_evening_link",
    "circle-new": "start_circle",
    "circle-rename": "rename_person",
    "circle-merge": "merge_or_separate",
    "circle-separate": "merge_or_separate",
    "circle-link": "replace_circle_link",
    "tournament-new": "start_tournament",
    "tournament-enter": "enter_tournament",
    "tournament-drop": "drop_out_of_tournament",
    "tournament-link": "replace_tournament_link",
    "tournament-series": "seat_a_series",
    "tournament-propose": "seat_a_series",
    "tournament-swap": "seat_a_series",
    "tournament-enter-people": "enter_tournament",
    "tournament-confirm": "confirm_a_table",
}
# How a phone sends a write of an evening's or a circle's page: a form without JavaScript,
# htmx, or its outbox (kept while it had no connection, sent later).
WAYS = st.sampled_from(["outbox", "htmx", "plain"])
# Pages that take POST but change nothing stored (a language choice, the checker, the API).
NOT_WRITES = {"choose-language", "check", "api-check"}
# Cards for penalty hands: no two players ever hold the same card, so every entry is
# possible whatever the number of decks.
HAND_CARDS = [
    "3H",
    "4H",
    "5H",
    "6H",
    "7H",
    "8H",
    "9H",
    "10H",
    "JH",
    "QH",
    "KH",
    "AH",
    "3C",
    "4C",
    "5C",
    "6C",
    "7C",
    "8C",
    "9C",
    "10C",
    "JC",
    "QC",
    "KC",
    "AC",
]
SVG_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
NUMBER_ATTRS = ("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height")


SIGNED_TAIL = re.compile(r"(again=[^%\"&]+)%3A[^\"&]*")


def unsigned(html: str) -> str:
    """``html`` with each signed reference cut to its payload (no timestamp, no signature)."""
    return SIGNED_TAIL.sub(r"\1", html)


def sheet_part(html: str) -> str:
    """The sheet of a game page's answer (its table, actions, standings and chart), without
    the answer's own one-time form token and CSRF token."""
    start = html.find('<section id="sheet"')
    assert start >= 0, "no sheet in the answer"
    sheet = html[start : html.index('<div class="poll"', start)]
    return unsigned(re.sub(r'name="(once|csrfmiddlewaretoken)" value="[^"]*"', r"\1", sheet))


def stroked_classes() -> set[str]:
    """Classes the stylesheet gives a stroke or a line colour (``--c``, which the charts'
    lines are stroked with) to: a line with none of them and no stroke of its own is drawn
    with SVG's default stroke, none, and so is invisible. (What colour reaches the screen is
    checked in Chromium, tests/e2e/test_chart.py.)"""
    from django.conf import settings as django_settings

    css = (django_settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    classes: set[str] = set()
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if re.search(r"(^|;|\s)(stroke|--c)\s*:\s*(?!none|transparent)", body):
            classes.update(re.findall(r"\.([A-Za-z0-9_-]+)", selector))
    return classes


class Walk(RuleBasedStateMachine):
    examples = 0
    total_steps = 0
    kept_checked = 0  # viewers' answers kept ahead and compared with a fresh rendering
    sheets_answered = 0  # saves through htmx answered with the sheet itself
    parts_answered = 0  # evening and circle writes through htmx answered with the page's part
    outbox_sent = 0  # evening and circle writes sent from a phone's outbox
    held_forms = 0  # deals recorded through the form the editor's sheet holds

    def __init__(self):
        super().__init__()
        Walk.examples += 1
        self.phones = {name: Phone(name) for name in "ABC"}
        self.games: dict[int, MGame] = {}
        self.evenings: dict[int, MEvening] = {}
        self.links: dict[str, dict[int, str]] = {"B": {}, "C": {}}  # phone -> game -> token
        self.evening_links: dict[str, dict[int, str]] = {"B": {}, "C": {}}
        # tournament -> its players' names in order of entry, and who dropped out
        self.tournaments: dict[int, list[str]] = {}
        self.tournament_circle: dict[int, int | None] = {}  # tournament -> its circle
        # Confirmed tables a rule chose to change through the director's phone: each change
        # of one is a correction in the tournament's history too.
        self.corrected_tables: set[int] = set()
        self.dropped: dict[int, set[str]] = {}
        self.tournament_links: dict[str, dict[int, str]] = {"B": {}, "C": {}}
        self.circles: dict[int, set[int]] = {}  # circle -> its games
        self.touched_circles: set[int] = set()
        self.touched: set[int] = set()
        self.touched_evenings: set[int] = set()
        self.posted: list[tuple[str, Form, dict]] = []  # (phone, form, values) to replay
        self.offered: list[Form] = []  # write forms the answers to those showed
        self.steps = 0
        self.stroked = stroked_classes()
        self.prints: dict[tuple[str, int], tuple] = {}
        self.opened: dict[str, set[str]] = {}  # phone -> the links it opened
        # Phones B and C hold the links the walk gave them, no circle's: every page they
        # are answered shows no editor link beyond those and no circle editor's reference
        # (the grant table, docs/architecture.md).
        for name in "BC":
            self.phones[name].on_page = lambda page, name=name: self.shows_only_what_it_holds(
                name, page
            )

    def teardown(self):
        try:
            if self.steps:
                self.walk_each_way()
                started, requests = time.monotonic(), Phone.requests
                self.check_everything()
                if os.environ.get("WALK_VERBOSE"):
                    print(
                        f"example {Walk.examples}: {self.steps} steps, {len(self.games)} games; "
                        f"end check {Phone.requests - requests} requests "
                        f"in {time.monotonic() - started:.1f} s"
                    )
        finally:
            # Each example starts from an empty database. The walk's requests commit (the
            # viewers' answer is kept as a change commits, its on_commit hook), so the
            # example's rows are deleted rather than rolled back.
            empty_the_database()

    # --- helpers ---------------------------------------------------------------------------
    def game(self, pk: int) -> Game:
        return Game.objects.get(pk=pk)

    def url(self, pk: int, who: str = "A", rest: str = "", lang: str = "en") -> str:
        game = self.game(pk)
        token = game.editor_token if who == "A" else self.links[who].get(pk, game.viewer_token)
        return f"/{lang}/games/{token}/{rest}"

    def pick_game(self, i: int, *, open_only: bool = False) -> int | None:
        pks = sorted(pk for pk, g in self.games.items() if not (open_only and g.finished))
        return pks[i % len(pks)] if pks else None

    def editor_phone(self, pk: int, b: bool) -> str:
        """B when it holds the game's editor link (and b), else A. A confirmed table's game is
        closed to its table's links: A, the tournament's director, corrects it."""
        from scorepad.models import Table

        table = Table.objects.filter(game_id=pk).select_related("game").first()
        if table is not None and table.confirmed:
            self.corrected_tables.add(table.pk)
            return "A"
        return "B" if b and pk in self.links["B"] else "A"

    def versions(self) -> dict[str, dict[int, int]]:
        from scorepad.models import Tournament

        return {
            "games": dict(Game.objects.values_list("pk", "version")),
            "evenings": dict(Evening.objects.values_list("pk", "version")),
            "tournaments": dict(Tournament.objects.values_list("pk", "version")),
        }

    def post(self, phone: str, form: Form, values: dict | None = None, **kw) -> Page:
        page = self.phones[phone].submit(form, values, **kw)
        assert page.status < 500, f"{form.action} answered {page.status}"
        if form.method == "post":
            self.posted.append((phone, form, dict(values or {}), kw.get("button")))
            del self.posted[:-12]
            # The writes the answer offers (a Redo beside an undo's message): the viewer
            # tries them too.
            self.offered.extend(f for f in page.forms if f.method == "post")
            del self.offered[:-24]
        return page

    def save(
        self, who: str, pk: int, form: Form, values: dict | None, htmx: bool, csrf: str = ""
    ) -> Page:
        """Post a write form as a browser without JavaScript does (followed to the sheet),
        or as htmx does: then the answer is the sheet itself (status 200, no redirect to
        follow), the address the phone shows is the game's, and what it shows is what the
        game page shows now (up to this answer's own tokens), with the message of the save.
        ``csrf``: the CSRF token htmx sends in its header (a form without the token's field:
        the one the sheet holds)."""
        if not htmx:
            return self.post(who, form, values)
        headers = {"HX-Request": "true", "HX-Target": "game"}
        if csrf:
            headers["X-CSRFToken"] = csrf
        page = self.post(who, form, values, headers=headers, follow=False)
        assert page.status == 200, f"htmx's save answered {page.status}, not the sheet"
        url = self.url(pk, who)
        assert page.response["HX-Push-Url"] == url, page.response.get("HX-Push-Url")
        assert re.search(r'<li class="message [^"]*success', page.html), "no message of the save"
        Walk.sheets_answered += 1
        fresh = self.phones[who].get(url, **headers)
        assert sheet_part(page.html) == sheet_part(fresh.html), (
            f"game {pk}: the sheet answered to the save is not the game's sheet now"
        )
        return page

    def walk_each_way(self) -> None:
        """Each way of an evening's or a circle's write (htmx, the outbox) at least once a
        run, whatever the examples drew: an example ending with a circle that has people
        renames one through the way never walked yet (the rule's own checks hold)."""
        for way, walked in (("htmx", Walk.parts_answered), ("outbox", Walk.outbox_sent)):
            if not walked and self.circles:
                self.rename_person(0, self.steps, NAMES[self.steps % len(NAMES)], way)

    def send(self, who: str, form: Form, values: dict | None, way: str, part: str, **kw) -> Page:
        """Post a write of an evening's or a circle's page (``part``) as a browser without
        JavaScript does, as htmx does (the answer is the page's part with the write's
        message, or for the next evening its address to load whole) or from the phone's
        outbox, kept there while it had no connection and sent on its fresh page's version
        (a JSON answer: saved, already, or refused with the page's reason; never a
        conflict, since no other phone wrote in between). Each way is walked at least once
        a run: a write goes through htmx, then the outbox, while that way never has (whatever
        way was drawn: a draw of few evening and circle writes still walks both)."""
        if not (Walk.parts_answered and Walk.outbox_sent):
            way = "htmx" if not Walk.parts_answered else "outbox"
        if way == "plain":
            return self.post(who, form, values, **kw)
        if way == "htmx":
            headers = {"HX-Request": "true", "HX-Target": part}
            page = self.post(who, form, values, headers=headers, follow=False, **kw)
            assert page.status in (200, 302), f"htmx's write answered {page.status}"
            if page.status == 302 or "HX-Redirect" in page.response:
                return page  # "already done", refused: back to the page; the next evening
            assert page.html.lstrip().startswith(f'<div id="{part}"'), page.html[:120]
            assert '<li class="message' in page.html, "no message of the write"
            Walk.parts_answered += 1
            return page
        page = self.post(who, form, values, headers={"X-Scorepad-Outbox": "1"}, **kw)
        answer = json.loads(page.html)
        assert answer["outcome"] in ("saved", "already", "invalid"), answer
        assert answer["message"], answer
        Walk.outbox_sent += 1
        return page

    def game_tokens(self, pk: int) -> tuple[str, str]:
        game = self.game(pk)
        return (game.editor_token, game.viewer_token)

    def latest_event(self, pk: int) -> Event:
        return Event.objects.filter(game_id=pk).latest("pk")

    # --- starting a game -------------------------------------------------------------------
    @initialize(n=st.integers(2, 6), data=st.data())
    def a_classic_game(self, n, data):
        self.start_game("classic", n, data)

    @initialize(variant=st.sampled_from(VARIANT_IDS[1:]), n=st.integers(2, 6), data=st.data())
    def a_penalty_game(self, variant, n, data):
        self.start_game(variant, n, data)

    @rule(variant=st.sampled_from(VARIANT_IDS), n=st.integers(2, 6), data=st.data())
    @precondition(lambda self: len(self.games) < 5)
    def start_game(self, variant, n, data):
        low, high = get_variant(variant).min_players, get_variant(variant).max_players
        n = max(low, min(high, n))
        a = self.phones["A"]
        page = a.get("/en/games/new/")
        form = page.form("/games/new/")
        names = data.draw(st.permutations(NAMES)).__getitem__(slice(0, n))
        for name in names:
            page = self.post("A", form, {"name": name}, button=form.button(value="add"))
            form = page.form("/games/new/")
        # Who deals first is chosen here, never drawn by the app: a replayed example must
        # meet the same game (the app's draw is random).
        values: dict = {"variant": variant, "first_dealer": str(data.draw(st.integers(0, 5)) % n)}
        schedule = None
        if get_variant(variant).is_contract and data.draw(st.booleans()):
            schedule = [(6, 2, 0), (7, 1, 1), (8, 0, 2)][: data.draw(st.integers(1, 3))]
            values["schedule"] = "\n".join(" ".join(map(str, row)) for row in schedule)
        per_point = None
        if variant == "classic" and data.draw(st.booleans()):
            per_point = Decimal("0.10")
            values["value_per_point"] = "0.10"
        before = set(Game.objects.values_list("pk", flat=True))
        page = self.post("A", form, values, button=form.button(value="start"))
        created = set(Game.objects.values_list("pk", flat=True)) - before
        assert len(created) == 1, f"starting a game made {len(created)} games"
        pk = created.pop()
        game = self.game(pk)
        total = None
        if get_variant(variant).is_contract:
            total = len(schedule) if schedule else len(get_variant(variant).schedule)
        self.games[pk] = MGame(
            pk=pk,
            variant=variant,
            seats=[MSeat(name) for name in names],
            total_deals=total,
            value_per_point=per_point,
        )
        self.phones["B"].get(f"/en/games/{game.editor_token}/")
        self.links["B"][pk] = game.editor_token
        self.phones["C"].get(f"/en/games/{game.viewer_token}/")
        self.links["C"][pk] = game.viewer_token
        self.touched.add(pk)

    # --- deals -----------------------------------------------------------------------------
    def entry_values(self, mgame: MGame, form: Form, data, players: list[int]):
        """Values for a deal form and the deal the model expects from them."""
        winner_choices = [str(p) for p in players]
        if mgame.is_classic:
            out = pick(data, [*winner_choices, "abandoned"])
            twos = pick(data, form.choices("wild_twos") or ["0"])
            jokers = pick(data, form.choices("jokers") or ["0"])
            first = pick(data, ["", "drawn", "undrawn"])
            values = {"went_out": out, "mode": "rows", "wild_twos": twos, "jokers": jokers}
            values["first_turn"] = first
            if out == "abandoned":
                return values, classic_deal(players, None, {})
            entry = {"wild_twos": int(twos), "jokers": int(jokers), "first_turn": first}
            entry["twos_wild"] = "wild_twos" in form.names()
            return values, classic_deal(players, int(out), entry)
        variant = get_variant(mgame.variant)
        nobody = data.draw(st.booleans()) and data.draw(st.booleans())
        winner = None if nobody else int(pick(data, winner_choices))
        values: dict = {"went_out": "nobody" if nobody else str(winner)}
        points: dict[int, int] = {}
        cards = iter(HAND_CARDS)
        for pos in players:
            values[f"points_{pos}"] = ""
            values[f"cards_{pos}"] = ""
            if pos == winner:
                points[pos] = 0
                continue
            if data.draw(st.booleans()):
                hand = [next(cards) for _ in range(data.draw(st.integers(1, 3)))]
                values[f"cards_{pos}"] = " ".join(hand)
                points[pos] = hand_penalty(parse_cards(" ".join(hand)), variant)
            else:
                step = 5 if variant.is_contract else 1
                points[pos] = step * data.draw(st.integers(0, 20))
                values[f"points_{pos}"] = str(points[pos])
        return values, penalty_deal(players, winner, points, {})

    @rule(i=st.integers(0, 99), b=st.booleans(), data=st.data())
    @precondition(lambda self: any(not g.finished for g in self.games.values()))
    def record_deal(self, i, b, data):
        pk = self.pick_game(i, open_only=True)
        mgame = self.games[pk]
        who = self.editor_phone(pk, b)
        way = data.draw(st.sampled_from(["held", "htmx", "plain"]))
        csrf = ""
        if way == "held":
            # As static/js/table.js: "Record deal" opens the form the sheet holds, with a
            # one-time token the phone makes and the CSRF token in htmx's header.
            page = self.phones[who].get(self.url(pk, who))
            held = re.search(r'<template id="offline-deal"[^>]*>(.*?)</template>', page.html, re.S)
            assert held, "the editor's sheet holds no form of the next deal"
            form = next(f for f in forms_of(held.group(1), page.url) if "went_out" in f.names())
            assert "csrfmiddlewaretoken" not in form.names(), "a token kept with the sheet"
            csrf = re.search(r'"X-CSRFToken": "([^"]+)"', page.html)[1]
            Walk.held_forms += 1
        else:
            page = self.phones[who].get(self.url(pk, who, "deals/new/"))
            assert page.status == 200, page.status
            form = page.form("/deals/new/", has="went_out")
        assert form is not None, "no deal form"
        players = mgame.active_positions()
        values, deal = self.entry_values(mgame, form, data, players)
        if way == "held":
            values["once"] = "p" + secrets.token_hex(16)
        before = self.game(pk).version
        self.save(who, pk, form, values, way != "plain", csrf)
        if way == "held":  # sent again, it is the outbox's: the token in the body
            self.posted[-1] = (who, form, {**values, "csrfmiddlewaretoken": csrf}, None)
        after = self.game(pk).version
        assert after == before + 1, f"a fresh deal form was not recorded ({values})"
        mgame.record(deal)
        self.touched.add(pk)

    @rule(i=st.integers(0, 99), n=st.integers(0, 99), b=st.booleans(), data=st.data())
    @precondition(lambda self: any(g.deals for g in self.games.values()))
    def correct_deal(self, i, n, b, data):
        pks = sorted(pk for pk, g in self.games.items() if g.deals)
        pk = pks[i % len(pks)]
        mgame = self.games[pk]
        number = n % len(mgame.deals) + 1
        who = self.editor_phone(pk, b)
        page = self.phones[who].get(self.url(pk, who, f"deals/{number}/edit/"))
        assert page.status == 200
        form = page.form(f"/deals/{number}/edit/", has="went_out")
        assert form is not None
        # An abandoned deal has no players of its own: its form is for those of the deal
        # before it, or those who started (scorepad/sheet.py, players_of_deals).
        players = mgame.deals[number - 1].players or [
            int(c) for c in form.choices("went_out") if c.isdigit()
        ]
        values, deal = self.entry_values(mgame, form, data, players)
        before = self.game(pk).version
        self.save(who, pk, form, values, data.draw(st.booleans()))
        after = self.game(pk).version
        assert after == before + 1, f"a fresh correction was not saved ({values})"
        mgame.edit(number, deal)
        self.touched.add(pk)

    @rule(i=st.integers(0, 99), n=st.integers(0, 99), data=st.data())
    @precondition(lambda self: any(g.deals for g in self.games.values()))
    def correct_from_a_stale_form(self, i, n, data):
        """B opens a correction, A changes the same deal meanwhile: B's save changes nothing
        and shows the merge; B then saves the merged form."""
        pks = sorted(pk for pk, g in self.games.items() if g.deals and pk in self.links["B"])
        if not pks:
            return
        pk = pks[i % len(pks)]
        mgame = self.games[pk]
        number = n % len(mgame.deals) + 1
        if not mgame.deals[number - 1].players:
            return
        players = mgame.deals[number - 1].players
        page_b = self.phones["B"].get(self.url(pk, "B", f"deals/{number}/edit/"))
        form_b = page_b.form(f"/deals/{number}/edit/", has="went_out")
        page_a = self.phones["A"].get(self.url(pk, "A", f"deals/{number}/edit/"))
        form_a = page_a.form(f"/deals/{number}/edit/", has="went_out")
        values_a, deal_a = self.entry_values(mgame, form_a, data, players)
        self.post("A", form_a, values_a)
        mgame.edit(number, deal_a)
        self.touched.add(pk)
        values_b, _deal_b = self.entry_values(mgame, form_b, data, players)
        before = self.game(pk).version
        merged_page = self.post("B", form_b, values_b)
        assert self.game(pk).version == before, "a stale correction was saved"
        merged = merged_page.form(f"/deals/{number}/edit/", has="went_out")
        assert merged is not None, "the merged form is not shown"
        base = dict(form_b.defaults())
        mine = dict(form_b.fill(values_b))
        theirs = dict(form_a.fill(values_a))
        shown = dict(merged.defaults())
        for name in ("went_out", *(f"points_{p}" for p in players)):
            if name not in base:
                continue
            expected = mine.get(name) if mine.get(name) != base.get(name) else theirs.get(name)
            assert shown.get(name, "") == (expected or ""), (
                f"merge of {name}: base {base.get(name)!r}, mine {mine.get(name)!r}, "
                f"theirs {theirs.get(name)!r}, shown {shown.get(name)!r}"
            )
        if data.draw(st.booleans()):
            saved = self.post("B", merged, {})
            if self.game(pk).version == before:
                # Each phone's fields may make a deal no one entered (A's winner with B's
                # points for them, A's cards with B's points): then the merged form says
                # what is wrong (in place, as any form with a mistake), and A's deal stays.
                assert saved.status in (200, 422), (
                    f"the merged form was neither saved nor told why: {saved.status}"
                )
                assert page_errors(saved), (
                    f"the merged form was neither saved nor told why: {saved.status}"
                )
                return
            assert self.game(pk).version == before + 1, "the merged form was saved twice"
            # What was saved is what the merged form held: read it back from the app.
            self.resync_deal(pk, number)

    def resync_deal(self, pk: int, number: int) -> None:
        """Take a deal as the app stored it into the model (after a merge the model cannot
        tell which phone's value each field took without the merge itself)."""
        mgame = self.games[pk]
        export = json.loads(self.phones["A"].get(self.url(pk, "A", "export.json")).html)
        row = export["deals"][number - 1]
        deal = mgame.deals[number - 1]
        deal.players = list(row["players"])
        deal.scores = {pos: row["scores"][pos] for pos in deal.players}

    @rule(i=st.integers(0, 99), b=st.booleans(), htmx=st.booleans())
    @precondition(lambda self: any(g.deals for g in self.games.values()))
    def undo(self, i, b, htmx):
        pks = sorted(pk for pk, g in self.games.items() if g.deals)
        pk = pks[i % len(pks)]
        mgame = self.games[pk]
        who = self.editor_phone(pk, b)
        page = self.phones[who].get(self.url(pk, who))
        form = page.form("/deals/undo/")
        assert form is not None, "no Undo on a sheet with deals"
        before = self.game(pk).version
        page = self.save(who, pk, form, None, htmx)
        assert self.game(pk).version == before + 1
        mgame.take_away(len(mgame.deals), self.latest_event(pk).pk, before + 1)
        self.touched.add(pk)
        redo = page.form("/deals/redo/")
        if redo is not None:  # the Redo beside the message, through the viewer link
            self.viewer_tries(redo, {}, None)

    @rule(i=st.integers(0, 99))
    def redo(self, i):
        """Redo from the page that showed the undo: saved only if nothing changed since."""
        kept = [
            (phone, page)
            for phone in "AB"
            for page in self.phones[phone].pages[-3:]
            if page.form("/deals/redo/")
        ]
        if not kept:
            return
        phone, page = kept[i % len(kept)]
        form = page.form("/deals/redo/")
        token = path_of(form.action).split("/")[3]
        game = (
            Game.objects.filter(editor_token=token).first()
            or Game.objects.filter(viewer_token=token).first()
        )
        if game is None or game.pk not in self.games:
            return
        mgame = self.games[game.pk]
        fresh = str(game.version) == dict(form.defaults()).get("version")
        undone = Event.objects.filter(game=game, kind="undone").order_by("-pk").first()
        before = game.version
        self.post(phone, form)
        after = self.game(game.pk).version
        can = fresh and undone is not None and mgame.can_bring_back(undone.pk)
        if can:
            assert after == before + 1, "Redo right after the undo was not done"
            mgame.bring_back(undone.pk, before)
            self.touched.add(game.pk)
        else:
            assert after == before, "a stale Redo changed the sheet"

    @rule(i=st.integers(0, 99), n=st.integers(0, 99), b=st.booleans())
    @precondition(lambda self: any(g.deals for g in self.games.values()))
    def delete_deal(self, i, n, b):
        pks = sorted(pk for pk, g in self.games.items() if g.deals)
        pk = pks[i % len(pks)]
        mgame = self.games[pk]
        number = n % len(mgame.deals) + 1
        who = self.editor_phone(pk, b)
        page = self.phones[who].get(self.url(pk, who, f"deals/{number}/delete/"))
        form = page.form(f"/deals/{number}/delete/")
        assert form is not None
        before = self.game(pk).version
        self.post(who, form)
        assert self.game(pk).version == before + 1
        mgame.take_away(number, self.latest_event(pk).pk, before + 1)
        self.touched.add(pk)

    @rule(i=st.integers(0, 99), k=st.integers(0, 99), b=st.booleans())
    @precondition(lambda self: any(g.kept for g in self.games.values()))
    def bring_back(self, i, k, b):
        pks = sorted(pk for pk, g in self.games.items() if g.kept)
        pk = pks[i % len(pks)]
        mgame = self.games[pk]
        who = self.editor_phone(pk, b)
        page = self.phones[who].get(self.url(pk, who, "history/"))
        assert page.status == 200, f"history answered {page.status}"
        forms = [f for f in page.forms if "/deals/restore/" in f.action]
        if not forms:
            assert not any(mgame.can_bring_back(e) for e in mgame.kept), "no Bring back offered"
            return
        form = forms[k % len(forms)]
        event = int(dict(form.defaults())["event"])
        before = self.game(pk).version
        self.post(who, form)
        after = self.game(pk).version
        if mgame.can_bring_back(event):
            assert after == before + 1, "a deal offered to bring back did not come back"
            mgame.bring_back(event, before)
            self.touched.add(pk)
        else:
            assert after == before, "a deal came back twice, or into an ended game"

    @rule(i=st.integers(0, 99), b=st.booleans())
    def end_or_resume(self, i, b):
        pk = self.pick_game(i)
        if pk is None:
            return
        mgame = self.games[pk]
        who = self.editor_phone(pk, b)
        page = self.phones[who].get(self.url(pk, who))
        form = page.form("/end/")
        if mgame.total_deals is not None:
            # A contract game ends with its last deal (and opens again when it is taken away).
            assert form is None, "End or Resume offered in a contract game"
            return
        if form is None or not form.buttons:
            # A contract game ends with its last deal: it has no End or Resume.
            assert not mgame.deals or mgame.total_deals is not None, (
                f"no End or Resume on a sheet with deals ({page.status})"
            )
            return
        button = form.buttons[0]
        before = self.game(pk).version
        self.post(who, form, button=button)
        after = self.game(pk).version
        if button.value == "end":
            assert not mgame.finished
            assert after == before + 1
            mgame.finished = True
        elif mgame.complete():
            assert after == before, "a game with all its deals played was resumed"
        else:
            assert after == before + 1
            mgame.finished = False
        self.touched.add(pk)

    # --- players who come and go -----------------------------------------------------------
    def players_form(self, pk: int, who: str, kind: str, position: int | None = None):
        # Leaving asks first: the question (?leave=<seat>) holds the button that leaves.
        ask = f"?leave={position}" if kind == "leave" else ""
        page = self.phones[who].get(self.url(pk, who, "players/") + ask)
        assert page.status == 200, f"players page answered {page.status}"
        for form in page.forms:
            fields = dict(form.defaults())
            if fields.get("form") != kind:
                continue
            if position is not None and fields.get("position") != str(position):
                continue
            return form
        return None

    @rule(i=st.integers(0, 99), b=st.booleans(), name=st.sampled_from(NAMES), how=st.integers(0, 2))
    @precondition(lambda self: any(not g.finished for g in self.games.values()))
    def join(self, i, b, name, how):
        pk = self.pick_game(i, open_only=True)
        mgame = self.games[pk]
        who = self.editor_phone(pk, b)
        form = self.players_form(pk, who, "join")
        assert form is not None
        values: dict = {"name": name}
        active = [mgame.totals()[p] for p in mgame.active_positions()]
        start = 0
        if not mgame.is_classic:
            choice = ("worst", "zero", "number")[how]
            options = form.choices("start")
            choice = next((o for o in options if o.startswith(choice[:3])), options[0])
            values["start"] = choice
            if choice == options[0]:
                start = max(active or [0])
            elif choice == "number" or choice.startswith("num"):
                start = 15
                values["start_points"] = "15"
        variant = get_variant(mgame.variant)
        taken = {s.name.casefold() for s in mgame.seats}
        fits = len(mgame.active_positions()) < variant.max_players
        game = self.game(pk)
        if game.circle is not None:  # the circle's person of that name may sit here already
            # (Asked before the post: afterwards the newcomer sits there.)
            person = game.circle.find(name)
            fits = fits and not (person and self.sat_here(game, person))
        before = self.game(pk).version
        self.post(who, form, values)
        after = self.game(pk).version
        if fits and name.casefold() not in taken:
            assert after == before + 1, f"{name} could not join"
            mgame.seats.append(
                MSeat(self.game(pk).seats.order_by("position").last().name, start=start)
            )
            self.touched.add(pk)
            if game.circle_id is not None:  # a new name is a new person of the circle
                self.touched_circles.add(game.circle_id)
        else:
            assert after == before, f"{name} joined a full table or twice"

    @rule(i=st.integers(0, 99), p=st.integers(0, 11), b=st.booleans())
    def leave_or_come_back(self, i, p, b):
        pk = self.pick_game(i)
        if pk is None:
            return
        mgame = self.games[pk]
        position = p % len(mgame.seats)
        who = self.editor_phone(pk, b)
        form = self.players_form(pk, who, "leave", position)
        if form is None or not form.buttons:
            return
        button = form.buttons[0]
        before = self.game(pk).version
        self.post(who, form, button=button)
        after = self.game(pk).version
        if after == before + 1:
            mgame.seats[position].active = button.value == "back"
            self.touched.add(pk)
        else:
            # Refused: leaving would leave too few players, or coming back too many.
            variant = get_variant(mgame.variant)
            n = len(mgame.active_positions())
            assert (
                (button.value == "leave" and n <= variant.min_players)
                or (button.value == "back" and n >= variant.max_players)
                or mgame.finished
            ), f"{button.value} of {position} refused at {n} players"

    @staticmethod
    def sat_here(game, person) -> bool:
        """Whether the circle's ``person`` (merged or not) sits at ``game``, or played a seat
        of it before a newcomer took it over: they do not sit down there again."""
        from django.db.models import Q

        from scorepad.models import Seat

        family = person.family()
        return Seat.objects.filter(
            Q(person__in=family) | Q(before_person__in=family), game=game
        ).exists()

    def seats_left(self) -> list[tuple[int, int]]:
        """(game, position) of each seat of an open game whose player left, not taken over."""
        return [
            (pk, pos)
            for pk, g in sorted(self.games.items())
            if not g.finished
            for pos, s in enumerate(g.seats)
            if not s.active and not s.before
        ]

    @rule(i=st.integers(0, 99), p=st.integers(0, 11), name=st.sampled_from(NAMES), b=st.booleans())
    @precondition(lambda self: any(not g.finished for g in self.games.values()))
    def take_over(self, i, p, name, b):
        """A newcomer takes over the seat of a player who left: the seat's total goes on, its
        name is the newcomer's, and it is taken over once (no seat at the table is offered).
        When no seat is free, a player of an open game leaves first."""
        if not self.seats_left():
            pk = self.pick_game(i, open_only=True)
            assert pk is not None
            mgame = self.games[pk]
            position = p % len(mgame.seats)
            form = self.players_form(pk, "A", "leave", position)
            if form is None or not form.buttons or form.buttons[0].value != "leave":
                return
            before = self.game(pk).version
            self.post("A", form, button=form.buttons[0])
            if self.game(pk).version == before:
                return  # too few players would be left (leave_or_come_back checks why)
            mgame.seats[position].active = False
            self.touched.add(pk)
        left = self.seats_left()
        if not left:  # the one who left had taken a seat over: it is not offered again
            return
        pk, position = left[i % len(left)]
        mgame = self.games[pk]
        seat = mgame.seats[position]
        who = self.editor_phone(pk, b)
        page = self.phones[who].get(self.url(pk, who, "players/"))
        offered = {
            int(dict(f.defaults())["position"])
            for f in page.forms
            if dict(f.defaults()).get("form") == "takeover"
        }
        assert offered == {pos for g, pos in self.seats_left() if g == pk}, (
            "takeover offered wrongly"
        )
        form = self.players_form(pk, who, "takeover", position)
        assert form is not None
        new = name
        game = self.game(pk)
        fits = len(mgame.active_positions()) < get_variant(mgame.variant).max_players
        fits = fits and new.casefold() not in {s.name.casefold() for s in mgame.seats}
        if game.circle is not None:
            person = game.circle.find(new)
            fits = fits and not (person and self.sat_here(game, person))
        before = game.version
        self.post(who, form, {"name": new})
        after = self.game(pk).version
        if not fits:
            assert after == before, f"{new} took over seat {position} of a full table or twice"
            return
        assert after == before + 1, f"{new} could not take over seat {position}"
        totals = mgame.totals()
        sat = game.seats.get(position=position).name  # a circle's person: its spelling
        seat.before, seat.name, seat.active = seat.name, sat, True
        assert mgame.totals() == totals  # the newcomer inherits the seat's total
        self.touched.add(pk)
        if game.circle_id is not None:  # a new name is a new person of the circle
            self.touched_circles.add(game.circle_id)

    @rule(i=st.integers(0, 99), p=st.integers(0, 11), name=st.sampled_from(NAMES), b=st.booleans())
    def rename(self, i, p, name, b):
        pk = self.pick_game(i)
        if pk is None:
            return
        mgame = self.games[pk]
        position = p % len(mgame.seats)
        who = self.editor_phone(pk, b)
        form = self.players_form(pk, who, "rename", position)
        assert form is not None
        new = f"{name} {position}"
        before = self.game(pk).version
        self.post(who, form, {"name": new})
        after = self.game(pk).version
        taken = {s.name.casefold() for i, s in enumerate(mgame.seats) if i != position}
        if new.casefold() in taken or new == mgame.seats[position].name:
            assert after == before
            return
        assert after == before + 1, f"renaming to {new} was refused"
        mgame.seats[position].name = new
        # A seat's name belongs to its game (issue 22): this game alone changes, whatever
        # circle it is in; the invariant fails if any other game does.
        self.touched.add(pk)

    @rule(
        i=st.integers(0, 99),
        score=st.sampled_from(["", "30", "100"]),
        deals=st.sampled_from(["", "3", "6"]),
    )
    def set_target(self, i, score, deals):
        pk = self.pick_game(i)
        if pk is None:
            return
        mgame = self.games[pk]
        form = self.players_form(pk, "A", "target")
        if form is None:
            assert mgame.total_deals is not None, "no target form in a game that may have one"
            return
        before = self.game(pk).version
        self.post("A", form, {"target_score": score, "target_deals": deals})
        after = self.game(pk).version
        if after == before + 1:
            mgame.target_score = int(score) if score else None
            mgame.target_deals = int(deals) if deals else None
            self.touched.add(pk)

    # --- links -----------------------------------------------------------------------------
    @rule(i=st.integers(0, 99), which=st.sampled_from(["viewer", "editor"]))
    def replace_game_link(self, i, which):
        pk = self.pick_game(i)
        if pk is None:
            return
        old = getattr(self.game(pk), f"{which}_token")
        page = self.phones["A"].get(self.url(pk, "A", "share/"))
        form = next(
            (f for f in page.forms if "/share/" in f.action and f.button(value=which)), None
        )
        assert form is not None
        before = self.game(pk).version
        self.post("A", form, button=form.button(value=which))
        game = self.game(pk)
        assert game.version == before + 1
        new = getattr(game, f"{which}_token")
        assert new != old
        # The phone that held the old link has lost it; it is given the new one.
        holder = "B" if which == "editor" else "C"
        stale = self.phones[holder].get(f"/en/games/{old}/")
        assert stale.status == 404, f"a replaced {which} link still opens ({stale.status})"
        self.phones[holder].get(f"/en/games/{new}/")
        self.links[holder][pk] = new
        self.touched.add(pk)

    # --- replays, stale pages and viewer links ---------------------------------------------
    @rule(k=st.integers(0, 99))
    @precondition(lambda self: self.posted)
    def post_an_old_form_again(self, k):
        """A phone on a poor connection posts a form it posted before: nothing changes."""
        phone, form, values, button = self.posted[k % len(self.posted)]
        if any(f"/{kind}/new/" in form.action for kind in ("games", "evenings", "tournaments")):
            return
        if "/import/" in form.action:
            return
        before = self.versions()
        page = self.phones[phone].submit(form, values, button=button)
        assert page.status < 500, f"a replay of {form.action} answered {page.status}"
        assert self.versions() == before, f"a replay of {form.action} changed something"

    def write_forms(self) -> list[tuple[Form, dict, object]]:
        """The writes the editors' phones made of late, the write forms their answers showed
        (a Redo beside an undo's message), and those on the pages they hold now."""
        forms = [(form, values, button) for _p, form, values, button in self.posted]
        offered = list(self.offered)
        for phone in "AB":
            for page in self.phones[phone].pages[-3:]:
                offered.extend(f for f in page.forms if f.method == "post")
        forms.extend((f, {}, f.buttons[0] if f.buttons else None) for f in offered)
        return forms

    @rule(k=st.integers(0, 99))
    @precondition(lambda self: self.posted)
    def viewer_posts_a_write(self, k):
        """Phone C takes a write form of an editor's page and posts it through its viewer
        link: refused, and nothing anywhere changes."""
        forms = self.write_forms()
        self.viewer_tries(*forms[k % len(forms)])

    def viewer_tries(self, form: Form, values: dict, button) -> None:
        path = path_of(form.action)
        match = re.match(
            r"^/(\w\w)/(games|evenings|tournaments)/([A-Za-z0-9_-]{20,64})/(.*)$", path
        )
        if not match:
            return
        lang, kind, token, rest = match.groups()
        from scorepad.models import Tournament

        model = {"games": Game, "evenings": Evening, "tournaments": Tournament}[kind]
        thing = model.objects.filter(editor_token=token).first()
        if thing is None:
            return
        viewer = thing.viewer_token
        fresh = Form(
            action=f"/{lang}/{kind}/{viewer}/{rest}",
            method=form.method,
            controls=form.controls,
            buttons=form.buttons,
        )
        # C's own CSRF token, as its browser would hold it.
        c = self.phones["C"]
        c.get(f"/{lang}/{kind}/{viewer}/")
        csrf = c.client.cookies.get("csrftoken")
        values = {**values, "csrfmiddlewaretoken": csrf.value if csrf else ""}
        # A fresh version and token, so only the link is wrong.
        if "version" in fresh.names():
            values["version"] = str(thing.version)
        if "once" in fresh.names():
            values["once"] = f"viewer{self.steps}x{Phone.requests}"
        before = self.versions()
        page = c.submit(fresh, values, button=button)
        assert page.status in (403, 404, 405), f"a viewer's {rest} answered {page.status}"
        assert self.versions() == before, f"a viewer link changed something through {rest}"

    # --- export and import, backup and restore ---------------------------------------------
    @rule(i=st.integers(0, 99))
    @precondition(lambda self: self.games and len(self.games) < 6)
    def export_and_import(self, i):
        pk = self.pick_game(i)
        a = self.phones["A"]
        exported = a.get(self.url(pk, "A", "export.json"))
        assert exported.status == 200
        page = a.get("/en/games/import/")
        form = page.form("/games/import/")
        before = set(Game.objects.values_list("pk", flat=True))
        self.post("A", form, {"text": exported.html})
        created = set(Game.objects.values_list("pk", flat=True)) - before
        assert len(created) == 1, f"the app refused its own export: {page_errors(a.pages[-1])}"
        new = created.pop()
        self.games[new] = self.games[pk].copy_as(new)
        game = self.game(new)
        self.phones["B"].get(f"/en/games/{game.editor_token}/")
        self.links["B"][new] = game.editor_token
        self.links["C"][new] = game.viewer_token
        self.touched.add(new)
        assert same_sheet(self.export(pk), self.export(new)), "the import is not the same sheet"

    def event_ids(self, pk: int) -> list[int]:
        return list(Event.objects.filter(game_id=pk).order_by("pk").values_list("pk", flat=True))

    def export(self, pk: int) -> dict:
        return json.loads(self.phones["A"].get(self.url(pk, "A", "export.json")).html)

    @rule()
    @precondition(lambda self: self.games)
    def backup_and_restore(self):
        from scorepad.management.commands.backup import export_database, import_database

        before = {pk: self.export(pk) for pk in self.games}
        pages = {pk: self.phones["C"].get(self.url(pk, "C")).status for pk in self.games}
        old_events = {pk: self.event_ids(pk) for pk in self.games}
        document, broken = export_database()
        assert not broken
        document = json.loads(json.dumps(document))
        with transaction.atomic():
            from scorepad.models import Circle, Tournament

            Evening.objects.all().delete()
            Game.objects.all().delete()
            Tournament.objects.all().delete()
            Circle.objects.all().delete()
            import_database(document)
        after = {pk: self.export(pk) for pk in self.games}
        for pk, mgame in self.games.items():  # the history's entries have new ids
            renamed = dict(zip(old_events[pk], self.event_ids(pk), strict=True))
            mgame.kept = {renamed[e]: kept for e, kept in mgame.kept.items()}
            mgame.brought_back = {renamed[e] for e in mgame.brought_back}
            mgame.resumed_at = {renamed[e]: v for e, v in mgame.resumed_at.items()}
        for pk in self.games:
            assert same_sheet(before[pk], after[pk]), f"game {pk} is not the same after restore"
            assert self.phones["C"].get(self.url(pk, "C")).status == pages[pk]
        self.touched.update(self.games)
        self.touched_evenings.update(self.evenings)
        self.touched_circles.update(self.circles)

    # --- circles ---------------------------------------------------------------------------
    def circle_page(self, pk: int) -> Page:
        from scorepad.models import Circle

        page = self.phones["A"].get(f"/en/circles/{Circle.objects.get(pk=pk).editor_token}/")
        assert page.status == 200, f"circle page answered {page.status}"
        return page

    @rule(name=st.sampled_from(["Tuesdays", "Family", "Club"]))
    @precondition(lambda self: len(self.circles) < 2)
    def start_circle(self, name):
        from scorepad.models import Circle

        page = self.phones["A"].get("/en/circles/new/")
        form = page.form("/circles/new/")
        before = set(Circle.objects.values_list("pk", flat=True))
        self.post("A", form, {"name": name})
        created = set(Circle.objects.values_list("pk", flat=True)) - before
        assert len(created) == 1, "starting a circle made no circle"
        pk = created.pop()
        self.circles[pk] = set()
        self.touched_circles.add(pk)

    @rule(c=st.integers(0, 9), variant=st.sampled_from(VARIANT_IDS), data=st.data())
    @precondition(lambda self: self.circles and len(self.games) < 6)
    def circle_game(self, c, variant, data):
        """A game started from the circle's page: its last game's people are seated; the
        table adds a name or two (matched against the circle's people only)."""
        pk = sorted(self.circles)[c % len(self.circles)]
        [href] = self.circle_page(pk).links("/games/new/?circle=")
        page = self.phones["A"].get(href)
        form = page.form("/games/new/")
        seated = [v for k, v in form.defaults() if k == "seat"]
        variant_ = get_variant(variant)
        for name in data.draw(st.permutations(NAMES))[: max(0, variant_.min_players - len(seated))]:
            page = self.post("A", form, {"name": name}, button=form.button(value="add"))
            form = page.form("/games/new/")
        seated = [v for k, v in form.defaults() if k == "seat"]
        if not variant_.min_players <= len(seated) <= variant_.max_players:
            return
        before = set(Game.objects.values_list("pk", flat=True))
        values = {"variant": variant, "first_dealer": "0"}
        self.post("A", form, values, button=form.button(value="start"))
        created = set(Game.objects.values_list("pk", flat=True)) - before
        assert len(created) == 1, f"starting a circle's game made {len(created)} games"
        game = self.game(created.pop())
        assert game.circle_id == pk
        total = len(variant_.schedule) if variant_.is_contract else None
        names = [s.name for s in game.seats.order_by("position")]
        self.games[game.pk] = MGame(
            pk=game.pk, variant=variant, seats=[MSeat(n) for n in names], total_deals=total
        )
        self.circles[pk].add(game.pk)
        self.links["B"][game.pk] = game.editor_token
        self.links["C"][game.pk] = game.viewer_token
        self.touched.add(game.pk)
        self.touched_circles.add(pk)

    @rule(c=st.integers(0, 9), k=st.integers(0, 99), name=st.sampled_from(NAMES), way=WAYS)
    @precondition(lambda self: self.circles)
    def rename_person(self, c, k, name, way):
        from scorepad.models import Circle

        pk = sorted(self.circles)[c % len(self.circles)]
        circle = Circle.objects.get(pk=pk)
        people = circle.people()
        form = self.circle_page(pk).form("/people/rename/")
        if form is None or not people:
            return
        person = people[k % len(people)]
        new = f"{name} {k % 3}"
        before = circle.version
        self.send("A", form, {"person": str(person.pk), "name": new}, way, "circle")
        after = Circle.objects.get(pk=pk).version
        taken = {p.name.casefold() for p in people if p.pk != person.pk}
        assert (after == before + 1) == (new.casefold() not in taken), f"rename to {new}"
        self.touched_circles.add(pk)

    @rule(c=st.integers(0, 9), k=st.integers(0, 99), j=st.integers(0, 99), way=WAYS)
    @precondition(lambda self: self.circles)
    def merge_or_separate(self, c, k, j, way):
        """Merge two people, or separate one merged before: no game's seats, names or totals
        change (the invariant's fingerprints), only the circle."""
        from scorepad.models import Circle, Person, Seat

        pk = sorted(self.circles)[c % len(self.circles)]
        circle = Circle.objects.get(pk=pk)
        page = self.circle_page(pk)
        merged = [f for f in page.forms if "/people/separate/" in f.action]
        if merged and k % 2:
            form = merged[j % len(merged)]
            person = int(dict(form.defaults())["person"])
            self.send("A", form, None, way, "circle")
            assert Person.objects.get(pk=person).merged_into_id is None
            self.touched_circles.add(pk)
            return
        people = circle.people()
        form = page.form("/people/merge/")
        if form is None or len(people) < 2:
            return
        one, other = people[k % len(people)], people[j % len(people)]
        if one.pk == other.pk:
            return
        before = circle.version
        self.send("A", form, {"person": str(one.pk), "into": str(other.pk)}, way, "circle")
        after = Circle.objects.get(pk=pk).version
        shared = set(
            Seat.objects.filter(person__in=one.family()).values_list("game", flat=True)
        ) & set(Seat.objects.filter(person__in=other.family()).values_list("game", flat=True))
        assert (after == before + 1) == (not shared), "merge refused or let through wrongly"
        self.touched_circles.add(pk)

    @rule(c=st.integers(0, 9), which=st.sampled_from(["viewer", "editor"]))
    @precondition(lambda self: self.circles)
    def replace_circle_link(self, c, which):
        from scorepad.models import Circle

        pk = sorted(self.circles)[c % len(self.circles)]
        old = getattr(Circle.objects.get(pk=pk), f"{which}_token")
        form = self.circle_page(pk).form("/links/")
        assert form is not None, "no link replacement on the circle page"
        self.post("A", form, button=form.button(value=which))
        new = getattr(Circle.objects.get(pk=pk), f"{which}_token")
        assert new != old
        assert self.phones["C"].get(f"/en/circles/{old}/").status == 404
        self.touched_circles.add(pk)

    # --- evenings --------------------------------------------------------------------------
    @rule(data=st.data())
    @precondition(lambda self: self.games and len(self.evenings) < 3)
    def start_evening(self, data):
        a = self.phones["A"]
        page = a.get("/en/evenings/new/")
        form = page.form("/evenings/new/")
        # The offered games in the order of the walk's own games (the tokens are random, so
        # their order on the page is not the same in a replay of the example).
        offered = set(form.choices("games"))
        tokens = [t for pk in sorted(self.games) for t in self.game_tokens(pk) if t in offered]
        picks = data.draw(st.lists(st.integers(0, 99), max_size=3)) if tokens else []
        picked = list(dict.fromkeys(tokens[k % len(tokens)] for k in picks))
        before = set(Evening.objects.values_list("pk", flat=True))
        self.post("A", form, {"name": "", "stake": "0.10", "games": picked})
        created = set(Evening.objects.values_list("pk", flat=True)) - before
        if not created:
            return
        pk = created.pop()
        evening = Evening.objects.get(pk=pk)
        mev = MEvening(pk=pk)
        for token in picked:
            game = Game.objects.by_token(token).first()
            mev.games.append((game.pk, Decimal("0.10")))
        self.evenings[pk] = mev
        self.phones["B"].get(f"/en/evenings/{evening.editor_token}/")
        self.evening_links["B"][pk] = evening.editor_token
        self.evening_links["C"][pk] = evening.viewer_token
        self.touched_evenings.add(pk)

    def evening_url(self, pk: int, rest: str = "", lang: str = "en") -> str:
        return f"/{lang}/evenings/{Evening.objects.get(pk=pk).editor_token}/{rest}"

    @rule(e=st.integers(0, 99), data=st.data())
    @precondition(lambda self: any(not e.closed for e in self.evenings.values()))
    @precondition(lambda self: len(self.games) < 6)
    def evening_next_game(self, e, data):
        """ "Start the next game" of an open evening (its editor, phone A): seated as its last
        game, in its circle, and counted in the evening from its start (issue 45, item 7)."""
        names = data.draw(st.permutations(NAMES))  # drawn whatever the pages show
        pks = sorted(pk for pk, ev in self.evenings.items() if not ev.closed)
        pk = pks[e % len(pks)]
        hrefs = self.phones["A"].get(self.evening_url(pk)).links("/games/new/?evening=")
        if not hrefs:
            return
        page = self.phones["A"].get(hrefs[0])
        form = page.form("/games/new/")
        variant = dict(form.defaults()).get("variant") or "classic"
        variant_ = get_variant(variant)
        seated = [v for k, v in form.defaults() if k == "seat"]
        for name in names[: max(0, variant_.min_players - len(seated))]:
            page = self.post("A", form, {"name": name}, button=form.button(value="add"))
            form = page.form("/games/new/")
        seated = [v for k, v in form.defaults() if k == "seat"]
        if not variant_.min_players <= len(seated) <= variant_.max_players:
            return
        before = set(Game.objects.values_list("pk", flat=True))
        version = Evening.objects.get(pk=pk).version
        self.post(
            "A", form, {"variant": variant, "first_dealer": "0"}, button=form.button(value="start")
        )
        created = set(Game.objects.values_list("pk", flat=True)) - before
        assert len(created) == 1, f"the evening's next game made {len(created)} games"
        game = self.game(created.pop())
        entry = EveningGame.objects.get(game=game)
        assert entry.evening_id == pk, "the evening's next game counts in another evening"
        assert Evening.objects.get(pk=pk).version == version + 1
        total = len(variant_.schedule) if variant_.is_contract else None
        names = [s.name for s in game.seats.order_by("position")]
        self.games[game.pk] = MGame(
            pk=game.pk, variant=variant, seats=[MSeat(n) for n in names], total_deals=total
        )
        if game.circle_id is not None:
            self.circles[game.circle_id].add(game.pk)
            self.touched_circles.add(game.circle_id)
        self.evenings[pk].games.append((game.pk, entry.stake))
        self.links["B"][game.pk] = game.editor_token
        self.links["C"][game.pk] = game.viewer_token
        self.touched.add(game.pk)
        self.touched_evenings.add(pk)

    @rule(e=st.integers(0, 99), g=st.integers(0, 99), way=WAYS)
    @precondition(lambda self: any(not e.closed for e in self.evenings.values()))
    def add_to_evening(self, e, g, way):
        pks = sorted(pk for pk, ev in self.evenings.items() if not ev.closed)
        pk = pks[e % len(pks)]
        mev = self.evenings[pk]
        page = self.phones["A"].get(self.evening_url(pk))
        form = page.form("/games/add/")
        if form is None:
            return
        tokens = form.choices("game")
        if not tokens:
            return
        token = tokens[g % len(tokens)]
        game = Game.objects.by_token(token).first()
        before = Evening.objects.get(pk=pk).version
        self.send("A", form, {"game": token, "stake": "0.20"}, way, "evening")
        after = Evening.objects.get(pk=pk).version
        elsewhere = any(game.pk in {p for p, _s in ev.games} for ev in self.evenings.values())
        carried = any(game.pk in ev.carried_from for ev in self.evenings.values() if ev.pk == pk)
        if after == before + 1:
            assert not elsewhere, "a game was added to a second evening: its money counts twice"
            assert not carried, "a game was added beside the balance carried from it"
            mev.games.append((game.pk, Decimal("0.20")))
            self.touched_evenings.add(pk)

    @rule(e=st.integers(0, 99), g=st.integers(0, 99), way=WAYS)
    @precondition(lambda self: any(ev.games and not ev.closed for ev in self.evenings.values()))
    def take_out_of_evening(self, e, g, way):
        pks = sorted(pk for pk, ev in self.evenings.items() if ev.games and not ev.closed)
        pk = pks[e % len(pks)]
        mev = self.evenings[pk]
        page = self.phones["A"].get(self.evening_url(pk))
        forms = [f for f in page.forms if "/games/remove/" in f.action]
        assert forms, "no Take out beside the evening's games"
        form = forms[g % len(forms)]
        game_pk = int(dict(form.defaults())["game"])
        before = Evening.objects.get(pk=pk).version
        self.send("A", form, None, way, "evening")
        assert Evening.objects.get(pk=pk).version == before + 1
        mev.games = [(p, s) for p, s in mev.games if p != game_pk]
        self.touched_evenings.add(pk)

    @rule(e=st.integers(0, 99), way=WAYS)
    @precondition(lambda self: any(not ev.closed for ev in self.evenings.values()))
    def carry_balances(self, e, way):
        pks = sorted(pk for pk, ev in self.evenings.items() if not ev.closed)
        pk = pks[e % len(pks)]
        mev = self.evenings[pk]
        page = self.phones["A"].get(self.evening_url(pk))
        form = page.form("/carry/")
        if form is None:
            return
        before = set(Evening.objects.values_list("pk", flat=True))
        self.send("A", form, None, way, "evening")
        created = set(Evening.objects.values_list("pk", flat=True)) - before
        if not created:
            return
        new = created.pop()
        carry = mev.ledger(self.games, self.evenings).carry()
        mev.closed = True
        self.evenings[new] = MEvening(
            pk=new,
            carried=carry,
            carried_from=mev.carried_from | {p for p, _s in mev.games},
            previous=pk,
        )
        # Carrying moves the carried games' versions (a form of before is stale now).
        self.touched.update(p for p, _s in mev.games)
        evening = Evening.objects.get(pk=new)
        self.evening_links["B"][new] = evening.editor_token
        self.evening_links["C"][new] = evening.viewer_token
        self.touched_evenings.update({pk, new})

    @rule(e=st.integers(0, 99), which=st.sampled_from(["viewer", "editor"]))
    @precondition(lambda self: self.evenings)
    def replace_evening_link(self, e, which):
        pks = sorted(self.evenings)
        pk = pks[e % len(pks)]
        old = getattr(Evening.objects.get(pk=pk), f"{which}_token")
        page = self.phones["A"].get(self.evening_url(pk))
        form = page.form("/links/")
        assert form is not None, "no link replacement on the evening page"
        before = Evening.objects.get(pk=pk).version
        self.post("A", form, button=form.button(value=which))
        evening = Evening.objects.get(pk=pk)
        assert evening.version == before + 1
        new = getattr(evening, f"{which}_token")
        assert new != old
        stale = self.phones["C"].get(f"/en/evenings/{old}/")
        assert stale.status == 404, f"a replaced evening link still opens ({stale.status})"
        holder = "B" if which == "editor" else "C"
        self.evening_links[holder][pk] = new
        self.touched_evenings.add(pk)

    # --- a tournament ----------------------------------------------------------------------
    def tournament_url(self, pk: int, which: str = "editor") -> str:
        from scorepad.models import Tournament

        return f"/en/tournaments/{getattr(Tournament.objects.get(pk=pk), f'{which}_token')}/"

    @rule(
        name=st.sampled_from(["Club night", "Open"]),
        variant=st.sampled_from(VARIANT_IDS),
        c=st.integers(0, 9),
        in_circle=st.booleans(),
    )
    @precondition(lambda self: not self.tournaments)
    def start_tournament(self, name, variant, c, in_circle):
        """The director sets a tournament up: from the home's new page, or from a circle's
        page (its people play, its tables' games are the circle's); "Open" with a round
        clock of 30 minutes (drawn with the name, so that the walk's draws stay those of the
        walk before the clock)."""
        from scorepad.models import Tournament

        minutes = "30" if name == "Open" else ""
        circle = sorted(self.circles)[c % len(self.circles)] if in_circle and self.circles else None
        if circle is not None:
            [href] = self.circle_page(circle).links("/tournaments/new/?circle=")
            page = self.phones["A"].get(href)
        else:
            page = self.phones["A"].get("/en/tournaments/new/")
        form = page.form("/tournaments/new/")
        before = set(Tournament.objects.values_list("pk", flat=True))
        values = {
            "name": name, "variant": variant, "series": "3", "deals": "2", "minutes": minutes
        }  # fmt: skip
        self.post("A", form, values)
        created = set(Tournament.objects.values_list("pk", flat=True)) - before
        assert len(created) == 1, "setting a tournament up made no tournament"
        pk = created.pop()
        self.tournaments[pk], self.dropped[pk] = [], set()
        self.tournament_circle[pk] = circle
        tournament = Tournament.objects.get(pk=pk)
        assert tournament.circle_id == circle
        self.tournament_links["B"][pk] = tournament.registration_token  # B enters with it
        self.tournament_links["C"][pk] = tournament.viewer_token

    @rule(
        t=st.integers(0, 9),
        name=st.sampled_from(NAMES),
        b=st.booleans(),
        picks=st.lists(st.integers(0, 99), max_size=3),
    )
    @precondition(lambda self: self.tournaments)
    def enter_tournament(self, t, name, b, picks):
        """The director types a name, or phone B enters one through the registration link
        (and lands on its player's own page); a name entered already is refused. In a
        circle's tournament, the director ticks its people instead (``picks``, when any)."""
        from scorepad.models import Circle, Entrant

        pk = sorted(self.tournaments)[t % len(self.tournaments)]
        people = self.phones["A"].get(self.tournament_url(pk)).form("/enter/people/")
        if picks and people is not None:
            self.enter_circle_people(pk, people, picks)
            return
        who, which = ("B", "registration") if b else ("A", "editor")
        form = self.phones[who].get(self.tournament_url(pk, which)).form("/enter/")
        assert form is not None, "no form to enter a player"
        before = self.versions()["tournaments"][pk]
        # In a circle's tournament the name is the circle's person's (its spelling); a person
        # entered under a name they had before is entered already.
        circle = self.tournament_circle[pk]
        person = Circle.objects.get(pk=circle).find(name) if circle is not None else None
        entered = (
            person is not None and Entrant.objects.filter(tournament_id=pk, person=person).exists()
        )
        page = self.post(who, form, {"name": name})
        if circle is not None:  # a newcomer joins the circle: its people change
            self.touched_circles.add(circle)
            found = Circle.objects.get(pk=circle).find(name)
            name = found.name if found is not None else name
        after = self.versions()["tournaments"][pk]
        taken = entered or name.casefold() in {n.casefold() for n in self.tournaments[pk]}
        if taken:
            assert after == before, "a name entered twice was entered again"
            assert "is entered already" in page.html
            return
        assert after == before + 1, f"entering {name} moved the version {after - before} times"
        self.tournaments[pk].append(name)
        if b:
            assert "/tournaments/players/" in page.url, "the phone did not land on its player"
            assert f"{name}, start number {len(self.tournaments[pk])}" in page.html

    @rule(t=st.integers(0, 9), k=st.integers(0, 99))
    @precondition(lambda self: any(self.tournaments.values()))
    def drop_out_of_tournament(self, t, k):
        pks = sorted(pk for pk, names in self.tournaments.items() if names)
        pk = pks[t % len(pks)]
        page = self.phones["A"].get(self.tournament_url(pk))
        forms = [f for f in page.forms if "/drop/" in f.action]
        if not forms:
            return
        form = forms[k % len(forms)]
        from scorepad.models import Entrant, Tournament

        entrant = Entrant.objects.get(pk=dict(form.defaults())["player"])
        tournament = Tournament.objects.get(pk=pk)
        seat = entrant.seated.filter(series=tournament.current).select_related("table").first()
        game = self.game(seat.table.game_id) if seat is not None else None
        leaves = (
            game is not None
            and not game.is_finished
            and self.games[game.pk].seats[seat.position].active
        )
        low = get_variant(tournament.variant_id).min_players
        before = tournament.version
        page = self.post("A", form)
        after = Tournament.objects.get(pk=pk).version
        if leaves and sum(s.active for s in self.games[game.pk].seats) <= low:
            assert after == before, "a drop-out left a table too small to play"
            assert "cannot leave table" in page.html
            return
        assert after == before + 1, "a drop-out was not taken"
        self.dropped[pk].add(entrant.name)
        if leaves:  # a leaver of the table's game, which plays on
            self.games[game.pk].seats[seat.position].active = False
            assert self.game(game.pk).version == game.version + 1
            assert self.latest_event(game.pk).kind == "left"
            self.touched.add(game.pk)

    @rule(t=st.integers(0, 9), which=st.sampled_from(["viewer", "editor", "registration"]))
    @precondition(lambda self: self.tournaments)
    def replace_tournament_link(self, t, which):
        from scorepad.models import Tournament

        pk = sorted(self.tournaments)[t % len(self.tournaments)]
        old = getattr(Tournament.objects.get(pk=pk), f"{which}_token")
        form = self.phones["A"].get(self.tournament_url(pk)).form("/links/")
        self.post("A", form, button=form.button(value=which))
        new = getattr(Tournament.objects.get(pk=pk), f"{which}_token")
        assert new != old
        assert self.phones["C"].get(f"/en/tournaments/{old}/").status == 404
        if which == "registration":
            self.tournament_links["B"][pk] = new
        elif which == "viewer":
            self.tournament_links["C"][pk] = new

    @rule(t=st.integers(0, 9), i=st.integers(0, 99), j=st.integers(0, 99))
    @precondition(lambda self: self.tournaments and len(self.games) < 8)
    def seat_a_series(self, t, i, j):
        """The director's seating of the next series, a step a call: proposed (shown with
        its seed), then two players swapped (one call in three) or started as shown:
        refused while a table of the series in play has not confirmed (or too few players);
        else every player still playing and entered by then sits at exactly one table, whose
        game is an ordinary game of the walk."""
        from scorepad.models import Tournament

        pk = sorted(self.tournaments)[t % len(self.tournaments)]
        page = self.phones["A"].get(self.tournament_url(pk))
        if page.form("/seating/") is not None:
            self.propose_a_seating(pk, page.form("/seating/"))
            return
        if page.form("/swap/") is not None and i % 3 == 0:
            self.swap_two_players(pk, page.form("/swap/"), i, j)
            return
        form = page.form("/series/")
        if form is None:
            return  # every series seated
        before = Tournament.objects.get(pk=pk)
        shown = before.proposed()
        assert shown is not None, "a start without a proposed seating"
        self.post("A", form)
        after = Tournament.objects.get(pk=pk)
        if after.version == before.version:
            self.refused_with_reason(before)
            return
        assert after.current == before.current + 1
        assert [s.tables for s in after.seatings()][-1] == shown.tables, (
            "the series seated otherwise than shown"
        )
        assert after.proposal is None
        expected = {
            p.name for p in after.players() if p.playing and p.first_series <= after.current
        }
        tables = after.tables_of(after.current)
        seated = [s.entrant.name for table in tables for s in table.seated.all()]
        assert sorted(seated) == sorted(expected), "a player is not seated exactly once"
        variant = get_variant(after.variant_id)
        for table in tables:
            game = table.game
            names = [s.name for s in game.seats.order_by("position")]
            total = len(variant.schedule) if variant.is_contract else None
            self.games[game.pk] = MGame(
                pk=game.pk,
                variant=after.variant_id,
                seats=[MSeat(n) for n in names],
                total_deals=total,
                target_deals=None if variant.is_contract else after.deals,
            )
            self.links["B"][game.pk] = game.editor_token
            self.links["C"][game.pk] = game.viewer_token
            self.touched.add(game.pk)
            assert game.circle_id == self.tournament_circle[pk]
            if game.circle_id is not None:
                self.circles[game.circle_id].add(game.pk)
                self.touched_circles.add(game.circle_id)

    def refused_with_reason(self, before) -> None:
        """A seating refused: a table of the series in play has not confirmed, or the
        players left cannot be seated (too few for a table)."""
        unconfirmed = before.current and any(
            not table.confirmed for table in before.tables_of(before.current)
        )
        seatable = [
            p for p in before.players() if p.playing and p.first_series <= before.current + 1
        ]
        low = get_variant(before.variant_id).min_players
        last = before.current >= before.series
        assert last or unconfirmed or len(seatable) < low, "a seating refused without a reason"

    def propose_a_seating(self, pk: int, form: Form) -> None:
        """The director asks for the next series' seating: stored and shown with its seed,
        every player to seat at exactly one table, at the engine's table sizes."""
        from rules.engine import tournament as engine
        from scorepad.models import Tournament

        before = Tournament.objects.get(pk=pk)
        self.post("A", form)
        after = Tournament.objects.get(pk=pk)
        if after.version == before.version:
            self.refused_with_reason(before)
            return
        seating = after.proposed()
        number = after.current + 1
        expected = sorted(
            p.number for p in after.players() if p.playing and p.first_series <= number
        )
        assert sorted(seating.players) == expected, "a proposal seats a player twice or none"
        variant = get_variant(after.variant_id)
        assert tuple(len(x) for x in seating.tables) == engine.table_sizes(len(expected), variant)
        page = self.phones["A"].get(self.tournament_url(pk))
        if seating.seed:
            assert seating.seed in page.html, "the proposal's seed is not shown"

    def swap_two_players(self, pk: int, form: Form, i: int, j: int) -> None:
        """The director swaps two players of the proposed seating: the engine's swap."""
        from rules.engine import tournament as engine
        from scorepad.models import Tournament

        before = Tournament.objects.get(pk=pk)
        players = sorted(before.proposed().players)
        a, b = players[i % len(players)], players[j % len(players)]
        self.post("A", form, {"a": a, "b": b})
        after = Tournament.objects.get(pk=pk)
        if a == b:
            assert after.version == before.version, "a player swapped with themselves"
            return
        assert after.version == before.version + 1
        assert after.proposed() == engine.swap(before.proposed(), a, b)

    def enter_circle_people(self, pk: int, form: Form, picks: list[int]) -> None:
        """The director ticks people of the tournament's circle: each enters, numbered next,
        with the circle's spelling."""
        from scorepad.models import Tournament

        offered = [c.value for c in form.controls if c.name == "person"]
        ticked = sorted({offered[p % len(offered)] for p in picks}) if offered else []
        before = Tournament.objects.get(pk=pk).version
        self.post("A", form, {"person": ticked or None})
        after = Tournament.objects.get(pk=pk)
        if not ticked:
            assert after.version == before, "nothing ticked, yet something changed"
            return
        assert after.version == before + 1
        names = [p.name for p in after.players()]
        assert names[: len(self.tournaments[pk])] == self.tournaments[pk]
        new = names[len(self.tournaments[pk]) :]
        people = {str(p.person_id): p.name for p in after.players() if p.person_id}
        assert sorted(new) == sorted(people[v] for v in ticked)
        self.tournaments[pk].extend(new)

    @rule(t=st.integers(0, 9), k=st.integers(0, 99), reject=st.booleans())
    @precondition(lambda self: self.tournaments)
    def confirm_a_table(self, t, k, reject):
        """A seated player confirms their table's ended game from their own phone, or
        rejects it with a note; a confirmation holds until the game changes."""
        from scorepad.models import Tournament

        pks = sorted(self.tournaments)
        tournament = Tournament.objects.get(pk=pks[t % len(pks)])
        if not tournament.current:
            return
        seats = [
            s for table in tournament.tables_of(tournament.current) for s in table.seated.all()
        ]
        seat = seats[k % len(seats)]
        phone = Phone("P")
        page = phone.get(f"/en/tournaments/players/{seat.entrant.token}/")
        assert page.status == 200
        forms = [f for f in page.forms if "/confirm/" in f.action]
        if not forms:
            assert not seat.table.game.is_finished or seat.table.confirmed
            return
        before = Tournament.objects.get(pk=tournament.pk).version
        if reject:
            page = phone.submit(forms[1], {"note": "Check deal 1"})
        else:
            page = phone.submit(forms[0], {}, button=forms[0].buttons[0])
        assert page.status < 500
        assert Tournament.objects.get(pk=tournament.pk).version == before + 1
        table = Tournament.objects.get(pk=tournament.pk).tables_of(tournament.current)
        table = next(x for x in table if x.pk == seat.table_id)
        assert table.confirmed != reject

    @invariant()
    def tournaments_hold_their_players(self):
        """Each tournament's players are the names entered, numbered 1, 2, 3 ... in order of
        entry, the dropped ones marked; every page of it answers."""
        from scorepad.models import Tournament

        for pk, names in self.tournaments.items():
            tournament = Tournament.objects.get(pk=pk)
            players = tournament.players()
            assert [p.name for p in players] == names
            assert [p.number for p in players] == list(range(1, len(names) + 1))
            assert {p.name for p in players if not p.playing} == self.dropped[pk]
            page = self.phones["C"].get(self.tournament_url(pk, "viewer"))
            assert page.status == 200
            for name in names:
                assert name in page.html
            if tournament.current:
                self.standings_hold(tournament, page)
                self.export_holds(tournament)
            # The page's live part is the tournament's state now: its check has nothing new.
            shown = re.search(r'id="tournament-live" data-live-id="([\d.]+)"', page.html)[1]
            check = self.phones["C"].get(self.tournament_url(pk, "viewer") + f"live/?v={shown}")
            assert check.status == 204, "the live part shown is not the tournament's state"
            self.seated_once_a_series(tournament)
            self.corrections_in_both_histories(tournament)

    def export_holds(self, tournament) -> None:
        """The standings exported (JSON) are the model's after the last series every table
        confirmed, as the walk's own games say."""
        done = tournament.current
        if not all(t.confirmed for t in tournament.tables_of(done)):
            done -= 1
        answer = self.phones["C"].get(
            self.tournament_url(tournament.pk, "viewer") + "standings.json"
        )
        assert answer.status == 200
        document = json.loads(answer.html)
        assert document["tournament"]["after_series"] == done
        expected = self.model_ranking(tournament, done)
        names = {p.number: p.name for p in tournament.players()}
        assert [(r["number"], r["name"], r["dropped_out"]) for r in document["standings"]] == [
            (row.player, names[row.player], row.dropped) for row in expected.rows
        ], "the standings exported are not the model's"

    @invariant()
    def series_clocks_hold(self):
        """A series' round clock started when it was seated: the tournament keeps the start
        of the series in play (none before the first), and every table game of each series
        ends its time at that series' start plus the tournament's minutes (no clock without
        minutes)."""
        from datetime import datetime, timedelta

        from scorepad.models import Tournament

        for pk in self.tournaments:
            tournament = Tournament.objects.get(pk=pk)
            assert (tournament.series_started is None) == (tournament.current == 0)
            starts = {
                e.details["series"]: datetime.fromisoformat(e.details["started"])
                for e in tournament.events.filter(kind="series")
            }
            assert sorted(starts) == list(range(1, tournament.current + 1))
            if tournament.current:
                assert starts[tournament.current] == tournament.series_started
            for table in tournament.tables.select_related("game"):
                ends = table.game.clock_ends
                if not tournament.minutes:
                    assert ends is None
                else:
                    assert ends == starts[table.series] + timedelta(minutes=tournament.minutes)

    def seated_once_a_series(self, tournament) -> None:
        """Each series seats every player entered by then and still playing when it started
        (a drop-out mid-series stays at their table, a leaver of its game) at exactly one
        table; a proposed seating seats the next series' players, each once."""
        from scorepad.models import TableSeat

        players = tournament.players()
        for series in range(1, tournament.current + 1):
            seated = list(
                TableSeat.objects.filter(table__tournament=tournament, series=series).values_list(
                    "entrant__number", flat=True
                )
            )
            expected = [p.number for p in players if p.first_series <= series
                        and (p.dropped_after is None or p.dropped_after >= series)]  # fmt: skip
            assert sorted(seated) == sorted(expected), f"series {series} seats {seated}"
        proposal = tournament.proposed()
        if proposal is not None:
            number = tournament.current + 1
            expected = [p.number for p in players if p.playing and p.first_series <= number]
            assert sorted(proposal.players) == sorted(expected), "a stale proposal is kept"

    def corrections_in_both_histories(self, tournament) -> None:
        """Each correction of a confirmed table in the tournament's history is the entry of
        the table's game that made the version it names (its kind and deal)."""
        for event in tournament.events.filter(kind="corrected"):
            d = event.details
            table = tournament.tables.get(series=d["series"], number=d["table"])
            entries = list(Event.objects.filter(game_id=table.game_id).order_by("pk"))
            made = entries[d["game_version"] - 1]
            assert (made.kind, made.deal_number) == (d["change"], d["deal"]), (
                f"the correction of table {d['table']} is not its game's entry"
            )

    def standings_hold(self, tournament, page: Page) -> None:
        """The standings count the confirmed tables only, as the walk's own games say: the
        engine's ranking of their totals, in the order the page shows."""
        expected = self.model_ranking(tournament, tournament.current)
        names = {p.number: p.name for p in tournament.players()}
        shown = re.findall(r"<tr><td>\d+</td><td>([^<]+)", page.html)
        assert [s.strip() for s in shown] == [names[n] for n in expected.players], (
            "the standings are not the model's"
        )

    def model_ranking(self, tournament, through: int):
        """The engine's ranking of the confirmed tables of the first ``through`` series, their
        totals as the walk's own games say."""
        from rules.engine import tournament as engine

        series = []
        for number in range(1, through + 1):
            results = []
            for table in tournament.tables_of(number):
                if not table.confirmed:
                    continue
                mgame = self.games[table.game_id]
                totals = mgame.totals()
                numbers = [s.entrant.number for s in table.seated.all()]
                left = frozenset(n for n, seat in zip(numbers, mgame.seats, strict=True)
                                 if not seat.active)  # fmt: skip
                results.append(engine.TableResult(dict(zip(numbers, totals, strict=True)), left))
            series.append(results)
        players = tournament.players()
        return engine.rank(
            [p.number for p in players],
            series,
            get_variant(tournament.variant_id),
            tournament.seed,
            dropped=[p.number for p in players if not p.playing],
            order=tournament.ranking,
        )

    # --- links across games, evenings and circles (the grant table) ----------------------
    def held(self, phone: str) -> set[str]:
        kinds = (self.links, self.evening_links, self.tournament_links)
        return {token for links in kinds for token in links.get(phone, {}).values()}

    def shows_only_what_it_holds(self, phone: str, page: Page, held: set[str] | None = None):
        from scorepad.access import circle_grant
        from scorepad.models import Circle

        held = self.held(phone) if held is None else held
        # Every link it opened itself (its cookie remembers them) and what those grant.
        opened = self.opened.setdefault(phone, set())
        opened |= set(re.findall(r"[\w-]{24,}", page.url))
        held = held | opened | self.granted_by(opened)
        html = page.html
        from scorepad.models import Tournament

        tournaments = Tournament.objects.values_list("registration_token", flat=True)
        for token in tournaments:  # the director's page shows it; B registers with it
            assert token in held or token not in html, (
                f"phone {phone} was shown a registration link"
            )
        for model in (Game, Evening, Circle, Tournament):
            for token in model.objects.values_list("editor_token", flat=True):
                if token in html:
                    assert token in held, (
                        f"phone {phone} was shown an editor link of a {model.__name__} it "
                        f"does not hold, at {page.url}"
                    )
        for value in set(re.findall(r"[\w.-]+:[\w-]+", html)):
            grant = circle_grant(value)
            assert grant is None or not grant.whole_circle, (
                f"phone {phone} was given the circle editor's reference at {page.url}"
            )

    def granted_by(self, tokens: set[str]) -> set[str]:
        """The editor links the grant table lets the pages of these links show: a circle's
        editor link its games' and evenings'; an evening's editor link the evenings before
        and after it."""
        from scorepad.models import Circle

        out: set[str] = set()
        for circle in Circle.objects.filter(editor_token__in=tokens):
            out |= set(circle.games.values_list("editor_token", flat=True))
            out |= set(circle.evenings.values_list("editor_token", flat=True))
        for evening in Evening.objects.filter(editor_token__in=tokens):
            near = Evening.objects.filter(Q(next_evening=evening) | Q(previous=evening))
            out |= set(near.values_list("editor_token", flat=True))
        return out

    @rule(i=st.integers(0, 99), kind=st.sampled_from(["editor", "viewer"]))
    @precondition(lambda self: self.games)
    def a_stranger_with_one_link(self, i, kind):
        """A phone that holds one game's link and nothing else opens every page that link
        leads to, and the pages that take a link (a new evening with the game, its
        evenings, a new game after it): it is shown no other editor link, and through a
        viewer link it cannot put the game into an evening of its own."""
        pk = self.pick_game(i)
        game = self.game(pk)
        token = getattr(game, f"{kind}_token")
        stranger = Phone("D")
        self.opened.pop("D", None)
        held = {token} if kind == "editor" else set()
        stranger.on_page = lambda page: self.shows_only_what_it_holds("D", page, held)
        for rest in ("", "evenings/", "share/", "history/", "players/", "table/"):
            stranger.get(f"/en/games/{token}/{rest}")
        page = stranger.get(f"/en/evenings/new/?game={token}")
        form = page.form("/evenings/new/")
        offered = form.choices("games") if form is not None else []
        if kind == "viewer":
            assert not offered, "a viewer link is offered to put its game in an evening"
            if form is not None:
                before = Evening.objects.count()
                stranger.submit(form, {"stake": "0.10", "games": [token]})
                assert Evening.objects.count() == before, "a viewer link started an evening"
        else:
            assert set(offered) <= {token}, "a game's editor link offered other games"

    # --- invariants ------------------------------------------------------------------------
    @invariant()
    def pages_answer_and_totals_hold(self):
        self.steps += 1
        Walk.total_steps += 1
        lang = LANGS[self.steps % len(LANGS)]
        self.touch_the_chains_of_touched_games()
        # Nothing the step did not mean to change has changed: another game (its version,
        # names, totals, links) or another evening is exactly as it was.
        prints = self.fingerprints()
        for key, before in self.prints.items():
            kind, pk = key
            meant = {
                "game": self.touched,
                "evening": self.touched_evenings,
                "circle": self.touched_circles,
            }[kind]
            if pk in meant or key not in prints:
                continue
            assert prints[key] == before, f"{kind} {pk} changed though no step touched it"
        self.prints = prints
        for pk in sorted(self.touched):
            self.check_game(pk, [lang], every_phone=False)
            self.kept_answers_are_fresh(pk)
        for pk in sorted(self.touched_evenings):
            self.check_evening(pk, [lang])
        for pk in sorted(self.touched_circles):
            self.check_circle(pk, [lang])
        self.circles_are_isolated()
        self.touched.clear()
        self.touched_evenings.clear()
        self.touched_circles.clear()

    @invariant()
    def every_write_moved_one_version_and_wrote_one_entry(self):
        """The kernel (scorepad/kernel.py): the version of every shared thing is the number of
        entries of its history, so each write moved its version once and wrote one entry."""
        from django.db.models import Count

        from scorepad.models import Circle, Tournament

        kinds = (
            (Game, "game"),
            (Evening, "evening"),
            (Circle, "circle"),
            (Tournament, "tournament"),
        )
        for model, owner in kinds:
            entries = dict(
                Event.objects.filter(**{f"{owner}__isnull": False})
                .values_list(owner)
                .annotate(n=Count("pk"))
                .values_list(owner, "n")
            )
            for pk, version in model.objects.values_list("pk", "version"):
                assert entries.get(pk, 0) == version, (
                    f"{owner} {pk} is at version {version} with {entries.get(pk, 0)} entries"
                )

    def touch_the_chains_of_touched_games(self) -> None:
        """A change of a game of a carried evening carries its difference to the evenings
        after it (models.carry_difference): they are meant to change too, and are checked;
        so is the circle of a touched game (what its people's pages read)."""
        for circle, games in self.circles.items():
            if games & self.touched:
                self.touched_circles.add(circle)
        for ev in list(self.evenings.values()):
            if not ({p for p, _s in ev.games} & self.touched):
                continue
            self.touched_evenings.add(ev.pk)
            following = ev.pk
            while True:
                after = [e.pk for e in self.evenings.values() if e.previous == following]
                if not after:
                    break
                following = after[0]
                self.touched_evenings.add(following)

    def kept_answers_are_fresh(self, pk: int) -> None:
        """What a change kept ahead for the viewers' phones (scorepad/warm.py) is what a
        viewer's phone renders itself now, with nothing kept, in each language kept."""
        game = Game.objects.get(pk=pk)
        for lang in LANGS:
            with translation.override(lang):
                kept = board.get_answer(board.viewer_key(pk, game.version))
                url = reverse("game-version", kwargs={"token": game.viewer_token})
            if kept is None:
                continue
            cache.clear()
            fresh = Client().get(
                f"{url}?v={game.version - 1}", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="sheet"
            )
            # A signed reference (the "play again" link) carries the second it was signed in;
            # its value and signature do not make the answer stale, its payload would.
            assert unsigned(fresh.content.decode()) == unsigned(kept), (
                f"game {pk}: the viewers' answer kept is stale"
            )
            Walk.kept_checked += 1

    def circles_are_isolated(self) -> None:
        """A seat's person is of its game's circle; a game outside any circle has no person;
        every game is in the circle the walk started it in."""
        from scorepad.models import Seat

        for game_id, circle, person_circle in Seat.objects.values_list(
            "game_id", "game__circle_id", "person__circle_id"
        ):
            assert person_circle == circle, f"a seat of game {game_id} is another circle's"
        for pk, games in self.circles.items():
            found = set(Game.objects.filter(circle_id=pk).values_list("pk", flat=True))
            assert found == games, f"circle {pk} holds games {found}, the walk made {games}"

    def check_circle(self, pk: int, langs) -> None:
        from scorepad.models import Circle

        circle = Circle.objects.get(pk=pk)
        for lang in langs:
            for token in (circle.editor_token, circle.viewer_token):
                page = self.phones["C"].get(f"/{lang}/circles/{token}/")
                assert page.status == 200, f"circle {lang}: {page.status}"
                page = self.phones["C"].get(f"/{lang}/circles/{token}/players/")
                assert page.status == 200, f"circle players {lang}: {page.status}"
            for person in circle.people():
                page = self.phones["C"].get(
                    f"/{lang}/circles/{circle.viewer_token}/players/{person.pk}/"
                )
                assert page.status == 200, f"person page {lang}: {page.status}"
                self.check_svgs(page)
            if lang == langs[0]:
                self.people_read_right(circle)
            # A circle's year for each year with a finished game of the circle's (none else).
            years = {
                g.finished_at.year
                for g in Game.objects.filter(circle_id=pk, finished_at__isnull=False)
                if self.games.get(g.pk) is not None and self.games[g.pk].finished
            }
            for year in years:
                page = self.phones["C"].get(f"/{lang}/circles/{circle.viewer_token}/year/{year}/")
                assert page.status == 200, f"a circle's year {lang}: {page.status}"
                assert circle.editor_token not in page.html, "the year holds the editor link"

    def people_read_right(self, circle) -> None:
        """What a person reads on the circle's players list, per person and variant: the
        games played, and the wins of the finished ones, worked out here from the walk's
        own games (its totals; first place, shared or not) and the seats' people as merged
        now (a merged person counts as the one they count as)."""
        from scorepad.models import Seat, roots

        who = roots(circle.pk)
        expected: dict[tuple[int, str], list[int]] = {}
        for game_pk in self.circles.get(circle.pk, set()):
            mgame = self.games.get(game_pk)
            if mgame is None:
                continue
            seats = list(Seat.objects.filter(game_id=game_pk).order_by("position"))
            winners = mgame.winners()
            # Who played a seat before a newcomer took it over played the game: no win.
            played = [(seat.person_id, seat.position in winners) for seat in seats]
            played += [(seat.before_person_id, False) for seat in seats]
            for person, won in played:
                if person is None:
                    continue
                games, finished, wins = expected.setdefault((who[person], mgame.variant), [0, 0, 0])
                expected[(who[person], mgame.variant)] = [
                    games + 1,
                    finished + mgame.finished,
                    wins + (mgame.finished and won),
                ]
        page = self.phones["C"].get(f"/en/circles/{circle.viewer_token}/players/")
        shown: dict[tuple[int, str], list[int]] = {}
        from rules.facts import NAMES as VARIANT_NAMES

        with translation.override("en"):
            by_name = {escape(str(VARIANT_NAMES[v])): v for v in VARIANT_IDS}
        for pk, part in re.findall(
            r'<h2 id="player-(\d+)">.*?</h2>(.*?)</section>', page.html, re.S
        ):
            for variant, stats in re.findall(
                r'<h3 class="record-variant">([^<]+)</h3>\s*<dl class="stats">(.*?)</dl>',
                part,
                re.S,
            ):
                games = int(re.search(r"<dt>Games</dt><dd>(\d+)</dd>", stats).group(1))
                won = re.search(r"(\d+) of (\d+) finished game", stats)
                finished, wins = (int(won.group(2)), int(won.group(1))) if won else (0, 0)
                shown[(int(pk), by_name.get(variant, variant))] = [games, finished, wins]
        assert shown == expected, f"the players list says {shown}, the walk's games {expected}"
        # The circle's year (every game of the walk ends this year): per variant, each
        # person's finished games and wins, under the name they go by now.
        from scorepad.models import Person

        named = dict(Person.objects.filter(circle=circle).values_list("pk", "name"))
        year_expected = {
            (named[person], variant): [finished, wins]
            for (person, variant), (_games, finished, wins) in expected.items()
            if finished
        }
        if not year_expected:
            return
        year = timezone.localdate().year
        page = self.phones["C"].get(f"/en/circles/{circle.viewer_token}/year/{year}/")
        year_shown: dict[tuple[str, str], list[int]] = {}
        for variant, part in re.findall(
            r'<h2 id="year-([\w-]+)">.*?</h2>(.*?)(?=<h2 |$)', page.html, re.S
        ):
            for name, stats in re.findall(
                r'<h3 class="year-name">([^<]+)</h3>\s*<dl class="stats">(.*?)</dl>', part, re.S
            ):
                games = int(re.search(r"<dt>Games</dt><dd>(\d+)</dd>", stats).group(1))
                wins = int(re.search(r"<dt>Wins</dt><dd>(\d+)</dd>", stats).group(1))
                year_shown[(unescape(name), variant)] = [games, wins]
        assert year_shown == year_expected, (
            f"the year says {year_shown}, the walk's games {year_expected}"
        )

    def fingerprints(self) -> dict[tuple[str, int], tuple]:
        from scorepad.models import Seat

        out: dict[tuple[str, int], tuple] = {}
        seats: dict[int, list] = {}
        for row in Seat.objects.order_by("game_id", "position").values_list(
            "game_id", "name", "total", "active"
        ):
            seats.setdefault(row[0], []).append(row[1:])
        for pk, version, v, e in Game.objects.values_list(
            "pk", "version", "viewer_token", "editor_token"
        ):
            out[("game", pk)] = (version, v, e, tuple(seats.get(pk, ())))
        for pk, version, v, e in Evening.objects.values_list(
            "pk", "version", "viewer_token", "editor_token"
        ):
            out[("evening", pk)] = (version, v, e)
        from scorepad.models import Circle, Person

        people: dict[int, list] = {}
        for row in Person.objects.order_by("pk").values_list(
            "circle_id", "pk", "name", "merged_into_id"
        ):
            people.setdefault(row[0], []).append(row[1:])
        for pk, version, v, e in Circle.objects.values_list(
            "pk", "version", "viewer_token", "editor_token"
        ):
            out[("circle", pk)] = (version, v, e, tuple(people.get(pk, ())))
        return out

    def check_everything(self):
        for pk in sorted(self.games):
            self.check_game(pk, LANGS)
        for pk in sorted(self.evenings):
            self.check_evening(pk, LANGS)
        for pk in sorted(self.circles):
            self.check_circle(pk, LANGS)

    def check_game(self, pk: int, langs, *, every_phone: bool = True) -> None:
        mgame = self.games[pk]
        export = self.export(pk)
        names = [s.name for s in mgame.seats]
        assert export["players"] == names, f"names {export['players']} != model {names}"
        assert export["totals"] == mgame.totals(), (
            f"game {pk} ({mgame.variant}): totals {export['totals']} != model {mgame.totals()}"
        )
        assert len(export["deals"]) == len(mgame.deals)
        for row, deal in zip(export["deals"], mgame.deals, strict=True):
            expected = [deal.scores.get(pos, 0) for pos in range(len(mgame.seats))]
            assert row["scores"] == expected, f"deal {row['number']}: {row['scores']} != {expected}"
            if mgame.is_classic:
                assert sum(row["scores"]) == 0, f"classic deal {row['number']} is not zero-sum"
        assert (export["status"] == "finished") == mgame.finished, (
            f"game {pk}: status {export['status']}, model finished={mgame.finished}"
        )
        for lang in langs:
            for who, pages in self.pages_to_check(every_phone):
                for rest in pages:
                    page = self.phones[who].get(self.url(pk, who, rest, lang))
                    if who == "C" and rest in EDITOR_ONLY:
                        assert page.status == 403, f"a viewer opened {rest}: {page.status}"
                        continue
                    assert page.status == 200, f"{who} {lang} {rest or 'sheet'}: {page.status}"
                    if rest in ("", "history/"):
                        self.check_svgs(page)
            self.check_table_and_result(pk, lang)
            if not every_phone:
                continue
            game = self.game(pk)
            for player in self.players_of(pk):  # under the game's circle only
                token = game.circle.viewer_token
                page = self.phones["A"].get(f"/{lang}/circles/{token}/players/{player}/")
                assert page.status in (200, 404), f"player page {player}: {page.status}"
                if page.status == 200:
                    self.check_svgs(page)

    def check_table_and_result(self, pk: int, lang: str) -> None:
        """Table mode and the result to share read what the game holds and hold no link: the
        viewer's table answers, the editor's leads to it, and the picture of the result is
        there once the game has ended with deals (none before)."""
        game = self.game(pk)
        mgame = self.games[pk]
        viewer_table = f"/{lang}/games/{game.viewer_token}/table/"
        page = self.phones["A"].get(self.url(pk, "A", "table/", lang))
        assert page.status == 302, f"the editor's table mode answered {page.status}"
        assert page.response["Location"].endswith(viewer_table), "the editor's table is elsewhere"
        page = self.phones["C"].get(viewer_table)
        assert page.status == 200, f"table mode {lang}: {page.status}"
        assert game.editor_token not in page.html, "table mode holds the editor link"
        assert 'method="post"' not in page.html.lower(), "table mode offers a write"
        for name in {s.name for s in mgame.seats if s.active}:
            assert escape(name) in page.html, f"table mode lacks {name}"
        # First place (the star, the BG Stats winner, the wins) is the rule's: never a
        # player who left while others are at the table.
        from scorepad.models import Seat

        firsts = Seat.objects.filter(game_id=pk, place=1).order_by("position")
        assert list(firsts.values_list("position", flat=True)) == mgame.winners(), (
            f"first place is not the rule's winners {mgame.winners()}"
        )
        picture = self.phones["C"].get(self.url(pk, "C", "result.svg", lang))
        if not (mgame.finished and mgame.deals):
            assert picture.status == 404, f"a result of a game in play: {picture.status}"
            return
        assert picture.status == 200, f"the result's picture {lang}: {picture.status}"
        ElementTree.fromstring(picture.html)  # well-formed
        for token in (game.editor_token, game.viewer_token):
            assert token not in picture.html, "the result's picture holds a link"

    def pages_to_check(self, every_phone: bool):
        """Every page for every phone at the end of an example; after a step the sheet and
        history for the editor and the viewer, and each other page in turn."""
        if every_phone:
            return [("A", GAME_PAGES), ("B", ("",)), ("C", GAME_PAGES)]
        turn = GAME_PAGES[2 + self.steps % (len(GAME_PAGES) - 2)]
        return [("A", ("", "history/", turn)), ("C", ("", turn))]

    def players_of(self, pk: int) -> list[int]:
        from scorepad.models import Seat

        seats = Seat.objects.filter(game_id=pk, person__merged_into__isnull=True)
        return list(seats.exclude(person=None).values_list("person_id", flat=True))

    def check_evening(self, pk: int, langs) -> None:
        from scorepad.evenings import build_evening, evening_prefetch

        mev = self.evenings[pk]
        evening = Evening.objects.prefetch_related(*evening_prefetch()).get(pk=pk)
        expected = mev.ledger(self.games, self.evenings).balances
        book = build_evening(evening)
        got = {
            name.casefold(): cents for name, cents in zip(book.names, book.balances, strict=True)
        }
        assert {k: v for k, v in got.items() if v} == {k: v for k, v in expected.items() if v}, (
            f"evening {pk}: balances {got} != model {expected}"
        )
        counted = [p for ev in self.evenings.values() for p, _s in ev.games]
        assert len(counted) == len(set(counted)), "a game's money counts in two evenings"
        assert not ({p for p, _s in mev.games} & mev.carried_from), (
            "a carried balance counts beside the games it came from"
        )
        for lang in langs:
            for token in (evening.editor_token, evening.viewer_token):
                page = self.phones["C"].get(f"/{lang}/evenings/{token}/")
                assert page.status == 200, f"evening {lang}: {page.status}"
                self.check_svgs(page)
            table = self.phones["C"].get(f"/{lang}/evenings/{evening.viewer_token}/table/")
            assert table.status == 200, f"an evening's table mode {lang}: {table.status}"
            assert evening.editor_token not in table.html, "table mode holds the editor link"
            picture = self.phones["C"].get(f"/{lang}/evenings/{evening.viewer_token}/result.svg")
            if book.names:
                assert picture.status == 200, f"an evening's result {lang}: {picture.status}"
                ElementTree.fromstring(picture.html)
                for token in (evening.editor_token, evening.viewer_token):
                    assert token not in picture.html, "the evening's picture holds a link"
            else:
                assert picture.status == 404, f"the result of an empty evening: {picture.status}"

    def check_svgs(self, page: Page) -> None:
        for svg in re.findall(r"<svg\b.*?</svg>", page.html, flags=re.S):
            try:
                root = ElementTree.fromstring(svg)
            except ElementTree.ParseError as exc:
                raise AssertionError(f"{page.url}: an SVG is not well-formed: {exc}") from None
            for el in root.iter():
                tag = el.tag.rsplit("}", 1)[-1]
                for attr in NUMBER_ATTRS:
                    value = el.get(attr)
                    if value is not None and not value.endswith("%"):
                        assert SVG_NUMBER.fullmatch(value), f"{page.url}: {tag} {attr}={value!r}"
                if tag == "polyline":
                    for pair in el.get("points", "").split():
                        parts = pair.split(",")
                        assert len(parts) == 2, f"{page.url}: polyline point {pair!r}"
                        assert all(SVG_NUMBER.fullmatch(p) for p in parts), (
                            f"{page.url}: polyline point {pair!r}"
                        )
                if tag in ("polyline", "line") or (tag == "path" and el.get("fill") == "none"):
                    stroke = el.get("stroke")
                    classes = set((el.get("class") or "").split())
                    style = el.get("style") or ""
                    visible = (
                        (stroke and stroke not in ("none", "transparent"))
                        or (classes & self.stroked)
                        or "stroke:" in style
                    )
                    assert visible, f"{page.url}: a {tag} ({classes}) is drawn with no stroke"


def pick(data, choices: list):
    """One of ``choices``, drawn as an index: the strategy is the same whatever the list
    holds, so a replayed example draws the same way (no FlakyStrategyDefinition)."""
    return choices[data.draw(st.integers(0, 99)) % len(choices)]


def page_errors(page: Page) -> str:
    return " ".join(re.findall(r'class="errorlist[^"]*"[^>]*>(.*?)</ul>', page.html, re.S))[:300]


def same_sheet(one: dict, other: dict) -> bool:
    keys = ("variant", "options", "schedule", "players", "status", "starts", "left", "totals")
    if any(one.get(k) != other.get(k) for k in keys):
        return False
    strip = ("number", "players", "status", "went_out", "scores", "payment")
    return [{k: d.get(k) for k in strip} for d in one["deals"]] == [
        {k: d.get(k) for k in strip} for d in other["deals"]
    ]


def empty_the_database() -> None:
    from django.apps import apps
    from django.core.cache import cache

    with transaction.atomic():
        for model in reversed(list(apps.get_app_config("scorepad").get_models())):
            model.objects.all().delete()
        Session.objects.all().delete()
    cache.clear()


# The suite's walk: a few examples of a few dozen steps on each database (about a minute;
# WALK_EXAMPLES and WALK_STEPS set them). WALK_MINUTES runs the long walk instead (examples
# drawn anew until the time is up; each failure found is printed, the figures at the end):
#   WALK_MINUTES=60 .venv/bin/pytest tests/whole/test_walk.py -k random -s
WALK = settings(
    max_examples=int(os.environ.get("WALK_EXAMPLES", "10")),
    stateful_step_count=int(os.environ.get("WALK_STEPS", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    # The suite walks the same examples every run (a fixed seed: CI meets what was run
    # before it); WALK_RANDOM=1 draws new ones, as the long walk always does.
    derandomize=os.environ.get("WALK_RANDOM") != "1",
    # WALK_SHRINK=0 reports the first failing example as found (no shrinking).
    phases=[p for p in Phase if os.environ.get("WALK_SHRINK", "1") != "0" or p != Phase.shrink],
)
WALK_MINUTES = float(os.environ.get("WALK_MINUTES", "0"))


@pytest.mark.django_db(transaction=True)  # committed: the viewers' answer kept at the commit
@override_settings(LIVE_STREAMS=True)  # as served: each change keeps its viewers' answer
def test_the_whole_app_walked_at_random():
    if not WALK_MINUTES:
        run_state_machine_as_test(Walk, settings=WALK)
        assert Walk.kept_checked, "no viewers' answer kept ahead was ever compared"
        assert Walk.sheets_answered, "no save through htmx was ever answered with the sheet"
        assert Walk.held_forms, "no deal was ever recorded through the form the sheet holds"
        assert Walk.parts_answered, "no evening or circle write through htmx got its part"
        assert Walk.outbox_sent, "no evening or circle write was ever sent from an outbox"
        return
    started = time.monotonic()
    found: list[str] = []
    while time.monotonic() - started < WALK_MINUTES * 60:
        try:
            run_state_machine_as_test(
                Walk,
                settings=settings(
                    WALK, max_examples=10, database=None, derandomize=False, print_blob=True
                ),
            )
        except Exception as exc:  # a failure found: say it, and walk on to find the next one
            first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else repr(exc)
            found.append(f"{type(exc).__name__}: {first}")
            print(f"\nwalk found: {found[-1]}", flush=True)
            for note in getattr(exc, "__notes__", []):  # the example's steps and its blob
                print(note, flush=True)
    minutes = (time.monotonic() - started) / 60
    print(
        f"\nwalk: {Walk.examples} examples, {Walk.total_steps} steps, "
        f"{Phone.requests} requests in {minutes:.1f} min; failures found: {len(found)}"
    )
    assert not found, "\n".join(found)


def allowed_methods(view) -> set[str] | None:
    """The methods a view's ``require_http_methods`` (or ``require_POST``, ``require_GET``,
    ``require_safe``) lets through, found in the decorator's closure; None when none is."""
    seen = set()
    while view is not None and id(view) not in seen:
        seen.add(id(view))
        for cell in getattr(view, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if (
                isinstance(value, list)
                and value
                and all(isinstance(m, str) and m.isupper() for m in value)
            ):
                return set(value)
        view = getattr(view, "__wrapped__", None)
    return None


def url_methods() -> dict[str, set[str] | None]:
    """Every named URL of the site and the methods its view takes."""
    out: dict[str, set[str] | None] = {}

    def walk(patterns):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns)
            elif p.name:
                out[p.name] = allowed_methods(p.callback)

    walk(get_resolver().url_patterns)
    return out


@pytest.mark.django_db
def test_every_write_has_a_rule():
    """Every URL that takes a POST is a write this walk makes, or is named as changing
    nothing stored; a new write fails here until the walk has a rule for it."""
    methods = url_methods()
    # (The API answers a wrong method itself, with its JSON 405.)
    unrestricted = {name for name, allowed in methods.items() if allowed is None} - {"api-check"}
    assert not unrestricted, f"views that take any method (say which they take): {unrestricted}"
    posting = {name for name, allowed in methods.items() if allowed is None or "POST" in allowed}
    assert posting - set(WRITES) - NOT_WRITES == set(), "writes the walk never makes"
    assert set(WRITES) - posting == set(), "rules for writes the app no longer has"
    for rules in WRITES.values():
        for name in rules.split("|"):
            assert callable(getattr(Walk, name, None)), f"the walk has no rule {name}"
