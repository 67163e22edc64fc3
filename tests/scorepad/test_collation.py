"""Players' names in the order of the page's language."""

import pytest

from scorepad.collation import sort_key

NAMES = ["Zoë", "Åsa", "Ümit", "Íñigo", "anna", "Øyvind", "Łucja", "Ben", "Ñoño", "Nadia"]


def ordered(lang: str) -> list[str]:
    return sorted(NAMES, key=lambda name: sort_key(name, lang))


def test_english_and_german_sort_accented_letters_with_their_base_letter():
    expected = ["anna", "Åsa", "Ben", "Íñigo", "Łucja", "Nadia", "Ñoño", "Øyvind", "Ümit", "Zoë"]
    assert ordered("en") == expected
    assert ordered("de") == expected


def test_norwegian_puts_ae_o_and_a_with_ring_after_z():
    assert ordered("nb")[-2:] == ["Øyvind", "Åsa"]
    assert ordered("nb").index("Zoë") < ordered("nb").index("Øyvind")


def test_finnish_puts_a_with_ring_after_z():
    assert ordered("fi")[-2:] == ["Åsa", "Øyvind"]
    assert ordered("fi").index("Zoë") < ordered("fi").index("Åsa")


def test_polish_puts_l_with_stroke_after_l_and_spanish_n_tilde_after_n():
    assert sorted(["Łucja", "Lena", "Maja"], key=lambda n: sort_key(n, "pl")) == [
        "Lena",
        "Łucja",
        "Maja",
    ]
    assert sorted(["Ñoño", "Nora", "Oscar"], key=lambda n: sort_key(n, "es")) == [
        "Nora",
        "Ñoño",
        "Oscar",
    ]


@pytest.mark.parametrize("lang", ["en", "de", "nb", "pl", "fi", "es"])
def test_the_order_is_total_and_stable(lang):
    names = ["anna", "Anna", "Änna", "ANNA"]
    keys = {sort_key(name, lang) for name in names}
    assert len(keys) == len(names)  # no two names tie: the order never depends on the input
