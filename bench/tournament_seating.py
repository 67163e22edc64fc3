"""Time the seating that keeps pairs apart (rules/engine/tournament.py, seat_apart) over a
whole tournament and count the pairs that meet again.

    .venv/bin/python bench/tournament_seating.py                     # 400 players, 5 series
    .venv/bin/python bench/tournament_seating.py --players 13 --series 7 --variant romme

Series 1 is drawn from the seed; every later series is seated apart, the players in the order
of the running result (each table's game played out with totals from the seed, so runs
compare). For each series it prints the time of seat_apart and the repeated pairs so far
(the meetings beyond each pair's first), beside those the seating by the result would have
added. Pure Python on one core; figures only: nothing here fails on speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.engine.tournament import (
    TableResult,
    draw,
    rank,
    repeated_pairs,
    seat_apart,
    seat_by_result,
)
from rules.engine.variants import CLASSIC, VARIANT_IDS, get_variant


def played(seating, variant, rng: random.Random) -> list[TableResult]:
    """Each table's game with made-up totals: penalties, or the classic game's balances."""
    results = []
    for table in seating.tables:
        if variant.id == CLASSIC:
            totals = [rng.randint(-40, 40) for _ in table[1:]]
            totals.insert(0, -sum(totals))
        else:
            totals = [rng.randrange(0, 300, 5) for _ in table]
        results.append(TableResult(dict(zip(table, totals, strict=True))))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--series", type=int, default=5)
    parser.add_argument("--variant", choices=VARIANT_IDS, default="romme")
    parser.add_argument("--seed", default="400400")
    args = parser.parse_args()

    variant = get_variant(args.variant)
    players = list(range(1, args.players + 1))
    rng = random.Random(args.seed)
    history = [draw(players, variant, args.seed)]
    results = [played(history[0], variant, rng)]
    sizes = [len(t) for t in history[0].tables]
    print(f"{args.players} players, {args.variant}, tables {min(sizes)}-{max(sizes)}")
    print(f"series 1: drawn, seed {args.seed}")
    slowest = 0.0
    for series in range(2, args.series + 1):
        order = rank(players, results, variant, args.seed).players
        start = time.perf_counter()
        seating = seat_apart(order, variant, history, args.seed, series)
        seconds = time.perf_counter() - start
        slowest = max(slowest, seconds)
        by_result = repeated_pairs([*history, seat_by_result(order, variant)])
        history.append(seating)
        results.append(played(seating, variant, rng))
        print(
            f"series {series}: seat_apart {seconds:.3f} s, repeated pairs so far "
            f"{repeated_pairs(history)} (by the result it would be {by_result})"
        )
    print(f"slowest seat_apart: {slowest:.3f} s; repeated pairs: {repeated_pairs(history)}")


if __name__ == "__main__":
    main()
