"""The one settings module, configured from the environment.

DEBUG            "true" turns on debug mode (default off)
SECRET_KEY       required for the web server when DEBUG is off; management commands use the
                 key ``manage.py serve`` keeps in DATA_DIR/secret_key when it is not set
ALLOWED_HOSTS    comma-separated host names (default: localhost names)
PUBLIC_URL       the address of the site for shared links and QR codes, e.g.
                 https://cards.example.org (a hosted server behind a proxy)
TABLE_URL        set by ``manage.py serve``: the LAN address the phones reach; links made
                 on the host computer itself (localhost) use it
DATABASE_URL     e.g. postgres://user@host:5432/db (default: SQLite under DATA_DIR)
DATA_DIR         where the SQLite file lives (default: ./data)
SECURE           "true" behind HTTPS: secure cookies, HSTS, SSL redirect
STATIC_ROOT      where collectstatic puts the static files (default: ./staticfiles)
BENCH_VIEWS      "true" adds the bare page /bench/bare that bench/load.py compares against
LIVE_STREAMS     "false" turns the live streams off: the pages poll every 3 s as before
LIVE_PORT        the port of the stream process on the page's own host (``manage.py serve``
                 sets it: the port + 1); empty: the streams are under /live/ on the page's own
                 origin (a proxy routes /live/ to the stream process, see the README)
LIVE_PER_ADDRESS streams per client address (default 200: a club behind one router)
LIVE_MAX_STREAMS streams per stream process (default: what the open-files limit allows)
LIVE_CHECK       seconds between the stream process's reads of every followed version, the
                 safety net under its change feed (default 60)
LIVE_REQUEST_TIMEOUT seconds a connection to the stream process may take to send its request
                 (default 5; then it is closed)
LIVE_LOG_EVERY   seconds between the stream process's lines about what it refused (10)
LIVE_KEPT_WAIT   seconds a plain viewer's event waits for the change's viewers' answer to be
                 kept by the worker that saved it (default 1; then it goes without it)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("true", "1", "yes", "on"):
        return True
    if value.lower() in ("false", "0", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Under pytest: a throwaway key and plain static storage (no collectstatic manifest needed).
TESTING = "pytest" in sys.modules

DEBUG = env_bool("DEBUG", False)
DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "data"))
# The web server (continental/wsgi.py, runserver) never starts on a key it was not given.
WEB_SERVER = env_bool("SCOREPAD_WEB_SERVER", False) or sys.argv[1:2] == ["runserver"]
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and not WEB_SERVER and (DATA_DIR / "secret_key").is_file():
    # A management command (checkhand, backup, ...) after ``serve`` ran once.
    SECRET_KEY = (DATA_DIR / "secret_key").read_text().strip()
if not SECRET_KEY:
    if TESTING:
        SECRET_KEY = "tests-only-secret-key"
    elif not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-used-with-DEBUG-on"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
TABLE_URL = os.environ.get("TABLE_URL", "").strip().rstrip("/")
# Behind a proxy that sets X-Forwarded-Host (PUBLIC_URL is the simpler choice).
USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", False)

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "scorepad",
    "rules",
]

MIDDLEWARE = [
    "continental.dbdown.RetryReadMiddleware",  # first: a read it answers again runs it all
    "scorepad.warm.WarmViewersMiddleware",  # a change's viewers' answer, kept after it
    "django.middleware.security.SecurityMiddleware",
    "continental.middleware.OpenerPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "continental.middleware.PhoneLanguageMiddleware",  # a shared link opens in the phone's
    "continental.ratelimit.RateLimitMiddleware",
    "continental.middleware.RejectNulMiddleware",
    "continental.middleware.LinksInTheQueryMiddleware",
    "continental.middleware.ApiErrorsAsJsonMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "continental.errors.ErrorPagesMiddleware",  # inside CSP: its pages get the policy too
    "continental.middleware.LiveOriginMiddleware",  # after CSP: marks the answer first
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "continental.urls"
# A form refused by the CSRF check says, in the phone's language, to reload and send again.
CSRF_FAILURE_VIEW = "continental.errors.csrf_failure"
WSGI_APPLICATION = "continental.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
                "continental.context_processors.site",
            ],
            "builtins": ["template_partials.templatetags.partials"],
            # The project package is no app: its site-wide tags are named here.
            "libraries": {"sitetags": "continental.templatetags.sitetags"},
        },
    }
]
# Django's widget templates; a widget's HTML from the same plain values is kept once
# rendered (the deal form's thirty widgets were most of its time): scorepad/forms/renderer.py.
FORM_RENDERER = "scorepad.forms.renderer.KeptWidgets"

# --- database ------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Persistent connections in production; none under tests (threads would hold them open).
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0 if TESTING else 60)}
    # A kept connection the server closed is replaced before a request uses it.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            # SQLite whose writers take turns promptly (continental/sqlite/base.py).
            "ENGINE": "continental.sqlite",
            "NAME": str(DATA_DIR / "scorepad.sqlite3"),
            # Keep connections (and their PRAGMAs) between requests; none under tests.
            "CONN_MAX_AGE": 0 if TESTING else 60,
            "OPTIONS": {
                # Concurrent writers wait for each other instead of failing.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;"
                    "PRAGMA synchronous=NORMAL;"
                    "PRAGMA busy_timeout=20000;"
                    "PRAGMA foreign_keys=ON;"
                ),
            },
            "TEST": {"NAME": DATA_DIR / "test.sqlite3"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Sessions live in the database so several workers and hosts share them.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365 * 2  # the phone that made a game keeps it
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

CACHES = {
    "default": {
        # Django's database cache, culled oldest first (continental/cache.py).
        "BACKEND": "continental.cache.DatabaseCache",
        "LOCATION": "scorepad_cache",
        # The sheet of each game version (scorepad/board.py), shared by every worker and host:
        # three entries a table and version (the editor's sheet, the viewers' sheet and their
        # whole answer), some 4 KB each; 20,000 hold the last few versions of 1,500 tables.
        # A cull deletes a tenth, the oldest, in one statement.
        "OPTIONS": {"MAX_ENTRIES": 20000, "CULL_FREQUENCY": 10},
    }
}

# --- languages -------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("nb", "Norsk bokmål"),
    ("pl", "Polski"),
    ("fi", "Suomi"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language switcher remembers the choice (continental/views.py): "/" opens in it.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
# Dates as each language writes them, where Django's own formats read wrong (Finnish days
# of a month in the partitive, Polish short dates with dots).
FORMAT_MODULE_PATH = ["continental.formats"]
USE_TZ = True
TIME_ZONE = "UTC"

# --- static files ------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if env_bool("PLAIN_STATIC", TESTING)
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- security ------------------------------------------------------------------------
SECURE = env_bool("SECURE", False)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SECURE_CONTENT_TYPE_NOSNIFF = True
# The origin only, never a path: a Referer never carries a game's link, not even to this
# server's own log. (no-referrer would also make the Origin of a form's POST "null", which
# the CSRF check refuses over HTTPS.)
SECURE_REFERRER_POLICY = "strict-origin"
X_FRAME_OPTIONS = "DENY"
# Sent by continental.middleware.OpenerPolicyMiddleware, only where browsers honour it.
SECURE_CROSS_ORIGIN_OPENER_POLICY = None

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [NONE],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "manifest-src": [SELF],
    },
}

# Requests per client and minute (0 turns a limit off); off under pytest unless a test asks.
RATE_LIMITS = (
    {}
    if TESTING or not env_bool("RATE_LIMIT", True)
    else {
        "write": int(os.environ.get("RATE_LIMIT_WRITES", "120")),
        "api": int(os.environ.get("RATE_LIMIT_API", "600")),
    }
)
# How many proxies in front of the app append to X-Forwarded-For (0: use REMOTE_ADDR).
TRUSTED_PROXY_HOPS = int(os.environ.get("TRUSTED_PROXY_HOPS", "0"))

SITE_NAME = _("Continental")

# A bare fixed page at /bench/bare for bench/load.py to compare against; off in production.
BENCH_VIEWS = env_bool("BENCH_VIEWS", False)
if BENCH_VIEWS:  # each answer says where its time went (continental/timing.py)
    MIDDLEWARE.insert(0, "continental.timing.ServerTimingMiddleware")

# --- live streams (continental/live.py, static/js/live.js) ----------------------------
# Off under pytest unless a test turns them on (and starts a stream process).
LIVE_STREAMS = env_bool("LIVE_STREAMS", not TESTING)
LIVE_PORT = os.environ.get("LIVE_PORT", "").strip()
if LIVE_PORT and not LIVE_PORT.isdigit():
    raise ImproperlyConfigured(f"LIVE_PORT must be a port number, not {LIVE_PORT!r}")
LIVE_PER_ADDRESS = int(os.environ.get("LIVE_PER_ADDRESS", "200"))
LIVE_MAX_STREAMS = int(os.environ.get("LIVE_MAX_STREAMS", "0"))  # 0: the open-files limit
LIVE_HEARTBEAT = float(os.environ.get("LIVE_HEARTBEAT", "15"))
LIVE_LIFETIME = float(os.environ.get("LIVE_LIFETIME", "1800"))
# SQLite's watcher reads the new changes this often (seconds): a change waits half of it on
# average before its phones hear of it; one read costs some 0.1 ms of CPU.
LIVE_POLL_INTERVAL = float(os.environ.get("LIVE_POLL_INTERVAL", "0.025"))
# How long a plain viewer's event waits for the change's viewers' answer to be kept (warm.py)
LIVE_KEPT_WAIT = float(os.environ.get("LIVE_KEPT_WAIT", "1"))
# A connection to the stream process that has not sent a whole request in this many seconds
# (after it opened, or after its last answer) is closed (continental/liveserver.py).
LIVE_REQUEST_TIMEOUT = float(os.environ.get("LIVE_REQUEST_TIMEOUT", "5"))
LIVE_LOG_EVERY = float(os.environ.get("LIVE_LOG_EVERY", "10"))  # seconds between refusal lines
LIVE_CHECK = float(os.environ.get("LIVE_CHECK", "60"))  # every followed version read again
# A reconnect waits this many milliseconds, drawn at random: a restart spreads its phones.
LIVE_RETRY_MS = tuple(int(x) for x in os.environ.get("LIVE_RETRY_MS", "1000-10000").split("-", 1))

# Game links are keys: every line goes through one handler that masks them
# (continental/logfilters.py); Django's own loggers write through it too instead of their
# default handlers.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_tokens": {"()": "continental.logfilters.MaskTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["mask_tokens"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "django": {"handlers": [], "level": os.environ.get("LOG_LEVEL", "WARNING")},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
