"""The four variants of docs/rules.md as data, with their house-rule options and deal schedules.

Everything the score pad and the hand checker need to know about a variant lives here:
players allowed, decks and jokers (by player count, and by deal for contract-spanish),
cards dealt and the contract of each deal, the dealing direction, what is wild and the
limits on wild cards, run and set rules, card penalty values and the stake payment table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .messages import EngineError, gettext_noop

CLASSIC = "classic"
NORDIC = "contract-nordic"
SPANISH = "contract-spanish"
ROMME = "romme"
VARIANT_IDS = (CLASSIC, NORDIC, SPANISH, ROMME)

# Wild-card limits per meld.
WILD_ANY = "any"  # classic: any mix, even all wild
WILD_NOT_MORE_THAN_NATURAL = "not_more_than_natural"  # nordic: wild <= natural
WILD_NEEDS_NATURAL = "needs_natural"  # spanish, romme: at least one natural card

# What counts as a "set" in a variant.
SETS_NONE = None  # classic: runs only
SETS_SAME_RANK = "set"  # contract games: 3+ cards of one rank, suits may repeat
SETS_GROUP = "group"  # romme: 3-4 cards of one rank, all of different suits

LEFT = "left"  # clockwise
RIGHT = "right"  # counter-clockwise


class OptionError(EngineError):
    """An unknown option, a bad option value, an unknown variant or deal, a bad schedule."""

    def __init__(
        self,
        message: str,
        code: str = "bad_option",
        *,
        params: Mapping[str, Any] | None = None,
        **kwparams: Any,
    ):
        super().__init__(message, params=params, **kwparams)
        self.code = code


@dataclass(frozen=True)
class OptionSpec:
    """A house-rule option: its name, the values it allows and its default."""

    name: str
    default: Any
    choices: tuple[Any, ...]  # allowed values; (False, True) for a switch
    # Its label and help are words of the game: rules/content/words/<lang>.toml [option.<name>]

    @property
    def is_bool(self) -> bool:
        return self.choices == (False, True)

    def clean(self, value: Any) -> Any:
        if self.is_bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "on", "off"):
                return value.lower() in ("true", "on")
            raise OptionError(
                gettext_noop("option %(name)r takes true or false, not %(value)r"),
                name=self.name,
                value=value,
            )
        for choice in self.choices:
            if value == choice and type(value) is type(choice):
                return choice
            if isinstance(value, float) and value == choice:  # JSON 30.0 is the number 30
                return choice
            if isinstance(value, str) and value.strip() == str(choice):
                return choice
        allowed = ", ".join(str(c) for c in self.choices)
        raise OptionError(
            gettext_noop("option %(name)r takes one of %(allowed)s, not %(value)r"),
            name=self.name,
            allowed=allowed,
            value=value,
        )


@dataclass(frozen=True)
class DealSpec:
    """One deal of a contract game: cards dealt and the contract (numbers of sets and runs)."""

    number: int
    cards: int
    sets: int
    runs: int
    set_min: int = 3
    run_min: int = 4

    @property
    def minimum_cards(self) -> int:
        return self.sets * self.set_min + self.runs * self.run_min

    def as_dict(self) -> dict[str, int]:
        return {
            "cards": self.cards,
            "sets": self.sets,
            "runs": self.runs,
            "set_min": self.set_min,
            "run_min": self.run_min,
        }


_CONTRACTS = ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))
NORDIC_SCHEDULE = tuple(DealSpec(i + 1, 12, s, r) for i, (s, r) in enumerate(_CONTRACTS))
SPANISH_SCHEDULE = tuple(DealSpec(i + 1, 6 + i, s, r) for i, (s, r) in enumerate(_CONTRACTS))

MAX_CUSTOM_DEALS = 20
MAX_CARDS_DEALT = 20


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    min_players: int
    max_players: int
    scoring: str  # "payment" (classic) or "penalty"
    direction: str  # LEFT or RIGHT: the deal passes and play goes this way
    options: tuple[OptionSpec, ...]
    run_min: int
    run_max: int
    run_wraps: bool  # runs around the corner (Q-K-A-2)
    sets: str | None
    wild_limit: str
    schedule: tuple[DealSpec, ...] | None = None  # contract games only
    summary: str = ""
    dealer_rule: str = ""  # how the first dealer is found
    payment_table: Mapping[str, int] = field(default_factory=dict)
    # classic: two identical cards (same rank and suit) never share a run, whatever role
    # they play (two 2♠ not even both wild); jokers are exempt
    runs_keep_identical_apart: bool = False
    # Rommé: the starting player is dealt one card more and begins by discarding
    starter_extra_cards: int = 0

    # --- options -------------------------------------------------------------
    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        raise OptionError(
            gettext_noop("unknown option %(name)r for %(variant)s"), name=name, variant=self.id
        )

    def default_options(self) -> dict[str, Any]:
        return {spec.name: spec.default for spec in self.options}

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The variant's options with ``given`` applied; unknown names or bad values refused."""
        if given is not None and not isinstance(given, Mapping):
            raise OptionError(gettext_noop("options must be an object of option names and values"))
        resolved = self.default_options()
        for name, value in (given or {}).items():
            resolved[name] = self.option(name).clean(value)
        return resolved

    # --- players, decks, dealing -----------------------------------------------
    @property
    def is_contract(self) -> bool:
        return self.schedule is not None

    @property
    def is_classic(self) -> bool:
        """The classic (15-card stake) game; templates ask this instead of naming its id."""
        return self.id == CLASSIC

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                gettext_noop("%(variant)s is for %(low)s to %(high)s players, not %(players)s"),
                code="bad_players",
                variant=self.name,
                low=self.min_players,
                high=self.max_players,
                players=players,
            )

    def decks(self, players: int, deal: int = 1) -> tuple[int, int]:
        """(52-card decks, jokers) for this many players in this deal."""
        if self.id == CLASSIC:
            decks = 2 if players <= 5 else 3 if players <= 8 else 4
            return decks, decks
        if self.id == NORDIC:
            return 2, 4
        if self.id == SPANISH:
            if players <= 3:
                decks = 2
            elif players == 4:
                decks = 2 if deal <= 4 else 3
            else:
                decks = 2 if deal <= 2 else 3 if deal <= 4 else 4
            return decks, 2 * decks
        # romme: two decks and one joker per player
        return 2, players

    def max_decks(self) -> tuple[int, int]:
        """The most decks and jokers any table of this variant uses (limits for the checker)."""
        return max(
            (
                self.decks(p, d)
                for p in range(self.min_players, self.max_players + 1)
                for d in (1, 99)
            ),
        )

    def cards_dealt(self, deal: int = 1, schedule: tuple[DealSpec, ...] | None = None) -> int:
        """The cards each player is dealt (the starting player: ``starter_cards``)."""
        if self.id == CLASSIC:
            return 15
        if self.id == ROMME:
            return 14
        return self.deal_spec(deal, schedule).cards

    def starter_cards(self, deal: int = 1, schedule: tuple[DealSpec, ...] | None = None) -> int:
        """The cards the starting player is dealt: one more than the others in Rommé."""
        return self.cards_dealt(deal, schedule) + self.starter_extra_cards

    def deal_spec(self, deal: int, schedule: tuple[DealSpec, ...] | None = None) -> DealSpec:
        sched = schedule or self.schedule
        if sched is None:
            raise OptionError(
                gettext_noop("%(variant)s has no deal schedule"), code="bad_deal", variant=self.id
            )
        if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= len(sched):
            raise OptionError(
                gettext_noop("deal must be a number from 1 to %(deals)s, not %(deal)r"),
                code="bad_deal",
                deals=len(sched),
                deal=deal,
            )
        return sched[deal - 1]

    # --- wild cards and penalties ---------------------------------------------
    def can_be_wild(self, card: Card, options: Mapping[str, Any] | None = None) -> bool:
        """Whether this card may stand for another card (it is natural where it stands as itself)."""
        if card.is_joker:
            return True
        if self.id == CLASSIC:
            opts = self.resolve_options(options) if options is not None else self.default_options()
            return card.rank == 2 and bool(opts["twos_wild"])
        if self.id == NORDIC:
            return card.rank == 1 and card.is_red
        return False

    def penalty(self, card: Card) -> int:
        """Penalty points of one card left in hand (contract games and Rommé)."""
        if self.id == CLASSIC:
            raise OptionError(
                gettext_noop("the classic game has no card penalties"), code="bad_variant"
            )
        if card.is_joker:
            return 20 if self.id == ROMME else 50
        r = card.rank
        if self.id == ROMME:
            return 11 if r == 1 else min(r, 10)
        if r == 1:
            return 20
        if self.id == NORDIC:
            return 5 if r <= 9 else 10
        return 5 if r <= 7 else 10  # spanish: 8 and 9 are worth ten


