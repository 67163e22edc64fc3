"""The OpenAPI 3.1 description of ``POST /api/check``, served at ``/api/openapi.json``.

Built from the engine's own data (variant ids, house-rule options, limits), so the document
cannot drift from what the API accepts; the result schemas are made from the engine's result
types (rules/engine/results.py), the same dataclasses the API writes out.
"""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from functools import lru_cache
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

from rules.engine.cards import JOKER_TOKENS, RANK_TOKENS, SUIT_TOKENS, Card
from rules.engine.check import MAX_EXTRA_CONTRACT_CARDS
from rules.engine.melds import Meld
from rules.engine.results import ClassicResult, ContractResult, RommeResult
from rules.engine.variants import (
    CLASSIC,
    MAX_CARDS_DEALT,
    MAX_CUSTOM_DEALS,
    ROMME,
    VARIANT_IDS,
    VARIANTS,
)
from rules.pages.words import option_words

CONTRACT_IDS = [vid for vid in VARIANT_IDS if VARIANTS[vid].is_contract]

CARD = {
    "type": "string",
    "description": "A card, canonical: rank A 2-10 J Q K then suit S H D C, or JK (joker).",
    "pattern": r"^(JK|(A|[2-9]|10|J|Q|K)[SHDC])$",
    "examples": ["10H", "AS", "JK"],
}
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
# --- the request: one schema per variant, as exact as JSON Schema can say it ----------------
# The hand's size is part of the schema (classic 15 or 16 by first_turn, Rommé 15, a contract
# deal its cards dealt + 1 to + 13). What no schema can say is left to a 400 that names it:
# more copies of a card than the decks hold, a deal past the end of a custom schedule, a
# custom contract that needs more cards than are dealt.


def _any_case(text: str) -> str:
    """A regex (ECMA 262 and Python alike) matching ``text`` in any letter case."""
    out = []
    for char in text:
        if char.upper() != char.lower():
            out.append(f"[{char.upper()}{char.lower()}]")
        else:
            out.append(re.escape(char))
    return "".join(out)


def _alternatives(tokens) -> str:
    return "|".join(_any_case(t) for t in sorted(tokens, key=lambda t: (-len(t), t)))


TOKEN = (
    f"(?:{_alternatives(JOKER_TOKENS)}|(?:{_alternatives(RANK_TOKENS)})"
    f"(?:{_alternatives(SUIT_TOKENS)}))"
)
SEPARATOR = "[ ,;\\t\\n\\r]"
HAND_TEXT = (
    "Card tokens separated by spaces or commas, any letter case: rank A 2-10 J Q K (T for "
    "ten) then suit S H D C (or ♠ ♥ ♦ ♣), JK for a joker; or a list of such tokens."
)


def _hand(low: int, high: int) -> dict[str, Any]:
    """A hand of ``low`` to ``high`` cards, as text or as a list of tokens."""
    count = f"{{{low - 1}}}" if low == high else f"{{{low - 1},{high - 1}}}"
    text = f"^{SEPARATOR}*{TOKEN}(?:{SEPARATOR}+{TOKEN}){count}{SEPARATOR}*$"
    size = f"{low} cards" if low == high else f"{low} to {high} cards"
    return {
        "description": f"{HAND_TEXT} {size}.",
        "oneOf": [
            {"type": "string", "pattern": text},
            {
                "type": "array",
                "items": {"type": "string", "pattern": f"^{TOKEN}$"},
                "minItems": low,
                "maxItems": high,
            },
        ],
    }


def _option_schema(spec) -> dict[str, Any]:
    # As the checker page sends them too: true/false/on/off as text, a number as text.
    if spec.is_bool:
        text = "^(?:" + "|".join(_any_case(w) for w in ("true", "false", "on", "off")) + ")$"
        value: dict[str, Any] = {
            "oneOf": [{"type": "boolean"}, {"type": "string", "pattern": text}]
        }
    else:
        choices = "|".join(str(c) for c in spec.choices)
        value = {
            "oneOf": [
                {"enum": list(spec.choices)},
                {"type": "string", "pattern": f"^ *(?:{choices}) *$"},
            ]
        }
    return {**value, "default": spec.default, "description": option_words(spec.name, "en")[1]}


def _options_schema(variant_ids) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for vid in variant_ids:
        for spec in VARIANTS[vid].options:
            properties.setdefault(spec.name, _option_schema(spec))
    return {
        "type": ["object", "null"],
        "description": (
            "House-rule options of the variant by name; missing ones (or null) take their "
            "defaults; an option of another variant is refused."
        ),
        "properties": properties,
        "additionalProperties": False,
    }


