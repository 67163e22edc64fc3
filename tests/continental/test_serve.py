"""``python3 manage.py serve``: the table server the README starts first."""

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from continental import bootstrap
from tests.live_process import free_port

ROOT = Path(__file__).resolve().parents[2]


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A fresh machine's environment: no key, no database URL; data in a folder of its own."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "DATA_DIR": str(tmp_path / "data"),
        "STATIC_ROOT": str(tmp_path / "static"),
        **extra,
    }


def test_serve_help_prints_the_options_and_serves_nothing(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "serve", "--help"],
        cwd=ROOT,
        env=clean_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "usage: python3 manage.py serve" in result.stdout
    for option in ("--local", "--port", "--address", "--workers", "--live-port", "--no-live"):
        assert option in result.stdout
    assert not (tmp_path / "data").exists()  # nothing set up


def test_serve_refuses_an_unknown_option_with_status_2(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "serve", "--prot", "80"],
        cwd=ROOT,
        env=clean_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "unknown option '--prot'" in result.stderr
    assert not (tmp_path / "data").exists()


def read_until(process: subprocess.Popen, pattern: str, seconds: float) -> tuple[re.Match, str]:
    """Read the server's output until ``pattern`` shows (or fail with what it printed)."""
    seen = []
    deadline = time.monotonic() + seconds
    os.set_blocking(process.stdout.fileno(), False)
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if line:
            seen.append(line)
            found = re.search(pattern, "".join(seen))
            if found:
                return found, "".join(seen)
        elif process.poll() is not None:
            break
        else:
            time.sleep(0.05)
    pytest.fail(f"serve never printed {pattern!r}; it printed:\n{''.join(seen)}")


def stop(process: subprocess.Popen) -> None:
    """Ctrl-C, as a person stops it; killed if it does not stop within 30 s."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()


def test_serve_hosts_the_table_on_the_lan_address_it_prints(tmp_path):
    """The phones' address is given (127.0.0.2, on this machine's loopback) as it would be
    found on a laptop's Wi-Fi: the server must answer through it, with its host name."""
    port = free_port(count=2)  # and the next one for the live streams
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=clean_env(tmp_path, TABLE_ADDRESS="127.0.0.2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        found, printed = read_until(
            process, r"Phones on the same Wi-Fi:\s+(http://\S+)\n(?s:.*)Ctrl-C to stop", 120
        )
        url = found.group(1)
        assert url == f"http://127.0.0.2:{port}/"
        assert "\u2588" in printed or "\u2580" in printed  # the QR code, drawn in blocks
        assert "development server" not in printed.lower()
        with urllib.request.urlopen(url + "en/", timeout=10) as answer:
            assert answer.status == 200
            assert "Continental" in answer.read().decode()
        # The live streams run beside the pages, on the next port, under the same command.
        live = f"http://127.0.0.2:{port + 1}/live/health"
        for _attempt in range(100):
            try:
                with urllib.request.urlopen(live, timeout=5) as answer:
                    assert answer.status == 200
                    assert "streams" in answer.read().decode()
                break
            except OSError:
                time.sleep(0.2)
        else:
            with contextlib.suppress(OSError, TypeError):
                printed += process.stdout.read() or ""
            pytest.fail(f"the live streams never answered; serve printed:\n{printed}")
        # The key the server runs on is kept in data/, so the next start keeps the sessions.
        assert (tmp_path / "data" / "secret_key").stat().st_size > 40
        assert (tmp_path / "data" / "scorepad.sqlite3").exists()
    finally:
        stop(process)


def test_serve_options_read_flags_values_and_the_environment(monkeypatch):
    monkeypatch.setenv("SERVE_LOCAL", "true")
    monkeypatch.setenv("PORT", "8123")
    options = bootstrap._serve_options(["--address", "10.0.0.5", "--workers=3"])
    assert options == {
        "local": True,
        "port": "8123",
        "address": "10.0.0.5",
        "workers": "3",
        "live_port": "8124",  # the port + 1
        "live": True,
    }
    options = bootstrap._serve_options(["--live-port", "9000", "--no-live"])
    assert options["live_port"] == "9000"
    assert options["live"] is False
    with pytest.raises(SystemExit) as stopped:
        bootstrap._serve_options(["--port", "8000", "--live-port", "8000"])
    assert stopped.value.code == 2
    with pytest.raises(SystemExit) as stopped:
        bootstrap._serve_options(["--port", "eighty"])
    assert stopped.value.code == 2


def test_the_lan_addresses_leave_out_loopback_and_link_local():
    for address in bootstrap.lan_addresses():
        assert not address.startswith(("127.", "169.254."))
        assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address)


