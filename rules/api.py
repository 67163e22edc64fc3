"""The JSON API: ``POST /api/check`` answers like one ``checkhand --jsonl`` line."""

from __future__ import annotations

import json

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from rules.engine.check import CheckError, check_hand

MAX_BODY = 16 * 1024
RATE_BUCKET = "rate_limit_bucket"  # the attribute that names a view's rate-limit bucket


def counts_as_api(view):
    """Mark ``view`` as one that runs the engine like ``/api/check``: the rate limit
    (continental/ratelimit.py) counts it in the API's bucket, per client."""
    setattr(view, RATE_BUCKET, "api")
    return view


API_PREFIX = "/api/"  # its answers are JSON, errors included (continental/middleware.py)


def error(message: str, status: int = 400) -> JsonResponse:
    """An error of the API as docs/interfaces.md says: ``{"error": "..."}``."""
    return JsonResponse({"error": message}, status=status)


def _body(request: HttpRequest) -> bytes | None:
    """The body, or None when it is larger than MAX_BODY: a Content-Length that says so is
    refused before anything is read (Django's own limit would answer an HTML 400)."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > MAX_BODY:
        return None
    try:
        body = request.body
    except RequestDataTooBig:
        return None
    return body if len(body) <= MAX_BODY else None


@counts_as_api
@csrf_exempt  # a JSON API for other programs: no cookies, no session, nothing to forge
def check(request: HttpRequest) -> JsonResponse:
    if request.method != "POST":
        response = error("only POST is allowed", status=405)
        response["Allow"] = "POST"
        return response
    body = _body(request)
    if body is None:
        return error("the request is too large", status=413)
    try:
        payload = json.loads(body or b"null")
    except (ValueError, RecursionError):  # RecursionError: deeply nested arrays or objects
        return error("the body must be a JSON object")
    try:
        result = check_hand(payload)
    except CheckError as exc:
        return error(str(exc))
    return JsonResponse(result)
