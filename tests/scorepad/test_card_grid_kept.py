"""The card grid is rendered once per worker for the same arguments and language (issue 24:
a penalty game's deal form holds one grid per player), and what is kept is what a fresh
rendering gives."""

from django.test import override_settings
from django.utils import translation

from rules.engine.variants import get_variant
from scorepad.templatetags import cards


def _fresh(*args, **kwargs) -> str:
    cards.GRIDS.clear()
    return str(cards.card_grid(*args, **kwargs))


def test_a_grid_is_rendered_once_and_kept_as_rendered(monkeypatch):
    nordic = get_variant("contract-nordic")
    with translation.override("de"):
        fresh = _fresh("id_cards_1", "Karten von Anna", nordic)
        rendered = []
        real = cards.render_to_string
        monkeypatch.setattr(
            cards, "render_to_string", lambda *a, **k: rendered.append(a) or real(*a, **k)
        )
        again = [str(cards.card_grid("id_cards_1", "Karten von Anna", nordic)) for _ in range(3)]
    assert again == [fresh] * 3
    assert rendered == [], "a grid kept was rendered again"
    assert 'data-points="' in fresh
    assert 'data-target="id_cards_1"' in fresh


def test_each_language_variant_and_page_gets_its_own_grid():
    nordic = get_variant("contract-nordic")
    with translation.override("de"):
        german = str(cards.card_grid("id_hand"))
        kept = str(cards.card_grid("id_hand", kept=True))
        penalty = str(cards.card_grid("id_hand", "", nordic))
    with translation.override("nb"):
        norwegian = str(cards.card_grid("id_hand"))
    assert german != norwegian
    assert "data-script=" in german
    assert "data-script=" not in kept
    assert "data-points=" in penalty
    assert "data-points=" not in german
    with translation.override("nb"):
        assert norwegian == _fresh("id_hand")


def test_a_changed_setting_renders_the_grid_again():
    with translation.override("en"):
        before = str(cards.card_grid("id_hand"))
        with override_settings(STATIC_URL="/elsewhere/"):
            during = str(cards.card_grid("id_hand"))
        after = str(cards.card_grid("id_hand"))
    assert "/elsewhere/" in during
    assert "/elsewhere/" not in before
    assert after == before
