"""The forms' renderer (``settings.FORM_RENDERER``): Django's, with each widget's HTML kept.

A deal form writes some thirty widgets (the players' points and cards, the radio buttons of
who went out, the first turn, the mode...), each through a template of its own and its
attributes' template: that was most of the time the form took (the sheet holds the next
deal's form at every version; a correction opens one). A widget's HTML depends on nothing
but its template and the plain values of its context, so it is kept (scorepad/kepthtml.py).
"""

from __future__ import annotations

from django.forms.renderers import DjangoTemplates

from scorepad.kepthtml import KeptHTML

# Characters of widgets' HTML kept per process (about twice that in bytes at most): a deal
# form of six players writes some forty widgets of 100-300 characters, the same at every
# version but for its values.
KEPT = 2_000_000


class KeptWidgets(DjangoTemplates):
    """Django's template renderer; a widget's HTML rendered from plain values is kept."""

    def __init__(self) -> None:
        super().__init__()
        self.kept = KeptHTML(KEPT)

    def render(self, template_name, context, request=None):
        def render() -> str:
            return super(KeptWidgets, self).render(template_name, context, request)

        if request is not None:
            return render()
        return self.kept.render(template_name, context, render)
