"""Two phones, one deal: a correction that meets another phone's newer correction is merged
field by field and shown, never saved over it; two phones recording the same deal are asked
whether it is another deal or the same one."""

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import conflicts
from scorepad.models import Event
from tests.factories import GameFactory, record_penalty
from tests.scorepad.conftest import own

pytestmark = pytest.mark.django_db


def url(game, name, **kwargs):
    return reverse(name, kwargs={"token": game.editor_token, **kwargs})


def form_fields(body: str) -> dict[str, str]:
    """What a browser would post from the deal form in ``body``: hidden, text, number and
    the checked radios and boxes."""
    form = re.search(r'<form method="post"[^>]*class="deal-form".*?</form>', body, re.S).group(0)
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrfmiddlewaretoken":
            continue
        value = re.search(r'value="([^"]*)"', tag)
        value = html.unescape(value.group(1)) if value else ""
        kind = re.search(r'type="([^"]+)"', tag).group(1)
        if kind in ("radio", "checkbox") and " checked" not in tag:
            continue
        if kind == "checkbox" and not value:
            value = "on"
        data[name.group(1)] = value
    return data


@pytest.fixture
def nordic(db):
    game = GameFactory(variant_id="contract-nordic", players=["Anna", "Ben", "Cleo"])
    record_penalty(game, 2, {0: 10, 1: 15})  # Cleo went out
    game.refresh_from_db()
    return game


@pytest.fixture
def phones(nordic):
    """Phone A (the one that started the game) and phone C (through the editor link)."""
    return own(Client(), nordic), Client()


def points(game, number):
    deal = game.deals.get(number=number)
    return {s.seat.position: s.points for s in deal.scores.select_related("seat")}


# --- the merge itself ---------------------------------------------------------------------


def test_a_field_this_phone_left_alone_takes_the_other_phones_value():
    base = {"points_0": "10", "points_1": "15"}
    mine = {"points_0": "10", "points_1": "25"}
    theirs = {"points_0": "20", "points_1": "15"}
    merged, differ, taken = conflicts.merge(base, mine, theirs)
    assert merged == {"points_0": "20", "points_1": "25"}
    assert differ == []
    assert taken == ["points_0"]


def test_a_field_both_phones_changed_keeps_mine_and_is_marked():
    merged, differ, _ = conflicts.merge({"a": "1"}, {"a": "2"}, {"a": "3"})
    assert merged == {"a": "2"}
    assert differ == ["a"]


def test_a_field_both_changed_alike_is_not_a_difference():
    merged, differ, taken = conflicts.merge({"a": "1"}, {"a": "2"}, {"a": "2"})
    assert merged == {"a": "2"}
    assert differ == []
    assert taken == []


def test_without_a_base_every_value_of_mine_counts_as_a_change():
    merged, differ, _ = conflicts.merge(None, {"a": "1", "b": "5"}, {"a": "1", "b": "6"})
    assert merged == {"a": "1", "b": "5"}
    assert differ == ["b"]


@pytest.mark.parametrize("text", ["", "[]", '{"a": 1}', "{", '"x"', None])
def test_a_base_that_is_not_one_we_made_is_no_base(text):
    assert conflicts.decode(text) is None


# --- two phones correcting the same deal -------------------------------------------------


def test_two_corrections_of_different_fields_both_survive(phones, nordic):
    a, c = phones
    form_a = form_fields(a.get(url(nordic, "deal-edit", number=1)).content.decode())
    form_c = form_fields(c.get(url(nordic, "deal-edit", number=1)).content.decode())
    assert form_a["points_0"] == "10"
    assert form_c["points_1"] == "15"

    assert (
        a.post(url(nordic, "deal-edit", number=1), {**form_a, "points_0": "20"}).status_code == 302
    )
    answer = c.post(url(nordic, "deal-edit", number=1), {**form_c, "points_1": "25"})
    assert answer.status_code == 409
    body = answer.content.decode()
    assert "Another phone corrected deal 1" in body
    assert points(nordic, 1) == {0: 20, 1: 15, 2: 0}  # nothing saved without a tap
    merged = form_fields(body)
    assert merged["points_0"] == "20"
    assert merged["points_1"] == "25"
    box = re.search(r'<section class="conflict.*?</section>', body, re.S).group(0)
    # Ben's penalty was changed on this phone only: no difference (issue 21, item 5).
    assert 'data-field="points_1"' not in box
    assert "The other phone saved" not in box
    taken = re.search(r'<ul class="taken">.*?</ul>', box, re.S).group(0)
    assert "Penalty points of Anna</strong>: 20 (was 10)" in taken

    assert c.post(url(nordic, "deal-edit", number=1), merged).status_code == 302
    assert points(nordic, 1) == {0: 20, 1: 25, 2: 0}
    assert Event.objects.filter(game=nordic, kind="edited").count() == 2


