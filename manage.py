#!/usr/bin/env python3
"""Django's command-line utility, plus the README's two commands (serve, runtests)."""

import os
import sys


def main():
    from continental import bootstrap

    if bootstrap.main():
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "continental.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
