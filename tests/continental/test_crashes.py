"""A test whose worker crashes runs once more on a new worker; a second crash, or a failed
assertion, fails the run (tests/crashes.py)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TESTS = """
import os, signal
from pathlib import Path

def crash():
    os.kill(os.getpid(), signal.SIGSEGV)

def test_crashes_once():
    mark = Path({mark!r})
    if not mark.exists():
        mark.write_text("crashed")
        crash()

def test_crashes_always():
    crash()

def test_fails():
    Path({failed!r}).open("a").write("ran ")
    assert False
"""


def test_only_a_crashed_test_runs_again_and_only_once(tmp_path):
    failed = tmp_path / "failed"
    source = TESTS.format(mark=str(tmp_path / "mark"), failed=str(failed))
    (tmp_path / "test_crash.py").write_text(source)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "PYTEST"))}
    env["PYTHONPATH"] = str(ROOT)
    plugins = ["tests.crashes", "no:django", "no:randomly", "no:cacheprovider", "no:cov"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "1", "-q", "-rA", "-p", "no:hypothesispytest"]
        + [arg for plugin in plugins for arg in ("-p", plugin)]
        + [str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "PASSED test_crash.py::test_crashes_once" in out
    assert "FAILED test_crash.py::test_crashes_always" in out
    assert "FAILED test_crash.py::test_fails" in out
    assert failed.read_text() == "ran "  # a failed assertion is not run again
    assert "2 failed, 1 passed, 2 rerun" in out
    for name in ("test_crashes_once", "test_crashes_always"):
        assert f"a worker crashed while running test_crash.py::{name}" in out
