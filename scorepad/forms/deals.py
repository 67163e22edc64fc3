"""The deal forms: a request validates into engine values, the engine scores.

A deal form calls the engine in ``clean()`` so that every error a person can cause (a
mistyped card, points that no hand is worth, a hand that does not go out) is shown in
place, next to the field concerned, and nothing is saved. ``ClassicDealForm`` takes the
classic game's payment (from its rows or from the winner's hand), ``PenaltyDealForm`` every
player's penalty (points or the cards left) of the contract games and Rommé.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.text import get_text_list
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules.engine.audit import Excess, excess_cards
from rules.engine.cards import (
    CardError,
    check_copies,
    format_cards,
    format_local,
    local_code,
    parse_cards,
)
from rules.engine.check import CheckError, check_hand
from rules.engine.scoring import (
    ScoreError,
    classic_ledger,
    classic_payment,
    hand_penalty,
    penalty_deal,
    penalty_errors,
)
from rules.engine.variants import CLASSIC, CLASSIC_PAYMENTS, ROMME
from rules.i18n import engine_message
from rules.pages.words import payment_label

from .. import conflicts
from ..models import Deal, DealResult, Game, Seat
from .change import INCOMPLETE, VersionedChange, once_field
from .data import form_data

WENT_OUT_ABANDONED = "abandoned"
WENT_OUT_NOBODY = "nobody"
FIRST_TURN_CHOICES = [
    ("", _("No")),
    ("drawn", _("Yes, after drawing")),
    ("undrawn", _("Yes, without drawing")),
]

# The box the cards of a hand are typed in: two lines, so that 16 cards are seen whole.
CARDS_BOX = {
    "rows": 2,
    "autocomplete": "off",
    "autocapitalize": "characters",
    "spellcheck": "false",
}


class BaseField(forms.CharField):
    """The hidden ``base`` of a correction: a value too long to be one (conflicts.BASE_MAX)
    is read as none, never an error the player could not act on."""

    def to_python(self, value: Any) -> str:
        text: str = super().to_python(value) or ""
        return text if len(text) <= conflicts.BASE_MAX else ""


# What a classic deal's payment was worked out from: its points (None: refused), its rows
# and the entry kept with the deal.
Payment = tuple[int | None, list[dict[str, Any]], dict[str, Any]]


def typed_back(cards: str) -> str:
    """Stored cards (canonical notation) as the page's language types them, the letters of
    the card grid's buttons: German ``BH DH``, not ``JH QH``."""
    try:
        return format_local(parse_cards(cards), get_language())
    except CardError:
        return cards


