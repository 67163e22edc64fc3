"""The tournament scenario of bench/load.py (``--scenario tournament``): a club night's series
finishing, every phone following the standings.

    .venv/bin/python bench/load.py --scenario tournament                  # 100 tables, both dbs
    .venv/bin/python bench/load.py --scenario tournament --db sqlite --tables 10 --seconds 60

One Rommé tournament of 4 x ``--tables`` players (default 100 tables, 400 players), one deal a
series, series 1 seated (tables of four). Each player's phone opens its own page (the
player's link, in one of the six languages) and holds the tournament's live stream as
static/js/live.js does (``?l=``: its events carry the live part; an event without it makes
the phone ask the part's own check). In the measured window (``--seconds``, default 300:
"within the same five minutes") every table finishes at a random moment: one seated phone
records the deal through the game's editor link (the page, then the deal form's POST with
the page's CSRF token), and 5 to 15 s later another seated player confirms the result from
their own page (its form, as a person taps it; a form made stale by another table's
confirmation meanwhile is answered 409 with the fresh page, and the player taps again: counted
apart, not as an error).

It prints each kind's p50/p95/p99 and errors, and the **standings latency**: for each
confirmation and each of the other phones, from the confirmation's answer (and from its
POST sent) to the phone showing a state of the tournament at least as new (0 when the
stream told it before the confirming phone had its answer); a phone that never showed it
counts as a failure. The target is the issue's: nothing fails, p95 within 1 s. Also how many
events carried the part, how many the phones asked for, the CPU of gunicorn and of the
stream process. The clients share the machine's cores with the server.
"""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

TOURNAMENT_SETUP = r"""
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
import django
django.setup()
from django.urls import reverse
from django.utils import translation
from scorepad.kernel import Actor
from scorepad.tournaments import Entrant, Tournament

tables, langs = int(sys.argv[1]), sys.argv[2].split(",")
actor = Actor("creator", "bench")
t = Tournament.objects.create(name="Club night", variant_id="romme", series=3, deals=1, minutes=60)
t.start(actor=actor)
for number in range(1, 4 * tables + 1):
    Entrant.objects.create(tournament=t, number=number, name=f"Player {number}")
t.propose(version=t.version, once=None, actor=actor)
t.start_series(version=t.version, once=None, actor=actor)
t = Tournament.objects.get(pk=t.pk)
out = {"viewer": t.viewer_token, "tables": []}
for i, table in enumerate(t.tables_of(1)):
    players = []
    for seat in table.seated.all():
        lang = langs[(seat.entrant.number - 1) % len(langs)]
        with translation.override(lang):
            page = reverse("tournament-player", kwargs={"token": seat.entrant.token})
            confirm = reverse("tournament-confirm", kwargs={"token": seat.entrant.token})
        players.append({"page": page, "confirm": confirm, "lang": lang})
    with translation.override("en"):
        game = reverse("game", kwargs={"token": table.game.editor_token})
        deal = reverse("deal-new", kwargs={"token": table.game.editor_token})
    out["tables"].append({"game": game, "deal": deal, "seats": table.seated.count(),
                          "players": players})
print("BENCH-TOURNAMENT " + json.dumps(out))
"""

KINDS = (
    "player page",
    "game page (editor)",
    "deal saved (POST)",
    "confirm page",
    "confirmed (POST)",
    "live part check",
)
LATENCY = "standings latency (from the answer)"
FROM_SENT = "standings latency (from the POST)"
CSRF_HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
LIVE_ID = re.compile(r'id="tournament-live" data-live-id="(\d+)\.(\d+)"')


class Night:
    """The measured window: the samples, the confirmations, what each phone showed."""

    def __init__(self, lib: Any, port: int, live_port: int, start: float, seconds: float):
        self.lib, self.port, self.live_port = lib, port, live_port
        self.start, self.end = start, start + seconds
        self.samples: dict[str, list[float]] = {k: [] for k in (*KINDS, LATENCY, FROM_SENT)}
        self.errors: dict[str, int] = dict.fromkeys(KINDS, 0)
        self.first_error: dict[str, str] = {}
        self.stale = 0  # confirmations tapped again after a 409 (another table's came first)
        self.confirmed: list[tuple[int, float, float]] = []  # (version, sent, answered)
        self.pushed = 0  # events that carried the part
        self.asked = 0  # events without it: the phone asked the part's check
        self.stream_errors = 0

    async def call(self, kind, method, path, headers, body=b"", expect=(200,)):
        begun = time.monotonic()
        try:
            answer = await self.lib.fetch(self.port, method, path, headers, body)
        except (TimeoutError, OSError, ConnectionError, ValueError) as exc:
            self.fail(kind, f"{type(exc).__name__}: {exc}")
            return None
        if answer.status not in expect:
            self.fail(kind, f"HTTP {answer.status} for {method} {path[:60]}")
            return None
        if self.start <= begun < self.end:
            self.samples[kind].append(time.monotonic() - begun)
        return answer

    def fail(self, kind: str, message: str) -> None:
        self.errors[kind] += 1
        self.first_error.setdefault(kind, message)