def test_the_same_field_changed_on_both_phones_shows_both_values(phones, nordic):
    a, c = phones
    form_a = form_fields(a.get(url(nordic, "deal-edit", number=1)).content.decode())
    form_c = form_fields(c.get(url(nordic, "deal-edit", number=1)).content.decode())
    a.post(url(nordic, "deal-edit", number=1), {**form_a, "points_1": "30"})
    body = c.post(url(nordic, "deal-edit", number=1), {**form_c, "points_1": "45"}).content.decode()
    difference = re.search(r'<li data-field="points_1">(.*?)</li>', body, re.S).group(1)
    assert "Penalty points of Ben" in difference
    assert "The other phone saved: 30" in difference
    assert "in the form: 45" in difference
    assert form_fields(body)["points_1"] == "45"
    assert points(nordic, 1)[1] == 30


def test_the_merged_form_saved_twice_is_saved_once(phones, nordic):
    a, c = phones
    form_a = form_fields(a.get(url(nordic, "deal-edit", number=1)).content.decode())
    form_c = form_fields(c.get(url(nordic, "deal-edit", number=1)).content.decode())
    a.post(url(nordic, "deal-edit", number=1), {**form_a, "points_0": "20"})
    merged = form_fields(
        c.post(url(nordic, "deal-edit", number=1), {**form_c, "points_1": "25"}).content.decode()
    )
    c.post(url(nordic, "deal-edit", number=1), merged)
    again = c.post(url(nordic, "deal-edit", number=1), merged)
    assert again.status_code == 302
    assert Event.objects.filter(game=nordic, kind="edited").count() == 2


def test_a_merged_form_that_meets_a_third_change_merges_again(phones, nordic):
    a, c = phones
    b = Client()
    form_a = form_fields(a.get(url(nordic, "deal-edit", number=1)).content.decode())
    form_c = form_fields(c.get(url(nordic, "deal-edit", number=1)).content.decode())
    a.post(url(nordic, "deal-edit", number=1), {**form_a, "points_0": "20"})
    merged = form_fields(
        c.post(url(nordic, "deal-edit", number=1), {**form_c, "points_1": "25"}).content.decode()
    )
    form_b = form_fields(b.get(url(nordic, "deal-edit", number=1)).content.decode())
    b.post(
        url(nordic, "deal-edit", number=1),
        {**form_b, "went_out": "1", "points_1": "", "points_2": "5"},
    )
    body = c.post(url(nordic, "deal-edit", number=1), merged).content.decode()
    again = form_fields(body)
    assert again["went_out"] == "1"
    assert again["points_2"] == "5"
    assert again["points_0"] == "20"
    # Ben's 25 was this phone's change; Ben went out on the other phone: both are shown.
    assert again["points_1"] == "25"
    assert 'data-field="points_1"' in body


def test_a_correction_form_from_before_the_base_existed_still_merges(phones, nordic):
    a, c = phones
    form_a = form_fields(a.get(url(nordic, "deal-edit", number=1)).content.decode())
    form_c = form_fields(c.get(url(nordic, "deal-edit", number=1)).content.decode())
    form_c.pop("base")
    a.post(url(nordic, "deal-edit", number=1), {**form_a, "points_0": "20"})
    answer = c.post(url(nordic, "deal-edit", number=1), {**form_c, "points_1": "25"})
    assert answer.status_code == 409
    assert points(nordic, 1)[0] == 20
    assert 'data-field="points_0"' in answer.content.decode()  # 10 here, 20 saved: shown


# --- two phones recording the same deal ----------------------------------------------------


def open_new(phone, game):
    return form_fields(phone.get(url(game, "deal-new")).content.decode())


def test_a_deal_recorded_meanwhile_is_shown_and_the_player_is_asked(phones, nordic):
    a, c = phones
    form_a, form_c = open_new(a, nordic), open_new(c, nordic)
    assert form_a["number"] == "2"
    a.post(url(nordic, "deal-new"), {**form_a, "went_out": "0", "points_1": "5", "points_2": "5"})
    answer = c.post(
        url(nordic, "deal-new"), {**form_c, "went_out": "1", "points_0": "40", "points_2": "5"}
    )
    assert answer.status_code == 409
    body = answer.content.decode()
    assert "Another phone recorded deal 2" in body
    assert "Another deal: record it as deal 3" in body
    assert "The same deal: keep deal 2 as it is" in body
    assert nordic.deals.count() == 2
    assert "gives the same scores" not in body


