"""Record what ``POST /api/check`` answers, byte for byte, for a varied fixed set of requests.

    .venv/bin/python tests/rules/data/record_check_answers.py

writes ``check_answers.jsonl`` next to it: one line per request, ``{"request", "status",
"body"}`` with the body exactly as the API sent it. ``tests/rules/test_check_answers.py``
asks the API again and compares. Run it only when an answer is meant to change (then read
the difference); it was first run before the engine's results became typed (issue 26).
The requests: every 40th hand of the benchmark corpora (bench/corpus_*.py, fixed seeds: all
three families, wild cards and jokers), the same hands with other options and settings, and
bad requests of every kind.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
os.environ["RATE_LIMIT"] = "0"  # hundreds of requests from one client
os.environ.setdefault("DEBUG", "1")

RULES_EXAMPLE = "4S 5S 6S 7S 9H 10H JH QH 10C JC QC KC AD 3D KH JK"
SCHEDULE = [{"cards": 8, "sets": 2, "runs": 0}, {"cards": 10, "sets": 1, "runs": 1, "run_min": 3}]

BAD = [
    None,
    [],
    "cards",
    {"variant": "poker", "cards": "AS"},
    {"variant": "classic", "cards": "AS ZZ"},
    {"variant": "classic", "cards": 3},
    {"variant": "classic", "cards": "AS 2S 3S"},
    {"variant": "classic", "cards": "AS 2S 3S", "first_turn": "drawn"},
    {"variant": "classic", "cards": "AS " * 16},
    {"variant": "classic", "cards": RULES_EXAMPLE, "first_turn": "soon"},
    {"variant": "classic", "cards": RULES_EXAMPLE, "colour": 1},
    {"variant": "classic", "cards": RULES_EXAMPLE, "options": {"twos_wild": 3}},
    {"variant": "classic", "cards": RULES_EXAMPLE, "options": {"colour": 1}},
    {"variant": "classic", "cards": RULES_EXAMPLE, "players": 1},
    {"variant": "classic", "cards": RULES_EXAMPLE, "players": True},
    {"variant": "classic", "cards": RULES_EXAMPLE, "seen": 5},
    {"variant": "classic", "cards": RULES_EXAMPLE, "seen": "JK JK JK JK"},
    {"variant": "classic", "cards": RULES_EXAMPLE, "deal": 1},
    {"variant": "romme", "cards": "AS 2S 3S"},
    {"variant": "romme", "cards": "AS", "deal": 1},
    {"variant": "romme", "cards": RULES_EXAMPLE[:-3], "first_turn": "drawn"},
    {"variant": "romme", "cards": RULES_EXAMPLE[:-3], "players": 4},
    {"variant": "romme", "cards": RULES_EXAMPLE[:-3], "schedule": SCHEDULE},
    {"variant": "contract-nordic", "cards": "AS " * 13},
    {"variant": "contract-nordic", "cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "deal": 9},
    {"variant": "contract-nordic", "cards": "AS", "deal": 1},
    {"variant": "contract-nordic", "cards": "AS", "deal": 1, "schedule": []},
    {"variant": "contract-spanish", "cards": "JK " * 9, "deal": 3, "schedule": SCHEDULE},
    {"variant": "contract-spanish", "cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S", "deal": 1,
     "options": {"no_may_i_last_three": True}},
]


def requests() -> list[object]:
    import corpus_classic
    import corpus_contract

    out: list[object] = []
    for module in (corpus_classic, corpus_contract):
        for _name, batch in module.CORPUS:
            out.extend(batch[::40])
    varied: list[object] = []
    for request in out:
        assert isinstance(request, dict)
        if request["variant"] == "classic":
            cards = request["cards"]
            varied.append({**request, "options": {"twos_wild": False}})
            n = len(cards.split())
            if n == 16:
                varied.append({**request, "first_turn": "drawn"})
            else:
                varied.append({**request, "first_turn": "undrawn", "players": 7})
                varied.append({**request, "seen": "JK 2S 2H", "players": 3})
        elif request["variant"] == "romme":
            varied.append({**request, "options": {"opening_minimum": "30", "handromme_doubles": True,
                                                  "ace_low_is_one": "on"}})
    named: list[object] = [
        {"variant": "classic", "cards": RULES_EXAMPLE},
        {"variant": "classic", "cards": RULES_EXAMPLE.split()},
        {"variant": "classic", "cards": RULES_EXAMPLE[:-3]},
        {"variant": "classic", "cards": RULES_EXAMPLE[:-3], "seen": ["2S", "jk"], "players": 6},
        {"variant": "classic", "cards": "th js qs ks as 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ JK"},
        {"variant": "contract-spanish", "cards": "7S 7H 7D 8S 8H 8D KC", "deal": 1},
        {"variant": "contract-nordic", "cards": "7S 7H 7D 8S 8H 8D 9C 9S 9H JK 2C 3C 4C",
         "deal": 2, "options": {"no_may_i_last_three": "off"}},
        {"variant": "contract-spanish", "cards": "7S 7H 7D 8S 8H 8D JK", "deal": 1,
         "schedule": [{"cards": 6, "sets": 2}]},
        {"variant": "contract-nordic", "cards": "AS 2S 3S 4S KH KD KC JK 9D 9H", "deal": 2,
         "schedule": SCHEDULE},
    ]
    return named + out + varied + BAD


def answer(client, request: object) -> dict[str, object]:
    response = client.post("/api/check", data=json.dumps(request), content_type="application/json")
    return {"request": request, "status": response.status_code, "body": response.content.decode()}


def main() -> None:
    import django

    django.setup()
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host is allowed
    client = Client()
    path = Path(__file__).with_name("check_answers.jsonl")
    with path.open("w", encoding="utf-8") as out:
        for request in requests():
            out.write(json.dumps(answer(client, request), ensure_ascii=False) + "\n")
    print(f"{len(path.read_text().splitlines())} answers written to {path}")


if __name__ == "__main__":
    main()
