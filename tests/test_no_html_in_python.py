"""Markup lives in templates: no Python module builds HTML out of strings, except the Markdown
renderer of the rules pages (which builds its tree as the Markdown library asks)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TAG = re.compile(
    r"""['"][^'"\n]*</?(?:span|div|p|a|li|ul|ol|button|svg|table|tr|td|th|strong|em|h[1-6]|form|input|label|select|option|dl|dt|dd|img)\b[^'"\n]*['"]"""
)
BUILDERS = re.compile(r"\b(?:format_html|format_html_join)\b")
ALLOWED = {
    "rules/pages/markup.py": "the Markdown renderer",
    # the bare view the load benchmark compares with: a fixed page with no template by design
    "continental/views.py": "the benchmark's fixed page",
}


def python_files():
    for folder in ("rules", "scorepad", "continental"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if "/migrations/" in name or name.startswith("rules/engine/") or name in ALLOWED:
                continue
            yield name, path.read_text(encoding="utf-8")


def test_no_python_module_builds_html_from_strings():
    found = []
    for name, text in python_files():
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            if BUILDERS.search(line) or TAG.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == []


def test_the_check_finds_html_built_in_python():
    assert TAG.search("""html = '<span class="pc">' + rank + "</span>\"""")
    assert BUILDERS.search("return format_html('{}', x)")
    assert not TAG.search('text = "1 < 2 and 3 > 2"')
