"""The shape of the app's tokens, in one place: the URLs, the cookie of opened links, the
one-time token of a form, the backup's check of links and the masking of links in the logs
all use these. Plain Python with no Django import, so that the logging set-up
(``continental/logfilters.py``) can read it before the apps are loaded.

Every token is ``secrets.token_urlsafe`` text or made the same way: letters, digits, "-" and
"_" (``TOKEN_CHARS``), at most ``TOKEN_MAX`` characters (the columns that keep them).

- A **link** (the viewer or editor link of a game, an evening or a circle) has at least
  ``LINK_MIN`` characters (the app makes 24: ``models.TOKEN_BYTES``), long enough never to
  be a word like "new" in a URL: ``LINK_SHAPE``.
- A **one-time token** of a form (made by the server, ``forms.change.once_token``, or by a
  phone without a connection, ``static/js/table.js``) may be of any length up to
  ``TOKEN_MAX``: ``ONCE_SHAPE``.
"""

from __future__ import annotations

import re

TOKEN_CHARS = "A-Za-z0-9_-"  # inside a character class: [A-Za-z0-9_-]
TOKEN_MAX = 64
LINK_MIN = 20

LINK_SHAPE = rf"[{TOKEN_CHARS}]{{{LINK_MIN},{TOKEN_MAX}}}"
LINK = re.compile(LINK_SHAPE)  # fullmatch: a text that may be a link
ONCE_SHAPE = rf"\A[{TOKEN_CHARS}]+\Z"  # with a field's max_length of TOKEN_MAX
