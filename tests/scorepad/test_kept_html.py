"""HTML kept once rendered (scorepad/kepthtml.py): the widgets of every form and the rows of the
score sheet. What is kept must be exactly what would be rendered: pages rendered with the
memory empty, with it full of older versions' rows, and with it switched off are the same."""

import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from scorepad.forms.renderer import KeptWidgets
from scorepad.kepthtml import KeptHTML, Unkeyable, plain_key
from scorepad.templatetags import scorepad as tags
from tests.factories import ACTOR, GameFactory, classic_form_data, record_classic, record_penalty
from tests.scorepad.conftest import hidden, own


def test_a_key_tells_apart_every_value_a_template_writes_differently():
    values = ["1", 1, True, 1.0, Decimal("1"), mark_safe("1"), [1], (1,), {"1": 1}, None, "None"]
    keys = [plain_key(v) for v in values]
    assert len(set(keys)) == len(values)
    # A dictionary's order is the order its attributes are written in.
    assert plain_key({"a": 1, "b": 2}) != plain_key({"b": 2, "a": 1})
    assert plain_key({"a": [1, "x"]}) == plain_key({"a": [1, "x"]})
    # A lazy translation is keyed by what it says in the language now.
    with translation.override("de"):
        german = plain_key(gettext_lazy("Deal"))
    with translation.override("en"):
        english = plain_key(gettext_lazy("Deal"))
    assert german != english
    # Anything else may write more than it shows: no key, rendered every time.
    with pytest.raises(Unkeyable):
        plain_key({"widget": {"value": object()}})


def test_a_change_of_the_settings_empties_every_memory():
    """What is kept was rendered under the settings of its time: a test that changes them
    (the static files' storage, the templates) must not be answered with the old HTML."""
    first, second = KeptHTML(10_000), KeptHTML(10_000)
    calls = []

    def draw():
        calls.append(1)
        return "<p>a</p>"

    for kept in (first, second):
        kept.render("t", {"v": "a"}, draw)
        kept.render("t", {"v": "a"}, draw)
    assert len(calls) == 2
    with override_settings(STATIC_URL="/elsewhere/"):
        assert (len(first), len(second), first.used) == (0, 0, 0)
        first.render("t", {"v": "a"}, draw)
    assert len(calls) == 3


def test_the_memory_renders_a_context_once_and_keeps_what_it_last_used():
    kept = KeptHTML(2 * (len("<p>a</p>") + KeptHTML.UPKEEP))  # room for two
    calls = []

    def render(text):
        def draw():
            calls.append(text)
            return f"<p>{text}</p>"

        return draw

    assert kept.render("t", {"v": "a"}, render("a")) == "<p>a</p>"
    assert kept.render("t", {"v": "a"}, render("a")) == "<p>a</p>"
    assert calls == ["a"]
    kept.render("t", {"v": "b"}, render("b"))
    kept.render("t", {"v": "a"}, render("a"))  # used last: stays
    kept.render("t", {"v": "c"}, render("c"))  # b goes
    assert len(kept) == 2
    kept.render("t", {"v": "a"}, render("a"))
    kept.render("t", {"v": "b"}, render("b"))
    assert calls == ["a", "b", "c", "b"]
    # Another language, another key; a context that cannot be keyed is rendered each time.
    with translation.override("fi"):
        kept.render("t", {"v": "a"}, render("a"))
    kept.render("t", {"v": object()}, render("o"))
    kept.render("t", {"v": object()}, render("o"))
    assert calls == ["a", "b", "c", "b", "a", "o", "o"]


def sections(page: str) -> list[str]:
    """What the memories render: the sheet's table, the held form, a form's widgets; without
    the tokens a page carries for its own request."""
    found = re.findall(
        r'<table class="sheet.*?</table>|<template id="offline-deal".*?</template>|<form .*?</form>',
        page,
        re.S,
    )
    assert found
    text = "\n".join(found)
    text = re.sub(r'name="(csrfmiddlewaretoken|once)" value="[^"]*"', "", text)
    return re.sub(r'nonce="[^"]*"', "", text)


