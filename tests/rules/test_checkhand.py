import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "manage.py", "checkhand", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        env={"SECRET_KEY": "x", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--variant", "classic", "AS XX"], "'XX'"),
        (["--variant", "whist", "AS"], "unknown variant"),
        (["--variant", "classic"], "give --variant and the cards"),
        (["--variant", "classic", "--option", "twos_wild", "AS"], "NAME=VALUE"),
        (["--variant", "contract-spanish", "--deal", "8", "AS " * 7], "deal must be"),
    ],
)
def test_bad_arguments_exit_with_status_2_and_a_clear_message(args, fragment):
    result = run(*args)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_jsonl_gives_each_bad_line_its_own_error_and_goes_on():
    lines = "\n".join(
        [
            "not json",
            json.dumps({"variant": "classic", "cards": "AS QQ"}),
            json.dumps({"variant": "nope", "cards": "AS"}),
        ]
    )
    result = run("--jsonl", stdin=lines + "\n")
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 3
    assert all(set(o) == {"error"} for o in out)
    assert "'QQ'" in out[1]["error"]
    assert "unknown variant" in out[2]["error"]
