"""The forms of the score pad, a module a job. A request validates into engine values (or
says, in the person's language, what is wrong), the engine computes, the view stores.

- ``messages``: our own error messages in place of Django's, listed at a form's top
  (``OwnMessages``, the base of every form here).
- ``change``: a versioned, once-only change (``VersionedChange``: the hidden ``version``
  and ``once`` of every write, "The form was incomplete"), and ``once_token``.
- ``names``: the rule of every name typed (``NameField``, ``typed_name``).
- ``data``: form data as a browser posts it (``form_data``, ``field_text``, ``as_data``)
  and ``small_int`` for a number read from a request.
- ``money``: an amount of money as people type it (``MoneyField``).
- ``storable``: text a database can store (an import's check, the backup's clean-up).
- ``seats``: the seats of a new game being set up (``SeatList``).
- ``games``: a new game, the settle-up, the import of an export file.
- ``deals``: the deal forms (``ClassicDealForm``, ``PenaltyDealForm``).
- ``players``: the Players page of a game (join, rename, leave, target).
- ``evenings``: start an evening, add a game to it.
"""
