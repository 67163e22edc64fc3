"""Which tests run on which database.

CI runs the suite twice, on SQLite and on PostgreSQL. A test whose outcome cannot depend on
the database runs once, on SQLite (the run that also measures coverage, and `serve`'s own
database); on PostgreSQL it is deselected, and the run says how many were. On both runs:

- every test that reaches a database: pytest-django's ``django_db`` mark, or the fixtures
  ``db``, ``transactional_db``, ``live_server`` (and so every browser test would), or a test
  module that names the database itself (``DATABASE_URL``, ``connection.vendor``) — unless
  it is a browser test;
- browser tests (``tests/e2e/``) only where the database changes what a phone sees: modules
  marked ``every_database`` (the live push: NOTIFY on PostgreSQL, change rows on SQLite;
  offline replays and conflicts, which meet the database's locking). The other browser tests
  check pages, taps and screens, which the database does not draw.

``ALL_DATABASES=1`` runs every test on PostgreSQL too."""

from __future__ import annotations

import os

import pytest

DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}
# django_db_blocker is every test's (pytest-django's autouse fixtures ask for it): a module
# that unblocks the database by hand names it.
NAMES_THE_DATABASE = ("DATABASE_URL", "connection.vendor", "postgresql", "django_db_blocker")


def _module_names_the_database(item, seen: dict[str, bool]) -> bool:
    path = str(item.fspath)
    if path not in seen:
        try:
            text = item.fspath.read_text("utf-8")
        except OSError:
            text = ""
        seen[path] = any(name in text for name in NAMES_THE_DATABASE)
    return seen[path]


def runs_on_every_database(item, seen: dict[str, bool]) -> bool:
    if item.get_closest_marker("every_database"):
        return True
    if "/e2e/" in str(item.fspath):
        return False
    if item.get_closest_marker("django_db"):
        return True
    if DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    return _module_names_the_database(item, seen)


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "every_database: a browser test that runs on PostgreSQL too (tests/databases.py)",
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:
    if not os.environ.get("DATABASE_URL") or os.environ.get("ALL_DATABASES") == "1":
        return
    seen: dict[str, bool] = {}
    once = [item for item in items if not runs_on_every_database(item, seen)]
    if not once:
        return
    ids = {id(item) for item in once}
    items[:] = [item for item in items if id(item) not in ids]
    config.hook.pytest_deselected(items=once)
    config._scorepad_sqlite_only = len(once)
    if hasattr(config, "workeroutput"):  # an xdist worker tells the controller, which prints
        config.workeroutput["sqlite_only"] = len(once)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """pytest-xdist's controller hears each worker's count as it stops (all count alike)."""
    count = getattr(node, "workeroutput", {}).get("sqlite_only")
    if count:
        node.config._scorepad_sqlite_only = count


def pytest_terminal_summary(terminalreporter, config) -> None:
    count = getattr(config, "_scorepad_sqlite_only", 0)
    if count:
        terminalreporter.write_line(
            f"{count} tests run on SQLite only (their outcome does not depend on the "
            "database: tests/databases.py); ALL_DATABASES=1 runs them here too"
        )
