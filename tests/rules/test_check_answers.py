"""The API answers, byte for byte, as it did before the engine's results were typed.

tests/rules/data/check_answers.jsonl was recorded by record_check_answers.py beside it (435
requests: the three families, wild cards and jokers, options, seen cards and players,
custom schedules, and bad requests of every kind). ``checkhand`` and the typed result
give the same answers.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from rules.engine.check import CheckError, check

RECORDED = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "check_answers.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
]


def test_the_recording_covers_every_family_wild_cards_and_errors():
    variants = {r["request"]["variant"] for r in RECORDED if r["status"] == 200}
    assert variants == {"classic", "contract-nordic", "contract-spanish", "romme"}
    bodies = [json.loads(r["body"]) for r in RECORDED]
    assert any(p["card"] != p["as"] for b in bodies for meld in b.get("melds", []) for p in meld)
    assert sum(r["status"] == 400 for r in RECORDED) >= 30
    assert any(b.get("outs") for b in bodies)
    assert any(b.get("goes_out") for b in bodies)


def test_the_api_answers_every_recorded_request_byte_for_byte(client):
    for recorded in RECORDED:
        response = client.post(
            "/api/check", data=json.dumps(recorded["request"]), content_type="application/json"
        )
        assert (response.status_code, response.content.decode()) == (
            recorded["status"],
            recorded["body"],
        ), recorded["request"]


def test_checkhand_prints_the_recorded_answers(monkeypatch):
    lines = "".join(json.dumps(r["request"]) + "\n" for r in RECORDED[:120])
    monkeypatch.setattr("sys.stdin", StringIO(lines))
    out = StringIO()
    call_command("checkhand", "--jsonl", stdout=out)
    printed = [json.loads(line) for line in out.getvalue().splitlines()]
    assert printed == [json.loads(r["body"]) for r in RECORDED[:120]]


@pytest.mark.parametrize("recorded", [r for r in RECORDED if r["status"] == 200][::7])
def test_the_typed_result_holds_what_the_api_writes(recorded):
    result = check(recorded["request"])
    body = json.loads(recorded["body"])
    assert result.as_json() == body
    assert [[p.card.code for p in meld.placed] for meld in result.melds] == [
        [p["card"] for p in meld] for meld in body["melds"]
    ]
    assert (result.discard.code if result.discard else None) == body["discard"]


def test_a_refused_request_raises_the_recorded_message():
    for recorded in [r for r in RECORDED if r["status"] == 400]:
        with pytest.raises(CheckError) as caught:
            check(recorded["request"])
        assert json.loads(recorded["body"]) == {"error": str(caught.value)}


def test_every_recorded_answer_matches_the_generated_schemas_and_only_its_own():
    import jsonschema_rs

    from rules.openapi import openapi_document

    doc = openapi_document()

    def validator(name):
        return jsonschema_rs.Draft202012Validator({**doc, "$ref": f"#/components/schemas/{name}"})

    result, error = validator("CheckResult"), validator("Error")
    own = {
        "classic": "ClassicResult",
        "contract-nordic": "ContractResult",
        "contract-spanish": "ContractResult",
        "romme": "RommeResult",
    }
    families = {name: validator(name) for name in set(own.values())}
    for recorded in RECORDED:
        body = json.loads(recorded["body"])
        if recorded["status"] != 200:
            assert error.is_valid(body)
            continue
        assert result.is_valid(body), list(result.iter_errors(body))[:3]
        for name, family in families.items():
            assert family.is_valid(body) == (name == own[body["variant"]])
        # exactly: a field more, or one missing, is refused
        assert not result.is_valid({**body, "extra": 1})
        assert not result.is_valid({k: v for k, v in body.items() if k != "melds"})
