"""The rules engine is plain Python: importing it never imports Django (docs/architecture.md#layers)."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import rules.engine

ENGINE_DIR = Path(rules.engine.__file__).parent
REPO_ROOT = ENGINE_DIR.parent.parent

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
import rules.engine
names = [m.name for m in pkgutil.walk_packages(rules.engine.__path__, "rules.engine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({
    "imported": names,
    "django": sorted(m for m in sys.modules if m == "django" or m.startswith("django.")
                     or m.startswith("django_")),
}))
"""


def test_importing_the_engine_and_all_its_modules_imports_no_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert "rules.engine.melds" in report["imported"]
    assert "rules.engine.scoring" in report["imported"]
    assert report["django"] == []


def test_no_engine_source_file_names_django_in_an_import():
    offenders = []
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            if any(n == "django" or n.startswith(("django.", "django_")) for n in names):
                offenders.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}")
    assert offenders == []
