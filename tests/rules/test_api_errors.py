"""Every answer of ``/api/check`` is JSON as docs/interfaces.md and the OpenAPI document
say, errors included (issue 21, item 11): a body past the limit answers 413 whatever its
size or content type (a 3 MB body used to meet Django's own limit first: a 400 HTML page),
a NUL in the query 400, any method but POST 405, each ``{"error": "..."}``."""

import json

import pytest
from django.test import override_settings

from rules.openapi import openapi_document

THREE_MB = 3 * 1024 * 1024


def assert_json_error(response, status):
    assert response.status_code == status, response.content[:200]
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert set(body) == {"error"}
    assert isinstance(body["error"], str)
    assert body["error"]
    return body["error"]


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/octet-stream",
    ],
)
@pytest.mark.parametrize("size", [16 * 1024 + 1, THREE_MB], ids=["16 KiB + 1", "3 MB"])
def test_a_body_past_the_limit_is_a_413_json_answer(client, db, content_type, size):
    body = b'{"variant": "' + b"x" * size + b'"}'
    response = client.generic("POST", "/api/check", body, content_type=content_type)
    assert assert_json_error(response, 413) == "the request is too large"


def test_a_3_mb_body_is_refused_before_it_is_read(client, db):
    """The Content-Length is enough: the body is never read into memory."""
    response = client.generic(
        "POST", "/api/check", b"{}", content_type="application/json", CONTENT_LENGTH=str(THREE_MB)
    )
    assert_json_error(response, 413)


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_any_method_but_post_is_a_405_json_answer(client, db, method):
    response = client.generic(method, "/api/check")
    assert_json_error(response, 405)
    assert response["Allow"] == "POST"


def test_a_nul_in_the_query_is_a_400_json_answer(client, db):
    response = client.post("/api/check?x=%00", b"{}", content_type="application/json")
    assert_json_error(response, 400)


def test_a_form_body_with_a_nul_is_a_400_json_answer(client, db):
    response = client.post("/api/check", {"variant": "a\x00"})
    assert_json_error(response, 400)


@override_settings(RATE_LIMITS={"api": 1, "write": 0})
def test_the_rate_limit_is_a_429_json_answer(client, db):
    client.post("/api/check", b"{}", content_type="application/json")
    assert_json_error(client.post("/api/check", b"{}", content_type="application/json"), 429)


def test_every_error_the_openapi_document_lists_is_a_json_error():
    responses = openapi_document()["paths"]["/api/check"]["post"]["responses"]
    for status, response in responses.items():
        if status != "200":
            assert response.get("$ref") == "#/components/responses/Error", status


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("POST", "/api/openapi.json", 405),
        ("GET", "/api/nothing-here", 404),
        ("GET", "/api/check/", 404),
    ],
)
def test_what_django_answers_itself_under_api_is_json_too(client, db, method, path, status):
    response = client.generic(method, path)
    assert_json_error(response, status)
    if status == 405:
        assert "GET" in response["Allow"]
