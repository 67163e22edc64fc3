"""The JSON API: ``POST /api/check`` answers like one ``checkhand --jsonl`` line."""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from rules.engine.check import CheckError, check_hand

MAX_BODY = 16 * 1024


def _error(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@csrf_exempt  # a JSON API for other programs: no cookies, no session, nothing to forge
@require_http_methods(["POST"])
def check(request: HttpRequest) -> JsonResponse:
    if len(request.body) > MAX_BODY:
        return _error("the request is too large", status=413)
    try:
        payload = json.loads(request.body or b"null")
    except (ValueError, RecursionError):  # RecursionError: deeply nested arrays or objects
        return _error("the body must be a JSON object")
    try:
        result = check_hand(payload)
    except CheckError as exc:
        return _error(str(exc))
    return JsonResponse(result)