def test_another_deal_records_it_under_the_next_number(phones, nordic):
    a, c = phones
    form_a, form_c = open_new(a, nordic), open_new(c, nordic)
    a.post(url(nordic, "deal-new"), {**form_a, "went_out": "0", "points_1": "5", "points_2": "5"})
    body = c.post(
        url(nordic, "deal-new"), {**form_c, "went_out": "1", "points_0": "40", "points_2": "5"}
    ).content.decode()
    asked = form_fields(body)
    assert asked["number"] == "3"
    assert c.post(url(nordic, "deal-new"), asked).status_code == 302
    assert nordic.deals.count() == 3
    assert points(nordic, 3) == {0: 40, 1: 0, 2: 5}
    assert c.post(url(nordic, "deal-new"), asked).status_code == 302  # replayed
    assert nordic.deals.count() == 3


def test_the_same_deal_can_correct_it_with_this_phones_entry(phones, nordic):
    a, c = phones
    form_a, form_c = open_new(a, nordic), open_new(c, nordic)
    a.post(url(nordic, "deal-new"), {**form_a, "went_out": "0", "points_1": "5", "points_2": "5"})
    body = c.post(
        url(nordic, "deal-new"), {**form_c, "went_out": "0", "points_1": "5", "points_2": "10"}
    ).content.decode()
    edit_url = url(nordic, "deal-edit", number=2)
    assert f'formaction="{edit_url}"' in body
    assert c.post(edit_url, form_fields(body)).status_code == 302
    assert nordic.deals.count() == 2
    assert points(nordic, 2) == {0: 0, 1: 5, 2: 10}


def test_an_identical_entry_is_said_to_be_the_same(phones, nordic):
    a, c = phones
    form_a, form_c = open_new(a, nordic), open_new(c, nordic)
    entry = {"went_out": "0", "points_1": "5", "points_2": "5"}
    a.post(url(nordic, "deal-new"), {**form_a, **entry})
    body = c.post(url(nordic, "deal-new"), {**form_c, **entry}).content.decode()
    assert "Your entry gives the same scores as deal 2." in body
    assert nordic.deals.count() == 2


def test_a_deal_undone_meanwhile_just_records_under_the_next_number(phones, nordic):
    a, c = phones
    form_c = open_new(c, nordic)
    a.post(url(nordic, "deal-undo"), {"version": nordic.version, "once": "undo-0123456789abcdef"})
    body = c.post(
        url(nordic, "deal-new"), {**form_c, "went_out": "0", "points_1": "5", "points_2": "5"}
    ).content.decode()
    assert "Another phone recorded" not in body
    assert "Record deal 1" in body
    assert form_fields(body)["number"] == "1"


# --- issue 21, item 5: only what both phones changed is where they differ -------------------


def test_a_field_only_this_phone_changed_is_no_difference_and_keeps_mine():
    base = {"points_0": "10", "points_1": "15"}
    mine = {"points_0": "10", "points_1": "25"}  # this phone changed points_1 only
    theirs = {"points_0": "20", "points_1": "15"}  # the other phone points_0 only
    merged, differ, taken = conflicts.merge(base, mine, theirs)
    assert merged == {"points_0": "20", "points_1": "25"}
    assert differ == []
    assert taken == ["points_0"]


def test_the_phones_differ_only_where_both_changed_a_field_to_different_values():
    base = {"a": "1", "b": "1", "c": "1", "d": "1"}
    mine = {"a": "2", "b": "1", "c": "3", "d": "4"}
    theirs = {"a": "1", "b": "5", "c": "3", "d": "6"}
    merged, differ, taken = conflicts.merge(base, mine, theirs)
    assert merged == {"a": "2", "b": "5", "c": "3", "d": "4"}
    assert differ == ["d"]
    assert taken == ["b"]


@pytest.fixture
def maximilian(db):
    game = GameFactory(variant_id="contract-nordic", players=["Maximilian", "Anneliese", "Cleo"])
    record_penalty(game, 2, {0: 20, 1: 10})  # Cleo went out
    game.refresh_from_db()
    return game


def test_a_player_the_other_phone_never_touched_is_not_listed_as_a_difference(maximilian):
    """A changes Maximilian's penalty, C changes Anneliese's in the same deal; A saves, then C."""
    a, c = own(Client(), maximilian), Client()
    edit = url(maximilian, "deal-edit", number=1)
    form_a = form_fields(a.get(edit).content.decode())
    form_c = form_fields(c.get(edit).content.decode())
    assert a.post(edit, {**form_a, "points_0": "30"}).status_code == 302
    answer = c.post(edit, {**form_c, "points_1": "15"})
    assert answer.status_code == 409
    body = answer.content.decode()
    box = re.search(r'<section class="conflict.*?</section>', body, re.S).group(0)
    assert '<ul class="differences">' not in box
    assert "The other phone saved" not in box
    assert "Nowhere: your changes and the other phone's fit together." in box
    taken = re.search(r'<ul class="taken">.*?</ul>', box, re.S).group(0)
    assert 'data-field="points_0"' in taken
    assert "30 (was 20)" in taken
    assert 'data-field="points_1"' not in taken
    merged = form_fields(body)
    assert merged["points_0"] == "30"
    assert merged["points_1"] == "15"
    assert c.post(edit, merged).status_code == 302
    assert points(maximilian, 1) == {0: 30, 1: 15, 2: 0}


