"""The hand-check API and the checker page never answer 500, whatever they are sent; the
OpenAPI document describes the answers the API really gives."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.engine.variants import VARIANT_IDS, VARIANTS
from rules.openapi import openapi_document

FUZZ = settings(
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# --- a small JSON Schema checker for the subset the document uses ----------------------------

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _resolve(doc: dict, schema: dict) -> dict:
    while "$ref" in schema:
        node: Any = doc
        for part in schema["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        schema = {**node, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def _same(value: Any, item: Any) -> bool:
    """JSON Schema equality: 30.0 is 30, but true is not 1."""
    numbers = int | float
    if isinstance(value, numbers) and isinstance(item, numbers):
        return isinstance(value, bool) == isinstance(item, bool) and value == item
    return value == item and type(value) is type(item)


def schema_errors(doc: dict, schema: dict, value: Any, where: str = "$") -> list[str]:
    """Why ``value`` does not match ``schema`` (empty when it does)."""
    schema = _resolve(doc, schema)
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not schema_errors(doc, s, value, where)]
        if len(matching) != 1:
            return [f"{where}: matches {len(matching)} of oneOf"]
    errors = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            return [f"{where}: {value!r} is not {schema['type']}"]
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        errors.append(f"{where}: {value!r} not in {schema['enum']}")
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        errors.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{where}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{where}: {value} > {schema['maximum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{where}: missing {key!r}")
        props = schema.get("properties", {})
        for key, item in value.items():
            if key in props:
                errors += schema_errors(doc, props[key], item, f"{where}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: unexpected {key!r}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += schema_errors(doc, schema["items"], item, f"{where}[{i}]")
    return errors


DOC = openapi_document()
RESPONSES = DOC["paths"]["/api/check"]["post"]["responses"]
RESULT_SCHEMA = RESPONSES["200"]["content"]["application/json"]["schema"]
ERROR_SCHEMA = {"$ref": "#/components/schemas/Error"}
REQUEST_SCHEMA = {"$ref": "#/components/schemas/CheckRequest"}


def post(client, body: bytes | str):
    return client.post("/api/check", data=body, content_type="application/json")


def assert_documented(response) -> Any:
    """The status is one the API may give (never 500), the body JSON matching the schema."""
    assert response.status_code in (200, 400, 413), response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    schema = RESULT_SCHEMA if response.status_code == 200 else ERROR_SCHEMA
    assert schema_errors(DOC, schema, body) == [], body
    return body


# --- the document ------------------------------------------------------------------------------


def test_the_openapi_document_is_served_without_a_language_prefix(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"].startswith("3.1")
    operation = doc["paths"]["/api/check"]["post"]
    assert set(operation["responses"]) == {"200", "400", "405", "413", "429"}
    schemas = doc["components"]["schemas"]
    assert [b["$ref"].rsplit("/", 1)[1] for b in schemas["CheckRequest"]["oneOf"]] == [
        "ClassicRequest",
        "ContractRequest",
        "RommeRequest",
    ]
    variants = set()
    for name in ("ClassicRequest", "ContractRequest", "RommeRequest"):
        for branch in schemas[name].get("oneOf", [schemas[name]]):
            variants.update(branch["properties"]["variant"]["enum"])
    assert variants == set(VARIANT_IDS)
    custom = schemas["ContractRequest"]["oneOf"][-1]["properties"]
    assert (custom["deal"]["minimum"], custom["deal"]["maximum"]) == (1, 20)
    assert custom["schedule"]["type"] == "array"
    assert client.post("/api/openapi.json").status_code == 405


def _branches(name):
    schema = DOC["components"]["schemas"][name]
    return schema.get("oneOf", [schema])


def test_every_option_of_every_variant_is_in_its_request_schema():
    seen = set()
    for name in ("ClassicRequest", "ContractRequest", "RommeRequest"):
        for branch in _branches(name):
            ids = branch["properties"]["variant"]["enum"]
            options = branch["properties"]["options"]["properties"]
            assert set(options) == {spec.name for vid in ids for spec in VARIANTS[vid].options}
            seen.update(options)
    assert seen == {spec.name for v in VARIANTS.values() for spec in v.options}


ROMME_16 = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"


@pytest.mark.parametrize(
    ("request_object", "status"),
    [
        # The schema and the answer agree, both ways.
        ({"variant": "romme", "cards": ROMME_16}, 400),
        ({"variant": "romme", "cards": ROMME_16.rsplit(" ", 1)[0]}, 200),
        ({"variant": "classic", "cards": ROMME_16, "deal": None}, 200),
        ({"variant": "classic", "cards": ROMME_16, "options": None}, 200),
        ({"variant": "classic", "cards": ROMME_16, "deal": 1}, 400),
        ({"variant": "classic", "cards": ROMME_16, "schedule": [{"cards": 1, "sets": 1}]}, 400),
        ({"variant": "classic", "cards": ROMME_16, "first_turn": "undrawn"}, 400),
        ({"variant": "classic", "cards": ROMME_16.split(), "first_turn": "drawn"}, 200),
        ({"variant": "classic", "cards": ROMME_16.lower().replace(" ", ",")}, 200),
        ({"variant": "contract-nordic", "cards": ROMME_16, "deal": None}, 400),
        ({"variant": "contract-nordic", "cards": ROMME_16, "deal": 1}, 200),
        ({"variant": "contract-nordic", "cards": ROMME_16, "deal": 8}, 400),
        ({"variant": "contract-spanish", "cards": ROMME_16, "deal": 7}, 200),  # 12 dealt
        ({"variant": "contract-spanish", "cards": ROMME_16[:35], "deal": 7}, 400),  # 12 cards
        ({"variant": "romme", "cards": ROMME_16[:-3], "options": {"opening_minimum": 30.0}}, 200),
        ({"variant": "romme", "cards": ROMME_16[:-3], "options": {"opening_minimum": " 40"}}, 200),
        ({"variant": "romme", "cards": ROMME_16[:-3], "options": {"twos_wild": True}}, 400),
        (
            {
                "variant": "contract-spanish",
                "cards": ROMME_16,
                "deal": 1,
                "schedule": [{"cards": 10, "runs": 2}],
            },
            200,
        ),
        (
            {
                "variant": "contract-spanish",
                "cards": ROMME_16,
                "deal": 1,
                "schedule": [{"cards": 10, "sets": 0, "runs": 0}],
            },
            400,
        ),
    ],
)
def test_a_request_is_answered_200_exactly_when_the_schema_allows_it(
    client, request_object, status
):
    valid = schema_errors(DOC, REQUEST_SCHEMA, request_object) == []
    response = post(client, json.dumps(request_object))
    assert response.status_code == status, response.json()
    assert valid == (status == 200)


def test_the_api_page_links_to_the_openapi_document(client):
    response = client.get("/en/api/")
    assert response.status_code == 200
    assert 'href="/api/openapi.json"' in response.content.decode()


REAL_REQUESTS = [
    {"variant": "classic", "cards": "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"},
    {"variant": "classic", "cards": "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH"},
    {
        "variant": "classic",
        "cards": "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH 2C",
        "options": {"twos_wild": False},
        "first_turn": "drawn",
    },
    {"variant": "contract-nordic", "cards": "4S 5S 6S 7S 9H 10H JH QH 2C 3C AH KD 5D", "deal": 3},
    {
        "variant": "contract-spanish",
        "cards": "4S 9S 6H 7D 9H KH JC QC 2C 3D AS KD 5D",
        "deal": 7,
        "schedule": [{"cards": 8, "sets": 1, "runs": 1}] * 7,
    },
    {"variant": "romme", "cards": "AH 2H 3H 4H 5H KS KH KD 9C 9D JK 10S 7C 8C 4D"},
    {
        "variant": "romme",
        "cards": "AH 2H 3H 4H 5H KS KH KD 9C 9D JK 10S 7C 8C 4D",
        "options": {"opening_minimum": 30},
    },
]


@pytest.mark.parametrize("request_object", REAL_REQUESTS, ids=lambda r: r["variant"])
def test_real_answers_match_the_schema_of_their_variant(client, request_object):
    assert schema_errors(DOC, REQUEST_SCHEMA, request_object) == []
    response = post(client, json.dumps(request_object))
    assert response.status_code == 200
    body = assert_documented(response)
    kind = {"classic": "ClassicResult", "romme": "RommeResult"}.get(
        request_object["variant"], "ContractResult"
    )
    schema = DOC["components"]["schemas"][kind]
    assert schema_errors(DOC, schema, body) == []
    assert set(schema["required"]) <= set(body)


def test_the_checker_agrees_with_the_schema_on_bad_answers():
    bad = {"variant": "classic", "cards": "AS", "melds": [], "discard": None}
    assert schema_errors(DOC, RESULT_SCHEMA, bad)  # classic fields missing
    assert schema_errors(DOC, ERROR_SCHEMA, {"error": 3})


@pytest.mark.parametrize(
    ("body", "status"),
    [(b"null", 400), (b"x" * (16 * 1024 + 1), 413), (json.dumps({"variant": "x"}), 400)],
)
def test_error_answers_match_the_error_schema(client, body, status):
    response = post(client, body)
    assert response.status_code == status
    assert_documented(response)


# --- fuzzing the API ---------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "1", "0", "11"]
SUITS = ["S", "H", "D", "C", "s", "h", "♠", "♥", "♦", "♣", "♤", "♡", "X", ""]
card_tokens = st.one_of(
    st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS)),
    st.sampled_from(["JK", "jk", "joker", "Joker", "🃏", "★", "10♥", "D♥", "B♣", "W"]),
    st.text(max_size=4),
)
card_strings = st.builds(
    lambda tokens, sep: sep.join(tokens),
    st.lists(card_tokens, max_size=40),
    st.sampled_from([" ", ",", ", ", "  ", "\t", ";", "\n", "\u00a0", ""]),
)
huge_numbers = st.sampled_from([10**30, -(10**30), 2**63, -(2**63) - 1, 10**4000])
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    huge_numbers,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    card_strings,
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=10), children, max_size=5),
    ),
    max_leaves=20,
)
schedule_rows = st.one_of(
    st.fixed_dictionaries(
        {"cards": st.integers(-3, 25)},
        optional={
            "sets": st.integers(-1, 4),
            "runs": st.integers(-1, 4),
            "set_min": st.integers(0, 15),
            "run_min": st.integers(0, 15),
        },
    ),
    st.dictionaries(
        st.sampled_from(["cards", "sets", "runs", "set_min", "run_min", "x"]), json_values
    ),
    json_values,
)
option_values = st.one_of(
    st.booleans(),
    st.sampled_from([30, 40, 51, "40", " 51 ", "true", "off", "ON", 51.0, 0]),
    json_values,
)
option_names = st.sampled_from(
    [*sorted({spec.name for v in VARIANTS.values() for spec in v.options}), "colour", ""]
)
requests = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.one_of(st.sampled_from([*VARIANT_IDS, "Classic", "", "poker"]), json_values),
        "cards": st.one_of(card_strings, st.lists(card_tokens, max_size=20), json_values),
        "deal": st.one_of(
            st.integers(-2, 25), huge_numbers, st.sampled_from(["3", 3.0, True]), json_values
        ),
        "options": st.one_of(st.dictionaries(option_names, option_values, max_size=4), json_values),
        "first_turn": st.one_of(st.sampled_from([None, "drawn", "undrawn", "DRAWN"]), json_values),
        "schedule": st.one_of(st.lists(schedule_rows, max_size=22), json_values),
        "extra": json_values,
    },
)


@FUZZ
@given(request_object=requests)
@example({"variant": "contract-nordic", "cards": "AS", "deal": 1, "schedule": [{"cards": 1e999}]})
@example({"variant": "contract-nordic", "cards": "AS", "deal": 1, "schedule": [{"cards": "1e3"}]})
@example({"variant": "classic", "cards": ["AS", {"a": [1]}, None]})
@example({"variant": "romme", "cards": "A♥ 2♥ 3♥ 4♥ 5♥ K♠ K♥ K♦ 9♣ 9♦ JK 10♠ 7♣ 8♣ 4♦"})
def test_any_request_object_gets_200_or_400_never_500(request_object):
    client = Client(raise_request_exception=False)
    body = json.dumps(request_object)  # Infinity/NaN as Python's json writes and reads them
    if len(body) > 16 * 1024:
        body = body[: 16 * 1024]
    assert_documented(post(client, body))


@FUZZ
@given(value=json_values)
@example("[" * 5000 + "]" * 5000)
@example('{"a":' * 3000 + "1" + "}" * 3000)
def test_any_json_value_gets_an_answer_never_500(value):
    client = Client(raise_request_exception=False)
    body = value if isinstance(value, str) else json.dumps(value)
    assert_documented(post(client, body[: 20 * 1024]))


@FUZZ
@given(body=st.binary(max_size=2000))
@example(b"\xff\xfe{}")
@example(b'{"variant": "classic", "cards": "\xed\xa0\x80"}')
@example(b"1" * 5000)
@example(b"[" * 16000)
def test_any_bytes_get_an_answer_never_500(body):
    client = Client(raise_request_exception=False)
    assert_documented(post(client, body))


# --- fuzzing the hand checker page -------------------------------------------------------------

QUERY_KEYS = [
    "variant",
    "cards",
    "deal",
    "schedule",
    "options",
    "first_turn",
    "add",
    "remove",
    "type",
    "clear",
    "twos_wild",
    "opening_minimum",
    "handromme_doubles",
    "ace_low_is_one",
    "x",
]
query_values = st.one_of(
    st.sampled_from([*VARIANT_IDS, "1", "7", "21", "0", "-1", "²", "drawn", "true", "{}", "[]"]),
    card_strings,
    st.text(max_size=40),
    json_values.map(lambda v: json.dumps(v)[:2000]),
    st.just("[" * 3000),
    st.just("9" * 5000),
)
query_pairs = st.lists(
    st.tuples(st.one_of(st.sampled_from(QUERY_KEYS), st.text(max_size=8)), query_values),
    max_size=10,
)
raw_junk = st.sampled_from(["%", "%ZZ", "%FF%FE", "%ED%A0%80", "a=%00", "&&==", ";;", "+%2B"])


def _query(pairs, junk) -> str:
    parts = [
        f"{quote(k, safe='', errors='surrogatepass')}={quote(v, safe='', errors='surrogatepass')}"
        for k, v in pairs
    ]
    return "&".join(parts + junk)


@FUZZ
@given(
    pairs=query_pairs,
    junk=st.lists(raw_junk, max_size=2),
    htmx=st.booleans(),
    lang=st.sampled_from(["en", "de", "pl"]),
)
@example(
    pairs=[
        ("variant", "contract-spanish"),
        ("deal", "20"),
        ("schedule", json.dumps([{"cards": 20, "sets": 1}] * 20)),
    ],
    junk=[],
    htmx=False,
    lang="en",
)
def test_the_checker_page_answers_any_query_without_a_500(pairs, junk, htmx, lang):
    client = Client(raise_request_exception=False)
    headers = {"HX-Request": "true", "HX-Target": "check-result"} if htmx else {}
    response = client.get(f"/{lang}/check/?{_query(pairs, junk)}", headers=headers)
    assert response.status_code < 500, response.content[:500]
