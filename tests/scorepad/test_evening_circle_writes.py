"""Evening and circle writes answered as game writes are, by the one write helper
(views/writes.py): htmx gets the part of the page it swaps (the change and its message in
it, as the page shows it now), a form posted without JavaScript a redirect, a phone's
outbox JSON. Every write is sent from two phones, stale, twice (an answer lost: sent again)
and through a database connection that drops. Run on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from scorepad.evenings import build_evening
from scorepad.models import Circle, Evening, Event, Game, Person
from tests.factories import ACTOR, CircleFactory
from tests.scorepad.conftest import own
from tests.scorepad.test_concurrency import run_together
from tests.scorepad.test_grant_table import finished

OUTBOX = {"HTTP_X_SCOREPAD_OUTBOX": "1"}
HTMX = {"HTTP_HX_REQUEST": "true"}
WRITES = [
    "evening-add",
    "evening-remove",
    "evening-carry",
    "circle-rename",
    "circle-merge",
    "circle-separate",
]


@dataclass
class Write:
    """One write of an evening's or a circle's page, ready to send: its thing, the page's
    URL name, its fields (without version and token), what a person sees once it is done
    and its entry in the page's history."""

    thing: Evening | Circle
    route: str
    fields: dict
    shows: str
    history: str

    @property
    def part(self) -> str:
        return "evening" if isinstance(self.thing, Evening) else "circle"

    def url(self) -> str:
        return reverse(self.route, kwargs={"token": self.thing.editor_token})

    def page(self) -> str:
        return reverse(self.part, kwargs={"token": self.thing.editor_token})

    def data(self, once: str, version: int | None = None) -> dict:
        self.thing.refresh_from_db()
        at = self.thing.version if version is None else version
        return {"version": str(at), "once": once, **self.fields}

    def fingerprint(self):
        """What the write changes: the thing's version, its history, its games or people."""
        thing = type(self.thing).objects.get(pk=self.thing.pk)
        if isinstance(thing, Evening):
            rows = sorted(thing.games.values_list("game_id", "stake"))
            return thing.version, thing.events.count(), rows, Evening.objects.count()
        people = sorted(Person.objects.filter(circle=thing).values_list("name", "merged_into"))
        return thing.version, thing.events.count(), people


def make(route: str) -> Write:
    if route.startswith("evening"):
        first = finished(["Anna", "Ben", "Cleo"])
        second = finished(["Anna", "Ben", "Cleo"])
        evening = Evening.objects.create(name="Friday", stake="0.10")
        evening.start(actor=ACTOR)
        evening.add_game(first, evening.stake, version=evening.version, once=None, actor=ACTOR)
        if route == "evening-add":
            fields = {"game": second.editor_token, "stake": "0.20"}
            return Write(evening, route, fields, "The game was added to the evening.", "Game added")
        if route == "evening-remove":
            fields = {"game": str(first.pk)}
            shows = "The game was taken out of the evening."
            return Write(evening, route, fields, shows, "Game taken out")
        return Write(evening, route, {}, "The balances were carried", "Balances carried")
    circle = CircleFactory(name="Tuesdays")
    circle.start(actor=ACTOR)
    finished(["Anna", "Ben", "Cleo"], circle=circle)
    finished(["Anna", "Ben", "Cleopatra"], circle=circle)
    circle.refresh_from_db()
    anna, cleo, cleopatra = (circle.find(n) for n in ("Anna", "Cleo", "Cleopatra"))
    if route == "circle-rename":
        fields = {"person": str(anna.pk), "name": "Annie"}
        shows = "Anna is now called Annie in the circle."
        return Write(circle, route, fields, shows, "Person renamed: Anna → Annie")
    if route == "circle-merge":
        fields = {"person": str(cleo.pk), "into": str(cleopatra.pk)}
        shows = "Cleo and Cleopatra are one person now"
        return Write(circle, route, fields, shows, "Two people merged: Cleo → Cleopatra")
    circle.merge(cleo.pk, cleopatra.pk, version=circle.version, once=None, actor=ACTOR)
    shows = "Cleo is their own person again."
    return Write(circle, route, {"person": str(cleo.pk)}, shows, "People separated again")


@pytest.fixture(params=WRITES)
def write(request, db) -> Write:
    return make(request.param)