def test_serve_local_with_an_address_answers_by_that_name_on_this_computer(tmp_path):
    """Issue 45, item 6: ``--local --address table.test`` once dropped the address, and a
    page asked for by that name got a bare "Bad Request (400)". Now the name is this
    computer's name for the app: printed, allowed, and used in the links it makes."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "serve",
            "--local",
            "--address",
            "table.test",
            "--port",
            str(port),
            "--no-live",
        ],
        cwd=ROOT,
        env=clean_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        found, printed = read_until(process, r"And as:\s+(http://\S+)\n(?s:.*)Ctrl-C to stop", 120)
        assert found.group(1) == f"http://table.test:{port}/"
        assert "Only this computer" in printed
        assert f"The games stay in {tmp_path / 'data'}/." in printed  # DATA_DIR, not data/
        asked = urllib.request.Request(
            f"http://127.0.0.1:{port}/en/", headers={"Host": f"table.test:{port}"}
        )
        with urllib.request.urlopen(asked, timeout=10) as answer:
            assert answer.status == 200
            assert "Continental" in answer.read().decode()
    finally:
        stop(process)


def test_the_banner_names_the_phones_address_with_a_qr_code_or_says_it_is_local():
    banner = bootstrap._banner(["http://192.168.1.20:8000/"], "http://127.0.0.1:8000/", False)
    assert "Phones on the same Wi-Fi:  http://192.168.1.20:8000/" in banner
    assert "Ctrl-C" in banner
    assert "data/" in banner
    local = bootstrap._banner([], "http://127.0.0.1:8000/", True)
    assert "Only this computer" in local
    assert "Phones" not in local
    named = bootstrap._banner(
        ["http://table.test:8000/"], "http://127.0.0.1:8000/", True, "/srv/t/"
    )
    assert "And as:  http://table.test:8000/" in named
    assert "The games stay in /srv/t/." in named
    assert bootstrap._shown_data_dir({"DATA_DIR": "/srv/t"}) == "/srv/t/"
    assert bootstrap._shown_data_dir({}) == "data/"


def render_terminal(text: str, foreground: int, background: int, scale: int = 4):
    """The characters ``text`` draws on a terminal of those default colours (grey levels), as
    a grayscale picture: each character two pixels, its upper and its lower half, drawn in the
    foreground or the background as the half-block characters and the ANSI colour codes say."""
    grey = {16: 0, 231: 255, 0: 0, 15: 255, 30: 0, 37: 255, 97: 255}
    picture = []
    for line in text.split("\n"):
        fg, bg = foreground, background
        upper, lower = [], []
        for code, char in re.findall(r"\x1b\[([0-9;]*)m|(.)", line):
            if not char:
                numbers = [int(n) for n in code.split(";") if n] or [0]
                while numbers:
                    n = numbers.pop(0)
                    if n == 0:
                        fg, bg = foreground, background
                    elif n in (38, 48) and numbers[:1] == [5]:
                        value = grey[numbers[1]]
                        numbers = numbers[2:]
                        fg, bg = (value, bg) if n == 38 else (fg, value)
                    elif 30 <= n <= 37 or 90 <= n <= 97:
                        fg = grey.get(n, 128)
                    elif 40 <= n <= 47 or 100 <= n <= 107:
                        bg = grey.get(n - 10, 128)
                continue
            top, bottom = {
                "\u2580": (fg, bg),
                "\u2584": (bg, fg),
                "\u2588": (fg, fg),
                " ": (bg, bg),
            }[char]
            upper.append(top)
            lower.append(bottom)
        picture += [upper, lower]
    width = max(len(row) for row in picture)
    pixels = bytearray()
    for row in picture:
        row = row + [background] * (width - len(row))
        wide = bytes(v for v in row for _ in range(scale))
        pixels += wide * scale
    return memoryview(bytes(pixels)).cast("B", (len(picture) * scale, width * scale))


def test_the_terminals_qr_code_reads_on_dark_and_on_light_terminals():
    """A phone's camera reads the QR code the banner prints whatever colours the terminal
    draws with: rendered light on dark and dark on light, it decodes to the phones' address
    (without trying the inverted picture, which a phone's camera does not do)."""
    import zxingcpp

    url = "http://192.168.1.20:8000/"
    banner = bootstrap._banner([url], "http://127.0.0.1:8000/", False)
    lines = banner.split("\n")
    start = lines.index("  Scan this with a phone's camera to open it:") + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("  Games you create"))
    code = "\n".join(lines[start:end])
    for foreground, background in ((230, 20), (20, 230)):  # light on dark, dark on light
        image = render_terminal(code, foreground, background)
        found = zxingcpp.read_barcodes(image, try_invert=False)
        assert [b.text for b in found] == [url], (foreground, background)
