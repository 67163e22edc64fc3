"""The OpenAPI 3.1 description of ``POST /api/check``, served at ``/api/openapi.json``.

Built from the engine's own data (variant ids, house-rule options, limits), so the document
cannot drift from what the API accepts. The result fields are those of docs/interfaces.md.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

from rules.engine.check import FIRST_TURN_VALUES
from rules.engine.variants import (
    CLASSIC,
    MAX_CARDS_DEALT,
    MAX_CUSTOM_DEALS,
    ROMME,
    VARIANT_IDS,
    VARIANTS,
)

CONTRACT_IDS = [vid for vid in VARIANT_IDS if VARIANTS[vid].is_contract]

CARD = {
    "type": "string",
    "description": "A card, canonical: rank A 2-10 J Q K then suit S H D C, or JK (joker).",
    "pattern": r"^(JK|(A|[2-9]|10|J|Q|K)[SHDC])$",
    "examples": ["10H", "AS", "JK"],
}
CARD_LIST = {"type": "array", "items": {"$ref": "#/components/schemas/Card"}}
PLACED = {
    "type": "object",
    "description": "A card laid in a meld; `as` is the card it stands for (itself if natural).",
    "required": ["card", "as"],
    "properties": {
        "card": {"$ref": "#/components/schemas/Card"},
        "as": {"$ref": "#/components/schemas/Card"},
    },
    "additionalProperties": False,
}
COMMON_RESULT = {
    "variant": {"type": "string", "enum": list(VARIANT_IDS)},
    "cards": {"type": "string", "description": "The canonical notation of the input hand."},
    "melds": {
        "type": "array",
        "items": {"type": "array", "items": {"$ref": "#/components/schemas/PlacedCard"}},
    },
    "discard": {"oneOf": [{"$ref": "#/components/schemas/Card"}, {"type": "null"}]},
}
COMMON_REQUIRED = ["variant", "cards", "melds", "discard"]


def _option_schema(spec) -> dict[str, Any]:
    if spec.is_bool:
        value: dict[str, Any] = {"type": "boolean"}
    else:
        value = {"enum": list(spec.choices)}
    return {**value, "default": spec.default, "description": spec.help}


def _options_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    notes = []
    for vid in VARIANT_IDS:
        names = []
        for spec in VARIANTS[vid].options:
            properties.setdefault(spec.name, _option_schema(spec))
            names.append(spec.name)
        notes.append(f"{vid}: {', '.join(names) if names else 'none'}")
    return {
        "type": "object",
        "description": (
            "House-rule options of the variant by name; missing ones take their defaults; "
            "an option of another variant is refused. Options per variant — "
            + "; ".join(notes)
            + "."
        ),
        "properties": properties,
        "additionalProperties": False,
    }


def _result(variant_ids: list[str], fields: dict[str, Any], required: list[str]) -> dict:
    return {
        "type": "object",
        "required": [*COMMON_REQUIRED, *required],
        "properties": {
            **COMMON_RESULT,
            "variant": {"type": "string", "enum": variant_ids},
            **fields,
        },
    }


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    """The OpenAPI document (a plain dict, JSON-ready)."""
    error = {"$ref": "#/components/responses/Error"}
    classic = _result(
        [CLASSIC],
        {
            "goes_out": {"type": "boolean"},
            "payment": {
                "type": ["integer", "null"],
                "description": "What each other player pays; null if the hand does not go out.",
            },
            "payment_rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["row", "points"],
                    "properties": {"row": {"type": "string"}, "points": {"type": "integer"}},
                },
            },
            "waits": {
                "oneOf": [CARD_LIST, {"type": "null"}],
                "description": (
                    "For a 15-card hand that does not go out: the distinct cards that would let "
                    "it go out if drawn, sorted S, H, D, C then rank, joker last; null for "
                    "16-card hands and hands that go out."
                ),
            },
        },
        ["goes_out", "payment", "payment_rows", "waits"],
    )
    contract = _result(
        CONTRACT_IDS,
        {
            "deal": {"type": "integer", "minimum": 1, "maximum": MAX_CUSTOM_DEALS},
            "contract": {
                "type": "object",
                "required": ["sets", "runs"],
                "properties": {
                    "sets": {"type": "integer", "minimum": 0},
                    "runs": {"type": "integer", "minimum": 0},
                },
            },
            "can_open": {"type": "boolean"},
            "left_in_hand": {**CARD_LIST, "description": "Cards kept, the discard not included."},
            "penalty": {
                "type": "integer",
                "description": "Penalty of left_in_hand; of the whole hand if it cannot open.",
            },
            "goes_out": {"type": "boolean"},
        },
        ["deal", "contract", "can_open", "left_in_hand", "penalty", "goes_out"],
    )
    romme = _result(
        [ROMME],
        {
            "opening_points": {"type": "integer", "minimum": 0},
            "can_open": {"type": "boolean"},
            "handromme": {"type": "boolean"},
        },
        ["opening_points", "can_open", "handromme"],
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Continental hand-check API",
            "version": "1",
            "description": (
                "Check whether a hand of cards goes out (or can open) in one of the "
                "Continental games. The same request object works line by line with "
                "`manage.py checkhand --jsonl`."
            ),
        },
        "paths": {
            "/api/check": {
                "post": {
                    "operationId": "checkHand",
                    "summary": "Check one hand",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/CheckRequest"},
                                "example": {
                                    "variant": "classic",
                                    "cards": "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK",
                                    "options": {"twos_wild": True},
                                    "first_turn": None,
                                },
                            }
                        },
                    },
                    "responses": {
                        "200": {
                            "description": "The result; its fields depend on the variant.",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/CheckResult"}
                                }
                            },
                        },
                        "400": {**error, "description": "Bad input: the message names it."},
                        "405": {"description": "Any method but POST."},
                        "413": {**error, "description": "The body is over 16 KiB."},
                        "429": {
                            **error,
                            "description": "Too many requests from this client; see Retry-After.",
                        },
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "CheckRequest": {
                    "type": "object",
                    "required": ["variant", "cards"],
                    "additionalProperties": False,
                    "properties": {
                        "variant": {"type": "string", "enum": list(VARIANT_IDS)},
                        "cards": {
                            "type": "string",
                            "description": (
                                "Card tokens separated by spaces or commas: rank then suit "
                                "(S H D C or ♠ ♥ ♦ ♣), 10 or T for ten, JK for a joker."
                            ),
                        },
                        "deal": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": MAX_CUSTOM_DEALS,
                            "description": (
                                "Contract games only (and required there): the deal, 1 to the "
                                "length of the schedule (7 by default)."
                            ),
                        },
                        "options": _options_schema(),
                        "first_turn": {
                            "enum": list(FIRST_TURN_VALUES),
                            "description": (
                                "Classic only: out on the first turn after drawing (16 cards) "
                                "or without drawing (15 cards); null otherwise."
                            ),
                        },
                        "schedule": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": MAX_CUSTOM_DEALS,
                            "description": "Contract games only: the game's own deal schedule.",
                            "items": {
                                "type": "object",
                                "required": ["cards"],
                                "properties": {
                                    "cards": {
                                        "type": "integer",
                                        "minimum": 1,
                                        "maximum": MAX_CARDS_DEALT,
                                    },
                                    "sets": {"type": "integer", "minimum": 0, "default": 0},
                                    "runs": {"type": "integer", "minimum": 0, "default": 0},
                                    "set_min": {
                                        "type": "integer",
                                        "minimum": 3,
                                        "maximum": 8,
                                        "default": 3,
                                    },
                                    "run_min": {
                                        "type": "integer",
                                        "minimum": 3,
                                        "maximum": 13,
                                        "default": 4,
                                    },
                                },
                            },
                        },
                    },
                },
                "CheckResult": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/ClassicResult"},
                        {"$ref": "#/components/schemas/ContractResult"},
                        {"$ref": "#/components/schemas/RommeResult"},
                    ]
                },
                "ClassicResult": classic,
                "ContractResult": contract,
                "RommeResult": romme,
                "Card": CARD,
                "PlacedCard": PLACED,
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {"error": {"type": "string"}},
                },
            },
            "responses": {
                "Error": {
                    "description": "An error",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                }
            },
        },
    }


@require_safe
def openapi_json(request: HttpRequest) -> JsonResponse:
    """``GET /api/openapi.json``: the OpenAPI document of the hand-check API."""
    return JsonResponse(openapi_document(), json_dumps_params={"ensure_ascii": False})