def rendered(editor: Client, game) -> str:
    """The editor's page, a viewer's page and the correction form of deal 1, rendered now (the
    kept sheets emptied, so that the rows and widgets are rendered through the memories)."""
    cache.clear()
    pages = [
        editor.get(reverse("game", kwargs={"token": game.editor_token})),
        Client().get(reverse("game", kwargs={"token": game.viewer_token})),
        editor.get(reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1})),
        editor.get(reverse("deal-new", kwargs={"token": game.editor_token})),
    ]
    assert all(page.status_code == 200 for page in pages)
    return "\n".join(sections(page.content.decode()) for page in pages)


def without_memory(monkeypatch, editor, game) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(KeptHTML, "render", lambda self, name, context, render: render())
        return rendered(editor, game)


def forget(monkeypatch):
    """Empty memories, as a new worker has."""
    from django.forms.renderers import get_default_renderer

    monkeypatch.setattr(tags, "ROWS", KeptHTML(tags.ROWS.size))
    get_default_renderer.cache_clear()
    assert isinstance(get_default_renderer(), KeptWidgets)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("variant", "language"), [("classic", "de"), ("contract-nordic", "nb"), ("romme", "pl")]
)
def test_pages_are_the_same_rendered_kept_or_not(monkeypatch, variant, language):
    forget(monkeypatch)
    players = 4 if variant == "romme" else 5  # Rommé: 2 to 4
    game = GameFactory(variant_id=variant, players=players)
    classic = variant == "classic"

    def deal(number, players=players):
        out = number % 3
        if classic:
            record_classic(game, "abandoned" if number == 2 else out)
        else:
            record_penalty(
                game, out, {p: 10 * p + 5 * number + 5 for p in range(players) if p != out}
            )

    for number in range(4):
        deal(number)
    game.refresh_from_db()
    last = players - 1
    game.seat_leaves(last, version=game.version, once="leaves", actor=ACTOR)  # away from deal 5
    deal(4, players=last)
    editor = own(Client(), game)
    with translation.override(language):
        fresh = rendered(editor, game)
        assert 'class="abandoned"' in fresh or not classic
        assert fresh == rendered(editor, game)  # from the memories now
        assert fresh == without_memory(monkeypatch, editor, game)
        assert len(tags.ROWS) >= 2 * 5  # the rows of the editor's and the viewers' tables
        # A correction of deal 1 changes its row and every running total after it.
        url = reverse("deal-edit", kwargs={"token": game.editor_token, "number": 1})
        form = editor.get(url).content.decode()
        if classic:
            data = classic_form_data(game, 3, jokers=2)
        else:
            data = dict(re.findall(r'name="((?:points|cards)_\d)" value="([^"]*)"', form))
            data.update(went_out="0", points_2="75")
        data.update(version=hidden(form, "version"), once=hidden(form, "once"))
        answer = editor.post(url, data)
        assert answer.status_code == 302, re.findall(r"<li>[^<]*</li>", answer.content.decode())
        game.refresh_from_db()
        corrected = rendered(editor, game)
        assert corrected != fresh
        assert corrected == without_memory(monkeypatch, editor, game)


def test_a_row_is_kept_per_language_and_per_link(monkeypatch, db):
    forget(monkeypatch)
    game = GameFactory(variant_id="classic", players=4)
    record_classic(game, 0)
    editor = own(Client(), game)
    pages = {}
    for language in ("en", "fi", "en", "fi"):
        with translation.override(language):
            pages[language] = rendered(editor, game)
    assert 'aria-label="Correct deal 1"' in pages["en"]
    assert 'aria-label="Korjaa jako 1"' in pages["fi"]
    assert re.search(r'<a href="/fi/[^"]+/deals/1/edit/" hx-get', pages["fi"])
    # A viewer's row is the same deal without the correction link.
    viewer = Client().get(reverse("game", kwargs={"token": game.viewer_token})).content.decode()
    assert "/deals/1/edit/" not in viewer
    assert '<th scope="row" class="num">1</th>' in viewer
