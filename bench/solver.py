"""Time the hand solver on a fixed corpus and print median, 99th percentile and maximum per task.

    .venv/bin/python bench/solver.py            # every task
    .venv/bin/python bench/solver.py classic    # tasks whose name contains "classic"

Pure Python on one core; the corpus is built with fixed seeds (bench/corpus_*.py), so runs
compare. It also times `checkhand --jsonl` on 1,000 classic hands, start-up included.
Figures only: nothing here fails on speed.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from rules.engine.check import check_hand  # noqa: E402


def corpus():
    tasks = []
    for module in ("corpus_classic", "corpus_contract"):
        try:
            tasks.extend(__import__(module).CORPUS)
        except ImportError as exc:
            print(f"(skipping {module}: {exc})")
    return tasks


def percentile(values, p):
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def time_task(requests):
    """CPU time per hand in ms (steady on a busy machine), and the wall-clock maximum."""
    check_hand(requests[0])  # warm-up: module imports are not the solver's time
    cpu, wall = [], []
    for request in requests:
        start, start_cpu = time.perf_counter(), time.process_time()
        check_hand(request)
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return cpu, wall


def time_jsonl(requests):
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "manage.py", "checkhand", "--jsonl"],
        cwd=ROOT,
        input=lines,
        capture_output=True,
        text=True,
        env={"SECRET_KEY": "bench", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    elapsed = time.perf_counter() - start
    answers = result.stdout.count("\n")
    return elapsed, answers


def main(argv):
    wanted = argv[1] if len(argv) > 1 else ""
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; CPU time per hand")
    print(f"{'task':32} {'hands':>6} {'median ms':>10} {'p99 ms':>9} {'max ms':>9} {'wall max':>9}")
    classic_16 = []
    for name, requests in corpus():
        if wanted not in name:
            continue
        if name.startswith("classic random"):
            classic_16 = requests
        times, wall = time_task(requests)
        print(
            f"{name:32} {len(times):6d} {statistics.median(times):10.3f} "
            f"{percentile(times, 99):9.3f} {max(times):9.3f} {max(wall):9.3f}"
        )
    if classic_16 and wanted in "checkhand --jsonl classic":
        batch = (classic_16 * (1000 // len(classic_16) + 1))[:1000]
        elapsed, answers = time_jsonl(batch)
        print(f"checkhand --jsonl: {answers} classic hands in {elapsed:.2f} s, start-up included")


if __name__ == "__main__":
    main(sys.argv)
