"""Every statement of a deal POST as a phone sends it: htmx, the live streams on, the phone
named already (its second write), production settings (bench/cpu.py's set-up).

    .venv/bin/python bench/statements.py [--db sqlite|postgres] [--deals 3] [--list]

On SQLite every statement the database runs is counted from the driver's own trace
(``sqlite3.Connection.set_trace_callback``): BEGIN, COMMIT and PRAGMA included, as the
connection and the cache issue them, and the viewers' answer kept after the commit with it.
On PostgreSQL the statements Django sends (``CaptureQueriesContext``; BEGIN is the driver's
own and not seen there). Savepoints are listed apart and not counted (issue 43). Printed: the
total, the transactions, how often the game's row was read, and, with ``--list``, each
statement. tests/scorepad/test_deal_post_queries.py pins the figure.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import cpu

SAVEPOINT = re.compile(r"^\s*(SAVEPOINT|RELEASE|ROLLBACK TO)\b", re.I)
GAME_READ = re.compile(r'^SELECT .* FROM "scorepad_game"', re.S)


def traced_post(db: str, deals: int) -> list[str]:
    """The statements of one deal POST after ``deals`` deals, the phone named already."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tests.factories import GameFactory, classic_form_data, record_classic
    from tests.scorepad.conftest import own

    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo", "Dan"])
    for n in range(deals):
        record_classic(game, n % 4)
    phone = own(Client(HTTP_HOST="127.0.0.1"), game)
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "game"}
    game.refresh_from_db()
    assert phone.post(url, classic_form_data(game, 0), **htmx).status_code == 200  # named
    game.refresh_from_db()
    statements: list[str] = []
    if db == "sqlite":
        connection.ensure_connection()
        raw = connection.connection
        raw.set_trace_callback(statements.append)
        try:
            response = phone.post(url, classic_form_data(game, 1), **htmx)
            response.content  # noqa: B018 - rendered once the view returned (LaterResponse)
        finally:
            raw.set_trace_callback(None)
    else:
        with CaptureQueriesContext(connection) as queries:
            response = phone.post(url, classic_form_data(game, 1), **htmx)
            response.content  # noqa: B018
        statements = [q["sql"] for q in queries.captured_queries]
    assert response.status_code == 200, response.status_code
    return statements


def sent(statements: list[str]) -> list[str]:
    """The statements run, without SQLite's trace of each trigger a statement fires (the
    change feed's, migration 0009): the trace names the statement again at the start of
    each trigger's program, the same text right after it."""
    out: list[str] = []
    for sql in statements:
        if out and sql == out[-1] and not sql.lstrip().upper().startswith(("SELECT", "PRAGMA")):
            continue
        out.append(sql)
    return out


def summary(statements: list[str]) -> dict[str, int]:
    counted = [s for s in sent(statements) if not SAVEPOINT.match(s)]
    kinds = Counter(s.split(None, 1)[0].upper() for s in counted)
    return {
        "statements": len(counted),
        "transactions": kinds["BEGIN"],
        "PRAGMA": kinds["PRAGMA"],
        "game row read": sum(bool(GAME_READ.match(s)) for s in counted),
        "session read": sum(
            'FROM "django_session"' in s and s.startswith("SELECT") for s in counted
        ),
        "savepoints (not counted)": sum(bool(SAVEPOINT.match(s)) for s in statements),
        "trigger programs traced (not counted)": len(statements) - len(sent(statements)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--list", action="store_true", help="print each statement")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        cpu.setup(args.db, data)
        statements = traced_post(args.db, args.deals)
    if args.list:
        for n, sql in enumerate(statements, start=1):
            print(f"{n:3} {' '.join(sql.split())[:160]}")
    for name, value in summary(statements).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
