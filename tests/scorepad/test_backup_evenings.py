"""``manage.py backup`` keeps the evenings: their games and stakes, carried balances, links,
history and the evening carried to; a backup from before evenings still restores."""

import io
import json
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scorepad.access import EVENINGS, resolve
from scorepad.evenings import build_evening
from scorepad.models import Circle, Evening, EveningGame, Event, Game
from tests.factories import ACTOR, GameFactory, record_classic, record_penalty

pytestmark = pytest.mark.django_db


@pytest.fixture
def evenings():
    classic = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    record_classic(classic, 0, jokers=1)
    classic.refresh_from_db()
    classic.end(version=classic.version, once=None, actor=ACTOR)
    romme = GameFactory(variant_id="romme", players=["Anna", "Ben", "Cleo"])
    record_penalty(romme, 1, {0: 20, 2: 7})
    romme.refresh_from_db()
    romme.end(version=romme.version, once=None, actor=ACTOR)
    first = Evening.objects.create(name="Friday", stake="0.10")
    first.add_game(classic, "0.10", version=1, once="add-classic-xxxxxxxx", actor=ACTOR)
    first.add_game(romme, "0.05", version=2, once="add-romme-xxxxxxxxxx", actor=ACTOR)
    first.refresh_from_db()
    second = first.carry(
        build_evening(reload(first)).carry, version=first.version, once="carry-x" * 3, actor=ACTOR
    )
    return first, second


def reload(evening):
    return resolve(SimpleNamespace(session={}), evening.viewer_token, kind=EVENINGS).evening


def picture():
    """Every evening as its page shows it, with its links and history."""
    out = {}
    for evening in Evening.objects.order_by("pk"):
        page = build_evening(reload(evening))
        out[evening.pk] = {
            "row": Evening.objects.filter(pk=evening.pk).values().get(),
            "games": list(evening.games.values_list("game_id", "stake", "position", "added_at")),
            "names": page.names,
            "carried": page.carried,
            "balances": page.balances,
            "transfers": page.transfers,
            "history": list(
                evening.events.order_by("pk").values_list("at", "kind", "details", "form_token")
            ),
        }
    return out


def export(path):
    call_command("backup", "export", str(path), stderr=io.StringIO())
    return json.loads(path.read_text())


def empty():
    Evening.objects.all().delete()
    Game.objects.all().delete()
    Circle.objects.all().delete()


def test_a_backup_restores_every_evening_as_it_was(evenings, tmp_path):
    before = picture()
    document = export(tmp_path / "backup.json")
    assert [e["name"] for e in document["evenings"]] == ["Friday", ""]  # the next: no name yet
    empty()
    call_command("backup", "import", str(tmp_path / "backup.json"), stdout=io.StringIO())
    assert picture() == before
    first, second = (Evening.objects.get(pk=e.pk) for e in evenings)
    assert first.next_evening == second
    # A one-time token used before the backup stays used.
    assert Event.objects.filter(form_token="carry-x" * 3).count() == 1
    # New evenings get ids after the restored ones (sequences moved on, PostgreSQL too).
    assert Evening.objects.create(stake="1").pk > second.pk
    # The carried evening's games still carry a correction forward.
    assert set(Game.objects.filter(carried=True)) == {e.game for e in first.games.all()}


def test_a_backup_without_evenings_still_restores(evenings, tmp_path):
    document = export(tmp_path / "backup.json")
    del document["evenings"]
    (tmp_path / "old.json").write_text(json.dumps(document))
    empty()
    call_command("backup", "import", str(tmp_path / "old.json"), stdout=io.StringIO())
    assert Game.objects.count() == 2
    assert not Evening.objects.exists()


def test_an_evening_in_the_database_means_it_is_not_empty(evenings, tmp_path):
    export(tmp_path / "backup.json")
    Game.objects.all().delete()
    Circle.objects.all().delete()
    with pytest.raises(CommandError, match="already has games or players"):
        call_command("backup", "import", str(tmp_path / "backup.json"), stdout=io.StringIO())


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d["evenings"][0]["games"][0].update(game=9999),
        lambda d: d["evenings"][0].update(stake="0.001"),
        lambda d: d["evenings"][0].update(stake="lots"),
        lambda d: d["evenings"][1]["carried"][0].update(cents=1),
        lambda d: d["evenings"][0].update(next_evening=9999),
        lambda d: d.update(evenings={"not": "a list"}),
    ],
)
def test_a_spoilt_evening_restores_nothing(evenings, tmp_path, spoil):
    document = export(tmp_path / "backup.json")
    spoil(document)
    (tmp_path / "bad.json").write_text(json.dumps(document))
    empty()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("backup", "import", str(tmp_path / "bad.json"), stdout=io.StringIO())
    assert not Game.objects.exists()
    assert not Evening.objects.exists()
    assert not EveningGame.objects.exists()
