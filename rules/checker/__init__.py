"""The hand checker page, ``/<lang>/check/``: tap or type a hand, see whether it goes out and why.

The page is a GET form: every state is a URL, so a checked hand can be shared or bookmarked
and the page works without JavaScript. htmx only makes it quicker (each tap updates the hand
and the answer in place, and the address bar follows).

Linking to the checker (e.g. "compute from the winner's hand" on a game's page)
-------------------------------------------------------------------------------
Build the link with :func:`checker_url`::

    checker_url("contract-spanish", deal=3, options=game.options, schedule=game.schedule)
    checker_url("classic", players=6, back="/en/games/<token>/")

or by hand::

    /<lang>/check/?variant=contract-spanish&deal=3&schedule=<deals>&<option>=<value>&cards=<tokens>

* ``variant`` -- ``classic`` (the default), ``contract-nordic``, ``contract-spanish``, ``romme``.
* ``deal`` -- contract games: the deal number, 1 up to the schedule's length (default 1).
* ``schedule`` -- contract games, optional: the game's own deal schedule, each deal
  ``cards.sets.runs`` (``.set_min.run_min`` added when they are not 3 and 4), deals joined by
  ``_``: ``6.2.0_7.1.1_8.0.2``. Left out when it is the variant's usual one. The JSON list
  of rows older links carry (``[{"cards": 6, "sets": 2, "runs": 0}, ...]``, what
  ``Game.schedule`` stores) is read too, and redirected to the short form.
* house rules -- one parameter per option, with the engine's names and values
  (``Variant.options``): ``twos_wild=false``, ``opening_minimum=40``,
  ``handromme_doubles=true``; or ``options=<JSON object>`` as the rules pages accept.
  Options left out take their defaults; only options of the chosen variant are read.
* ``first_turn`` -- classic only: ``drawn`` (16 cards) or ``undrawn`` (15 cards).
* ``cards`` -- the hand: canonical tokens separated by spaces (``+`` in a URL) or commas,
  ``cards=4S+5S+10H+JK``. Any order; the page keeps them sorted.
* ``players`` -- classic only: the players at the table (2 to 12), which sets the decks the
  outs are counted from; without it, the fewest decks that hold the hand and the seen cards.
* ``seen`` -- classic only: cards seen outside the hand (the discard pile, other hands),
  tokens as in ``cards``; they are taken off the copies left of each wait.
* ``to=seen`` -- classic only: the grid's keys and the typed cards go to the seen cards
  instead of the hand (the page's radio buttons "the hand" / "the seen cards").
* ``back`` -- the path of the game's page the checker was opened from
  (``/en/games/<token>/``; anything else is dropped): the page links "Back to the sheet"
  and keeps it through its form. "Link to this hand" leaves it (and ``to``) out, since the
  token is the game's key.

The page's own buttons add actions that are applied once and then dropped: ``add=<token>``
(repeatable), ``remove=<token>`` (one copy), ``unsee=<token>`` (one seen copy), ``type=<text>``
(typed cards, local rank letters of the page's language allowed), ``clear=1`` (the hand),
``clear=seen`` (the seen cards). A plain request that carries an action or a
non-canonical spelling is redirected to the canonical URL (variant, deal, schedule, options
that differ from the defaults, first_turn, players, cards, seen, to, back); an htmx request gets the updated fragments
and the canonical URL in ``HX-Replace-Url``. What cannot be read is named on the page (status
200), never a 500.

The package, one job per module: ``state`` reads the query into a :class:`CheckState` (with
its notices), ``links`` writes canonical URLs (:func:`checker_url`, :func:`query_pairs`),
``presenter`` turns a state and the engine's answer into the template's context, ``views``
serves the page and its htmx fragments. The markup is all in ``templates/rules/check.html``
and the card face partial ``templates/cards/face.html``.
"""

from .links import checker_url, query_pairs, state_pairs
from .state import CheckState, read_state
from .views import check_page

__all__ = ["CheckState", "check_page", "checker_url", "query_pairs", "read_state", "state_pairs"]
