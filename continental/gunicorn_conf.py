"""gunicorn settings for production: ``gunicorn -c continental/gunicorn_conf.py continental.wsgi``.

Everything can be overridden from the environment (GUNICORN_BIND, GUNICORN_WORKERS, ...).
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
# On PostgreSQL, 4 threads a worker: a viewer's phone that waits for another's rendering of
# the same new sheet (scorepad/board.py) then holds a thread, not a whole worker; measured
# with bench/load.py's push evening, 300 and 400 tables held where sync workers missed
# (bench/results/push-threads-pg.txt). On SQLite the threads of a worker queue on its one
# writer ("database is locked" at 900 tables): sync workers (``serve`` sets its own).
_postgres = os.environ.get("DATABASE_URL", "").split(":", 1)[0] in (
    "postgres",
    "postgresql",
    "pgsql",
)
threads = int(os.environ.get("GUNICORN_THREADS", "4" if _postgres else "1"))
# A threaded worker reads each request whole in its main loop before a thread takes it
# (continental/wholerequest.py): a phone that stalls halfway through its request holds no
# thread. GUNICORN_WORKER_CLASS=gthread keeps gunicorn's own.
worker_class = os.environ.get(
    "GUNICORN_WORKER_CLASS",
    "continental.wholerequest.WholeRequestWorker" if threads > 1 else "sync",
)
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests (a guard against slow memory growth); it
# starts from the master's loaded templates and pages (when_ready), so at full speed.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
# GUNICORN_ACCESSLOG="" turns the access log off (``manage.py serve`` does).
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None
# The access log writes game links with their tokens masked (continental/logfilters.py).
logger_class = "continental.logfilters.GunicornLogger"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
preload_app = True


def post_fork(server, worker):
    """In each sync worker: it hands the end of each answered connection (waiting for the
    phone to close its side) to a thread of its own instead of waiting itself
    (continental/closer.py). Not in threaded workers: there browsers keep their connections
    between requests, and with the thread beside the four the PostgreSQL evening of 400 tables
    joined slower (bench/results/push-closer-pg.txt). GUNICORN_CLOSE_IN_WORKER=true keeps
    gunicorn's own way everywhere, for bench/linger.py."""
    from gunicorn.workers.sync import SyncWorker

    keep_own = os.environ.get("GUNICORN_CLOSE_IN_WORKER", "").lower() in ("1", "true", "yes")
    if isinstance(worker, SyncWorker) and not keep_own:
        from continental.closer import install

        install()


def when_ready(server):
    """In the master, before the first worker is forked: load what every worker shares."""
    if not server.cfg.preload_app:
        return  # the app is not loaded in the master
    from continental.warmup import freeze, warm

    server.log.info("loaded before forking: %s", warm())
    server.log.info("objects set aside from the garbage collector: %d", freeze())
    # ``manage.py serve`` says where the phones join once the server listens.
    banner = os.environ.get("GUNICORN_BANNER")
    if banner:
        print(banner, flush=True)
