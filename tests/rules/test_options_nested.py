"""The options of a rules page or the checker come from the link: deeply nested JSON there is
read as options that cannot be read, never a 500 (issue 21: the same class as item 7)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

NESTED = ["[" * 5000, '{"a":' * 3000, "[" * 5000 + "]" * 5000]


@pytest.mark.parametrize("options", NESTED)
@pytest.mark.parametrize(
    "path", ["/en/rules/classic/", "/de/rules/contract-nordic/summary/", "/pl/check/"]
)
def test_nested_options_in_a_link_are_answered(path, options):
    answer = Client(raise_request_exception=False).get(path, {"options": options})
    assert answer.status_code in (200, 302)
