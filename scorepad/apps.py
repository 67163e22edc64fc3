from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _

# SQLite's write-ahead log: a checkpoint every 1,000 pages written (about 4 MB), and after a
# checkpoint the log file is cut back to at most 16 MiB, so it never keeps the size of the
# largest burst of writes (without a limit the file stays as large as it ever was).
WAL_AUTOCHECKPOINT_PAGES = 1000
JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024


def tune_sqlite(cursor, *, journal_size_limit: int = JOURNAL_SIZE_LIMIT) -> None:
    cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES:d}")
    cursor.execute(f"PRAGMA journal_size_limit={journal_size_limit:d}")


def _on_connection(sender, connection, **kwargs) -> None:
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            tune_sqlite(cursor)


class ScorepadConfig(AppConfig):
    name = "scorepad"
    verbose_name = _("Score pad")

    def ready(self) -> None:
        connection_created.connect(_on_connection, dispatch_uid="scorepad.tune_sqlite")