class Client:
    """A browser's cookies and the headers htmx sends."""

    def __init__(self, night: Night):
        self.night = night
        self.jar: dict[str, str] = {}

    def headers(self, **extra: str) -> dict[str, str]:
        headers = {"Accept": "text/html", **extra}
        if self.jar:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        return headers

    async def get(self, kind: str, path: str, **extra: str):
        answer = await self.night.call(kind, "GET", path, self.headers(**extra), expect=(200, 204))
        if answer is not None:
            self.keep(answer)
        return answer

    async def post(self, kind: str, path: str, fields: dict[str, str], expect, **extra: str):
        body = urlencode(fields).encode()
        headers = self.headers(**{"Content-Type": "application/x-www-form-urlencoded", **extra})
        answer = await self.night.call(kind, "POST", path, headers, body, expect=expect)
        if answer is not None:
            self.keep(answer)
        return answer

    def keep(self, answer) -> None:
        for header in answer.cookies:
            name, _, rest = header.partition("=")
            self.jar[name.strip()] = rest.split(";", 1)[0]


class PlayerPhone(Client):
    """A player's phone: its own page, then the tournament's stream (static/js/live.js)."""

    def __init__(self, night: Night, player: dict, viewer: str):
        super().__init__(night)
        self.player, self.viewer = player, viewer
        self.shown = (0, 0)  # the tournament's version and its games' sum the page shows
        self.seen: list[tuple[float, int]] = []  # (when, tournament version) of each state shown
        self.check = ""

    def show(self, html: str) -> None:
        match = LIVE_ID.search(html)
        if match:
            state = (int(match[1]), int(match[2]))
            if state > self.shown:
                self.shown = state
                self.seen.append((time.monotonic(), state[0]))
        poll = re.search(r'class="poll" hidden data-version="[^"]*" hx-get="([^"]+)"', html)
        if poll:
            self.check = poll[1].replace("&amp;", "&")

    async def run(self, join_at: float) -> None:
        await asyncio.sleep(max(0.0, join_at - time.monotonic()))
        answer = await self.get("player page", self.player["page"])
        if answer is not None:
            self.show(answer.body)
        await self.follow()

    async def follow(self) -> None:
        night = self.night
        for _ in range(10_000):
            if time.monotonic() >= night.end:
                return
            retry, writer = 2.0, None
            try:
                reader, writer = await asyncio.open_connection(
                    night.lib.HOST, night.live_port, limit=night.lib.STREAM_LIMIT
                )
                ident = f"{self.shown[0]}.{self.shown[1]}"
                path = f"/live/tournaments/{self.viewer}?v={ident}&l={self.player['lang']}"
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {night.lib.HOST}\r\n\r\n".encode())
                await writer.drain()
                status = await asyncio.wait_for(reader.readline(), night.lib.REQUEST_TIMEOUT)
                if b" 200 " not in status:
                    night.stream_errors += 1
                    raise ConnectionError(status.decode(errors="replace"))
                retry = await night.lib.read_events(reader, night.end, self.heard) or retry
            except (TimeoutError, OSError, ConnectionError, ValueError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(retry)

    async def heard(self, data: list[bytes]) -> None:
        version, _, games = data[0].decode().partition(".")
        if not (version.isdigit() and games.isdigit()):
            return
        if (int(version), int(games)) <= self.shown:
            return
        if len(data) > 1:  # the part itself: swapped in, nothing asked
            self.night.pushed += 1
            self.show(b"\n".join(data[1:]).decode())
        elif self.check:  # the part's own check (the event came without it)
            self.night.asked += 1
            answer = await self.get("live part check", self.check, **{"HX-Request": "true"})
            if answer is not None and answer.status == 200:
                self.show(answer.body)


async def finish_table(night: Night, table: dict, at: float, rng: random.Random) -> None:
    """One table: a seated phone records the deal, another confirms 5-15 s later."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    recorder = Client(night)
    page = await recorder.get("game page (editor)", table["game"])
    if page is None:
        return
    csrf = CSRF_HEADER.search(page.body)
    version = re.search(r'name="version" value="(\d+)"', page.body)
    if csrf is None or version is None:
        night.fail("game page (editor)", "no CSRF token or version on the game page")
        return
    fields = {"version": version[1], "once": "b" + secrets.token_hex(16), "went_out": "0"}
    fields.update(
        {f"points_{i}": str(5 * i + rng.randint(0, 20)) for i in range(1, table["seats"])}
    )
    saved = await recorder.post(
        "deal saved (POST)", table["deal"], fields, (200, 302), **{"X-CSRFToken": csrf[1]}
    )
    if saved is None:
        return
    await asyncio.sleep(rng.uniform(5, 15))
    confirmer = Client(night)
    player = table["players"][1]
    for _ in range(20):  # a stale form is tapped again
        page = await confirmer.get("confirm page", player["page"])
        if page is None:
            return
        form = {
            name: re.search(rf'name="{name}" value="([^"]*)"', page.body)
            for name in ("csrfmiddlewaretoken", "version", "once")
        }
        if any(v is None for v in form.values()):
            night.fail("confirm page", "no confirmation form on the player's page")
            return
        fields = {name: match[1] for name, match in form.items()}
        sent = time.monotonic()
        answer = await confirmer.post(
            "confirmed (POST)", player["confirm"], {**fields, "answer": "confirm"}, (302, 409)
        )
        if answer is None:
            return
        if answer.status == 302:
            answered = time.monotonic()
            # The form carries the table's game's version (what is confirmed); the version of
            # the tournament the confirmation made is at most the one its page shows now.
            after = await confirmer.get("confirm page", player["page"])
            shown = after and re.search(r'data-live-id="(\d+)\.', after.body)
            if not shown:
                night.fail("confirm page", "no live part on the player's page")
                return
            night.confirmed.append((int(shown[1]), sent, answered))
            return
        night.stale += 1
        await asyncio.sleep(rng.uniform(0.5, 1.5))  # the person reads the note, taps again


def latencies(night: Night, phones: list[PlayerPhone]) -> int:
    """Each confirmation's standings latency on every phone; the phones that never showed
    it (failures)."""
    missing = 0
    for version, sent, answered in night.confirmed:
        if not night.start <= sent < night.end:
            continue
        for phone in phones:
            shown = next((when for when, v in phone.seen if v >= version), None)
            if shown is None:
                missing += 1
                continue
            night.samples[LATENCY].append(max(0.0, shown - answered))
            night.samples[FROM_SENT].append(shown - sent)
    return missing


def run_tournament(lib: Any, label: str, env: dict[str, str], args, log_path: Path) -> None:
    tables = max(args.tables)
    print(f"\n== {label}: a tournament of {tables} tables ({4 * tables} players) ==")
    t0 = time.perf_counter()
    lib.prepare(env, static=False)
    made = lib.run_setup(
        env, TOURNAMENT_SETUP, "BENCH-TOURNAMENT", str(tables), ",".join(lib.LANGS)
    )
    print(f"  set up, series 1 seated, in {time.perf_counter() - t0:.1f} s")
    rng = random.Random(args.seed)
    seconds = args.seconds
    with (
        lib.Gunicorn(env, args.workers, log_path, args.threads) as server,
        lib.StreamProcess(env, log_path.with_suffix(".live.log")) as live,
    ):
        cpu_server, cpu_live = lib.server_cpu(server.proc.pid), lib.server_cpu(live.proc.pid)
        wall = time.monotonic()
        joining = min(30.0, 0.05 * 4 * tables) + 5.0  # every phone opens its page first
        settle = time.monotonic() + joining
        night = Night(lib, server.port, live.port, settle, seconds)
        # Every table ends within the window, the last confirmations 15 s before its end.
        span = max(1.0, seconds - 20.0)
        phones = [
            PlayerPhone(night, p, made["viewer"]) for t in made["tables"] for p in t["players"]
        ]

        async def main() -> None:
            start = time.monotonic()
            tasks = [
                asyncio.ensure_future(p.run(start + rng.uniform(0, joining - 5.0))) for p in phones
            ]
            tasks += [
                asyncio.ensure_future(finish_table(night, t, settle + rng.uniform(0, span), rng))
                for t in made["tables"]
            ]
            await asyncio.sleep(max(0.0, night.end - time.monotonic()))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(main())
        took = time.monotonic() - wall
        cpu_server = lib.server_cpu(server.proc.pid) - cpu_server
        cpu_live = lib.server_cpu(live.proc.pid) - cpu_live
    missing = latencies(night, phones)
    print(f"  {len(night.confirmed)} tables confirmed in the window; {night.stale} confirmations"
          " tapped again after a stale form (409)")  # fmt: skip
    print(f"  {'kind':38} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for kind, values in night.samples.items():
        errors = night.errors.get(kind, "")
        print(
            f"  {kind:38} {len(values):6d} {lib.percentile(values, 50):8.1f}"
            f" {lib.percentile(values, 95):8.1f} {lib.percentile(values, 99):8.1f} {errors:>6}"
        )
    for kind, message in night.first_error.items():
        print(f"  first error of {kind}: {message}")
    p95 = lib.percentile(night.samples[LATENCY], 95)
    failed = sum(night.errors.values()) + missing + night.stream_errors
    print(
        f"  events that carried the part: {night.pushed}; asked for: {night.asked};"
        f" stream refusals: {night.stream_errors}; a phone that never showed a confirmation:"
        f" {missing}"
    )
    print(f"  CPU over {took:.0f} s: gunicorn {cpu_server:.1f} s, stream process {cpu_live:.1f} s")
    verdict = "holds" if failed == 0 and p95 <= 1000 else "does NOT hold"
    print(f"  target (nothing fails, standings p95 <= 1 s): {verdict} (p95 {p95:.0f} ms)")
