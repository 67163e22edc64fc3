"""The settings the type checker loads: django-stubs' plugin reads the installed apps and the
models from them (``[tool.django-stubs]`` in pyproject.toml). The real settings refuse to
load without a secret key when DEBUG is off; nothing here serves or signs anything."""

import os

os.environ.setdefault("SECRET_KEY", "type-checking-only")

from .settings import *  # noqa: F403
