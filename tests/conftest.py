import pytest
from hypothesis import HealthCheck, settings

from tests.catalogues import compile_catalogues

# Where the run's time went (printed at its end), which tests run on which database, and a
# test whose worker crashed run once more (tests/crashes.py).
pytest_plugins = ["tests.timings", "tests.databases", "tests.crashes"]

# Property tests check behaviour, not speed: no per-example deadline, and a busy CI machine
# must not turn "slow data generation" into a failure.
settings.register_profile(
    "project",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile("project")


def pytest_sessionstart(session):
    """The .mo files are not in git: a bare `.venv/bin/pytest` right after a clone compiles
    them here, before any test module is imported and so before Django loads a catalogue."""
    compile_catalogues()


@pytest.fixture(autouse=True)
def one_rate_window(monkeypatch):
    """Every rate-limit count of a test falls in one window, whatever the clock says: two
    posts a test expects to be counted together must not straddle a minute's turn (a test
    that crosses windows sets its own clock)."""
    monkeypatch.setattr("continental.ratelimit.now", lambda: 1_800_000_030.0)