NULL = {"type": "null"}


def _request(variant_ids, required, **fields) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["variant", "cards", *required],
        "additionalProperties": False,
        "properties": {
            "variant": {"type": "string", "enum": list(variant_ids)},
            "options": _options_schema(variant_ids),
            "deal": NULL,
            "schedule": NULL,
            "first_turn": NULL,
            "seen": NULL,
            "players": NULL,
            **fields,
        },
    }


def _schedule_schema() -> dict[str, Any]:
    def number(low: int, high: int | None = None, default: int | None = None) -> dict[str, Any]:
        value: dict[str, Any] = {"type": "integer", "minimum": low}
        if high is not None:
            value["maximum"] = high
        if default is not None:
            value["default"] = default
        return value

    def row(sets, runs, required):
        return {
            "type": "object",
            "required": ["cards", *required],
            "properties": {
                "cards": number(1, MAX_CARDS_DEALT),
                "sets": sets,
                "runs": runs,
                "set_min": number(3, 8, 3),
                "run_min": number(3, 13, 4),
            },
        }

    # A contract needs a set or a run: sets 1 or more, or no sets and runs 1 or more.
    either = {
        "oneOf": [
            row(number(1), number(0, default=0), ["sets"]),
            row({"type": "integer", "enum": [0], "default": 0}, number(1), ["runs"]),
        ]
    }
    return {
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_CUSTOM_DEALS,
        "description": (
            "Contract games only: the game's own deal schedule. Each deal's contract needs a "
            "set or a run, and no more cards than are dealt."
        ),
        "items": either,
    }


MAX_SEEN = 200  # more cards than four decks and their jokers hold besides a hand

# The classic game's outs: the cards seen elsewhere and the table they come from.
OUTS_FIELDS = {
    "seen": {
        "description": (
            "Classic only: cards the player saw outside the hand (the discard pile, other "
            "hands), left out of `outs`. Tokens as in the hand, any number; with the hand no "
            "more copies of a card than the table's decks hold."
        ),
        "oneOf": [
            {
                "type": "string",
                "pattern": f"^{SEPARATOR}*(?:{TOKEN}(?:{SEPARATOR}+{TOKEN})*)?{SEPARATOR}*$",
            },
            {
                "type": "array",
                "items": {"type": "string", "pattern": f"^{TOKEN}$"},
                "maxItems": MAX_SEEN,
            },
            {"type": "null"},
        ],
    },
    "players": {
        "type": ["integer", "null"],
        "minimum": VARIANTS[CLASSIC].min_players,
        "maximum": VARIANTS[CLASSIC].max_players,
        "description": (
            "Classic only: the players at the table, which sets the decks `outs` counts "
            "(2 decks and 2 jokers up to 5 players, 3 up to 8, 4 up to 12). Without it, the "
            "fewest decks that hold the hand and the seen cards."
        ),
    },
}


def _request_schemas() -> dict[str, Any]:
    classic = [CLASSIC]
    contract_ids = CONTRACT_IDS
    contract = []
    for vid in contract_ids:
        for spec in VARIANTS[vid].schedule or ():
            contract.append(
                _request(
                    [vid],
                    ["deal"],
                    deal={"type": "integer", "enum": [spec.number]},
                    cards=_hand(spec.cards + 1, spec.cards + 1 + MAX_EXTRA_CONTRACT_CARDS),
                )
            )
    contract.extend(
        _request(
            [vid],
            ["deal", "schedule"],
            deal={
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_CUSTOM_DEALS,
                "description": "1 to the length of the schedule.",
            },
            schedule=_schedule_schema(),
            cards=_hand(2, MAX_CARDS_DEALT + 1 + MAX_EXTRA_CONTRACT_CARDS),
        )
        for vid in contract_ids  # one each: an option of one is refused by the other
    )
    return {
        "ClassicRequest": {
            "description": (
                "The classic game: 16 cards after drawing, 15 when out without drawing "
                "(first_turn says which; without it, either)."
            ),
            "oneOf": [
                _request(
                    classic,
                    ["first_turn"],
                    first_turn={"enum": ["drawn"]},
                    cards=_hand(16, 16),
                    **OUTS_FIELDS,
                ),
                _request(
                    classic,
                    ["first_turn"],
                    first_turn={"enum": ["undrawn"]},
                    cards=_hand(15, 15),
                    **OUTS_FIELDS,
                ),
                _request(classic, [], cards=_hand(15, 16), **OUTS_FIELDS),
            ],
        },
        "ContractRequest": {
            "description": (
                "A contract game: the deal is required (1 to 7 with the standard schedule); "
                "the hand after drawing holds the deal's cards dealt + 1 to + "
                f"{1 + MAX_EXTRA_CONTRACT_CARDS} (out-of-turn takes add cards)."
            ),
            "oneOf": contract,
        },
        "RommeRequest": {
            "description": "Rommé: the hand after drawing, 15 cards.",
            **_request([ROMME], [], cards=_hand(15, 15)),
        },
    }


