"""The README's two commands, runnable with the system Python before anything is installed.

    python3 manage.py serve      set up (virtualenv, install, migrate) and run on :8000
    python3 manage.py runtests   install what the tests need, run ruff and the whole suite

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

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / "bin" / "python"
COMMANDS = ("serve", "runtests")
CHROMIUM = "/usr/bin/chromium"


def _say(text: str) -> None:
    print(f"[scorepad] {text}", flush=True)


def _run(*args: str | Path, env: dict | None = None) -> None:
    subprocess.run([str(a) for a in args], check=True, cwd=ROOT, env=env)


def _in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def _ensure_venv(extras: str) -> None:
    """Create .venv and install the project when pyproject.toml changed since the last install."""
    if not VENV_PYTHON.exists():
        _say("creating the virtual environment in .venv")
        _run(sys.executable, "-m", "venv", VENV)
        _run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    stamp = VENV / f".installed-{extras or 'base'}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text() != digest:
        _say(f"installing the project{' with ' + extras if extras else ''}")
        target = f".[{extras}]" if extras else "."
        _run(VENV_PYTHON, "-m", "pip", "install", "--quiet", "-e", target)
        stamp.write_text(digest)


def _reexec_in_venv(extras: str) -> None:
    if _in_venv():
        return
    _ensure_venv(extras)
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


def serve() -> None:
    _reexec_in_venv("")
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", _secret_key())
    env.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
    _compile_messages(env)
    _manage("collectstatic", "--noinput", "-v", "0", env=env)
    _manage("migrate", "--noinput", "-v", "1", env=env)
    _manage("createcachetable", env=env)
    addr = os.environ.get("ADDR", "127.0.0.1:8000")
    _say(f"serving on http://{addr}/ (Ctrl-C stops)")
    os.execve(
        str(sys.executable),
        [sys.executable, "manage.py", "runserver", "--noreload", addr],
        env,
    )


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


def _ensure_node_tools() -> None:
    """axe-core for the accessibility tests, from the npm registry (tests/e2e/package.json)."""
    folder = ROOT / "tests" / "e2e"
    if (folder / "node_modules" / "axe-core" / "axe.min.js").exists():
        return
    if shutil.which("npm") is None and not _apt_install("npm"):
        return
    _say("installing axe-core for the accessibility tests")
    _run("npm", "ci", "--prefix", folder, "--no-audit", "--no-fund", "--loglevel=error")


def _has_gettext() -> bool:
    return shutil.which("msgfmt") is not None


def _ensure_gettext() -> None:
    if not _has_gettext():
        _apt_install("gettext")


def runtests() -> None:
    _reexec_in_venv("dev")
    _ensure_chromium()
    _ensure_gettext()
    _ensure_node_tools()
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", "tests-only-secret-key")
    bin_dir = VENV / "bin"
    _say("ruff check and format")
    _run(bin_dir / "ruff", "check", ".")
    _run(bin_dir / "ruff", "format", "--check", ".")
    _compile_messages(env)
    _say(f"tests on {'DATABASE_URL' if env.get('DATABASE_URL') else 'SQLite'}")
    extra = sys.argv[2:]
    result = subprocess.run([str(bin_dir / "pytest"), *extra], cwd=ROOT, env=env)
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
