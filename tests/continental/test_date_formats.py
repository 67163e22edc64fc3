"""Dates read as each language writes them (issue 45, words): what a share text, a share
picture, an evening page and a year page print."""

from datetime import UTC, datetime

import pytest
from django.utils import formats, translation

from scorepad.results import _day

MOMENT = datetime(2026, 12, 7, 19, tzinfo=UTC)


@pytest.mark.parametrize(
    ("lang", "day", "short"),
    [
        ("fi", "7. joulukuuta", "7.12.2026"),  # the month in the partitive
        ("pl", "7 grudnia", "07.12.2026"),  # dots, not hyphens
        ("de", "7. Dezember", "07.12.2026"),
        ("nb", "7. desember", "07.12.2026"),
        ("es", "7 de diciembre", "07/12/2026"),
        ("en", "December 7", "12/07/2026"),
    ],
)
def test_a_day_and_a_short_date_in_each_language(lang, day, short):
    with translation.override(lang):
        assert _day(MOMENT) == day  # the share text's and picture's day
        assert formats.date_format(MOMENT, "SHORT_DATE_FORMAT") == short