# --- the results: from the engine's own types (rules/engine/results.py) ----------------------

RESULT_VARIANTS: dict[type, list[str]] = {
    ClassicResult: [CLASSIC],
    ContractResult: CONTRACT_IDS,
    RommeResult: [ROMME],
}


def _with_bounds(schema: dict[str, Any], bounds: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with ``bounds`` (minimum, maximum) on the integers it holds."""
    if not bounds:
        return schema
    kind = schema.get("type")
    if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
        return {**schema, **bounds}
    if isinstance(schema.get("additionalProperties"), dict):
        return {
            **schema,
            "additionalProperties": _with_bounds(schema["additionalProperties"], bounds),
        }
    if "oneOf" in schema:
        return {**schema, "oneOf": [_with_bounds(s, bounds) for s in schema["oneOf"]]}
    return schema


def type_schema(tp: Any) -> dict[str, Any]:
    """The JSON Schema of what ``rules.engine.results.to_json`` writes for a value of ``tp``."""
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if tp is Card:
        return {"$ref": "#/components/schemas/Card"}
    if tp is Meld:
        return {"type": "array", "items": {"$ref": "#/components/schemas/PlacedCard"}}
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        schema = type_schema(inner)
        if schema.get("type") in ("boolean", "integer", "string"):
            return {**schema, "type": [schema["type"], "null"]}
        return {"oneOf": [schema, {"type": "null"}]}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": type_schema(args[0])}
    if origin is dict:
        return {
            "type": "object",
            "propertyNames": type_schema(args[0]),
            "additionalProperties": type_schema(args[1]),
        }
    if isinstance(tp, type) and is_dataclass(tp):
        return object_schema(tp)
    raise TypeError(f"no JSON Schema for {tp!r}")


def object_schema(cls: type, **properties: Any) -> dict[str, Any]:
    """A dataclass as a JSON object: every field required, in its order, nothing else;
    a field's description and bounds from its metadata; ``properties`` replace fields."""
    hints = get_type_hints(cls)
    props: dict[str, Any] = {}
    for f in fields(cls):
        meta = dict(f.metadata)
        text = meta.pop("description", None)
        schema = _with_bounds(type_schema(hints[f.name]), meta)
        props[f.name] = {**schema, "description": text} if text else schema
    props.update(properties)
    return {
        "type": "object",
        "required": list(props),
        "properties": props,
        "additionalProperties": False,
    }


def result_schemas() -> dict[str, Any]:
    """One schema per family of games, named as its result class."""
    return {
        cls.__name__: object_schema(
            cls,
            variant={
                "type": "string",
                "enum": ids,
                "description": "The variant asked for.",
            },
        )
        for cls, ids in RESULT_VARIANTS.items()
    }


PATHS = {
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
                            "variant": CLASSIC,
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
                        "application/json": {"schema": {"$ref": "#/components/schemas/CheckResult"}}
                    },
                },
                **{
                    status: {"$ref": "#/components/responses/Error", "description": text}
                    for status, text in (
                        ("400", "Bad input: the message names it."),
                        ("405", "Any method but POST."),
                        ("413", "The body is over 16 KiB."),
                        ("429", "Too many requests from this client; see Retry-After."),
                    )
                },
            },
        }
    }
}
CHECK_REQUEST_TEXT = (
    "One hand to check; the fields and the hand's size depend on the variant. Bad input gets "
    "a 400 naming the problem, also for what no schema can say: more copies of a card than "
    "the game's decks hold (in the hand, or with the seen cards), a deal past the end of a "
    "custom schedule, a custom contract that needs more cards than are dealt."
)


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    """The OpenAPI document (a plain dict, JSON-ready)."""
    results = result_schemas()
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
        "paths": PATHS,
        "components": {
            "schemas": {
                "CheckRequest": {
                    "description": CHECK_REQUEST_TEXT,
                    "oneOf": [
                        {"$ref": f"#/components/schemas/{name}"}
                        for name in ("ClassicRequest", "ContractRequest", "RommeRequest")
                    ],
                },
                **_request_schemas(),
                "CheckResult": {
                    "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in results]
                },
                **results,
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