def another_phones_change(write: Write) -> None:
    """Another phone saves a change of the same thing first (it replaces the viewer link)."""
    kind = write.part
    answer = Client().post(
        reverse(f"{kind}-link", kwargs={"token": write.thing.editor_token}),
        {"version": write.thing.version, "once": "other-phone-0123456789", "link": "viewer"},
    )
    assert answer.status_code == 302
    write.thing.refresh_from_db()


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def without_tokens(html: str) -> str:
    """A page's part with what differs between two renderings of the same state left out:
    the one-time tokens of its forms, the CSRF token, the messages of the answer."""
    html = re.sub(r'name="(once|csrfmiddlewaretoken)" value="[^"]*"', "", html)
    html = re.sub(r'(?s)<div class="messages".*?</div>', "", html)
    return re.sub(r"\s+", " ", html)


# --- htmx: the part of the page, with the change and its message --------------------------


def test_htmx_gets_the_part_it_swaps_with_the_change_and_its_message(write):
    before = write.fingerprint()
    phone = Client()
    answer = phone.post(write.url(), write.data("htmx-write-0123456789"), **HTMX)
    if write.route == "evening-carry":  # the next evening is another page: htmx loads it
        assert answer.status_code == 200
        nxt = Evening.objects.exclude(pk=write.thing.pk).get()
        assert answer["HX-Redirect"] == reverse("evening", kwargs={"token": nxt.editor_token})
        return
    assert answer.status_code == 200
    body = answer.content.decode()
    assert body.lstrip().startswith(f'<div id="{write.part}"'), body[:200]
    assert "<html" not in body
    assert write.shows in text(body)
    history = re.search(r'(?s)<ul class="history">.*?</ul>', body)
    assert history, "the history is part of what htmx swaps in"
    assert write.history in text(history.group(0))
    assert write.fingerprint()[0] == before[0] + 1
    # What it swaps in is what the page's part shows now.
    fresh = phone.get(write.page(), **HTMX).content.decode()
    assert without_tokens(body) == without_tokens(fresh)


def test_without_javascript_the_form_posts_and_the_page_shows_the_change(write):
    phone = Client()
    answer = phone.post(write.url(), write.data("plain-write-0123456789"), follow=True)
    assert answer.status_code == 200
    assert write.shows in text(answer.content.decode())
    assert "<html" in answer.content.decode()


def test_a_stale_form_through_htmx_shows_the_fresh_part_with_a_note(write):
    stale = write.data("stale-htmx-0123456789")
    another_phones_change(write)
    before = write.fingerprint()
    answer = Client().post(write.url(), stale, **HTMX)
    assert answer.status_code == 200  # htmx swaps only what answers 2xx
    body = answer.content.decode()
    assert body.lstrip().startswith(f'<div id="{write.part}"')
    assert f"The {write.part} changed while you were on this page" in text(body)
    assert write.fingerprint() == before


def test_a_page_opened_with_htmx_is_its_part_and_opened_plainly_the_whole_page(write):
    htmx = Client().get(write.page(), **HTMX).content.decode()
    plain = Client().get(write.page()).content.decode()
    assert htmx.lstrip().startswith(f'<div id="{write.part}"')
    assert 'id="table-bar"' not in htmx
    assert 'id="table-bar"' in plain
    assert f'data-part="{write.part}"' in plain


# --- the outbox: kept on a phone, sent later ----------------------------------------------


def send(client: Client, write: Write, data: dict):
    answer = client.post(write.url(), data, **OUTBOX)
    assert answer["Content-Type"] == "application/json", answer.content[:200]
    return answer.status_code, answer.json()


def test_a_kept_write_is_saved_and_sent_again_it_happens_once(write):
    before = write.fingerprint()
    data = write.data("kept-once-0123456789")
    status, answer = send(Client(), write, data)
    assert (status, answer["outcome"]) == (200, "saved")
    assert write.shows in answer["message"]
    after = write.fingerprint()
    assert after[0] == answer["version"] == before[0] + 1
    # The answer was lost on the way: the phone sends the same write again.
    status, again = send(Client(), write, data)
    assert (status, again["outcome"]) == (200, "already")
    assert write.fingerprint() == after


def test_a_kept_write_meets_another_phones_change_as_a_conflict(write):
    kept = write.data("kept-stale-0123456789")  # made on phone A without a connection
    another_phones_change(write)  # phone B, online
    before = write.fingerprint()
    status, answer = send(Client(), write, kept)
    assert (status, answer["outcome"]) == (409, "conflict")
    assert "another phone saved a change" in answer["message"]
    assert answer["version"] == before[0]
    assert write.fingerprint() == before


