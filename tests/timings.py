"""Where a test run's time went, printed at the end of every run and appended to a log.

The test command prints, after pytest's own summary, each folder's time (the sum of its
tests' setup, call and teardown, so with several workers it adds up to more than the run
took) and the 15 slowest tests, so that a change that makes the suite slower shows on the day
it is made. The same lines are appended to ``.test-times.log`` at the top of the checkout
(ignored by git), one block a run, to compare runs of different days.

With pytest-xdist the workers send their reports to the controller, which alone prints."""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / ".test-times.log"
README = ROOT / "README.md"
SLOWEST = 15
# A row of the README's table of allowances: | `tests/e2e` | 680 s | 200 s |
ALLOWANCE = re.compile(r"^\| `(tests/[^`]*)` \| (\d+) s \| (\d+) s \|$")


def allowances(readme: Path = README) -> dict[str, tuple[int, int]]:
    """Each folder's allowance of test time on SQLite and on PostgreSQL, in seconds, from the
    table in the README's "Test it" (the one place it is written)."""
    text = readme.read_text(encoding="utf-8")
    start = text.find("\n## Test it")
    end = text.find("\n## ", start + 1)
    section = text[start:end] if start >= 0 else ""
    found = {}
    for line in section.splitlines():
        match = ALLOWANCE.match(line.strip())
        if match:
            found[match[1]] = (int(match[2]), int(match[3]))
    return found


def folder_of(nodeid: str) -> str:
    """``tests/scorepad/test_models.py::test_x`` -> ``tests/scorepad``; a test module at the
    top of ``tests/`` counts as ``tests/``."""
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0] + "/"


class Timings:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.seconds: dict[str, float] = defaultdict(float)
        self.started = time.monotonic()

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[report.nodeid] += report.duration

    def lines(self, database: str, allowed: dict[str, tuple[int, int]]) -> list[str]:
        wall = time.monotonic() - self.started
        by_folder: dict[str, list[float]] = defaultdict(list)
        for nodeid, seconds in self.seconds.items():
            by_folder[folder_of(nodeid)].append(seconds)
        total = sum(self.seconds.values())
        out = [
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {database}: "
            f"{len(self.seconds)} tests in {wall:.0f} s "
            f"({total:.0f} s of test time, workers: {self.workers})",
            "time by folder:",
        ]
        over = []
        for folder, times in sorted(by_folder.items(), key=lambda kv: -sum(kv[1])):
            share = 100 * sum(times) / total if total else 0
            line = f"  {sum(times):8.1f} s {share:5.1f} %  {len(times):5} tests  {folder}"
            if folder in allowed:
                allowance = allowed[folder][database != "SQLite"]
                line += f"  (allowance {allowance} s)"
                if sum(times) > allowance:
                    over.append(f"{folder} took {sum(times):.0f} s of {allowance} s")
            else:
                over.append(f"{folder} has no allowance")
            out.append(line)
        if over:
            out.append(
                "OVER THE ALLOWANCE: " + "; ".join(over) + ". Bring it back, or change the "
                'README\'s table in its "Test it" and say why in the commit.'
            )
        out.append(f"the {SLOWEST} slowest tests:")
        slowest = sorted(self.seconds.items(), key=lambda kv: -kv[1])[:SLOWEST]
        out += [f"  {seconds:8.1f} s  {nodeid}" for nodeid, seconds in slowest]
        return out

    def pytest_terminal_summary(self, terminalreporter, config) -> None:
        if not self.seconds:
            return
        database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        lines = self.lines(database, allowances())
        terminalreporter.section("where the time went")
        for line in lines:
            terminalreporter.write_line(line)
        try:
            with LOG.open("a", encoding="utf-8") as log:
                log.write("\n".join(lines) + "\n\n")
        except OSError:  # a read-only checkout still prints
            pass


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller prints
        return
    workers = getattr(config.option, "numprocesses", None) or 1
    config.pluginmanager.register(Timings(workers), "scorepad-timings")


# The longest tests start first: with several workers a long test that starts last keeps one
# worker busy while the others have nothing left (the whole-app walk alone takes minutes).
LONG_FIRST = ("tests/whole/test_walk.py::", "tests/e2e/test_accessibility.py::")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))
