"""One hand check: the request object of docs/interfaces.md in, the result out.

:func:`check` answers with a typed result (rules/engine/results.py), which the hand checker
page reads; :func:`check_hand` writes it as the result object that the ``checkhand`` command
and ``POST /api/check`` print, so all three answer alike. Bad input raises :class:`CheckError` with a message naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .cards import Card, CardError, check_copies, format_cards, parse_cards
from .messages import EngineError, gettext_noop
from .outs import check_seen, count_outs, table_decks
from .results import CheckResult, ClassicResult, Contract, ContractResult, RommeResult
from .variants import (
    CLASSIC,
    ROMME,
    DealSpec,
    OptionError,
    Variant,
    build_schedule,
    get_variant,
)

FIRST_TURN_VALUES = (None, "drawn", "undrawn")
MAX_EXTRA_CONTRACT_CARDS = 12  # out-of-turn takes add cards: two per take
REQUEST_KEYS = {"variant", "cards", "deal", "options", "first_turn", "schedule", "seen", "players"}


class CheckError(EngineError):
    """A request that cannot be checked; ``code`` says which kind of problem."""

    def __init__(
        self,
        message: str,
        code: str = "bad_request",
        token: str | None = None,
        *,
        params: Mapping[str, Any] | None = None,
        **kwparams: Any,
    ):
        given = {"token": token} if token is not None else {}
        super().__init__(message, params={**given, **(params or {})}, **kwparams)
        self.code = code
        self.token = token

    @classmethod
    def wrap(cls, exc: EngineError) -> CheckError:
        """The same message as a CheckError, keeping the code and token of ``exc``."""
        return cls(
            exc.template,
            code=getattr(exc, "code", "bad_request"),
            token=getattr(exc, "token", None),
            params=exc.params,
        )


def parse_request(request: Any, lang: str | None = None) -> dict[str, Any]:
    """Validate a request object into engine values (variant, cards, options, deal spec)."""
    if not isinstance(request, Mapping):
        raise CheckError(gettext_noop("the request must be a JSON object"))
    unknown = set(request) - REQUEST_KEYS
    if unknown:
        raise CheckError(gettext_noop("unknown field %(field)r"), field=sorted(unknown)[0])
    try:
        # Any value: get_variant refuses what is not a variant's id.
        variant = get_variant(cast(str, request.get("variant")))
        options = variant.resolve_options(request.get("options"))
    except OptionError as exc:
        raise CheckError.wrap(exc) from None
    raw_cards = request.get("cards")
    if not isinstance(raw_cards, str | list):
        raise CheckError(gettext_noop("cards must be a string of card tokens"), code="bad_card")
    try:
        cards = parse_cards(raw_cards, lang)
    except CardError as exc:
        raise CheckError.wrap(exc) from None
    first_turn = request.get("first_turn")
    deal_spec = _deal_spec(request, variant)
    _check_first_turn(variant, first_turn)
    _check_count(variant, len(cards), first_turn, deal_spec)
    decks, jokers = variant.max_decks()
    try:
        check_copies(cards, decks, jokers)
    except CardError as exc:
        raise CheckError.wrap(exc) from None
    players, seen, table = _parse_outs_fields(request, variant, cards, lang)
    return {
        "variant": variant,
        "cards": cards,
        "options": options,
        "deal_spec": deal_spec,
        "first_turn": first_turn,
        "players": players,
        "seen": seen,
        "table": table,
    }


def _deal_spec(request: Mapping[str, Any], variant: Variant) -> DealSpec | None:
    """The deal asked for (contract games, which need it); the other games take none."""
    deal = request.get("deal")
    if not variant.is_contract:
        if deal is not None:
            raise CheckError(
                gettext_noop("%(variant)s has no deals to choose; leave out 'deal'"),
                code="bad_deal",
                variant=variant.id,
            )
        if request.get("schedule") is not None:
            raise CheckError(
                gettext_noop("%(variant)s has no deal schedule; leave out 'schedule'"),
                code="bad_request",
                variant=variant.id,
            )
        return None
    schedule = None
    if request.get("schedule") is not None:
        try:
            schedule = build_schedule(request["schedule"])
        except OptionError as exc:
            raise CheckError.wrap(exc) from None
    if deal is None:
        raise CheckError(
            gettext_noop("%(variant)s needs the deal (1 to 7)"),
            code="bad_deal",
            variant=variant.id,
        )
    try:
        return variant.deal_spec(deal, schedule)
    except OptionError as exc:
        raise CheckError.wrap(exc) from None


def _check_first_turn(variant: Variant, first_turn: Any) -> None:
    if variant.id != CLASSIC and first_turn is not None:
        raise CheckError(
            gettext_noop("first_turn applies to the classic game only"), code="bad_request"
        )
    if first_turn not in FIRST_TURN_VALUES:
        raise CheckError(
            gettext_noop('first_turn must be "drawn", "undrawn" or null'), code="bad_request"
        )


def _check_count(variant: Variant, n: int, first_turn: str | None, spec: DealSpec | None) -> None:
    """Refuse a hand of the wrong size for the game (and first turn, or deal)."""
    if variant.id == CLASSIC:
        expected = {"drawn": (16,), "undrawn": (15,), None: (15, 16)}[first_turn]
        if n in expected:
            return
        if len(expected) == 2:
            raise CheckError(
                gettext_noop("the classic game checks %(low)s or %(high)s cards, not %(count)s"),
                code="wrong_count",
                low=expected[0],
                high=expected[1],
                count=n,
            )
        raise CheckError(
            gettext_noop("the classic game checks %(expected)s cards, not %(count)s"),
            code="wrong_count",
            expected=expected[0],
            count=n,
        )
    if variant.id == ROMME:
        if n != 15:
            raise CheckError(
                gettext_noop("Rommé checks the hand after drawing: 15 cards, not %(count)s"),
                code="wrong_count",
                count=n,
            )
        return
    assert spec is not None  # a contract game: _deal_spec found it
    low = spec.cards + 1
    high = low + MAX_EXTRA_CONTRACT_CARDS
    if not low <= n <= high:
        raise CheckError(
            gettext_noop(
                "deal %(deal)s deals %(dealt)s cards: a hand after drawing "
                "holds %(low)s to %(high)s, not %(count)s"
            ),
            code="wrong_count",
            deal=spec.number,
            dealt=spec.cards,
            low=low,
            high=high,
            count=n,
        )


def _parse_outs_fields(
    request: Mapping[str, Any], variant: Any, cards: list[Card], lang: str | None
) -> tuple[int | None, list[Card], tuple[int, int] | None]:
    """``players`` and ``seen`` (the classic game only) and the table's (decks, jokers)."""
    players = request.get("players")
    raw_seen = request.get("seen")
    if variant.id != CLASSIC:
        for name, value in (("players", players), ("seen", raw_seen)):
            if value is not None:
                raise CheckError(
                    gettext_noop("%(field)s applies to the classic game only"),
                    code="bad_request",
                    field=name,
                )
        return None, [], None
    if players is not None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise CheckError(
                gettext_noop("players must be a whole number of players"), code="bad_players"
            )
        try:
            variant.check_players(players)
        except OptionError as exc:
            raise CheckError.wrap(exc) from None
    seen: list[Card] = []
    if raw_seen is not None:
        if not isinstance(raw_seen, str | list):
            raise CheckError(gettext_noop("seen must be a string of card tokens"), code="bad_card")
        try:
            seen = parse_cards(raw_seen, lang)
        except CardError as exc:
            raise CheckError.wrap(exc) from None
    decks, jokers = table_decks(variant, players, [*cards, *seen])
    try:
        check_copies(cards, decks, jokers)
        check_seen(cards, seen, decks, jokers)
    except CardError as exc:
        raise CheckError.wrap(exc) from None
    return players, seen, (decks, jokers)