def test_a_kept_write_leaves_no_message_for_the_next_page(write):
    phone = Client()
    send(phone, write, write.data("kept-quiet-0123456789"))
    page = phone.get(write.page()).content.decode()
    assert write.shows not in text(page)


def test_a_kept_write_without_its_version_is_refused_and_changes_nothing(write):
    before = write.fingerprint()
    data = write.data("kept-nover-0123456789")
    data["version"] = ""
    status, answer = send(Client(), write, data)
    assert (status, answer["outcome"]) == (422, "invalid")
    assert answer["message"] == "The form was incomplete; nothing was changed."
    assert write.fingerprint() == before


@pytest.mark.parametrize(
    ("route", "field", "value", "says"),
    [
        ("circle-rename", "name", "ben", "Ben is someone else of the circle"),
        ("evening-add", "stake", "lots", "Write the amount with at most two decimals"),
    ],
)
def test_a_kept_write_with_a_mistake_is_refused_with_its_reason(db, route, field, value, says):
    write = make(route)
    before = write.fingerprint()
    data = {**write.data("kept-mistake-0123456789"), field: value}
    status, answer = send(Client(), write, data)
    assert (status, answer["outcome"]) == (422, "invalid")
    assert says in answer["message"]
    assert write.fingerprint() == before


def test_a_kept_write_through_a_viewer_link_changes_nothing(write):
    before = write.fingerprint()
    url = reverse(write.route, kwargs={"token": write.thing.viewer_token})
    answer = Client().post(url, write.data("kept-viewer-0123456789"), **OUTBOX)
    assert answer.status_code == 403
    assert write.fingerprint() == before


# --- two tabs and a dropped connection: real transactions ---------------------------------


@pytest.fixture(params=WRITES)
def committed(request, transactional_db) -> Write:
    """A write whose requests commit their own transactions, as served."""
    return make(request.param)


def test_two_tabs_sending_the_same_kept_write_at_once_save_it_once(committed):
    write = committed
    before = write.fingerprint()
    data = write.data("two-tabs-0123456789")

    def sending(_i):
        answer = Client().post(write.url(), data, **OUTBOX)
        return answer.json()["outcome"]

    outcomes = run_together(3, sending)
    assert sorted(outcomes) == ["already", "already", "saved"]
    assert write.fingerprint()[:2] == (before[0] + 1, before[1] + 1)


def test_a_connection_dropped_mid_write_saves_nothing_and_the_outbox_sends_it_again(committed):
    write = committed
    before = write.fingerprint()
    data = write.data("dropped-0123456789")
    left = [1]

    def drop(execute, sql, params, many, context):
        if "scorepad_event" in sql and sql.lstrip().upper().startswith("INSERT") and left[0]:
            left[0] -= 1
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    phone = Client(raise_request_exception=False)
    with connection.execute_wrapper(drop):
        answer = phone.post(write.url(), data, **OUTBOX)
    assert answer.status_code == 503
    assert answer.json()["outcome"] == "retry"
    assert write.fingerprint() == before
    status, again = send(phone, write, data)  # the outbox's next round
    assert (status, again["outcome"]) == (200, "saved")
    assert write.fingerprint()[:2] == (before[0] + 1, before[1] + 1)


# --- what a carried evening's outbox write leads to ---------------------------------------


def test_a_kept_carry_leaves_the_phone_on_its_evening_with_the_way_to_the_next(db):
    write = make("evening-carry")
    phone = Client()
    status, answer = send(phone, write, write.data("kept-carry-0123456789"))
    assert (status, answer["outcome"]) == (200, "saved")
    nxt = Evening.objects.exclude(pk=write.thing.pk).get()
    page = phone.get(write.page(), **HTMX).content.decode()
    assert reverse("evening", kwargs={"token": nxt.editor_token}) in page
    assert "Open the next evening" in text(page)
    assert build_evening(nxt).carried  # it starts from the balances carried


def test_every_write_of_the_evening_and_circle_pages_posts_with_htmx_too(db):
    """The forms of the two pages that change something post with htmx as well as plainly
    (all but the link replacement, whose answer is another address: a whole page)."""
    for route in WRITES:
        write = make(route)
        phone = Client()
        if "game" in write.fields and route == "evening-add":  # the game it offers to add
            own(phone, Game.objects.get(editor_token=write.fields["game"]))
        body = phone.get(write.page()).content.decode()
        action = write.url()
        assert f'action="{action}" hx-post="{action}"' in body, route
    assert Event.objects.exists()
