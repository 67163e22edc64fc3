"""What keeps the suite quick and honest about its time (issue "Fast feedback"): every test
folder has an allowance in the README, a run names the folder that goes over it, and the
browser tests wait for conditions, never for a duration."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from tests.databases import runs_on_every_database
from tests.timings import ROOT, Timings, allowances, folder_of


def test_every_test_folder_has_an_allowance_in_the_readme():
    folders = {
        folder_of(str(path.relative_to(ROOT))) for path in (ROOT / "tests").rglob("test_*.py")
    }
    folders = {f for f in folders if "node_modules" not in f}
    assert "tests/e2e" in folders
    assert "tests/" in folders
    allowed = allowances()
    assert set(allowed) == folders, "the README's table of allowances and the test folders differ"
    assert all(sqlite > 0 for sqlite, _ in allowed.values())


def test_a_run_names_a_folder_over_its_allowance_and_one_without():
    timings = Timings(workers=2)
    timings.seconds.update(
        {
            "tests/engine/test_cards.py::test_a": 90.0,
            "tests/engine/test_cards.py::test_b": 50.0,
            "tests/rules/test_api.py::test_c": 3.0,
            "tests/newfolder/test_x.py::test_d": 1.0,
        }
    )
    allowed = {"tests/engine": (130, 0), "tests/rules": (50, 10)}
    lines = timings.lines("SQLite", allowed)
    over = [line for line in lines if line.startswith("OVER")]
    assert len(over) == 1
    assert "tests/engine took 140 s of 130 s" in over[0]
    assert "tests/newfolder has no allowance" in over[0]
    assert "tests/rules" not in over[0]
    assert lines.index("the 15 slowest tests:") < next(
        i for i, line in enumerate(lines) if "tests/engine/test_cards.py::test_a" in line
    )
    # on PostgreSQL the second column counts: rules' 3 s are within 10 s, engine over 0 s
    over_pg = [line for line in timings.lines("PostgreSQL", allowed) if line.startswith("OVER")]
    assert "tests/engine took 140 s of 0 s" in over_pg[0]
    assert "tests/rules" not in over_pg[0]


def test_no_browser_test_waits_for_a_fixed_time():
    """A browser test waits for what a person would see, or moves the page's clock
    (page.clock); a fixed wait is slow on a quick machine and flaky on a loaded one."""
    found = []
    for path in sorted((ROOT / "tests" / "e2e").glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"wait_for_timeout\(|time\.sleep\(", line):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []


def item(path: str, fixtures=(), marks=()) -> SimpleNamespace:
    return SimpleNamespace(
        fspath=Path(ROOT / path),
        fixturenames=list(fixtures),
        get_closest_marker=lambda name: name if name in marks else None,
    )


def test_which_tests_run_on_postgresql_too():
    seen: dict[str, bool] = {}
    # a browser test only where marked: the database changes what the phones see
    assert not runs_on_every_database(item("tests/e2e/test_checker.py", ["live_server"]), seen)
    assert runs_on_every_database(
        item("tests/e2e/test_live.py", ["live_server"], ["every_database"]), seen
    )
    # any other test that reaches the database
    assert runs_on_every_database(item("tests/scorepad/test_models.py", ["db"]), seen)
    assert runs_on_every_database(item("tests/scorepad/test_models.py", marks=["django_db"]), seen)
    # a test of a module that names the database itself
    assert runs_on_every_database(item("tests/continental/test_runtests.py"), seen)
    # the engine's tests: once
    assert not runs_on_every_database(
        item("tests/engine/test_cards.py", ["django_db_blocker", "monkeypatch"]), seen
    )
