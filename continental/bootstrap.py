"""The README's two commands, runnable with the system Python before anything is installed.

    python3 manage.py serve      set up (virtualenv, install, migrate) and host the table
    python3 manage.py runtests   install what the tests need, run ruff, mypy and the suite

Both install the pinned versions of the lock files (requirements.txt for serve,
requirements-dev.txt with the development tools for runtests), then the project itself
without its dependencies.

Plain standard library only: this runs before Django exists in the virtualenv.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
COMMANDS = ("serve", "runtests")
# The lock files, made from pyproject.toml by the commands in the README (Contributing).
LOCKS = {"base": ROOT / "requirements.txt", "dev": ROOT / "requirements-dev.txt"}
CHROMIUM = "/usr/bin/chromium"


def _say(text: str) -> None:
    print(f"[scorepad] {text}", flush=True)


def _run(*args: str | Path, env: dict | None = None) -> None:
    subprocess.run([str(a) for a in args], check=True, cwd=ROOT, env=env)


def _in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def _ensure_venv(kind: str) -> None:
    """Create .venv and install the lock file of ``kind`` ("base" or "dev") and the project
    when pyproject.toml or that lock file changed since the last install."""
    if not VENV_PYTHON.exists():
        _say("creating the virtual environment in .venv")
        _run(sys.executable, "-m", "venv", VENV)
        _run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    lock = LOCKS[kind]
    stamp = VENV / f".installed-{kind}"
    digest = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + b"\0" + lock.read_bytes()
    ).hexdigest()
    if not stamp.exists() or stamp.read_text() != digest:
        _say(f"installing the pinned versions of {lock.name} and the project")
        # The lock holds every dependency with its hashes; the project adds none of its own.
        _run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "-r", lock)
        _run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "-e", ".")
        stamp.write_text(digest)


def _reexec_in_venv(kind: str) -> None:
    if _in_venv():
        return
    _ensure_venv(kind)
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(ROOT / "manage.py"), *sys.argv[1:]])


def _secret_key() -> str:
    data = Path(os.environ.get("DATA_DIR", ROOT / "data"))
    data.mkdir(parents=True, exist_ok=True)
    key_file = data / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


def _compile_messages(env: dict) -> None:
    if not any(ROOT.glob("locale/*/LC_MESSAGES/*.po")):
        return
    _ensure_gettext()
    if not _has_gettext():
        _say("without gettext the translations cannot be compiled: the pages stay in English")
        return
    _manage("compilemessages", "--ignore", ".venv", "-v", "0", env=env)


def _manage(*args: str, env: dict) -> None:
    _run(VENV_PYTHON if VENV_PYTHON.exists() else sys.executable, "manage.py", *args, env=env)


SERVE_HELP = """\
usage: python3 manage.py serve [--local] [--port PORT] [--address ADDRESS] [--workers N]
                               [--live-port PORT] [--no-live]

Set up (virtual environment, translations, static files, database in data/) and host the
app for a card table: every phone on the same Wi-Fi opens the address printed, or scans
its QR code. Ctrl-C stops it; the games stay in data/.

options:
  --local            serve this computer only (127.0.0.1); also SERVE_LOCAL=true
  --port PORT        the port (default 8000; also PORT)
  --address ADDRESS  the address the phones use, when the one found is not right
                     (also TABLE_ADDRESS); with --local, this computer's name for it
  --workers N        gunicorn worker processes (default 2, each with 4 threads;
                     also GUNICORN_WORKERS)
  --live-port PORT   the port of the live streams that push every change to the phones
                     (default: the port + 1; also LIVE_PORT)
  --no-live          no live streams: the phones ask every 3 s (also LIVE_STREAMS=false)
  -h, --help         show this help and do nothing else

