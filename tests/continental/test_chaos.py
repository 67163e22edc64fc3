"""The short chaos run of bench/chaos.py (issue 21): six phones follow the outbox protocol
against a real gunicorn whose workers are killed (and, on PostgreSQL, whose connections
are ended); no acknowledged write is lost or doubled, and every phone's sheet equals the
server's and the model's. It runs on the database of this test run (SQLite, or PostgreSQL
with DATABASE_URL); and its check is shown to fail on a lost and on a doubled write."""

import sys
from pathlib import Path

import pytest
from django.db import connection

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import chaos

DATABASE = "postgres" if connection.vendor == "postgresql" else "sqlite"


def test_a_short_chaos_run_loses_and_doubles_no_acknowledged_write():
    name = connection.settings_dict["NAME"] or "scorepad"
    figures = chaos.run(
        DATABASE,
        phones=6,
        writes=6,
        seconds=20,
        kill_every=1.0,
        drop_every=0.7,
        workers=2,
        pg_db=f"{Path(str(name)).name.lower()}_chaos"[:60],
        collectstatic=False,
        quiet=True,
    )
    assert figures.problems == []
    assert (figures.lost, figures.doubled, figures.unacknowledged_saved) == (0, 0, 0)
    assert figures.acks > 0
    assert figures.kills > 0
    assert figures.left_in_outboxes == 0
    if DATABASE == "postgres":
        assert figures.drops > 0


def entry(n, op, **params):
    return chaos.Entry(op, "/", {}, f"token-{n}", 1, params=params)


@pytest.fixture
def acknowledged():
    chaos.ACKED.clear()
    writes = [entry(1, "record", went_out=0), entry(2, "record", went_out=2)]
    for write in writes:
        chaos.ACKED[write.once] = write
    yield writes
    chaos.ACKED.clear()


def truth_of(events, deals):
    pay = 11  # going out with no wild card, from each of the three others
    totals = [0, 0, 0, 0]
    for went_out in deals:
        totals = [t + (3 * pay if p == went_out else -pay) for p, t in enumerate(totals)]
    return {"events": events, "deals": deals, "totals": totals}


def event(pk, token, kind="recorded"):
    return {"pk": pk, "kind": kind, "form_token": token, "deal_number": None}


def test_the_check_passes_when_the_server_holds_every_acknowledged_write(acknowledged):
    truth = truth_of(
        [event(1, None, "created")] + [event(i + 2, w.once) for i, w in enumerate(acknowledged)],
        [0, 2],
    )
    figures = chaos.Figures()
    chaos.check(
        truth, [{"deals": [{"went_out": 0}, {"went_out": 2}], "totals": truth["totals"]}], figures
    )
    assert figures.problems == []
    assert figures.lost == 0


def test_the_check_fails_on_a_lost_acknowledged_write(acknowledged):
    truth = truth_of([event(2, acknowledged[0].once)], [0])
    figures = chaos.Figures()
    chaos.check(truth, [], figures)
    assert figures.lost == 1
    assert any("not in the history" in p for p in figures.problems)


def test_the_check_fails_on_a_doubled_write_and_on_a_phone_that_shows_another_sheet(
    acknowledged,
):
    once = acknowledged[0].once
    truth = truth_of([event(2, once), event(3, once), event(4, acknowledged[1].once)], [0, 0, 2])
    figures = chaos.Figures()
    chaos.check(truth, [{"deals": [{"went_out": 0}], "totals": [33, -11, -11, -11]}], figures)
    assert figures.doubled == 1
    assert any("differs from the server" in p for p in figures.problems)
