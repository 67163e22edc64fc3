"""The lock files hold what pyproject.toml asks for, and the environment is installed from
them (continental/bootstrap.py): requirements.txt for serve, requirements-dev.txt with the
development tools for runtests. A dependency added to pyproject.toml without refreshing the
locks (the commands in the README's Contributing section) fails here."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
BASE = ROOT / "requirements.txt"
DEV = ROOT / "requirements-dev.txt"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")
COMMANDS = {
    BASE: "uv pip compile pyproject.toml --universal --python-version 3.11 "
    "--generate-hashes -o requirements.txt",
    DEV: "uv pip compile pyproject.toml --group dev --universal --python-version 3.11 "
    "--generate-hashes -o requirements-dev.txt",
}


def pins(path: Path) -> dict[str, tuple[Version, Marker | None]]:
    found = {}
    for line in path.read_text().splitlines():
        match = PIN.match(line)
        if match:
            name, version, marker = match.groups()
            found[canonicalize_name(name)] = (Version(version), Marker(marker) if marker else None)
    return found


def parse_pins(text: str) -> dict[str, str]:
    return {canonicalize_name(m[1]): m[2] for line in text.splitlines() if (m := PIN.match(line))}


def runtime() -> list[Requirement]:
    return [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]


def dev() -> list[Requirement]:
    return [Requirement(r) for r in PYPROJECT["dependency-groups"]["dev"]]


def unmet(requirements: list[Requirement], locked: dict) -> list[str]:
    """The requirements the lock does not pin, or pins at a version outside their bounds."""
    out = []
    for req in requirements:
        name = canonicalize_name(req.name)
        if name not in locked:
            out.append(f"{req} is not in the lock")
        elif not req.specifier.contains(locked[name][0], prereleases=True):
            out.append(f"{req}: the lock has {locked[name][0]}")
    return out


def test_there_is_one_list_of_development_dependencies():
    assert "optional-dependencies" not in PYPROJECT["project"]
    assert dev()


def test_the_runtime_lock_pins_every_dependency_within_its_bounds():
    assert unmet(runtime(), pins(BASE)) == []


def test_the_development_lock_pins_every_dependency_and_tool_within_its_bounds():
    assert unmet(runtime() + dev(), pins(DEV)) == []


def test_a_dependency_added_or_bounded_without_refreshing_the_lock_is_found():
    locked = {"django": (Version("5.2.19"), None)}
    assert unmet([Requirement("Django>=5.2,<5.3")], locked) == []
    assert unmet([Requirement("Django>=6,<7")], locked) == ["Django<7,>=6: the lock has 5.2.19"]
    assert unmet([Requirement("psycopg-pool>=3.2,<4")], locked) == [
        "psycopg-pool<4,>=3.2 is not in the lock"
    ]


def test_serve_and_the_tests_run_the_same_versions():
    base, full = pins(BASE), pins(DEV)
    # (a marker may differ: a development tool can need a package on more Pythons)
    assert {name: full[name][0] for name in base if name in full} == {
        name: version for name, (version, _marker) in base.items()
    }


def test_every_pin_has_hashes_and_each_lock_names_the_command_that_refreshes_it():
    readme = (ROOT / "README.md").read_text()
    for path, command in COMMANDS.items():
        text = path.read_text()
        assert f"#    {command}\n" in text.splitlines(keepends=True)[1]
        assert command in readme
        blocks = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
        assert blocks
        assert all("--hash=sha256:" in block for block in blocks)
    assert parse_pins(BASE.read_text())
    assert parse_pins(DEV.read_text())


def test_this_environment_has_the_locked_versions():
    wrong = []
    for name, (version, marker) in pins(DEV).items():
        if marker is not None and not marker.evaluate():
            continue
        try:
            installed = Version(metadata.version(name))
        except metadata.PackageNotFoundError:
            wrong.append(f"{name} is missing")
            continue
        if installed != version:
            wrong.append(f"{name} {installed} installed, {version} locked")
    assert wrong == [], "run `python3 manage.py runtests` to install the lock file"


@pytest.mark.parametrize("tool", ["ruff", "mypy"])
def test_the_pre_commit_hooks_run_the_locked_tools(tool):
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    entries = [hook["entry"] for repo in config["repos"] for hook in repo["hooks"]]
    assert any(entry.split()[0] == f".venv/bin/{tool}" for entry in entries)
    assert tool in pins(DEV)