Behind a proxy or on a hosted server, set PUBLIC_URL (e.g. https://cards.example.org)
so that shared links and QR codes use it; see the README for gunicorn and the live
streams behind nginx or Caddy, and with PostgreSQL.
"""


def _serve_options(argv: list[str]) -> dict[str, Any] | None:
    """The options of ``serve`` (None after --help was printed); a bad one exits with 2."""
    options: dict[str, Any] = {
        "local": _env_flag("SERVE_LOCAL"),
        "port": os.environ.get("PORT", "8000"),
        "address": os.environ.get("TABLE_ADDRESS", ""),
        "workers": os.environ.get("GUNICORN_WORKERS", "2"),
        "live_port": os.environ.get("LIVE_PORT", ""),
        "live": os.environ.get("LIVE_STREAMS", "true").strip().lower()
        not in ("0", "false", "no", "off"),
    }
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, _, value = arg.partition("=")
        if name in ("-h", "--help"):
            print(SERVE_HELP, end="")
            return None
        if name == "--local":
            options["local"] = True
        elif name == "--no-live":
            options["live"] = False
        elif name in ("--port", "--address", "--workers", "--live-port"):
            if not value:
                if not args:
                    _usage_error(f"{name} needs a value")
                value = args.pop(0)
            options[name[2:].replace("-", "_")] = value
        else:
            _usage_error(f"unknown option {arg!r}")
    if not options["live_port"] and options["port"].isdigit():
        options["live_port"] = str(int(options["port"]) + 1)
    for name in ("port", "workers", "live_port"):
        if not options[name].isdigit() or not (0 < int(options[name]) < 65536):
            flag = name.replace("_", "-")
            _usage_error(f"--{flag} takes a whole number, not {options[name]!r}")
    if options["live"] and options["live_port"] == options["port"]:
        _usage_error("--live-port must differ from --port")
    return options


def _usage_error(text: str) -> None:
    print(f"serve: {text} (python3 manage.py serve --help lists the options)", file=sys.stderr)
    sys.exit(2)


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks (not loopback, not link-local),
    the Wi-Fi and Ethernet ones first: where the phones at the table can reach it."""
    import ipaddress
    import socket

    found: list[tuple[int, str]] = []
    try:
        import fcntl
        import struct

        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(
                    probe.fileno(), 0x8915, struct.pack("256s", name[:15].encode())
                )
            except OSError:
                continue  # no IPv4 address on this interface
            virtual = name.startswith(("docker", "br-", "virbr", "veth", "lxc", "tun", "tap"))
            found.append((int(virtual), socket.inet_ntoa(packed[20:24])))
        probe.close()
    except (ImportError, OSError, AttributeError):
        pass  # not Linux: ask the name service instead
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append((2, str(info[4][0])))  # AF_INET: (host, port)
    except OSError:
        pass
    addresses: list[str] = []
    for _rank, text in sorted(found, key=lambda item: item[0]):
        address = ipaddress.ip_address(text)
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        if text not in addresses:
            addresses.append(text)
    return addresses


def _host_names() -> list[str]:
    import socket

    name = socket.gethostname().split(".")[0]
    return [name, f"{name}.local"] if name and name != "localhost" else []


# The QR code in the terminal: black and white of its own, so a phone's camera reads it
# whether the terminal draws light on dark or dark on light; 256-colour codes, whose black
# and white no colour theme changes (the 16 basic ones it does).
QR_DARK, QR_LIGHT = 16, 231


def terminal_qr(url: str) -> str:
    """The QR code of ``url`` in half blocks: each character two modules, the upper one in
    the foreground colour and the lower one in the background, with the quiet zone of four
    modules the standard asks for."""
    import segno

    rows = [list(row) for row in segno.make(url, error="m").matrix_iter(scale=1, border=4)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    colour = {1: QR_DARK, 0: QR_LIGHT}
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        line, last = [], None
        for upper, lower in zip(top, bottom, strict=True):
            pair = (colour[upper], colour[lower])
            if pair != last:
                line.append(f"\x1b[38;5;{pair[0]};48;5;{pair[1]}m")
                last = pair
            line.append("\u2580")
        lines.append("".join(line) + "\x1b[0m")
    return "\n".join(lines)


def _banner(urls: list[str], local_url: str, local_only: bool, data: str = "data/") -> str:
    """What the terminal shows once the server answers: the address and a QR code of it."""
    lines = ["", "Continental is ready.", f"  On this computer:  {local_url}"]
    if local_only:
        for url in urls:  # --local with --address: this computer's name for it
            lines.append(f"  And as:  {url}")
        lines.append("  Only this computer can open it (--local).")
    elif urls:
        for url in urls:
            lines.append(f"  Phones on the same Wi-Fi:  {url}")
        lines.append("  Scan this with a phone's camera to open it:")
        lines.append(terminal_qr(urls[0]))
        lines.append(
            "  Games you create on this computer share links with that address, for the phones."
        )
    else:
        lines.append("  No network was found: only this computer can open it.")
    lines.append(f"Press Ctrl-C to stop. The games stay in {data}.")
    return "\n".join(lines) + "\n"


def _shown_data_dir(env: dict) -> str:
    """Where the games are kept, as the banner names it: data/ unless DATA_DIR says."""
    data = env.get("DATA_DIR")
    return f"{data.rstrip('/')}/" if data else "data/"


def serve() -> None:
    if _serve_options(sys.argv[2:]) is None:
        return  # --help: nothing set up, nothing served
    _reexec_in_venv("base")
    options = _serve_options(sys.argv[2:])
    assert options is not None  # not --help: that returned above
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", _secret_key())
    port = options["port"]
    local_only = options["local"]
    # --address names the address the phones use; with --local, the name this computer
    # opens it by (a name in /etc/hosts, say): its links and QR codes use it either way.
    if options["address"]:
        addresses = [options["address"]]
    else:
        addresses = [] if local_only else lan_addresses()
    urls = [f"http://{_url_host(address)}:{port}" for address in addresses]
    hosts = ["localhost", "127.0.0.1", "[::1]"] + [_url_host(a) for a in addresses]
    if not local_only:
        hosts += _host_names()
    env.setdefault("ALLOWED_HOSTS", ",".join(hosts))
    env.setdefault("CSRF_TRUSTED_ORIGINS", ",".join(f"{url}" for url in urls))
    if urls:
        # The links and QR codes of a game made on this computer use what the phones reach.
        env.setdefault("TABLE_URL", urls[0])
    _compile_messages(env)
    _manage("collectstatic", "--noinput", "-v", "0", env=env)
    _manage("migrate", "--noinput", "-v", "1", env=env)
    _manage("createcachetable", env=env)
    local_url = f"http://127.0.0.1:{port}/"
    env.update(
        GUNICORN_BIND=f"127.0.0.1:{port}" if local_only else f"0.0.0.0:{port}",
        GUNICORN_WORKERS=options["workers"],
        GUNICORN_BANNER=_banner(
            [f"{url}/" for url in urls], local_url, local_only, _shown_data_dir(env)
        ),
    )
    # Threads suit SQLite (one writer at a time, WAL readers); the access log would bury the
    # address under the phones' live updates: GUNICORN_ACCESSLOG=- turns it back on.
    env.setdefault("GUNICORN_THREADS", "4")
    env.setdefault("GUNICORN_ACCESSLOG", "")
    env.setdefault("GUNICORN_LOGLEVEL", "warning")
    live_port = options["live_port"]
    env["LIVE_STREAMS"] = "true" if options["live"] else "false"
    env["LIVE_PORT"] = live_port if options["live"] else ""
    host = "127.0.0.1" if local_only else "0.0.0.0"
    _say(f"starting the server on {'127.0.0.1' if local_only else 'every network'}, port {port}")
    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        str(ROOT / "continental" / "gunicorn_conf.py"),
        "continental.wsgi",
    ]
    live = [*LIVE_COMMAND, "--host", host, "--port", live_port] if options["live"] else None
    sys.exit(supervise(gunicorn, live, env))


# The live streams' process (continental/live.py under continental/liveserver.py): one asyncio
# process, no access log (it would name every phone's link), a short goodbye to the open streams on Ctrl-C.
LIVE_COMMAND = (
    sys.executable,
    "-m",
    "continental.liveserver",  # uvicorn's protocol behind an accept loop that counts connections
    "--log-level",
    "warning",
    "--timeout-graceful-shutdown",
    "2",
)


def supervise(pages: list[str], live: list[str] | None, env: dict) -> int:
    """Run gunicorn (the pages) and the stream process side by side until Ctrl-C or until
    gunicorn stops; a stream process that dies is started again (the pages poll meanwhile).
    Returns gunicorn's exit status."""
    import signal
    import time

    children: dict[str, subprocess.Popen | None] = {"pages": None, "live": None}
    stopping = {"now": False}

    def stop(signum, _frame):
        stopping["now"] = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    pages_process = subprocess.Popen(pages, cwd=ROOT, env=env)
    children["pages"] = pages_process
    if live:
        children["live"] = subprocess.Popen(live, cwd=ROOT, env=env)
    restarts: list[float] = []
    while not stopping["now"]:
        if pages_process.poll() is not None:
            break
        process = children["live"]
        if live and process is not None and process.poll() is not None:
            now = time.monotonic()
            restarts = [t for t in restarts if now - t < 60] + [now]
            if len(restarts) > 5:
                _say("the live streams stopped five times in a minute: the phones poll instead")
                children["live"] = None
            else:
                _say("the live streams stopped; starting them again")
                children["live"] = subprocess.Popen(live, cwd=ROOT, env=env)
        time.sleep(0.2)
    for name, process in children.items():
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT if name == "pages" else signal.SIGTERM)
    deadline = time.monotonic() + 25
    for process in children.values():
        if process is None:
            continue
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    code = pages_process.returncode
    return 0 if stopping["now"] else (code or 0)


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


