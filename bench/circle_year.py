"""Time a circle's year (scorepad/stats.py ``circle_year``) over synthetic years of finished
games: a circle of 8 people, 4 to 6 at a table, 10 to 20 deals a game, three variants.

    .venv/bin/python bench/circle_year.py

Plain Python, no database (the page's queries are constant in the number of games;
tests/scorepad/test_circle_year.py pins that). Figures only: nothing is asserted."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorepad.stats import GameRecord, circle_year

VARIANTS = ("classic", "contract-nordic", "romme")


def synthetic_year(games: int, seed: int = 27) -> list[GameRecord]:
    draw = random.Random(seed)
    people = list(range(8))
    out = []
    for key in range(games):
        variant = VARIANTS[key % len(VARIANTS)]
        players = tuple(draw.sample(people, draw.randint(4, 6)))
        deals = []
        for _ in range(draw.randint(10, 20)):
            winner = draw.choice(players)
            if variant == "classic":
                pays = {p: -draw.randint(1, 30) for p in players if p != winner}
                deals.append({**pays, winner: -sum(pays.values())})
            else:
                deals.append({p: 0 if p == winner else draw.randint(5, 120) for p in players})
        out.append(GameRecord(key, variant, players, tuple(deals), True, evening=key // 4))
    return out


def main() -> None:
    for games in (50, 200, 1000):
        year = synthetic_year(games)
        runs = []
        for _ in range(5):
            started = time.perf_counter()
            circle_year(year)
            runs.append(time.perf_counter() - started)
        print(f"{games:5d} games: best {min(runs) * 1000:7.1f} ms, median "
              f"{sorted(runs)[2] * 1000:7.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
