"""The import graph of the code, read from the source (an AST walk, imports inside functions
included): four layers with arrows only downward (docs/architecture.md#layers).

    continental/       the project package: may import everything below
      scorepad/        the score-pad app
        rules/         the rules app (pages, checker, API)
          rules/engine/  plain Python: the standard library and itself only

The apps never import the project package (Django reaches it only through the settings:
ROOT_URLCONF, MIDDLEWARE, TEMPLATES name it as text), and rules/ never imports scorepad/.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("continental", "scorepad", "rules")
# Higher imports lower, never the other way round.
LAYERS = {"rules.engine": 0, "rules": 1, "scorepad": 2, "continental": 3}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, relative ones resolved;
    ``from x import y`` counts as ``x.y`` (y may be a module)."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return found


def layer(name: str) -> int | None:
    """The layer of a module of ours, None for anything else (the standard library, Django)."""
    if name == "rules.engine" or name.startswith("rules.engine."):
        return LAYERS["rules.engine"]
    top = name.split(".")[0]
    return LAYERS.get(top)


def is_stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names or name == "__future__"


def problems(source: str, module: str, is_package: bool = False) -> list[str]:
    """What is wrong with the imports of ``module``; an empty list when nothing is."""
    own = layer(module)
    found = []
    for line, name in imported_names(source, module, is_package):
        target = layer(name)
        if own == LAYERS["rules.engine"]:
            if target != LAYERS["rules.engine"] and not is_stdlib(name):
                found.append(
                    f"{module}:{line} imports {name}: the engine imports plain Python only"
                )
        elif target is not None and own is not None and target > own:
            found.append(f"{module}:{line} imports {name}, a layer above it")
    return found


def our_modules() -> list[tuple[str, Path]]:
    return [
        (module_name(path), path)
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    ]


def graph() -> dict[tuple[str, str], int]:
    """Arrows between the four layers' names, with how many imports make each."""
    names = {value: key for key, value in LAYERS.items()}
    arrows: dict[tuple[str, str], int] = {}
    for module, path in our_modules():
        own = layer(module)
        for _line, name in imported_names(path.read_text(), module, path.name == "__init__.py"):
            target = layer(name)
            if target is not None and target != own:
                key = (names[own], names[target])
                arrows[key] = arrows.get(key, 0) + 1
    return arrows


def test_every_module_imports_only_from_its_own_layer_or_below():
    modules = our_modules()
    assert len(modules) > 60  # the walk found the code
    found = []
    for module, path in modules:
        found += problems(path.read_text(), module, path.name == "__init__.py")
    assert found == []


def test_the_graph_has_the_expected_arrows_down_and_none_up():
    arrows = graph()
    # The walk sees real arrows: the project package counts with a model of the score pad,
    # the score pad asks the engine and the rules app, the rules app asks the engine.
    assert ("continental", "scorepad") in arrows
    assert ("scorepad", "rules.engine") in arrows
    assert ("scorepad", "rules") in arrows
    assert ("rules", "rules.engine") in arrows
    assert all(LAYERS[source] > LAYERS[target] for source, target in arrows)


@pytest.mark.parametrize(
    ("module", "source", "wrong"),
    [
        ("rules.engine.melds", "import django.conf\n", "django.conf"),
        ("rules.engine.melds", "from django_htmx.http import x\n", "django_htmx.http"),
        ("rules.engine.solver.romme", "def f():\n    from ...checker import x\n", "rules.checker"),
        ("rules.engine.scoring", "from scorepad.models import Game\n", "scorepad.models"),
        ("rules.checker", "from scorepad import sheet\n", "scorepad"),
        ("rules.views", "from continental.ratelimit import hit\n", "continental.ratelimit"),
        ("scorepad.views.sheet", "from ...continental import settings\n", "continental"),
        ("scorepad.forms", "from continental import middleware\n", "continental"),
    ],
)
def test_an_import_up_a_layer_is_found(module, source, wrong):
    found = problems(source, module)
    assert found
    assert all(wrong in line for line in found[:1])


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("rules.engine.melds", "from .cards import Card\nimport itertools\n"),
        ("rules.engine.solver.classic", "from ..variants import Variant\n"),
        ("rules.checker", "from .engine.cards import Card\nfrom django.http import x\n"),
        ("scorepad.views.games", "from rules.facts import NAMES\nfrom ..models import Game\n"),
        ("continental.ratelimit", "from scorepad.models import RateCounter\n"),
    ],
)
def test_an_import_of_the_same_layer_or_below_is_allowed(module, source):
    assert problems(source, module) == []