_apt = {"updated": False}


def _apt_install(package: str) -> bool:
    """Install a Debian package (as root); False, with a message, where that cannot be done."""
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        _say(f"{package} is missing and cannot be installed here (apt-get as root needed)")
        return False
    _say(f"installing {package} from Debian's packages")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if not _apt["updated"]:
        _run("apt-get", "update", "-qq", env=env)
        _apt["updated"] = True
    _run("apt-get", "install", "-y", "-qq", "--no-install-recommends", package, env=env)
    return True


def _ensure_chromium() -> None:
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        _apt_install("chromium")


# The node tools, each from its own package.json by `npm ci` (its package-lock.json): axe-core
# for the accessibility tests (tests/e2e), and at the root eslint for the JavaScript's lint and
# fake-indexeddb and happy-dom (the DOM) for its unit tests (tests/js). Each with a file that shows it is installed: its newest package, so that a checkout
# installed before it was added installs it too.
NODE_TOOLS = (
    (ROOT / "tests" / "e2e", "axe-core/axe.min.js", "axe-core for the accessibility tests"),
    (ROOT, "happy-dom/package.json", "eslint, fake-indexeddb and happy-dom for the JavaScript"),
)


def _ensure_node_tools() -> bool:
    """Install the node tools that are missing; False when there is no npm to do it."""
    missing = [
        (f, what) for f, mark, what in NODE_TOOLS if not (f / "node_modules" / mark).exists()
    ]
    if not missing:
        return True
    if shutil.which("npm") is None and not _apt_install("npm"):
        return False
    for folder, what in missing:
        _say(f"installing {what}")
        _run("npm", "ci", "--prefix", folder, "--no-audit", "--no-fund", "--loglevel=error")
    return True


