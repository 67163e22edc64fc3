"""The README's command-line examples run exactly as printed, from a clone where
``python3 manage.py serve`` ran once (a .venv, and the secret key serve keeps in data/)."""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from continental import bootstrap

ROOT = Path(__file__).resolve().parent.parent


def section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def commands(title: str) -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", section(title), flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def clean_env(tmp_path: Path) -> dict[str, str]:
    """What a new terminal has: no SECRET_KEY, no DEBUG, no DATABASE_URL."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}


@pytest.fixture(scope="module")
def served_once():
    """What serve leaves behind besides .venv (the tests run in it): data/secret_key."""
    bootstrap._secret_key()
    assert (ROOT / "data" / "secret_key").exists()


def test_the_readme_is_short():
    """The README is for the people who use and host the app: at most 150 lines. What is
    longer belongs in docs/ (docs/hosting.md, docs/architecture.md) or bench/README.md."""
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines"


def test_the_command_line_section_has_the_three_examples():
    lines = commands("Check a hand from the command line")
    assert len(lines) == 3
    assert all("manage.py checkhand" in line for line in lines)
    assert not any("..." in line or "<" in line for line in lines)


@pytest.mark.parametrize("number", range(3))
def test_each_readme_example_runs_as_printed(served_once, tmp_path, number):
    line = commands("Check a hand from the command line")[number]
    result = subprocess.run(
        ["bash", "-c", line],
        cwd=ROOT,
        env=clean_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    answers = [json.loads(out) for out in result.stdout.splitlines()]
    assert len(answers) == 1, result.stdout
    assert "error" not in answers[0], result.stdout
    answer = answers[0]
    if answer["variant"] == "classic":
        assert answer["goes_out"] is True
        assert answer["payment"] == 3
        assert answer["discard"] == "KH"
    elif answer["variant"] == "contract-nordic":
        assert answer["deal"] == 3
        assert answer["can_open"] is True
    else:
        assert answer["variant"] == "romme"
        assert answer["can_open"] is True


def test_the_contributing_commands_name_tests_and_tools_that_exist():
    lines = commands("Contributing")
    tests = [line.split()[1] for line in lines if line.startswith(".venv/bin/pytest ")]
    assert tests
    for target in tests:
        path, _, name = target.partition("::")
        assert (ROOT / path).exists(), target
        if name:
            assert f"def {name}(" in (ROOT / path).read_text(), target
    for line in lines:
        for tool in re.findall(r"\.venv/bin/(\w+)", line):
            assert (ROOT / ".venv" / "bin" / tool).exists(), line


def test_every_file_and_folder_the_map_names_exists():
    """The README's map of folders ("Where each thing lives") names only what is in the tree:
    a name ending in ``/`` or a file suffix, inside the folder of its row unless it is a path."""
    rows = [line for line in section("Contributing").splitlines() if line.startswith("| `")]
    named = 0
    for row in rows:
        cells = row.strip("|").split("|")
        folders = re.findall(r"`([^`]+/)`", cells[0])
        for cell in cells:
            for name in re.findall(r"`([^`]+)`", cell):
                if not (name.endswith("/") or re.search(r"\.(py|js|json|md|toml)$", name)):
                    continue  # a command or an idea (`backup`, `checkhand`), not a path
                places = [ROOT / name] + [ROOT / folder / name for folder in folders]
                assert any(place.exists() for place in places), f"the README's map names {name}"
                named += 1
    assert named > 20
