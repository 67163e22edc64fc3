"""gunicorn settings for production: ``gunicorn -c continental/gunicorn_conf.py continental.wsgi``.

Everything can be overridden from the environment (GUNICORN_BIND, GUNICORN_WORKERS, ...).
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
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


def when_ready(server):
    """In the master, before the first worker is forked: load what every worker shares."""
    if not server.cfg.preload_app:
        return  # the app is not loaded in the master
    from continental.warmup import warm

    server.log.info("loaded before forking: %s", warm())
    # ``manage.py serve`` says where the phones join once the server listens.
    banner = os.environ.get("GUNICORN_BANNER")
    if banner:
        print(banner, flush=True)
