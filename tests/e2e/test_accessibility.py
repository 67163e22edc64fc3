"""axe-core, injected into every page at phone width, in light and dark mode: no violations."""

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"

PAGES = [
    "/en/",
    "/de/",
    "/en/api/",
    "/en/rules/",
    "/en/rules/classic/",
    "/pl/rules/contract-spanish/",
    "/fi/rules/romme/summary/",
]


def axe_violations(browser, url: str, scheme: str) -> list[dict]:
    if not AXE.exists():
        pytest.fail("axe-core is not installed: run the README's test command (npm ci)")
    # The page's strict CSP forbids injected scripts; only this test context bypasses it.
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(url)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate(
            "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
            " return r.violations.map(v => ({id: v.id, impact: v.impact,"
            " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})); }"
        )
    finally:
        context.close()
    return result


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_page_has_no_axe_violations(browser, live_server, path, scheme):
    violations = axe_violations(browser, live_server.url + path, scheme)
    assert violations == [], json.dumps(violations, indent=1)