# --- issue 21, item 7: a malformed base is no base, never a 500 -----------------------------

NESTED = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize(
    "text",
    [
        NESTED,
        "[" * 5000,
        '{"points_0": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"a": ' * 3000 + "1" + "}" * 3000,
        '{"points_0": "' + "9" * 200_000 + '"}',
        "1" * 100_000,
        '{"points_0": 10}',
        '{"points_0": null}',
        '["points_0", "10"]',
        "\x00",
    ],
)
def test_a_malformed_base_is_no_base(text):
    assert conflicts.decode(text) is None


def stale_correction(nordic, a, c):
    """C's correction form of deal 1, opened before A corrected Anna's penalty."""
    edit = url(nordic, "deal-edit", number=1)
    form_a = form_fields(a.get(edit).content.decode())
    form_c = form_fields(c.get(edit).content.decode())
    assert a.post(edit, {**form_a, "points_0": "20"}).status_code == 302
    return edit, form_c


@pytest.mark.parametrize("base", [NESTED, '{"points_1": ' + "[" * 5000 + "]" * 5000 + "}"])
def test_a_stale_correction_with_a_deeply_nested_base_is_merged_as_without_one(
    phones, nordic, base
):
    a, c = phones
    edit, form_c = stale_correction(nordic, a, c)
    answer = c.post(edit, {**form_c, "points_1": "25", "base": base})
    assert answer.status_code == 409
    body = answer.content.decode()
    assert "Another phone corrected deal 1" in body
    assert points(nordic, 1) == {0: 20, 1: 15, 2: 0}  # nothing saved
    merged = form_fields(body)
    assert merged["points_1"] == "25"
    assert conflicts.decode(merged["base"]) is not None  # the fresh base is one we made


BASES = st.one_of(
    st.text(max_size=40),
    st.integers(1, 6000).map(lambda n: "[" * n),
    st.integers(1, 6000).map(lambda n: '{"points_0":' * n),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from(["points_0", "points_1", "went_out", "x"]), inner)
        ),
        max_leaves=10,
    ).map(json.dumps),
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(base=BASES)
def test_any_base_of_a_stale_correction_is_answered_never_500(phones, nordic, base):
    a, c = phones
    nordic.refresh_from_db()
    edit = url(nordic, "deal-edit", number=1)
    form_c = form_fields(c.get(edit).content.decode())
    form_a = form_fields(a.get(edit).content.decode())
    a.post(edit, {**form_a, "points_0": str(int(form_a["points_0"]) + 5)})
    before = points(nordic, 1)
    answer = c.post(edit, {**form_c, "points_1": "25", "base": base})
    # A NUL is refused with a message before any view (continental/middleware.py).
    assert answer.status_code == (400 if "\x00" in base else 409)
    assert points(nordic, 1) == before
    decoded = conflicts.decode(base)
    assert decoded is None or all(isinstance(v, str) for v in decoded.values())


def test_correcting_a_deal_recorded_meanwhile_tells_the_other_phone_what_was_replaced(
    phones, nordic
):
    """Phone A recorded deal 2 with Cleo at 35; phone C, asked, corrects it with its own 30:
    A's sheet says which of its values was replaced (it once said only "Sheet updated")."""
    a, c = phones
    form_a, form_c = open_new(a, nordic), open_new(c, nordic)
    a.post(url(nordic, "deal-new"), {**form_a, "went_out": "0", "points_1": "5", "points_2": "35"})
    body = c.post(
        url(nordic, "deal-new"), {**form_c, "went_out": "0", "points_1": "5", "points_2": "30"}
    ).content.decode()
    answer = c.post(url(nordic, "deal-edit", number=2), form_fields(body))
    assert answer.status_code == 302
    assert points(nordic, 2) == {0: 0, 1: 5, 2: 30}
    sheet = html.unescape(a.get(url(nordic, "game")).content.decode())
    told = "Deal 2 · Cleo · The other phone's correction was kept. Yours: 35. Now: 30."
    assert told in sheet
    assert "Deal 2 · Ben" not in sheet  # the same on both phones: nothing replaced
    # Phone C, which made the correction, is told nothing of the kind.
    assert "The other phone's correction was kept" not in html.unescape(
        c.get(url(nordic, "game")).content.decode()
    )
