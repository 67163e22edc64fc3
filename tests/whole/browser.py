"""A phone without JavaScript, for the whole-app tests: Django's test client, the pages it
opened, and the forms in them filled and posted as a browser posts them.

A phone keeps every page it fetched, so a test can post a form from an old page (a stale
version, a used one-time token) the way a phone left open on the table does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

from django.test import Client

Fields = list[tuple[str, str]]


@dataclass
class Control:
    name: str
    kind: str  # input type, "select", "textarea"
    value: str = ""
    checked: bool = False
    options: list[str] = field(default_factory=list)
    disabled: bool = False


@dataclass
class Button:
    name: str
    value: str
    text: str = ""


@dataclass
class Form:
    action: str
    method: str
    controls: list[Control] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    text: str = ""
    enctype: str = ""

    def defaults(self) -> Fields:
        """What a browser posts when nothing is touched (without the submit button)."""
        out: Fields = []
        for c in self.controls:
            if c.disabled or not c.name:
                continue
            if c.kind in ("checkbox", "radio"):
                if c.checked:
                    out.append((c.name, c.value or "on"))
            elif c.kind in ("submit", "button", "image", "reset", "file"):
                continue
            else:
                out.append((c.name, c.value))
        return out

    def names(self) -> set[str]:
        return {c.name for c in self.controls if c.name}

    def choices(self, name: str) -> list[str]:
        """The values a radio group or a select offers."""
        values: list[str] = []
        for c in self.controls:
            if c.name != name:
                continue
            if c.kind == "select":
                values.extend(c.options)
            elif c.kind in ("radio", "checkbox"):
                values.append(c.value)
        return values

    def button(self, *, name: str | None = None, value: str | None = None) -> Button | None:
        for b in self.buttons:
            if (name is None or b.name == name) and (value is None or b.value == value):
                return b
        return None

    def fill(self, values: dict[str, Any] | None = None, button: Button | None = None) -> Fields:
        """The defaults with ``values`` put in: a value replaces a control of that name (a
        list gives several), None takes it out (an unticked box)."""
        values = dict(values or {})
        out: Fields = []
        done: set[str] = set()
        for name, value in self.defaults():
            if name in values:
                if name not in done:
                    done.add(name)
                    out.extend(_pairs(name, values[name]))
                continue
            out.append((name, value))
        for name, value in values.items():
            if name not in done:
                out.extend(_pairs(name, value))
        if button is not None and button.name:
            out.append((button.name, button.value))
        return out


def _pairs(name: str, value: Any) -> Fields:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [(name, str(v)) for v in value]
    return [(name, str(value))]


class _FormParser(HTMLParser):
    def __init__(self, base: str):
        super().__init__(convert_charrefs=True)
        self.base = base
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: Control | None = None
        self.option_value: str | None = None
        self.option_selected = False
        self.option_text = ""
        self.textarea: Control | None = None
        self.button: Button | None = None
        self.by_id: dict[str, Form] = {}
        self.outside: list[tuple[str, Control | Button]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            action = a.get("action") or self.base
            self.form = Form(
                action=urljoin(self.base, action),
                method=(a.get("method") or "get").lower(),
                enctype=a.get("enctype", ""),
            )
            self.forms.append(self.form)
            if a.get("id"):
                self.by_id[a["id"]] = self.form
            return
        owner = a.get("form")
        if tag == "input":
            kind = a.get("type", "text").lower()
            if kind in ("submit", "image"):
                self._add_button(Button(a.get("name", ""), a.get("value", "")), owner)
                return
            self._add_control(
                Control(
                    name=a.get("name", ""),
                    kind=kind,
                    value=a.get("value", "on" if kind in ("checkbox", "radio") else ""),
                    checked="checked" in a,
                    disabled="disabled" in a,
                ),
                owner,
            )
        elif tag == "button":
            kind = a.get("type", "submit").lower()
            self.button = Button(a.get("name", ""), a.get("value", ""))
            if kind == "submit":
                self._add_button(self.button, owner)
        elif tag == "select":
            self.select = Control(name=a.get("name", ""), kind="select", disabled="disabled" in a)
            self._add_control(self.select, owner)
        elif tag == "option" and self.select is not None:
            self.option_value = a.get("value")
            self.option_selected = "selected" in a
            self.option_text = ""
        elif tag == "textarea":
            self.textarea = Control(
                name=a.get("name", ""), kind="textarea", disabled="disabled" in a
            )
            self._add_control(self.textarea, owner)

    def _add_control(self, control: Control, owner: str | None) -> None:
        if owner:
            self.outside.append((owner, control))
        elif self.form is not None:
            self.form.controls.append(control)

    def _add_button(self, button: Button, owner: str | None) -> None:
        if owner:
            self.outside.append((owner, button))
        elif self.form is not None:
            self.form.buttons.append(button)

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea.value += data
        if (self.select is not None and self.option_value is None) or self.select is not None:
            self.option_text += data
        if self.button is not None:
            self.button.text += data
        if self.form is not None:
            self.form.text += data

    def _close_option(self) -> None:
        if self.select is None or (self.option_value is None and not self.option_text):
            return
        value = self.option_value if self.option_value is not None else self.option_text.strip()
        self.select.options.append(value)
        if self.option_selected or (not self.select.value and len(self.select.options) == 1):
            self.select.value = value
        self.option_value = None
        self.option_text = ""
        self.option_selected = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "option":
            self._close_option()
        elif tag == "select":
            self._close_option()
            self.select = None
        elif tag == "textarea":
            if self.textarea is not None and self.textarea.value.startswith("\n"):
                self.textarea.value = self.textarea.value[1:]
            self.textarea = None
        elif tag == "button":
            self.button = None

    def close(self) -> None:
        super().close()
        for owner, item in self.outside:
            form = self.by_id.get(owner)
            if form is None:
                continue
            if isinstance(item, Button):
                form.buttons.append(item)
            else:
                form.controls.append(item)


def forms_of(html: str, base: str) -> list[Form]:
    parser = _FormParser(base)
    parser.feed(html)
    parser.close()
    return parser.forms


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


@dataclass
class Page:
    url: str
    status: int
    html: str

    @property
    def forms(self) -> list[Form]:
        return forms_of(self.html, self.url)

    def form(self, action_contains: str, *, has: str | None = None) -> Form | None:
        """The first form whose action holds ``action_contains`` (and a control named
        ``has``, when given)."""
        for f in self.forms:
            if action_contains in path_of(f.action) and (has is None or has in f.names()):
                return f
        return None

    def links(self, contains: str) -> list[str]:
        return [
            path_of(urljoin(self.url, href))
            for href in re.findall(r'href="([^"]+)"', self.html)
            if contains in href
        ]


class Phone:
    """One phone at the table: its own cookies (session, CSRF) and the pages it opened."""

    requests = 0  # every request any phone made, for the walk's figures

    def __init__(self, name: str):
        self.name = name
        self.client = Client(enforce_csrf_checks=True, HTTP_HOST="testserver")
        self.pages: list[Page] = []
        # Called with every page this phone is answered (the walk checks what it shows).
        self.on_page: Callable[[Page], None] | None = None

    def get(self, url: str, **headers: str) -> Page:
        Phone.requests += 1
        response = self.client.get(url, headers=headers or None)
        page = Page(url, response.status_code, _body(response))
        page.response = response  # type: ignore[attr-defined]
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            self.pages.append(page)
            del self.pages[:-30]
        if self.on_page is not None:
            self.on_page(page)
        return page

    def submit(
        self,
        form: Form,
        values: dict[str, Any] | None = None,
        *,
        button: Button | None = None,
        headers: dict[str, str] | None = None,
        follow: bool = True,
    ) -> Page:
        Phone.requests += 1
        data = form.fill(values, button)
        url = path_of(form.action)
        if form.method == "get":
            response = self.client.get(url, _as_dict(data), follow=follow, headers=headers)
        else:
            response = self.client.post(url, _as_dict(data), follow=follow, headers=headers)
        final = url
        if follow and response.redirect_chain:
            final = path_of(response.redirect_chain[-1][0])
        page = Page(final, response.status_code, _body(response))
        page.response = response  # type: ignore[attr-defined]
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            self.pages.append(page)
            del self.pages[:-30]
        if self.on_page is not None:
            self.on_page(page)
        return page


def _as_dict(pairs: Fields) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, value in pairs:
        out.setdefault(name, []).append(value)
    return out


def _body(response) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")