class DealForm(VersionedChange):
    """What both kinds of deal forms share: who went out, the version and the one-time token
    (each refusal of those two is "The form was incomplete")."""

    version = forms.IntegerField(widget=forms.HiddenInput, error_messages=INCOMPLETE)
    # Made by the server, or by the phone for a deal recorded without a connection
    # (static/js/table.js): either way letters, digits, "-" and "_" only.
    once = once_field(shaped=True)
    # Where the form started (scorepad/conflicts.py): the number of the deal it records, and
    # for a correction the values its fields had when it opened.
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    base = BaseField(widget=forms.HiddenInput, required=False)
    went_out = forms.ChoiceField(
        label=_("Who went out?"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Tap who went out.")},
    )

    @classmethod
    def initial_from(cls, deal: Deal) -> dict[str, Any]:
        """The form's values for a stored deal (a correction opens with them)."""
        raise NotImplementedError  # each kind of deal form reads its own entry

    def __init__(
        self,
        *args: Any,
        game: Game,
        seats: list[Seat],
        deal: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.variant = game.variant
        self.seats = seats
        self.deal_number = deal  # the deal this form corrects; None: the next one
        self.by_pos = {s.position: s for s in seats}
        self.result: DealResult | None = None

    @property
    def winner(self) -> Seat | None:
        if self.result is None or self.result.went_out is None:
            return None
        return self.by_pos[self.result.went_out]

    def ledger(self) -> list[tuple[Seat, int]]:
        """Each player's score in this deal, as the engine computed it, in seating order."""
        if self.result is None:
            return []
        return [(s, self.result.scores.get(s.position, 0)) for s in self.seats]

    @property
    def doubled(self) -> bool:
        """Whether the others' penalties of this deal count double (Handrommé)."""
        return bool(
            self.result is not None
            and self.result.handromme
            and self.game.options.get("handromme_doubles")
        )

    def ledger_lines(self) -> list[tuple[Seat, int, int | None]]:
        """The ledger with what each score is made of: the penalty before it was doubled
        (``half``, shown as "half × 2"), else None."""
        doubled = self.doubled
        return [
            (seat, points, points // 2 if doubled and points else None)
            for seat, points in self.ledger()
        ]

    def payment_lines(self) -> list[dict[str, Any]]:
        """A classic payment's rows with how many cards of each kind made them: a row of
        2s or jokers says "count × points each"."""
        if self.result is None:
            return []
        lines = []
        for row in self.result.payment_rows:
            each = CLASSIC_PAYMENTS.get(row["row"], 0)
            counted = row["row"] in ("wild_twos", "jokers") and each
            lines.append(
                {
                    "row": row["row"],
                    "points": row["points"],
                    "count": row["points"] // each if counted else None,
                    "each": each,
                }
            )
        return lines

    def fill_result(self) -> None:
        """The result of the form's initial values (a deal opened to be corrected), so the
        preview shows it at once: the values are checked as if they had been posted."""
        data = form_data({k: v for k, v in self.initial.items() if k in self.fields})
        twin = type(self)(data, game=self.game, seats=self.seats, deal=self.deal_number)
        if twin.is_valid():
            self.result = twin.result


class ClassicDealForm(DealForm):
    mode = forms.ChoiceField(
        label=_("Payment"),
        choices=[("rows", _("From the rows")), ("hand", _("From the winner's hand"))],
        widget=forms.RadioSelect,
        initial="rows",
        required=False,
    )
    wild_twos = forms.TypedChoiceField(
        label=_("2s used as wild cards"),
        coerce=int,
        widget=forms.RadioSelect,
        initial=0,
        required=False,
    )
    jokers = forms.TypedChoiceField(
        label=_("Jokers used"), coerce=int, widget=forms.RadioSelect, initial=0, required=False
    )
    first_turn = forms.ChoiceField(
        label=_("Out on the first turn?"),
        choices=FIRST_TURN_CHOICES,
        widget=forms.RadioSelect,
        initial="",
        required=False,
    )
    one_suit = forms.BooleanField(required=False)  # labelled as its payment row
    hand = forms.CharField(
        label=_("The winner's hand"),
        required=False,
        max_length=400,
        help_text=_(
            "All 16 cards after drawing (15 when out without drawing), e.g. “4S 5S 6S JK”."
        ),
        error_messages={"max_length": _("That is more cards than a hand holds.")},
        widget=forms.Textarea(attrs=CARDS_BOX),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        n = len(self.seats)
        self.decks, self.jokers_in_play = self.game.decks(1, n)
        self.twos_wild = bool(self.game.options.get("twos_wild", True))
        self.fields["one_suit"].label = payment_label("one_suit", get_language())
        cast(forms.ChoiceField, self.fields["went_out"]).choices = [
            (str(s.position), s.name) for s in self.seats
        ] + [(WENT_OUT_ABANDONED, _("Nobody: abandoned deal, no score"))]
        max_twos = min(15, 4 * self.decks) if self.twos_wild else 0
        cast(forms.ChoiceField, self.fields["wild_twos"]).choices = [
            (i, str(i)) for i in range(max_twos + 1)
        ]
        cast(forms.ChoiceField, self.fields["jokers"]).choices = [
            (i, str(i)) for i in range(self.jokers_in_play + 1)
        ]
        if not self.twos_wild:
            del self.fields["wild_twos"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        went_out = data.get("went_out")
        if not went_out or self.errors:
            return data
        if went_out == WENT_OUT_ABANDONED:
            self.result = DealResult(
                status=Deal.Status.ABANDONED, went_out=None, scores={}, entry={"abandoned": True}
            )
            return data
        winner = int(went_out)
        first_turn = data.get("first_turn") or None
        positions = [s.position for s in self.seats]
        if data.get("mode") == "hand":
            payment, rows, entry = self._from_hand(data.get("hand", ""), first_turn)
        else:
            payment, rows, entry = self._from_rows(data, first_turn)
        if payment is None:
            return data
        try:
            scores = classic_ledger(positions, winner, payment)
        except ScoreError as exc:
            self.add_error(None, engine_message(exc))
            return data
        self.result = DealResult(
            status=Deal.Status.SCORED,
            went_out=winner,
            scores=scores,
            entry=entry,
            payment=payment,
            payment_rows=tuple(rows),
        )
        return data

    def _from_rows(self, data: dict[str, Any], first_turn: str | None) -> Payment:
        wild_twos = data.get("wild_twos") or 0
        jokers = data.get("jokers") or 0
        one_suit = bool(data.get("one_suit"))
        try:
            payment = classic_payment(
                wild_twos, jokers, first_turn, one_suit, twos_wild=self.twos_wild
            )
        except ScoreError as exc:
            self.add_error("one_suit" if one_suit and jokers else None, engine_message(exc))
            return None, [], {}
        entry = {
            "mode": "rows",
            "wild_twos": wild_twos,
            "jokers": jokers,
            "first_turn": first_turn,
            "one_suit": one_suit,
        }
        return payment.total, [r.as_json() for r in payment.rows], entry

    def _from_hand(self, text: str, first_turn: str | None) -> Payment:
        if not text.strip():
            self.add_error("hand", _("Enter the winner's cards, or choose “From the rows”."))
            return None, [], {}
        request = {
            "variant": CLASSIC,
            "cards": text,
            "options": dict(self.game.options),
            "first_turn": first_turn,
        }
        try:
            cards = parse_cards(text, get_language())
            check_copies(cards, self.decks, self.jokers_in_play)
            request["cards"] = format_cards(cards)
            answer = check_hand(request)
        except (CardError, CheckError) as exc:
            winner = self.by_pos.get(int(self.cleaned_data["went_out"]))
            message = engine_message(exc)
            if winner is not None:
                message = _("%(player)s: %(error)s") % {
                    "player": winner.name,
                    "error": message,
                }
            self.add_error("hand", message)
            return None, [], {}
        if not answer.get("goes_out"):
            self.add_error(
                "hand", _("This hand does not go out: its cards do not all fit in runs.")
            )
            return None, [], {}
        entry = {
            "mode": "hand",
            "cards": answer["cards"],
            "first_turn": first_turn,
            "melds": answer.get("melds") or [],
            "discard": answer.get("discard"),
        }
        return answer["payment"], answer.get("payment_rows") or [], entry

    @classmethod
    def initial_from(cls, deal: Deal) -> dict[str, Any]:
        if deal.is_abandoned:
            return {"went_out": WENT_OUT_ABANDONED}
        entry = deal.entry
        initial = {"went_out": str(deal.went_out), "first_turn": entry.get("first_turn") or ""}
        if entry.get("mode") == "hand":
            initial.update(mode="hand", hand=typed_back(entry.get("cards", "")))
        else:
            initial.update(
                mode="rows",
                wild_twos=entry.get("wild_twos", 0),
                jokers=entry.get("jokers", 0),
                one_suit=entry.get("one_suit", False),
            )
        return initial


class PenaltyDealForm(DealForm):
    handromme = forms.BooleanField(
        label=_("Handrommé"),
        required=False,
        help_text=_("Went out with the whole hand in one turn, without having opened before."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["went_out"]).choices = [
            (str(s.position), s.name) for s in self.seats
        ] + [(WENT_OUT_NOBODY, _("Nobody: the stock ran out"))]
        if self.variant.id != ROMME:
            del self.fields["handromme"]
        for seat in self.seats:
            name = {"name": seat.name}
            # No min_value: the engine refuses negative points with a message naming the
            # player (a browser's own check of min would speak its language, not ours).
            self.fields[f"points_{seat.position}"] = forms.IntegerField(
                label=_("Penalty points of %(name)s") % name,
                required=False,
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "step": "5" if self.variant.is_contract else "1"}
                ),
                error_messages={"invalid": _("%(name)s: points are a whole number.") % name},
            )
            self.fields[f"cards_{seat.position}"] = forms.CharField(
                label=_("Cards left in the hand of %(name)s") % name,
                required=False,
                max_length=400,
                error_messages={
                    "max_length": _("%(name)s: that is more cards than a hand holds.") % name
                },
                widget=forms.Textarea(attrs=CARDS_BOX),
            )

    def player_rows(self) -> list[tuple[Seat, forms.BoundField, forms.BoundField]]:
        return [
            (seat, self[f"points_{seat.position}"], self[f"cards_{seat.position}"])
            for seat in self.seats
        ]

    def _hands(
        self, data: dict[str, Any], winner: int | None
    ) -> tuple[dict[int, int | list], dict[str, dict[str, Any]]]:
        """Each player's hand as the form gives it (points, or the cards left, which must
        agree when both are given) and as the deal's entry keeps it; a mistake is added to
        the form, naming the player."""
        left: dict[int, int | list] = {}
        entry_left: dict[str, dict[str, Any]] = {}
        lang = get_language()
        for seat in self.seats:
            pos = seat.position
            points = data.get(f"points_{pos}")
            text = (data.get(f"cards_{pos}") or "").strip()
            if f"points_{pos}" in self.errors:
                continue
            if text:
                try:
                    cards = parse_cards(text, lang)
                except CardError as exc:
                    self.add_error(f"cards_{pos}", self._named(seat, exc))
                    continue
                if points is not None and points != hand_penalty(cards, self.variant):
                    # Both given and they disagree: which one counts is the player's call.
                    self.add_error(
                        f"points_{pos}",
                        _(
                            "%(name)s: the cards count %(cards)d, the points say %(points)d. "
                            "Clear one of the two."
                        )
                        % {
                            "name": seat.name,
                            "cards": hand_penalty(cards, self.variant),
                            "points": points,
                        },
                    )
                    continue
                left[pos] = cards
                entry_left[str(pos)] = {"cards": format_cards(cards)}
            elif points is not None:
                left[pos] = points
                entry_left[str(pos)] = {"points": points}
            elif pos != winner:
                self.add_error(
                    f"points_{pos}",
                    _("Enter the penalty of %(name)s, as points or as the cards left.")
                    % {"name": seat.name},
                )
        return left, entry_left

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        went_out = data.get("went_out")
        if not went_out or "went_out" in self.errors:
            return data
        winner = None if went_out == WENT_OUT_NOBODY else int(went_out)
        handromme = bool(data.get("handromme"))
        left, entry_left = self._hands(data, winner)
        if self.errors:
            return data
        if handromme and winner is None:
            self.add_error("handromme", _("Handrommé needs the player who went out."))
            return data
        if self._audit_cards(left):
            return data
        # Every hand's problem at once, not one per save (issue 23, item 8).
        problems = penalty_errors(
            self.variant, [s.position for s in self.seats], winner, left, handromme=handromme
        )
        for problem in problems:
            self._add_score_error(problem, left)
        if problems:
            return data
        try:
            scores = penalty_deal(
                self.variant,
                [s.position for s in self.seats],
                winner,
                left,
                handromme=handromme,
                options=self.game.options,
            )
        except ScoreError as exc:
            self._add_score_error(exc, left)
            return data
        for pos, value in left.items():
            if isinstance(value, list) and str(pos) in entry_left:
                entry_left[str(pos)]["points"] = scores[pos]
        self.result = DealResult(
            status=Deal.Status.SCORED,
            went_out=winner,
            scores=scores,
            entry={"left": entry_left},
            handromme=handromme,
        )
        return data

    def _add_score_error(self, exc: ScoreError, left: dict[int, int | list]) -> None:
        """The engine's refusal under the field of the player it names."""
        field = None
        if isinstance(exc.player, int) and exc.player in self.by_pos:
            kind = "cards" if isinstance(left.get(exc.player), list) else "points"
            field = f"{kind}_{exc.player}"
        self.add_error(field, self._named_message(exc))

    def _audit_cards(self, left: dict[int, int | list]) -> bool:
        """Flag the cards entered more often than the decks of this deal hold them, all hands
        together (rules/engine/audit.py); True when something was flagged."""
        hands = {pos: value for pos, value in left.items() if isinstance(value, list)}
        number = self.deal_number or len(self.game.deals.all()) + 1
        decks, jokers = self.game.decks(number, len(self.seats))
        found = excess_cards(hands, decks, jokers)
        for excess in found:
            self.add_error(None, self._excess_message(excess))
        return bool(found)

    def _excess_message(self, excess: Excess[int]) -> str:
        names = [self.by_pos[pos].name for pos in excess.holders]
        return engine_message(
            excess.error(),
            players=get_text_list(names, str(_("and"))),
            card=local_code(excess.card, get_language()),
        )

    @staticmethod
    def _named(seat: Seat, exc: Exception) -> str:
        """An engine message about one player's entry, with the player's name before it."""
        return _("%(player)s: %(error)s") % {
            "player": seat.name,
            "error": engine_message(exc),
        }

    def _named_message(self, exc: ScoreError) -> str:
        """The engine names players by seat position; show the name instead."""
        player = exc.player
        if isinstance(player, int) and player in self.by_pos:
            return engine_message(exc, player=self.by_pos[player].name)
        return engine_message(exc)

    @classmethod
    def initial_from(cls, deal: Deal) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "went_out": WENT_OUT_NOBODY if deal.went_out is None else str(deal.went_out),
            "handromme": deal.handromme,
        }
        for pos, value in deal.entry.get("left", {}).items():
            if "cards" in value:
                initial[f"cards_{pos}"] = typed_back(value["cards"])
            else:
                initial[f"points_{pos}"] = value.get("points")
        return initial


def deal_form_class(game: Game) -> type[DealForm]:
    return ClassicDealForm if game.variant_id == CLASSIC else PenaltyDealForm
