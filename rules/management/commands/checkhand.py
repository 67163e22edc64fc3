"""``manage.py checkhand``: check hands from the command line (docs/interfaces.md#checkhand).

checkhand --variant classic "AS 2S 3S ..."      one hand, one JSON object
checkhand --jsonl < requests.jsonl              one JSON request per line
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from rules.engine.check import CheckError, check_hand


class Command(BaseCommand):
    help = "Check whether a hand goes out (or opens) and print the answer as JSON."
    requires_system_checks: tuple[str, ...] = ()
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("cards", nargs="?", help='the hand, e.g. "AS 2S 3S ..."')
        parser.add_argument("--variant", help="classic, contract-nordic, contract-spanish, romme")
        parser.add_argument("--deal", type=int, help="the deal (contract games)")
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a house-rule option, e.g. twos_wild=false (repeatable)",
        )
        parser.add_argument("--first-turn", choices=["drawn", "undrawn"], default=None)
        parser.add_argument(
            "--seen", help='classic: cards seen outside the hand, left out of outs, e.g. "2S JK"'
        )
        parser.add_argument(
            "--players", type=int, help="classic: the players at the table (the decks of outs)"
        )
        parser.add_argument(
            "--jsonl", action="store_true", help="read one JSON request per line from stdin"
        )

    def handle(self, *args, **opts):
        if opts["jsonl"]:
            if opts["cards"] or opts["variant"]:
                raise CommandError(
                    "--jsonl reads its requests from stdin; give no hand", returncode=2
                )
            self._jsonl()
            return
        if not opts["variant"] or not opts["cards"]:
            raise CommandError(
                'give --variant and the cards, e.g. --variant classic "AS 2S 3S"', returncode=2
            )
        request = {"variant": opts["variant"], "cards": opts["cards"]}
        if opts["deal"] is not None:
            request["deal"] = opts["deal"]
        if opts["first_turn"]:
            request["first_turn"] = opts["first_turn"]
        for name in ("seen", "players"):
            if opts[name] is not None:
                request[name] = opts[name]
        if opts["option"]:
            request["options"] = dict(self._option(o) for o in opts["option"])
        try:
            result = check_hand(request)
        except CheckError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(json.dumps(result, ensure_ascii=False))

    @staticmethod
    def _option(text: str) -> tuple[str, object]:
        name, sep, value = text.partition("=")
        if not sep:
            raise CommandError(f"--option takes NAME=VALUE, not {text!r}", returncode=2)
        value = value.strip()
        if value.lower() in ("true", "false"):
            return name.strip(), value.lower() == "true"
        if value.isascii() and value.isdigit() and len(value) < 10:
            return name.strip(), int(value)
        return name.strip(), value

    def _jsonl(self) -> None:
        out = self.stdout
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
                result = check_hand(request)
            except ValueError as exc:  # JSON errors and CheckError alike
                message = str(exc) if isinstance(exc, CheckError) else "not a JSON object"
                result = {"error": message}
            except Exception as exc:
                result = {"error": f"internal error: {type(exc).__name__}"}
            out.write(json.dumps(result, ensure_ascii=False))