def _bool(name: str, default: bool) -> OptionSpec:
    return OptionSpec(name, default, (False, True))


CLASSIC_PAYMENTS = {
    "going_out": 1,
    "wild_twos": 1,
    "jokers": 2,
    "no_wild": 10,
    "first_turn_drawn": 7,
    "first_turn_undrawn": 10,
    "one_suit": 10,
}

VARIANTS: dict[str, Variant] = {
    CLASSIC: Variant(
        id=CLASSIC,
        name="Continental, the 15-card game",
        min_players=2,
        max_players=12,
        scoring="payment",
        direction=LEFT,
        options=(_bool("twos_wild", True),),
        run_min=3,
        run_max=5,
        run_wraps=False,
        sets=SETS_NONE,
        wild_limit=WILD_ANY,
        summary="15 cards each; go out with runs only, 3+3+3+3+3, 4+4+4+3 or 5+4+3+3; "
        "everybody pays the winner.",
        dealer_rule="lowest",
        payment_table=CLASSIC_PAYMENTS,
        runs_keep_identical_apart=True,
    ),
    NORDIC: Variant(
        id=NORDIC,
        name="Continental, the 7-deal contract game (Nordic rules)",
        min_players=3,
        max_players=5,
        scoring="penalty",
        direction=LEFT,
        options=(_bool("no_may_i_last_three", False),),
        run_min=4,
        run_max=13,
        run_wraps=False,
        sets=SETS_SAME_RANK,
        wild_limit=WILD_NOT_MORE_THAN_NATURAL,
        schedule=NORDIC_SCHEDULE,
        summary="Seven deals of 12 cards, each with its contract of sets and runs; jokers and "
        "red aces are wild; penalty points, lowest total wins.",
        dealer_rule="highest",
    ),
    SPANISH: Variant(
        id=SPANISH,
        name="Continental, the 7-deal contract game (Spanish rules)",
        min_players=2,
        max_players=8,
        scoring="penalty",
        direction=RIGHT,
        options=(),
        run_min=4,
        run_max=13,
        run_wraps=True,
        sets=SETS_SAME_RANK,
        wild_limit=WILD_NEEDS_NATURAL,
        schedule=SPANISH_SCHEDULE,
        summary="Seven deals from 6 to 12 cards, each with its contract; jokers are wild, runs "
        "go around the corner; penalty points, lowest total wins.",
        dealer_rule="any",
    ),
    ROMME: Variant(
        id=ROMME,
        name="Rommé with the 51-point opening",
        min_players=2,
        max_players=4,
        scoring="penalty",
        direction=LEFT,
        options=(
            OptionSpec(
                "opening_minimum",
                51,
                (30, 40, 51),
            ),
            _bool("ace_low_is_one", False),
            _bool("handromme_doubles", False),
            _bool("joker_in_each_hand", True),
        ),
        run_min=3,
        run_max=13,
        run_wraps=False,
        sets=SETS_GROUP,
        wild_limit=WILD_NEEDS_NATURAL,
        summary="14 cards (15 for the starting player); runs and groups; the first melds must "
        "be worth 51; penalty points for cards left in hand.",
        dealer_rule="any",
        starter_extra_cards=1,
    ),
}


