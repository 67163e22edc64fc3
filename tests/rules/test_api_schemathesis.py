"""schemathesis drives ``POST /api/check`` from its own OpenAPI document (bounded: 300
examples a phase, a fixed seed): no 500, every answer as documented, every request outside
the schema refused, and every request inside it answered 200, except for the refusals the
document names because no schema can say them (copies of a card beyond the decks, in the hand or with the seen cards, a deal
past the end of a custom schedule, a custom contract that needs more cards than dealt)."""

from __future__ import annotations

import atexit
import os
import re

import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, seed, settings
from schemathesis import GenerationMode
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

DJANGO = get_wsgi_application()


def application(environ, start_response):
    """Django's WSGI application as the test client runs it: the API uses no database, and
    the request signals must not touch the connection a database test left behind."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response = DJANGO(environ, start_response)
        try:
            return [b"".join(response)]
        finally:
            response.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)

# The 400s a schema-valid request may get: what JSON Schema cannot say.
BEYOND_THE_SCHEMA = re.compile(
    r"jokers, but the game has only"
    r"|× \S+, but \d+ decks hold only"
    r"|the hand and the seen cards hold \d+ × \S+, but the decks hold only"
    r"|deal must be a number from 1 to \d+"
    r"|the contract needs \d+ cards but only \d+ are dealt"
    r"|a hand after drawing holds \d+ to \d+"  # a custom schedule's deal
)
SEEN: dict[str, int] = {}  # "positive:200" -> how many; printed with API_FIGURES=1
if os.environ.get("API_FIGURES"):
    atexit.register(lambda: print("\nschemathesis cases by mode and status:", sorted(SEEN.items())))


@schema.parametrize()
@settings(
    max_examples=300,
    deadline=None,
    derandomize=False,
    suppress_health_check=list(HealthCheck),
)
@seed(12)
def test_the_api_does_what_its_openapi_document_says(case):
    response = case.call()
    excluded = [positive_data_acceptance]
    if response.status_code == 413:
        # A body past the documented 16 KiB limit is refused before it is read: a refusal,
        # though not one of the statuses schemathesis expects for data outside the schema.
        excluded.append(negative_data_rejection)
    case.validate_response(response, excluded_checks=excluded)
    mode = case.meta.generation.mode
    key = f"{mode.value}:{response.status_code}"
    SEEN[key] = SEEN.get(key, 0) + 1
    if mode == GenerationMode.POSITIVE and response.status_code == 400:
        error = response.json()["error"]
        assert BEYOND_THE_SCHEMA.search(error), (error, case.as_curl_command())