def check(request: Any, lang: str | None = None) -> CheckResult:
    """Answer one request with a typed result; raise CheckError for bad input."""
    parsed = parse_request(request, lang)
    variant = parsed["variant"]
    cards = parsed["cards"]
    head = {"variant": variant.id, "cards": format_cards(cards)}
    if variant.id == CLASSIC:
        from .solver.classic import solve_classic

        answer = solve_classic(cards, parsed["options"], parsed["first_turn"])
        waits = answer["waits"]
        decks, jokers = parsed["table"]
        outs = None if waits is None else count_outs(waits, cards, decks, jokers, parsed["seen"])
        return ClassicResult(
            **head,
            goes_out=answer["goes_out"],
            melds=tuple(answer["melds"]),
            discard=answer["discard"],
            payment=answer["payment"],
            payment_rows=tuple(answer["payment_rows"]),
            waits=None if waits is None else tuple(waits),
            outs=outs,
        )
    if variant.id == ROMME:
        from .solver.romme import solve_romme

        answer = solve_romme(cards, parsed["options"])
        return RommeResult(
            **head,
            opening_points=answer["opening_points"],
            can_open=answer["can_open"],
            handromme=answer["handromme"],
            melds=tuple(answer["melds"]),
            discard=answer["discard"],
        )
    from .solver.contract import solve_contract

    spec = parsed["deal_spec"]
    answer = solve_contract(cards, variant, parsed["options"], spec)
    return ContractResult(
        **head,
        deal=spec.number,
        contract=Contract(sets=spec.sets, runs=spec.runs),
        can_open=answer["can_open"],
        melds=tuple(answer["melds"]),
        discard=answer["discard"],
        left_in_hand=tuple(answer["left_in_hand"]),
        penalty=answer["penalty"],
        goes_out=answer["goes_out"],
    )


def check_hand(request: Any, lang: str | None = None) -> dict[str, Any]:
    """Answer one request with the result object of docs/interfaces.md (JSON-ready)."""
    return check(request, lang).as_json()
