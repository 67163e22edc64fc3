"""How long a deal recorded on one phone takes to show on another, end to end in Chromium.

    .venv/bin/python bench/latency.py                # polling (before) then push (after)
    .venv/bin/python bench/latency.py --deals 10 --mode push

Runs the README's own server, ``python3 manage.py serve --local`` (gunicorn and, for push,
the stream process beside it), on a fresh SQLite database in a temporary DATA_DIR; two
Chromium pages at 390 px, the editor's and a viewer's, on one game. N times, at a random
moment 0.5-3 s after the last one, the editor records a deal through the form (Record
deal, who went out, Save); the time counted runs from the editor's sheet showing the new
row (the save was answered: the deal is committed) to the viewer's sheet showing it (a
MutationObserver on each page, both on the same clock: Date.now()). Prints the median, p95 and max for
each mode. ``--mode poll`` is ``serve --no-live`` (every 3 s polls, the old way); ``--mode
push`` the live streams. Figures only; the machine's load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"

MAKE_GAME = """
from tests.factories import GameFactory
g = GameFactory(players=["Anna", "Ben", "Cleo", "Dan"])
print("GAME", g.editor_token, g.viewer_token)
"""

WATCH = """(rows) => {
  window.benchShown = null;
  const seen = () => document.querySelectorAll('#sheet .sheet tbody tr').length >= rows;
  const obs = new MutationObserver(() => {
    if (seen()) { obs.disconnect(); window.benchShown = Date.now(); }
  });
  obs.observe(document.body, {childList: true, subtree: true});
}"""


def free_port() -> int:
    """A port and the next (the live streams') that serve can listen on, on every address:
    bound to be sure (a connection's local end holds a port no connect probe sees)."""
    while True:
        with socket.socket() as s:
            s.bind(("0.0.0.0", 0))
            port = s.getsockname()[1]
        with socket.socket() as probe:
            try:
                probe.bind(("0.0.0.0", port + 1))
            except OSError:
                continue
            return port


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def serve(mode: str, data: Path, port: int) -> subprocess.Popen:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "LIVE_STREAMS")},
        "DATA_DIR": str(data / "data"),
        "STATIC_ROOT": str(data / "static"),
        "RATE_LIMIT": "false",
    }
    args = [sys.executable, "manage.py", "serve", "--local", "--port", str(port)]
    if mode == "poll":
        args.append("--no-live")
    process = subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/en/", timeout=2).close()
            return process
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("serve never answered")


def make_game(data: Path) -> tuple[str, str]:
    env = {**os.environ, "DATA_DIR": str(data / "data")}
    env.pop("DATABASE_URL", None)
    out = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", "shell", "-c", MAKE_GAME],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    _, editor, viewer = next(line for line in out.splitlines() if line.startswith("GAME")).split()
    return editor, viewer


def measure(mode: str, deals: int, seed: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="latency-") as folder:
        data = Path(folder)
        process = serve(mode, data, port)
        try:
            editor_link, viewer_link = make_game(data)
            base = f"http://127.0.0.1:{port}"
            times: list[float] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless"])
                phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
                editor = browser.new_context(**phone).new_page()
                viewer = browser.new_context(**phone).new_page()
                editor.goto(f"{base}/en/games/{editor_link}/")
                viewer.goto(f"{base}/en/games/{viewer_link}/")
                if mode == "push":
                    for page in (editor, viewer):
                        page.wait_for_function(
                            "() => window.scorepadLive && window.scorepadLive.open"
                        )
                time.sleep(1)
                for n in range(1, deals + 1):
                    time.sleep(rng.uniform(0.5, 3.0))
                    viewer.evaluate(WATCH, n)
                    editor.get_by_role("link", name=f"Record deal {n}").click()
                    editor.locator(".deal-form label.chip").nth(rng.randrange(4)).click()
                    editor.evaluate(WATCH, n)
                    editor.get_by_role("button", name="Save").click()
                    # From the saving phone's sheet showing the deal (the save answered)
                    # to the other phone's.
                    saved_at = editor.wait_for_function("() => window.benchShown").json_value()
                    shown_at = viewer.wait_for_function("() => window.benchShown").json_value()
                    times.append(max(0.0, shown_at - saved_at))
                browser.close()
            return times
        finally:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=30, help="deals recorded per mode (30)")
    parser.add_argument("--mode", choices=["poll", "push", "both"], default="both")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    modes = ["poll", "push"] if args.mode == "both" else [args.mode]
    print(f"bench/latency.py: {args.deals} deals per mode, serve --local on SQLite")
    for mode in modes:
        times = measure(mode, args.deals, args.seed)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        label = "before: polling every 3 s" if mode == "poll" else "after: live push"
        print(
            f"  {label:26} median {statistics.median(times):7.0f} ms"
            f"  p95 {percentile(times, 95):7.0f} ms  max {max(times):7.0f} ms"
            f"  ({len(times)} deals; load average {load})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
