"""The specification lives in the repository (docs/): nothing points outside it, every
reference to docs/ names a file and a section that exist."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
OUTSIDE = (".." + "/shared", "/work" + "/shared")  # spelt in two halves: this file is scanned
SKIP_DIRS = {".git", ".venv", "node_modules", "data", "staticfiles", "__pycache__"}
DOC_REF = re.compile(r"docs/((?:[\w-]+/)*[\w-]+\.md)(?:#([\w-]+))?")
MD_LINK = re.compile(r"\]\(([^)\s]*)\)")
BARE_NAME_EXEMPT: tuple[str, ...] = ()


@cache
def project_files() -> tuple[str, ...]:
    """Tracked files and new files not ignored by git (or, without git, the tree)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        names = [n for n in out.splitlines() if (ROOT / n).is_file()]
    except (OSError, subprocess.CalledProcessError):
        names = [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and not SKIP_DIRS.intersection(p.relative_to(ROOT).parts)
        ]
    return tuple(sorted(n for n in names if not n.endswith(".egg-info") and ".egg-info/" not in n))


def text_of(name: str) -> str | None:
    try:
        return (ROOT / name).read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None  # images and other binary files


def reads_only_the_seeds(name: str, text: str) -> bool:
    """A test that reads the original rule sheets (the copy test of the rules pages)."""
    if not name.startswith("tests/"):
        return False
    for marker in OUTSIDE:
        for match in re.finditer(re.escape(marker), text):
            if not text[match.end() :].startswith("/seeds"):
                return False
    return True


def slug(heading: str) -> str:
    """The anchor of a Markdown heading, as GitHub makes it."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors(doc: Path) -> frozenset[str]:
    text = doc.read_text(encoding="utf-8")
    found = {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}
    found |= set(re.findall(r'<a id="([\w-]+)"></a>', text))
    return frozenset(found)


def test_nothing_refers_to_the_specification_outside_the_repository():
    offenders = []
    for name in project_files():
        text = text_of(name)
        if text is None or not any(marker in text for marker in OUTSIDE):
            continue
        if not reads_only_the_seeds(name, text):
            offenders.append(name)
    assert offenders == []


def test_nothing_names_the_old_specification_files():
    old = re.compile(r"\b(?:RULES|DESIGN)\.md\b")
    offenders = [
        name
        for name in project_files()
        if not name.startswith(BARE_NAME_EXEMPT)
        and (text := text_of(name)) is not None
        and old.search(text)
    ]
    assert offenders == []


def test_the_docs_folder_has_its_four_files():
    for name in ("README.md", "rules.md", "interfaces.md", "architecture.md"):
        assert (DOCS / name).is_file(), name


def test_every_docs_reference_names_a_file_and_section_that_exist():
    broken = []
    seen = 0
    for name in project_files():
        text = text_of(name)
        if text is None:
            continue
        for match in DOC_REF.finditer(text):
            seen += 1
            target = DOCS / match.group(1)
            if not target.is_file():
                broken.append(f"{name}: docs/{match.group(1)} does not exist")
            elif match.group(2) and match.group(2) not in anchors(target):
                broken.append(f"{name}: no section #{match.group(2)} in docs/{match.group(1)}")
    assert broken == []
    assert seen >= 30  # README, code, tests and benchmarks point here


def test_links_inside_the_docs_resolve():
    broken = []
    for doc in sorted(DOCS.glob("*.md")):
        for link in MD_LINK.findall(doc.read_text(encoding="utf-8")):
            if "://" in link:
                continue
            path, _, anchor = link.partition("#")
            target = (doc.parent / path).resolve() if path else doc
            missing = not target.is_file()
            if missing or (anchor and target.suffix == ".md" and anchor not in anchors(target)):
                broken.append(f"{doc.name}: {link}")
    assert broken == []


def test_section_names_in_the_docs_are_unique():
    for doc in sorted(DOCS.glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        slugs = [slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)]
        assert len(slugs) == len(set(slugs)), doc.name
