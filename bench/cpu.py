"""CPU per deal, in one process: what the server spends on each kind of request a deal brings.

A game of five phones (the editor and four viewers; classic unless ``--variant``), in the language asked; each round
is one deal as bench/load.py's phones record it with the live streams on: the deal form (the
one the sheet holds, opened on the phone without a request; ``--server-form``: fetched), two
previews, the POST (with the viewers' answer kept ahead after it, scorepad/warm.py), the
editor's sheet after saving (unless the POST answered with it), and the four viewers' new
sheet. Printed: CPU milliseconds per request of each kind (median and mean over the rounds)
and their sum per deal, which bounds the deals a second a core can serve.

    .venv/bin/python bench/cpu.py [--deals 40] [--lang de] [--db sqlite|postgres]
                                  [--variant classic|contract-nordic|romme]
                                  [--server-form] [--profile KIND] [--top 30]

``--profile`` prints cProfile's functions by own time for one kind (e.g. "deal form"). In
process with Django's test client: no server, no network, no other phone's load; the
figures are the server's share of a deal, not its latency.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import re
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PG_URL = "postgres://postgres@127.0.0.1:5432/scorepad_cpu"

KINDS = (
    "deal form",
    "deal preview",
    "deal saved (POST)",
    "sheet after saving",
    "live update, new sheet (first)",
    "live update, new sheet (kept)",
)


def setup(db: str, data_dir: str) -> None:
    os.environ.update(
        SECRET_KEY="bench-cpu",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        DATA_DIR=data_dir,
        STATIC_ROOT=str(Path(data_dir) / "static"),
        RATE_LIMIT="false",
        LOG_LEVEL="WARNING",
        LIVE_STREAMS="true",
        DJANGO_SETTINGS_MODULE="continental.settings",
    )
    os.environ.pop("DEBUG", None)
    if db == "postgres":
        os.environ["DATABASE_URL"] = PG_URL
    else:
        os.environ.pop("DATABASE_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    if db == "postgres":
        import psycopg

        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            c.execute("DROP DATABASE IF EXISTS scorepad_cpu")
            c.execute("CREATE DATABASE scorepad_cpu")
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--lang", default="de")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--variant", default="classic")
    parser.add_argument(
        "--server-form",
        action="store_true",
        help="fetch the deal form from the server (before table.js opened the sheet's own)",
    )
    parser.add_argument("--profile", choices=KINDS)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="freeze what is loaded before the rounds, as the server's master does before"
        " forking its workers (continental/warmup.freeze)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="scorepad-cpu-") as data_dir:
        setup(args.db, data_dir)
        run(args)


def run(args) -> None:
    import random

    from django.test import Client
    from django.urls import reverse
    from django.utils import translation

    from tests.factories import GameFactory, record_classic, record_penalty

    rng = random.Random(7)
    classic = args.variant == "classic"
    game = GameFactory(variant_id=args.variant, players=5)
    for number in range(3):
        if classic:
            record_classic(game, number % 5)
        else:
            record_penalty(game, number % 5, {p: 10 * p for p in range(5) if p != number % 5})
    with translation.override(args.lang):
        editor_link = reverse("game", kwargs={"token": game.editor_token})
        viewer_link = reverse("game", kwargs={"token": game.viewer_token})
    host = {"HTTP_HOST": "127.0.0.1"}
    editor = Client(**host)
    viewers = [Client(**host) for _ in range(4)]
    page = editor.get(editor_link)
    assert page.status_code == 200, page.status_code
    for viewer in viewers:
        assert viewer.get(viewer_link).status_code == 200

    samples: dict[str, list[float]] = {kind: [] for kind in KINDS}
    profiler = cProfile.Profile() if args.profile else None
    from continental.warmup import freeze, warm

    warm()  # as gunicorn's master loads before forking (when_ready)
    if args.gc_freeze:
        freeze()
    # The garbage collector's passes in the rounds: how many of each generation, and the
    # time they took (a full pass in a loaded worker is some 10 ms: a request that meets one
    # waits that long).
    passes = {0: [], 1: [], 2: []}
    began: list[float] = []

    def collecting(phase, info):
        if phase == "start":
            began.append(time.perf_counter())
        elif began:
            passes[info["generation"]].append((time.perf_counter() - began.pop()) * 1000)

    gc.callbacks.append(collecting)

    def timed(kind, call, *a, **kw):
        if profiler is not None and kind == args.profile:
            profiler.enable()
        start = time.process_time()
        response = call(*a, **kw)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        else:
            response.content  # noqa: B018 - read as a server would
        samples[kind].append((time.process_time() - start) * 1000)
        if profiler is not None and kind == args.profile:
            profiler.disable()
        return response

    htmx = {"HX-Request": "true", "HX-Target": "game"}
    html = page.content.decode()
    for _ in range(args.deals):
        new_url = re.search(r'hx-get="([^"]*/deals/new[^"]*)"', html)
        assert new_url, "no new deal link on the sheet"
        url = new_url.group(1).replace("&amp;", "&")
        held = re.search(r'<template id="offline-deal"[^>]*>(.*?)</template>', html, re.S)
        if held and not args.server_form:
            # table.js opens the form the sheet holds: no request; its one-time token is made
            # on the phone (the test client does not check CSRF).
            version = re.search(r'name="version" value="(\d+)"', held.group(1))
            fields = {"version": version[1], "once": "p" + secrets.token_hex(16)}
        else:
            form = timed("deal form", editor.get, url, headers=htmx)
            assert form.status_code == 200, form.status_code
            body = form.content.decode()
            fields = {
                name: (re.search(rf'name="{name}" value="([^"]*)"', body) or [None, ""])[1]
                for name in ("csrfmiddlewaretoken", "version", "once")
            }
        out = rng.randrange(5)
        if classic:
            entry = {
                "went_out": str(out),
                "mode": "rows",
                "wild_twos": str(rng.randint(0, 1)),
                "jokers": str(rng.randint(0, 1)),
            }
        else:  # penalty points, multiples of 5 (a contract game's steps)
            entry = {"went_out": str(out)}
            entry.update({f"points_{p}": str(5 * rng.randint(0, 20)) for p in range(5) if p != out})
        for _step in range(2):
            query = urlencode({"version": fields["version"], "once": fields["once"], **entry})
            preview = timed(
                "deal preview",
                editor.get,
                f"{url}?{query}",
                headers={**htmx, "HX-Target": "preview"},
            )
            assert preview.status_code == 200, preview.status_code
        saved = timed("deal saved (POST)", editor.post, url, {**fields, **entry}, headers=htmx)
        assert saved.status_code in (200, 302), saved.status_code
        if saved.status_code == 302:
            sheet = timed("sheet after saving", editor.get, saved["Location"], headers=htmx)
            assert sheet.status_code == 200
            html = sheet.content.decode()
        else:
            html = saved.content.decode()
        before = game.version
        game.refresh_from_db()
        assert game.version == before + 1, "the deal was not saved"
        with translation.override(args.lang):
            live = reverse("game-version", kwargs={"token": game.viewer_token})
        for i, viewer in enumerate(viewers):
            kind = "live update, new sheet (kept)" if i else "live update, new sheet (first)"
            answer = timed(
                kind,
                viewer.get,
                f"{live}?v={game.version - 1}",
                headers={**htmx, "HX-Target": "sheet"},
            )
            assert answer.status_code == 200, answer.status_code

    print(
        f"# bench/cpu.py --deals {args.deals} --lang {args.lang} --db {args.db} --variant"
        f" {args.variant}{' --server-form' if args.server_form else ''}: CPU ms per request"
        " (in process, a game of 5 phones,"
        f" {game.deals.count()} deals at the end)"
    )
    print(f"  {'kind':32} {'count':>5} {'median':>7} {'mean':>7} {'per deal':>8}")
    total = 0.0
    for kind in KINDS:
        values = samples[kind]
        if not values:
            continue
        per_deal = sum(values) / args.deals
        total += per_deal
        print(
            f"  {kind:32} {len(values):5d} {statistics.median(values):7.1f}"
            f" {statistics.fmean(values):7.1f} {per_deal:8.1f}"
        )
    print(f"  {'a deal, all its requests':32} {'':5} {'':7} {'':7} {total:8.1f}")
    gc.callbacks.remove(collecting)
    print(
        "  the garbage collector's passes in the rounds"
        f"{' (what was loaded frozen first)' if args.gc_freeze else ''}: "
        + "; ".join(
            f"generation {g}: {len(t)}, {sum(t):.1f} ms in all, at most {max(t, default=0):.1f} ms"
            for g, t in passes.items()
        )
    )
    if profiler is not None:
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
