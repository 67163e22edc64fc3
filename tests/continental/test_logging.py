"""Game links never reach the logs: Django's request log and gunicorn's access and error logs
write ``/games/<token>/`` instead of the editor or viewer token."""

import contextlib
import datetime
import io
import logging
import runpy
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import translation
from gunicorn.config import Config

from continental.logfilters import GunicornLogger, MaskTokens, mask
from tests.factories import GameFactory, classic_form_data

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def english():
    """URLs reversed here carry /en/, whatever language an earlier test activated."""
    with translation.override("en"):
        yield


@pytest.fixture
def console():
    """What the project's console handler writes (its own stream, its own filter)."""
    handlers = [
        h for h in logging.getLogger().handlers if any(isinstance(f, MaskTokens) for f in h.filters)
    ]
    assert handlers, "the root logger has no handler that masks tokens"
    buffer = io.StringIO()
    old = [h.setStream(buffer) for h in handlers]
    yield buffer
    for handler, stream in zip(handlers, old, strict=True):
        handler.setStream(stream)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        (
            "Conflict: /en/games/abcdefghijklmnopqrstuvwx/deals/new/",
            "Conflict: /en/games/<token>/deals/new/",
        ),
        (
            "GET /de/games/A1b2_C3d4-E5f6G7h8I9j0K1/version?v=3 HTTP/1.1",
            "GET /de/games/<token>/version?v=3 HTTP/1.1",
        ),
        ("http://h/en/games/%41bcdefghijklmnopqrstuvwx/", "http://h/en/games/<token>/"),
        ("/en/games/new/ and /en/games/import/", "/en/games/new/ and /en/games/import/"),
        ("/en/games/short_but_19_chars_/", "/en/games/short_but_19_chars_/"),
        (
            "two /games/aaaaaaaaaaaaaaaaaaaaaaaa/ /games/bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
            "two /games/<token>/ /games/<token>",
        ),
        (  # the hand checker's way back to the sheet, sent by its form
            "GET /en/check/?cards=4S&back=%2Fen%2Fgames%2FA1b2_C3d4-E5f6G7h8I9j0K1%2F HTTP/1.1",
            "GET /en/check/?cards=4S&back=%2Fen%2Fgames%2F<token>%2F HTTP/1.1",
        ),
        ("back=%2fen%2fgames%2fA1b2_C3d4-E5f6G7h8I9j0K1", "back=%2fen%2fgames%2f<token>"),
    ],
)
def test_mask_replaces_the_token_segment_after_games(text, masked):
    assert mask(text) == masked


@pytest.mark.django_db
def test_django_request_log_lines_mask_the_editor_link(client, console):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben", "Cleo"])
    stale = classic_form_data(game, 0, jokers=1)
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    assert client.post(url, stale).status_code == 302
    assert client.post(url, {**classic_form_data(game, 1), "version": "1"}).status_code == 409
    viewer_url = reverse("deal-new", kwargs={"token": game.viewer_token})
    assert client.post(viewer_url, stale).status_code == 403
    assert client.get("/en/games/" + "Z" * 24 + "/").status_code == 404
    text = console.getvalue()
    assert "Conflict: /en/games/<token>/deals/new/" in text
    assert "Forbidden: /en/games/<token>/deals/new/" in text
    assert "Not Found: /en/games/<token>/" in text
    assert game.editor_token not in text
    assert game.viewer_token not in text


@pytest.mark.django_db
@override_settings(RATE_LIMITS={"api": 1, "write": 1})
def test_429_lines_mask_the_link(client, console):
    game = GameFactory(variant_id="classic", players=["Anna", "Ben"])
    url = reverse("deal-new", kwargs={"token": game.editor_token})
    client.post(url, classic_form_data(game, 0), REMOTE_ADDR="10.9.9.9")
    assert client.post(url, classic_form_data(game, 0), REMOTE_ADDR="10.9.9.9").status_code == 429
    text = console.getvalue()
    assert "Too Many Requests: /en/games/<token>/deals/new/" in text
    assert game.editor_token not in text


def test_a_traceback_and_arguments_are_masked_too(console):
    token = "Q" * 30
    try:
        raise RuntimeError(f"failed on /en/games/{token}/end/")
    except RuntimeError:
        logging.getLogger("scorepad.test").exception("at %s", f"/en/games/{token}/")
    text = console.getvalue()
    assert "at /en/games/<token>/" in text
    assert "RuntimeError: failed on /en/games/<token>/end/" in text
    assert token not in text


class _Response:
    status = "200 OK"
    headers = (("Content-Type", "text/html"),)
    sent = 1234


class _Request:
    headers = (("REFERER", "https://example.org/en/games/" + "R" * 24 + "/share/"),)


@contextlib.contextmanager
def gunicorn_logger(**settings: str) -> Iterator[GunicornLogger]:
    """A gunicorn logger writing where `settings` say; its files are closed afterwards
    (an open log file left to the garbage collector fails a later test)."""
    cfg = Config()
    for name, value in settings.items():
        cfg.set(name, value)
    log = GunicornLogger(cfg)
    try:
        yield log
    finally:
        for handler in log.access_log.handlers + log.error_log.handlers:
            handler.close()


def test_gunicorn_conf_uses_the_masking_logger():
    conf = runpy.run_path(str(ROOT / "continental" / "gunicorn_conf.py"))
    assert conf["logger_class"] == "continental.logfilters.GunicornLogger"


def test_gunicorn_access_and_error_logs_mask_the_links(tmp_path):
    token = "E" * 24
    access, errors = tmp_path / "access.log", tmp_path / "error.log"
    with gunicorn_logger(
        accesslog=str(access),
        errorlog=str(errors),
        access_log_format='%(h)s "%(r)s" %(s)s %(U)s "%(f)s" %({referer}i)s %({raw_uri}e)s %({x-missing}i)s',
    ) as log:
        environ = {
            "REQUEST_METHOD": "POST",
            "RAW_URI": f"/en/games/{token}/deals/new/?x=1",
            "PATH_INFO": f"/en/games/{token}/deals/new/",
            "QUERY_STRING": "x=1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "203.0.113.5",
            "HTTP_REFERER": f"https://example.org/en/games/{token}/",
        }
        log.access(_Response(), _Request(), environ, datetime.timedelta(milliseconds=5))
        log.error("Error handling request %s", f"/en/games/{token}/end/")
    line = access.read_text()
    assert line.startswith('203.0.113.5 "POST /en/games/<token>/deals/new/?x=1 HTTP/1.1" 200')
    assert '/en/games/<token>/deals/new/ "https://example.org/en/games/<token>/"' in line
    assert "https://example.org/en/games/<token>/share/" in line
    assert line.rstrip().endswith(" -")  # a header the request did not send is still "-"
    assert token not in line
    assert "R" * 24 not in line
    error_text = errors.read_text()
    assert "Error handling request /en/games/<token>/end/" in error_text
    assert token not in error_text