def _javascript_lint() -> None:
    """eslint over static/js and tests/js (eslint.config.js)."""
    _run("node", ROOT / "node_modules" / "eslint" / "bin" / "eslint.js", *JS_LINTED)


def _javascript_tests() -> None:
    """The JavaScript's unit tests (tests/js, node's own test runner) with node's own
    coverage, printed at the end of their output (each file's lines, branches and functions
    run, and the lines not run); failing ones stop."""
    _say("the JavaScript's unit tests and their coverage: node --test tests/js/")
    _run("node", "--test", "--experimental-test-coverage", "tests/js/")


JS_LINTED = ("static/js", "tests/js", "eslint.config.js")


def _has_gettext() -> bool:
    return shutil.which("msgfmt") is not None


def _ensure_gettext() -> None:
    if not _has_gettext():
        _apt_install("gettext")


def coverage_args(env: dict) -> list[str]:
    """pytest-cov's arguments: coverage is measured and printed on the SQLite run (the code is
    the same on PostgreSQL, and measuring costs time); COVERAGE=1 forces it, COVERAGE=0 skips
    it. What is measured and how it is reported: [tool.coverage] in pyproject.toml."""
    wanted = env.get("COVERAGE", "")
    if wanted == "0" or (wanted != "1" and env.get("DATABASE_URL")):
        return []
    return ["--cov", "--cov-report=term"]


def worker_args(env: dict, extra: list[str]) -> list[str]:
    """pytest-xdist's arguments: the suite runs in one worker process per core (``-n auto``;
    ``TEST_WORKERS=N`` sets the number, ``TEST_WORKERS=0`` runs it in this process), unless
    the extra arguments choose for themselves (``-n``, ``-p no:xdist``, ``--pdb``)."""
    if any(
        arg in ("--pdb", "no:xdist") or arg.startswith(("-n", "--numprocesses")) for arg in extra
    ):
        return []
    return ["-n", env.get("TEST_WORKERS") or "auto"]


def runtests() -> None:
    _reexec_in_venv("dev")
    _ensure_chromium()
    _ensure_gettext()
    node = _ensure_node_tools()
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", "tests-only-secret-key")
    bin_dir = VENV / "bin"
    _say("ruff check and format, eslint, mypy on continental/, scorepad/ and rules/")
    _run(bin_dir / "ruff", "check", ".")
    _run(bin_dir / "ruff", "format", "--check", ".")
    if node:
        _javascript_lint()
    _run(bin_dir / "mypy", env=env)  # what and how: [tool.mypy] in pyproject.toml
    if node:
        _javascript_tests()
    else:
        _say("failed: without npm neither eslint nor the JavaScript's unit tests can run")
        sys.exit(1)
    _compile_messages(env)
    _say(f"tests on {'DATABASE_URL' if env.get('DATABASE_URL') else 'SQLite'}")
    extra = sys.argv[2:]
    result = subprocess.run(
        [str(bin_dir / "pytest"), *coverage_args(env), *worker_args(env, extra), *extra],
        cwd=ROOT,
        env=env,
    )
    sys.exit(result.returncode)


def main() -> bool:
    """Run a bootstrap command if one was asked for; return False to fall through to Django."""
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        return False
    try:
        {"serve": serve, "runtests": runtests}[sys.argv[1]]()
    except subprocess.CalledProcessError as exc:
        _say(f"failed: {' '.join(map(str, exc.cmd))} (exit {exc.returncode})")
        sys.exit(exc.returncode or 1)
    except KeyboardInterrupt:
        sys.exit(130)
    return True