def get_variant(variant_id: str) -> Variant:
    try:
        return VARIANTS[variant_id]
    except (KeyError, TypeError):
        known = ", ".join(VARIANT_IDS)
        raise OptionError(
            gettext_noop("unknown variant %(variant)r (known: %(known)s)"),
            code="bad_variant",
            variant=variant_id,
            known=known,
        ) from None


def build_schedule(rows: list[Mapping[str, Any]]) -> tuple[DealSpec, ...]:
    """Validate a custom deal schedule for a contract game and return it as DealSpecs.

    Each row: ``cards`` dealt, ``sets`` and ``runs`` of the contract, optional ``set_min``
    (default 3) and ``run_min`` (default 4).
    """
    if not isinstance(rows, list | tuple) or not rows:
        raise OptionError(gettext_noop("a schedule needs at least one deal"), code="bad_schedule")
    if len(rows) > MAX_CUSTOM_DEALS:
        raise OptionError(
            gettext_noop("a schedule has at most %(max)s deals"),
            code="bad_schedule",
            max=MAX_CUSTOM_DEALS,
        )
    specs = []
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise OptionError(
                gettext_noop("deal %(deal)s: not a deal description"), code="bad_schedule", deal=i
            )
        try:
            values = {
                key: int(row.get(key, default))
                for key, default in (
                    ("cards", None),
                    ("sets", 0),
                    ("runs", 0),
                    ("set_min", 3),
                    ("run_min", 4),
                )
                if key in row or default is not None
            }
        except (TypeError, ValueError, OverflowError):  # OverflowError: Infinity
            raise OptionError(
                gettext_noop("deal %(deal)s: numbers only"), code="bad_schedule", deal=i
            ) from None
        if "cards" not in values:
            raise OptionError(
                gettext_noop("deal %(deal)s: how many cards are dealt?"),
                code="bad_schedule",
                deal=i,
            )
        spec = DealSpec(number=i, **values)
        if not 1 <= spec.cards <= MAX_CARDS_DEALT:
            raise OptionError(
                gettext_noop("deal %(deal)s: cards dealt must be 1 to %(max)s"),
                code="bad_schedule",
                deal=i,
                max=MAX_CARDS_DEALT,
            )
        if spec.sets < 0 or spec.runs < 0 or spec.sets + spec.runs == 0:
            raise OptionError(
                gettext_noop("deal %(deal)s: the contract needs a set or a run"),
                code="bad_schedule",
                deal=i,
            )
        if not 3 <= spec.set_min <= 8 or not 3 <= spec.run_min <= 13:
            raise OptionError(
                gettext_noop("deal %(deal)s: sets need 3 to 8 cards, runs 3 to 13"),
                code="bad_schedule",
                deal=i,
            )
        if spec.minimum_cards > spec.cards:
            raise OptionError(
                gettext_noop(
                    "deal %(deal)s: the contract needs %(needed)s cards but only "
                    "%(dealt)s are dealt"
                ),
                code="bad_schedule",
                deal=i,
                needed=spec.minimum_cards,
                dealt=spec.cards,
            )
        specs.append(spec)
    return tuple(specs)
