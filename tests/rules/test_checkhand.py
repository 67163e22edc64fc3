import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "manage.py", "checkhand", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        env={"SECRET_KEY": "x", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--variant", "classic", "AS XX"], "“XX” is not a card."),
        (["--variant", "whist", "AS"], "unknown variant"),
        (["--variant", "classic"], "give --variant and the cards"),
        (["--variant", "classic", "--option", "twos_wild", "AS"], "NAME=VALUE"),
        (["--variant", "contract-spanish", "--deal", "8", "AS " * 7], "deal must be"),
        (["--variant", "romme", "--option", "opening_minimum=²", "AS"], "opening_minimum"),
        (
            [
                "--variant",
                "classic",
                "--players",
                "1",
                "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH",
            ],
            "for 2 to 12 players, not 1",
        ),
    ],
)
def test_bad_arguments_exit_with_status_2_and_a_clear_message(args, fragment):
    result = run(*args)
    assert result.returncode == 2
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_jsonl_gives_each_bad_line_its_own_error_and_goes_on():
    lines = "\n".join(
        [
            "not json",
            json.dumps({"variant": "classic", "cards": "AS QQ"}),
            json.dumps({"variant": "nope", "cards": "AS"}),
        ]
    )
    result = run("--jsonl", stdin=lines + "\n")
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 3
    assert all(set(o) == {"error"} for o in out)
    assert "“QQ” is not a card." in out[1]["error"]
    assert "unknown variant" in out[2]["error"]


def test_one_hand_prints_one_json_object_equal_to_the_api_answer(client):
    hand = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"
    result = run("--variant", "classic", hand)
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    api = client.post(
        "/api/check",
        data=json.dumps({"variant": "classic", "cards": hand}),
        content_type="application/json",
    ).json()
    assert printed == api
    assert printed["payment"] == 3


def test_jsonl_answers_every_line_in_order():
    hands = [
        {"variant": "classic", "cards": "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"},
        {"variant": "classic", "cards": "AS"},
        {"variant": "classic", "cards": "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH"},
    ]
    result = run("--jsonl", stdin="".join(json.dumps(h) + "\n" for h in hands))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o.get("payment") for o in out] == [3, None, None]
    assert "error" in out[1]
    assert out[2]["waits"] == ["2S", "2H", "2D", "2C", "JK"]


def test_jsonl_keeps_identical_twos_apart_like_the_api():
    # issue 15: without the rule the first hand went out with 2♠(=Q♠) 2♠(=K♠) A♠
    hand = "AS 2S 2S 5S 6S 7S 4H 5H 6H 7D 8D 9D 9C 10C JC"
    hands = [{"variant": "classic", "cards": hand}, {"variant": "classic", "cards": hand + " 8H"}]
    result = run("--jsonl", stdin="".join(json.dumps(h) + "\n" for h in hands))
    assert result.returncode == 0, result.stderr
    refused, accepted = [json.loads(line) for line in result.stdout.splitlines()]
    assert refused["goes_out"] is False
    assert "3S" in refused["waits"]
    assert accepted["goes_out"] is True
    assert accepted["discard"] == "AS"
    assert all(sum(p["card"] == "2S" for p in meld) <= 1 for meld in accepted["melds"])


def test_seen_cards_and_players_set_the_outs():
    hand = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH"
    result = run("--variant", "classic", "--seen", "2S 2S JK", "--players", "6", hand)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["outs"] == {"2S": 1, "2H": 3, "2D": 3, "2C": 3, "JK": 2}
