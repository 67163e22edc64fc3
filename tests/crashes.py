"""A test whose worker process dies under it runs once more, on a new worker, and the run says so.

Only a hard crash counts: a signal in a C extension that takes the whole worker down, as once
in CI when the browser tests' Playwright sync API (its greenlet switching) segfaulted in
``greenlet_main`` while the test itself was sound (the same test had passed in every run
before and after). A failed assertion, an error or a timeout is a failure as always and is
never run again. A second crash of the same test fails the run, and every crash is named at
the run's end, with the worker's last words above it (faulthandler's dump), so none goes by
unseen.

Registered on the xdist controller only: with ``-p no:xdist`` (one process) a crash ends the
run anyway, and the hook below belongs to xdist's hook specification.
"""

from __future__ import annotations

import pytest

RERUN = "rerun"


class CrashedOnce:
    def __init__(self) -> None:
        self.crashed: list[str] = []

    def pytest_handlecrashitem(self, crashitem: str, report, sched) -> None:
        if crashitem in self.crashed:
            return  # a second crash: the report stays a failure
        self.crashed.append(crashitem)
        sched.mark_test_pending(crashitem)
        report.outcome = RERUN

    @pytest.hookimpl(tryfirst=True)
    def pytest_report_teststatus(self, report):
        if report.outcome == RERUN:
            return RERUN, "R", ("RERUN", {"yellow": True})
        return None

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not self.crashed:
            return
        terminalreporter.section("workers that crashed")
        for nodeid in self.crashed:
            terminalreporter.write_line(
                f"a worker crashed while running {nodeid}; it ran once more on a new worker "
                "(its outcome above is that second run's)"
            )


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return
    if not getattr(config.option, "numprocesses", None):
        return  # -n 0: no workers to replace
    config.pluginmanager.register(CrashedOnce(), "scorepad-crashed-once")
